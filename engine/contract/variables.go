package contract

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"regexp"
	"strconv"
)

// Variables are the engine state as a flat tree: every JSON value of State
// becomes one Variable; objects and arrays list their children by id. The
// side server serves it at /variables and ui://genui/variables; the TUI
// shows the same tree.

// Variable is one node of the state tree.
type Variable struct {
	ID int `json:"id"`
	// ParentID is null for the root.
	ParentID *int `json:"parentId"`
	// Name is the key in the parent object, or "[i]" in an array ("" for the root).
	Name string `json:"name"`
	// Path addresses the node from the root: "upstream.connected",
	// "tools[0].name", `refinements["my.tool"]` ("" for the root).
	Path string `json:"path"`
	// Type is the JSON type: object, array, string, number, boolean or null.
	Type string `json:"type"`
	// Value is the scalar's value; null for objects and arrays.
	Value any `json:"value"`
	// Size is the number of children of an object or array.
	Size     int   `json:"size,omitempty"`
	ChildIDs []int `json:"childIds"`
}

// Variables is the body of GET /variables as JSON. Variables[0] is the root
// (id 0) and ids are indexes into Variables.
type Variables struct {
	Version   string     `json:"version"`
	RootID    int        `json:"rootId"`
	Variables []Variable `json:"variables"`
}

// VariablesOf turns a State into its variable tree.
func VariablesOf(st State) (Variables, error) {
	doc, err := json.Marshal(st)
	if err != nil {
		return Variables{}, fmt.Errorf("encoding state: %w", err)
	}
	vars, err := BuildVariables(doc)
	if err != nil {
		return Variables{}, err
	}
	return Variables{Version: st.Version, RootID: 0, Variables: vars}, nil
}

// BuildVariables walks any JSON document and returns its nodes in document
// order (object keys keep their order), the root first with id 0.
func BuildVariables(doc []byte) ([]Variable, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	w := &walker{dec: dec}
	if _, err := w.value(nil, "", ""); err != nil {
		return nil, fmt.Errorf("variables: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("variables: trailing data after the JSON document")
	}
	return w.vars, nil
}

type walker struct {
	dec  *json.Decoder
	vars []Variable
}

// value reads one JSON value and appends it (and its subtree) to w.vars.
func (w *walker) value(parent *int, name, path string) (int, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return 0, err
	}
	id := len(w.vars)
	w.vars = append(w.vars, Variable{ID: id, ParentID: parent, Name: name, Path: path, ChildIDs: []int{}})
	switch t := tok.(type) {
	case json.Delim:
		var children []int
		switch t {
		case '{':
			w.vars[id].Type = "object"
			for w.dec.More() {
				kt, err := w.dec.Token()
				if err != nil {
					return 0, err
				}
				key, _ := kt.(string)
				child, err := w.value(&id, key, joinKey(path, key))
				if err != nil {
					return 0, err
				}
				children = append(children, child)
			}
		case '[':
			w.vars[id].Type = "array"
			for i := 0; w.dec.More(); i++ {
				idx := "[" + strconv.Itoa(i) + "]"
				child, err := w.value(&id, idx, path+idx)
				if err != nil {
					return 0, err
				}
				children = append(children, child)
			}
		default:
			return 0, fmt.Errorf("unexpected %v", t)
		}
		if _, err := w.dec.Token(); err != nil { // closing delimiter
			return 0, err
		}
		if children != nil {
			w.vars[id].ChildIDs = children
		}
		w.vars[id].Size = len(children)
	case string:
		w.vars[id].Type, w.vars[id].Value = "string", t
	case json.Number:
		w.vars[id].Type, w.vars[id].Value = "number", t
	case bool:
		w.vars[id].Type, w.vars[id].Value = "boolean", t
	case nil:
		w.vars[id].Type = "null"
	}
	return id, nil
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// joinKey appends an object key to a path: a.b for plain keys, a["x.y"] for
// keys that are not identifiers.
func joinKey(path, key string) string {
	if !identRE.MatchString(key) {
		q, _ := json.Marshal(key)
		return path + "[" + string(q) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}
