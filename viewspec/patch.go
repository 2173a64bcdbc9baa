package viewspec

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// Apply edits base with patch, a JSON Merge Patch (RFC 7396): the keys of
// an object patch replace base's, a null value removes the key, nested
// objects merge, anything else (arrays included) replaces. The result must
// be a valid spec: Apply returns it, or base and the problems (as Validate).
// A patch that sets "version" to another value is an error.
func Apply(base Spec, patch []byte) (Spec, []error) {
	if len(patch) > MaxSize {
		return base, []error{&Error{Rule: fmt.Sprintf("patch is %d bytes, more than %d", len(patch), MaxSize)}}
	}
	var p any
	dec := json.NewDecoder(bytes.NewReader(patch))
	dec.UseNumber()
	if err := dec.Decode(&p); err != nil {
		return base, []error{&Error{Rule: "patch is not JSON: " + err.Error()}}
	}
	if _, ok := p.(map[string]any); !ok {
		return base, []error{&Error{Rule: "patch must be a JSON object (a merge patch of the spec)"}}
	}
	var doc any
	dec = json.NewDecoder(bytes.NewReader(base.JSON()))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return base, []error{err}
	}
	merged, err := json.Marshal(MergePatch(doc, p))
	if err != nil {
		return base, []error{err}
	}
	s, errs := Validate(merged)
	if len(errs) > 0 {
		return base, errs
	}
	return s, nil
}

// MergePatch applies patch to target as RFC 7396 section 2 says, on values
// decoded from JSON (maps, slices, strings, numbers, bools, nil). target is
// not modified.
func MergePatch(target, patch any) any {
	pm, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	tm, ok := target.(map[string]any)
	out := map[string]any{}
	if ok {
		for k, v := range tm {
			out[k] = v
		}
	}
	for k, v := range pm {
		if v == nil {
			delete(out, k)
			continue
		}
		out[k] = MergePatch(out[k], v)
	}
	return out
}
