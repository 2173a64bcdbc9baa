package gen

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"
	"strings"
	"unicode"

	"github.com/genui-dev/genui/viewspec"
)

// A shape is what the offline generator knows of a tool's result before
// drawing it: every field path seen in one real result (all its data
// parts: structuredContent and the JSON its text blocks hold) or declared
// by the outputSchema, and where its records are. Refinements resolve field
// names against it at any depth; the proposed spec comes from it.

// shapeWildcard stands for "every element" of an array in a shape path.
const shapeWildcard = "*"

// Bounds of the walk: depth, array elements sampled, paths kept.
const (
	shapeMaxDepth  = 8
	shapeMaxSample = 50
	shapeMaxPaths  = 2000
)

type shape struct {
	// fromExample: the paths come from a real result (else from the
	// outputSchema, or nothing is known).
	fromExample bool
	// paths are the field paths, arrays as shapeWildcard, sorted shortest first.
	paths [][]string
	// recordArrays are the paths (no trailing wildcard) of arrays of objects.
	recordArrays [][]string
	// rootRecords: the data itself is an array of objects.
	rootRecords bool
	// text: the result is text that holds no JSON data.
	text bool
	// schemaRecords is the outputSchema's own primary array: the one array
	// of objects its properties hold outside other arrays (nil when it
	// declares none or several).
	schemaRecords []string
}

// known reports whether anything is known of the result's fields.
func (s *shape) known() bool { return s != nil && (len(s.paths) > 0 || s.text) }

// newShape reads example (a CallToolResult) or, without one, outputSchema.
func newShape(outputSchema, example json.RawMessage) *shape {
	s := &shape{}
	seen := map[string]bool{}
	add := func(p []string) {
		k := strings.Join(p, "\x00")
		if len(s.paths) < shapeMaxPaths && !seen[k] {
			seen[k] = true
			s.paths = append(s.paths, slices.Clone(p))
		}
	}
	addArray := func(p []string) {
		for _, q := range s.recordArrays {
			if slices.Equal(q, p) {
				return
			}
		}
		s.recordArrays = append(s.recordArrays, slices.Clone(p))
	}
	if datas, text := exampleData(example); len(datas) > 0 || text {
		s.fromExample = true
		s.text = len(datas) == 0
		for _, d := range datas {
			if recs, ok := d.([]any); ok && recordArray(recs) {
				s.rootRecords = true
			}
			walkValue(d, nil, 0, add, addArray)
		}
	} else if len(outputSchema) > 0 {
		var sch map[string]any
		if json.Unmarshal(outputSchema, &sch) == nil {
			if isSchemaArrayOfObjects(sch) {
				s.rootRecords = true
			}
			walkSchema(sch, nil, 0, add, addArray)
		}
	}
	if len(outputSchema) > 0 {
		var sch map[string]any
		if json.Unmarshal(outputSchema, &sch) == nil {
			s.schemaRecords = schemaPrimaryArray(sch)
		}
	}
	sort.Slice(s.paths, func(i, j int) bool {
		if len(s.paths[i]) != len(s.paths[j]) {
			return len(s.paths[i]) < len(s.paths[j])
		}
		return strings.Join(s.paths[i], "\x00") < strings.Join(s.paths[j], "\x00")
	})
	sort.Slice(s.recordArrays, func(i, j int) bool {
		return strings.Join(s.recordArrays[i], "\x00") < strings.Join(s.recordArrays[j], "\x00")
	})
	return s
}

// exampleData returns the data parts of a CallToolResult: its
// structuredContent and every text block that is JSON (strings holding
// JSON parsed too); text is true when it has text but no data.
func exampleData(raw json.RawMessage) (datas []any, text bool) {
	if len(raw) == 0 {
		return nil, false
	}
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
	}
	if json.Unmarshal(raw, &r) != nil || r.IsError {
		return nil, false
	}
	if sc := bytes.TrimSpace(r.StructuredContent); len(sc) > 0 && !bytes.Equal(sc, []byte("null")) {
		var v any
		if json.Unmarshal(sc, &v) == nil {
			datas = append(datas, deepJSON(v, 0))
		}
	}
	for _, c := range r.Content {
		if c.Type != "text" {
			continue
		}
		t := strings.TrimSpace(c.Text)
		var v any
		if (strings.HasPrefix(t, "{") || strings.HasPrefix(t, "[")) && json.Unmarshal([]byte(t), &v) == nil {
			datas = append(datas, deepJSON(v, 0))
		} else if t != "" {
			text = true
		}
	}
	return datas, text && len(datas) == 0
}

// deepJSON parses strings that hold a JSON object or array, as rich.js does.
func deepJSON(v any, depth int) any {
	if depth > shapeMaxDepth {
		return v
	}
	switch x := v.(type) {
	case string:
		t := strings.TrimSpace(x)
		if len(t) > 1 && (t[0] == '{' || t[0] == '[') {
			var y any
			if json.Unmarshal([]byte(t), &y) == nil {
				return deepJSON(y, depth+1)
			}
		}
	case map[string]any:
		for k, e := range x {
			x[k] = deepJSON(e, depth+1)
		}
	case []any:
		for i, e := range x {
			x[i] = deepJSON(e, depth+1)
		}
	}
	return v
}

func recordArray(a []any) bool {
	if len(a) == 0 {
		return false
	}
	for _, e := range a[:min(len(a), shapeMaxSample)] {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

func walkValue(v any, path []string, depth int, add func([]string), addArray func([]string)) {
	if depth > shapeMaxDepth {
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			p := append(slices.Clone(path), k)
			add(p)
			walkValue(e, p, depth+1, add, addArray)
		}
	case []any:
		if recordArray(x) && len(path) > 0 {
			addArray(path)
		}
		p := append(slices.Clone(path), shapeWildcard)
		for _, e := range x[:min(len(x), shapeMaxSample)] {
			walkValue(e, p, depth+1, add, addArray)
		}
	}
}

func isSchemaArrayOfObjects(s map[string]any) bool {
	if t, _ := s["type"].(string); t != "array" {
		return false
	}
	it, _ := s["items"].(map[string]any)
	if it == nil {
		return false
	}
	t, _ := it["type"].(string)
	_, props := it["properties"].(map[string]any)
	return t == "object" || props
}

func walkSchema(s map[string]any, path []string, depth int, add func([]string), addArray func([]string)) {
	if depth > shapeMaxDepth {
		return
	}
	if props, ok := s["properties"].(map[string]any); ok {
		for k, e := range props {
			p := append(slices.Clone(path), k)
			add(p)
			if es, ok := e.(map[string]any); ok {
				walkSchema(es, p, depth+1, add, addArray)
			}
		}
	}
	if it, ok := s["items"].(map[string]any); ok {
		if isSchemaArrayOfObjects(s) && len(path) > 0 {
			addArray(path)
		}
		walkSchema(it, append(slices.Clone(path), shapeWildcard), depth+1, add, addArray)
	}
}

// schemaPrimaryArray is the path of the one array of objects an output
// schema declares outside other arrays, through its properties and the
// branches of oneOf, anyOf and allOf (a success branch beside an error
// one); nil when it declares none or more than one.
func schemaPrimaryArray(sch map[string]any) []string {
	var found [][]string
	var walk func(s map[string]any, path []string, depth int)
	walk = func(s map[string]any, path []string, depth int) {
		if depth > shapeMaxDepth || len(found) > 1 {
			return
		}
		if isSchemaArrayOfObjects(s) && len(path) > 0 {
			if !slices.ContainsFunc(found, func(p []string) bool { return slices.Equal(p, path) }) {
				found = append(found, slices.Clone(path))
			}
			return
		}
		if props, ok := s["properties"].(map[string]any); ok {
			for k, e := range props {
				if es, ok := e.(map[string]any); ok {
					walk(es, append(slices.Clone(path), k), depth+1)
				}
			}
		}
		for _, key := range []string{"oneOf", "anyOf", "allOf"} {
			branches, _ := s[key].([]any)
			for _, b := range branches {
				if bs, ok := b.(map[string]any); ok {
					walk(bs, path, depth+1)
				}
			}
		}
	}
	walk(sch, nil, 0)
	if len(found) != 1 {
		return nil
	}
	return found[0]
}

// normName is a field name as matched: lower case letters and digits only.
func normName(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// sameName matches a token against a name, allowing a plural.
func sameName(token, name string) bool {
	t, n := normName(token), normName(name)
	if t == "" || n == "" {
		return false
	}
	return t == n || t == n+"s" || t+"s" == n || t == n+"es" || t+"es" == n
}

// resolve finds the field a user named: a key as the data spells it at any
// depth, or two words ("note content": content inside note, or a key
// noteContent/note_content). It returns the shallowest path, or nil.
func (s *shape) resolve(name string) []string {
	if s == nil {
		return nil
	}
	if strings.HasPrefix(name, "/") { // a JSON Pointer: checked as given
		want := viewspec.PointerTokens(name)
		for _, p := range s.paths {
			if slices.Equal(dropWildcards(p), want) {
				return p
			}
		}
		return nil
	}
	words := strings.Fields(strings.ReplaceAll(name, ".", " "))
	last := func(p []string) string {
		for i := len(p) - 1; i >= 0; i-- {
			if p[i] != shapeWildcard {
				return p[i]
			}
		}
		return ""
	}
	// The whole name first (a key with spaces, or one spelled joined).
	for _, p := range s.paths {
		if normName(last(p)) == normName(name) {
			return p
		}
	}
	for _, p := range s.paths {
		if sameName(last(p), name) {
			return p
		}
	}
	if len(words) < 2 {
		return nil
	}
	// "note content": the last word is the field, the words before name
	// the fields it sits in, in order.
	for _, p := range s.paths {
		if !sameName(last(p), words[len(words)-1]) {
			continue
		}
		i := 0
		for _, tok := range p[:len(p)-1] {
			if i < len(words)-1 && sameName(tok, words[i]) {
				i++
			}
		}
		if i == len(words)-1 {
			return p
		}
	}
	return nil
}

func dropWildcards(p []string) []string {
	return slices.DeleteFunc(slices.Clone(p), func(t string) bool { return t == shapeWildcard })
}

// principalRecords is the path of the result's records, and whether there
// is one: the array of objects the outputSchema names as its own (when the
// result seen holds it, whatever other arrays are larger), else the one array of
// objects not inside another array.
func (s *shape) principalRecords() ([]string, bool) {
	if s == nil {
		return nil, false
	}
	if s.schemaRecords != nil && (!s.fromExample || slices.ContainsFunc(s.recordArrays, func(p []string) bool { return slices.Equal(p, s.schemaRecords) })) {
		return s.schemaRecords, true
	}
	if s.rootRecords {
		return nil, true
	}
	var top [][]string
	for _, p := range s.recordArrays {
		if !slices.Contains(p, shapeWildcard) {
			top = append(top, p)
		}
	}
	if len(top) == 1 {
		return top[0], true
	}
	return nil, false
}

// fieldNames lists some field names (for "its fields are ..." reasons).
func (s *shape) fieldNames(max int) []string {
	var out []string
	for _, p := range s.paths {
		n := p[len(p)-1]
		if n == shapeWildcard || slices.Contains(out, n) {
			continue
		}
		out = append(out, n)
		if len(out) == max {
			break
		}
	}
	return out
}

// resolveExact reports whether some field's name is name, letters and
// digits compared (commitHash for "commithash").
func (s *shape) resolveExact(name string) bool {
	n := normName(name)
	for _, p := range s.paths {
		if t := p[len(p)-1]; t != shapeWildcard && normName(t) == n {
			return true
		}
	}
	return false
}
