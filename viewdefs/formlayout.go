package viewdefs

import (
	"bytes"
	"encoding/json"
	"slices"

	"github.com/genui-dev/genui/viewspec"
)

// formLayout applies a view spec's form layout to an input schema (compact
// JSON, as the page carries it): the arguments named in f.Order first, in
// that order, then the rest as the schema lists them; optional arguments
// in f.Hidden left out of the form (a required one stays); f.Labels as the
// arguments' titles, which the form shows as their labels. A schema it
// cannot read is returned as it is.
func formLayout(schema json.RawMessage, f *viewspec.Form) json.RawMessage {
	if f == nil || (len(f.Order) == 0 && len(f.Hidden) == 0 && len(f.Labels) == 0) {
		return schema
	}
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) != nil || len(top["properties"]) == 0 {
		return schema
	}
	keys, props, ok := orderedObject(top["properties"])
	if !ok {
		return schema
	}
	var required []string
	_ = json.Unmarshal(top["required"], &required)
	var order []string
	for _, k := range f.Order {
		if _, has := props[k]; has && !slices.Contains(order, k) {
			order = append(order, k)
		}
	}
	for _, k := range keys {
		if !slices.Contains(order, k) {
			order = append(order, k)
		}
	}
	var b bytes.Buffer
	b.WriteByte('{')
	n := 0
	for _, k := range order {
		if slices.Contains(f.Hidden, k) && !slices.Contains(required, k) {
			continue
		}
		p := props[k]
		if label, has := f.Labels[k]; has {
			var ps map[string]json.RawMessage
			if json.Unmarshal(p, &ps) == nil {
				ps["title"], _ = json.Marshal(label)
				p, _ = json.Marshal(ps)
			}
		}
		if n > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		b.Write(p)
		n++
	}
	b.WriteByte('}')
	top["properties"] = b.Bytes()
	out, err := json.Marshal(top)
	if err != nil {
		return schema
	}
	return out
}

// orderedObject reads a JSON object's keys in order and its values.
func orderedObject(raw json.RawMessage) ([]string, map[string]json.RawMessage, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, false
	}
	var keys []string
	vals := map[string]json.RawMessage{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, nil, false
		}
		k, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, nil, false
		}
		if _, dup := vals[k]; !dup {
			keys = append(keys, k)
		}
		vals[k] = v
	}
	return keys, vals, true
}
