package config

import (
	"bytes"
	_ "embed"
	"errors"
	"fmt"
	"math/big"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/agnivade/levenshtein"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// Schema is genui.json's JSON Schema (draft 2020-12), as `genui config
// schema` prints it. Editors validate a genui.json that names it in
// "$schema".
//
//go:embed schema.json
var Schema []byte

const schemaURL = "https://github.com/genui-dev/genui/config/schema.json"

// durationPattern is the schema's duration pattern (errors about it say
// "a duration").
const durationPattern = `^(0|([0-9]+(\.[0-9]+)?(ns|us|µs|ms|s|m|h))+)$`

// originPattern is the schema's pattern for http.allowedOrigins entries.
const originPattern = `^(null|[A-Za-z][A-Za-z0-9+.-]*://(\*|[^/?#*@\s]+))$`

var compiled = sync.OnceValues(func() (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(Schema))
	if err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("embedded schema: %w", err)
	}
	return c.Compile(schemaURL)
})

// validateTree checks a config document against the schema and returns
// one Error per problem, each naming the path and the rule.
func validateTree(tree map[string]any) ([]*Error, error) {
	sch, err := compiled()
	if err != nil {
		return nil, err
	}
	verr := sch.Validate(any(tree))
	if verr == nil {
		return nil, nil
	}
	var ve *jsonschema.ValidationError
	if !errors.As(verr, &ve) {
		return nil, verr
	}
	var out []*Error
	collect(ve, tree, &out)
	sort.SliceStable(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return dedupe(out), nil
}

func dedupe(errs []*Error) []*Error {
	var out []*Error
	seen := map[string]bool{}
	for _, e := range errs {
		k := e.Path + "\x00" + e.Rule
		if !seen[k] {
			seen[k] = true
			out = append(out, e)
		}
	}
	return out
}

// collect turns a validation error tree into path + rule errors.
func collect(ve *jsonschema.ValidationError, tree map[string]any, out *[]*Error) {
	loc := ve.InstanceLocation
	switch k := ve.ErrorKind.(type) {
	case *kind.Group, *kind.Schema, *kind.Reference, *kind.AllOf:
		for _, c := range ve.Causes {
			collect(c, tree, out)
		}
	case *kind.OneOf, *kind.AnyOf:
		if o, ok := k.(*kind.OneOf); ok && len(o.Subschemas) > 1 {
			*out = append(*out, &Error{Path: pathString(loc, tree), Rule: "matches more than one form"})
			return
		}
		// Report the alternative whose type fits; if none fits, what
		// types would.
		var fit []*jsonschema.ValidationError
		for _, c := range ve.Causes {
			if !typeMismatchAt(c, loc) {
				fit = append(fit, c)
			}
		}
		if len(fit) == 1 {
			collect(fit[0], tree, out)
			return
		}
		var wants []string
		for _, c := range ve.Causes {
			wants = append(wants, alternatives(c)...)
		}
		*out = append(*out, &Error{Path: pathString(loc, tree), Rule: "must be " + orList(uniq(wants)) + gotSuffix(valueAt(tree, loc))})
	case *kind.AdditionalProperties:
		parent := pathString(loc, tree)
		for _, p := range k.Properties {
			path := p
			if parent != "" {
				path = parent + "." + p
			}
			rule := "unknown key"
			if known := knownKeys(logicalPath(loc)); len(known) > 0 {
				if s := suggest(p, known); s != "" {
					rule += fmt.Sprintf(" (did you mean %q?)", s)
				} else {
					rule += " (known: " + strings.Join(known, ", ") + ")"
				}
			}
			*out = append(*out, &Error{Path: path, Rule: rule})
		}
	default:
		if len(ve.Causes) > 0 {
			for _, c := range ve.Causes {
				collect(c, tree, out)
			}
			return
		}
		*out = append(*out, &Error{Path: pathString(loc, tree), Rule: rule(ve.ErrorKind, loc)})
	}
}

// typeMismatchAt reports whether c fails because the value at loc has the
// wrong type (or is not in an enum, for a string alternative).
func typeMismatchAt(c *jsonschema.ValidationError, loc []string) bool {
	if !slices.Equal(c.InstanceLocation, loc) {
		return false
	}
	switch c.ErrorKind.(type) {
	case *kind.Type:
		return true
	case *kind.Group, *kind.Schema, *kind.Reference:
		for _, cc := range c.Causes {
			if typeMismatchAt(cc, loc) {
				return true
			}
		}
	}
	return false
}

// alternatives describes what one oneOf branch accepts.
func alternatives(c *jsonschema.ValidationError) []string {
	switch k := c.ErrorKind.(type) {
	case *kind.Type:
		var out []string
		for _, w := range k.Want {
			out = append(out, article(w))
		}
		return out
	case *kind.Enum:
		return []string{"one of " + enumList(k.Want)}
	}
	var out []string
	for _, cc := range c.Causes {
		out = append(out, alternatives(cc)...)
	}
	return out
}

// rule is the human text of one failed keyword.
func rule(k jsonschema.ErrorKind, loc []string) string {
	switch k := k.(type) {
	case *kind.Type:
		var wants []string
		for _, w := range k.Want {
			wants = append(wants, article(w))
		}
		return "must be " + orList(wants) + ", not " + article(k.Got)
	case *kind.Enum:
		path := logicalPath(loc)
		if path == "llm" { // the string form of llm is its provider
			path = "llm.provider"
		}
		s, _ := lookupSetting(path)
		if s.Noun != "" {
			return fmt.Sprintf("unknown %s %s (want %s)", s.Noun, display(k.Got), enumList(k.Want))
		}
		return "must be " + enumList(k.Want) + gotSuffix(k.Got)
	case *kind.Const:
		return "must be " + display(k.Want) + gotSuffix(k.Got)
	case *kind.Minimum:
		return "must be >= " + ratString(k.Want)
	case *kind.Maximum:
		return "must be <= " + ratString(k.Want)
	case *kind.ExclusiveMinimum:
		return "must be > " + ratString(k.Want)
	case *kind.ExclusiveMaximum:
		return "must be < " + ratString(k.Want)
	case *kind.Pattern:
		switch k.Want {
		case durationPattern:
			return fmt.Sprintf("must be a duration such as 90s, 1m30s or 500ms, not %q", k.Got)
		case "^https?://", "^(https?://.*)?$":
			return fmt.Sprintf("must be an http:// or https:// URL, not %q", k.Got)
		case originPattern:
			return fmt.Sprintf("must be an origin such as vscode-webview://abc, app://* or http://devbox.lan:3000 (scheme://host[:port], scheme://* or null), not %q", k.Got)
		}
		return fmt.Sprintf("must match %s, not %q", k.Want, k.Got)
	case *kind.MinLength:
		if k.Want == 1 {
			return "must not be empty"
		}
		return fmt.Sprintf("must be at least %d characters", k.Want)
	case *kind.MinItems:
		return fmt.Sprintf("needs at least %d item(s)", k.Want)
	case *kind.UniqueItems:
		return fmt.Sprintf("items %d and %d are the same", k.Duplicates[0], k.Duplicates[1])
	}
	return k.LocalizedString(message.NewPrinter(language.English))
}

func ratString(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

func article(t string) string {
	switch t {
	case "integer":
		return "an integer"
	case "object":
		return "an object"
	case "array":
		return "an array"
	case "boolean":
		return "true or false"
	case "null":
		return "null"
	case "string", "number":
		return "a " + t
	}
	return t
}

func enumList(want []any) string {
	var s []string
	for _, w := range want {
		if str, ok := w.(string); ok {
			s = append(s, str)
		} else {
			s = append(s, display(w))
		}
	}
	return orList(s)
}

func orList(s []string) string {
	switch len(s) {
	case 0:
		return "valid"
	case 1:
		return s[0]
	}
	return strings.Join(s[:len(s)-1], ", ") + " or " + s[len(s)-1]
}

func uniq(s []string) []string {
	var out []string
	for _, v := range s {
		if !slices.Contains(out, v) {
			out = append(out, v)
		}
	}
	return out
}

func gotSuffix(v any) string {
	if v == nil {
		return ""
	}
	return ", not " + display(v)
}

func display(v any) string {
	switch v := v.(type) {
	case string:
		return strconv.Quote(v)
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprint(v)
}

// valueAt is the instance value at a schema location.
func valueAt(tree map[string]any, loc []string) any {
	var cur any = tree
	for _, p := range loc {
		switch c := cur.(type) {
		case map[string]any:
			cur = c[p]
		case []any:
			i, err := strconv.Atoi(p)
			if err != nil || i < 0 || i >= len(c) {
				return nil
			}
			cur = c[i]
		default:
			return nil
		}
	}
	return cur
}

// pathString formats a location as genui.json paths read: llm.temperature,
// upstream.args[1].
func pathString(loc []string, tree map[string]any) string {
	var b strings.Builder
	var cur any = tree
	for _, p := range loc {
		if arr, ok := cur.([]any); ok {
			b.WriteString("[" + p + "]")
			if i, err := strconv.Atoi(p); err == nil && i >= 0 && i < len(arr) {
				cur = arr[i]
			} else {
				cur = nil
			}
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
		if m, ok := cur.(map[string]any); ok {
			cur = m[p]
		} else {
			cur = nil
		}
	}
	return b.String()
}

// logicalPath is the settings path of a location (array indices and map
// keys below a setting dropped).
func logicalPath(loc []string) string {
	path := strings.Join(loc, ".")
	for {
		if _, ok := lookupSetting(path); ok || path == "" {
			return path
		}
		i := strings.LastIndexByte(path, '.')
		if i < 0 {
			// an object path such as "llm" or "upstream.reconnect"
			return strings.Join(loc, ".")
		}
		if len(knownKeys(path)) > 0 {
			return path
		}
		path = path[:i]
	}
}

// suggest returns the known key closest to k (edit distance <= 2 or a
// case-insensitive match), or "".
func suggest(k string, known []string) string {
	best, bestD := "", 3
	for _, c := range known {
		if strings.EqualFold(c, k) {
			return c
		}
		if d := levenshtein.ComputeDistance(strings.ToLower(k), strings.ToLower(c)); d < bestD {
			best, bestD = c, d
		}
	}
	return best
}
