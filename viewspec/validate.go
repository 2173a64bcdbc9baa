package viewspec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// MaxSize bounds a spec or patch document (bytes).
const MaxSize = 64 << 10

// Error is one problem of a spec document: the JSON Pointer of the value
// ("" for the document) and the rule it breaks.
type Error struct {
	Path string
	Rule string
}

func (e *Error) Error() string {
	p := e.Path
	if p == "" {
		p = "(document)"
	}
	return p + ": " + e.Rule
}

const schemaURL = "https://github.com/genui-dev/genui/viewspec/schema.json"

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		return nil, fmt.Errorf("viewspec: embedded schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("viewspec: embedded schema: %w", err)
	}
	return c.Compile(schemaURL)
})

// Validate parses raw as a spec and checks it against the schema. It
// returns the spec and nil, or the zero Spec and one *Error per problem
// (path and rule), sorted by path. A spec of another version is an error.
func Validate(raw []byte) (Spec, []error) {
	if len(raw) > MaxSize {
		return Spec{}, []error{&Error{Rule: fmt.Sprintf("document is %d bytes, more than %d", len(raw), MaxSize)}}
	}
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return Spec{}, []error{&Error{Rule: "not JSON: " + err.Error()}}
	}
	if errs := check(doc); len(errs) > 0 {
		return Spec{}, errs
	}
	var s Spec
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&s); err != nil { // the schema said yes: a bug
		return Spec{}, []error{&Error{Rule: err.Error()}}
	}
	return s, nil
}

// Check reports the problems of s as Validate would (nil when none).
func (s Spec) Check() []error {
	_, errs := Validate(s.JSON())
	return errs
}

func check(doc any) []error {
	sch, err := compiled()
	if err != nil {
		return []error{err}
	}
	verr := sch.Validate(doc)
	if verr == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return []error{verr}
	}
	var out []*Error
	collect(ve, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	seen := map[string]bool{}
	var errs []error
	for _, e := range out {
		if k := e.Path + "\x00" + e.Rule; !seen[k] {
			seen[k] = true
			errs = append(errs, e)
		}
	}
	return errs
}

var printer = message.NewPrinter(language.English)

// collect turns a validation error tree into its leaves: path and rule.
func collect(ve *jsonschema.ValidationError, out *[]*Error) {
	switch k := ve.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			*out = append(*out, &Error{Path: Pointer(append(slicesClone(ve.InstanceLocation), p)...), Rule: "unknown key (not in the schema)"})
		}
		return
	}
	if len(ve.Causes) > 0 {
		for _, c := range ve.Causes {
			collect(c, out)
		}
		return
	}
	kw := strings.Join(ve.ErrorKind.KeywordPath(), "/")
	rule := ve.ErrorKind.LocalizedString(printer)
	if kw != "" && !strings.HasPrefix(rule, kw) {
		rule = kw + ": " + rule
	}
	*out = append(*out, &Error{Path: Pointer(ve.InstanceLocation...), Rule: rule})
}

func slicesClone(s []string) []string { return append([]string(nil), s...) }
