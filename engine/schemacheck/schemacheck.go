// Package schemacheck compiles the JSON Schemas MCP servers send (a tool's
// inputSchema and outputSchema, an elicitation's requestedSchema) and checks
// values against them, with santhosh-tekuri/jsonschema/v6: the schema is
// checked against its metaschema (draft 2020-12 unless it names another,
// as MCP specifies), nothing is fetched ($ref to another document fails),
// and each problem comes back as a JSON Pointer and a sentence.
package schemacheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// Schema is a compiled schema.
type Schema struct{ s *jsonschema.Schema }

// Options configure Compile.
type Options struct {
	// AssertFormat makes "format" a check (email, uri, date, date-time, ...)
	// instead of the annotation 2020-12 makes it by default.
	AssertFormat bool
}

// Problem is one reason a value does not fit a schema.
type Problem struct {
	// Path is the value's JSON Pointer ("" for the whole value).
	Path    string `json:"path"`
	Message string `json:"message"`
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// location is the made-up URL the schema is compiled under.
const location = "urn:genui:schema"

// refuseLoader fetches nothing: a schema from a server may not make genui
// read files or the network.
type refuseLoader struct{}

func (refuseLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("genui does not fetch %s (only a schema's own definitions are used)", url)
}

// Compile compiles raw. Its error says why raw is not a valid JSON Schema.
func Compile(raw json.RawMessage, o Options) (*Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("not JSON: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.UseLoader(refuseLoader{})
	if o.AssertFormat {
		c.AssertFormat()
	}
	if err := c.AddResource(location, doc); err != nil {
		return nil, err
	}
	s, err := c.Compile(location)
	if err != nil {
		return nil, errors.New(tidy(err.Error()))
	}
	return &Schema{s}, nil
}

// Check returns the problems of value (JSON) against s, ordered by path;
// none when it fits.
func (s *Schema) Check(value json.RawMessage) []Problem {
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(value))
	if err != nil {
		return []Problem{{Message: "not JSON: " + err.Error()}}
	}
	return s.CheckValue(inst)
}

// CheckValue is Check of a decoded value (as encoding/json decodes with
// UseNumber, or as jsonschema.UnmarshalJSON does).
func (s *Schema) CheckValue(inst any) []Problem {
	err := s.s.Validate(inst)
	if err == nil {
		return nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Problem{{Message: err.Error()}}
	}
	var out []Problem
	seen := map[Problem]bool{}
	for _, u := range ve.BasicOutput().Errors {
		if u.Error == nil {
			continue
		}
		msg := u.Error.String()
		// The groups ("validation failed", "allOf failed") only say that
		// a cause follows.
		if strings.HasPrefix(msg, "validation failed") || u.KeywordLocation == "" {
			continue
		}
		p := Problem{Path: u.InstanceLocation, Message: msg}
		if !seen[p] {
			seen[p] = true
			out = append(out, p)
		}
	}
	if len(out) == 0 {
		out = []Problem{{Message: tidy(ve.Error())}}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// tidy takes the made-up location out of the library's messages.
func tidy(s string) string {
	s = strings.ReplaceAll(s, `"`+location+`"`, "the schema")
	s = strings.ReplaceAll(s, location+"#", "#")
	return strings.ReplaceAll(s, location, "the schema")
}
