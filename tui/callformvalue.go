package tui

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The Call form's values: the arguments built and checked field by
// field, the draft for the raw JSON and $EDITOR, and filling the fields
// from an arguments object.

// arguments builds the arguments object, or says which fields are wrong
// (each field shows its own error). In raw mode it is the JSON object as
// typed, checked.
func (f *callForm) arguments() (json.RawMessage, error) {
	if f.raw {
		b, err := checkArgsObject(f.rawArg.Value())
		if err != nil {
			f.rawErr = err.Error()
			return nil, err
		}
		return b, nil
	}
	if f.problem != "" && len(f.fields) == 0 {
		return json.RawMessage("{}"), nil
	}
	args := map[string]json.RawMessage{}
	var bad []string
	for _, fd := range f.fields {
		fd.err = ""
		v, ok, err := fd.value()
		if err != nil {
			fd.err = err.Error()
			bad = append(bad, fd.name)
			continue
		}
		if !ok {
			if fd.required {
				fd.err = "required"
				bad = append(bad, fd.name)
			}
			continue
		}
		args[fd.name] = v
	}
	if len(bad) > 0 {
		return nil, fmt.Errorf("fix %s before calling", strings.Join(bad, ", "))
	}
	b, err := json.Marshal(args)
	return b, err
}

// checkArgsObject checks raw arguments: one JSON object.
func checkArgsObject(s string) (json.RawMessage, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return json.RawMessage("{}"), nil
	}
	var obj map[string]json.RawMessage
	if err := json.Unmarshal([]byte(s), &obj); err != nil {
		return nil, fmt.Errorf("the arguments are not a JSON object: %v", err)
	}
	if obj == nil {
		return nil, errors.New("the arguments must be a JSON object, not null")
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, []byte(s))
	return buf.Bytes(), nil
}

// draft is the arguments as far as they can be read, for the raw JSON and
// $EDITOR: a field whose text is not valid for its type goes in as the
// string typed, so nothing is lost.
func (f *callForm) draft() string {
	obj := orderedObject{}
	for _, fd := range f.fields {
		v, ok, err := fd.value()
		switch {
		case err != nil:
			obj = append(obj, kv{fd.name, fd.text()})
		case ok:
			obj = append(obj, kv{fd.name, json.RawMessage(v)})
		}
	}
	b, err := json.MarshalIndent(obj, "", "  ")
	if err != nil {
		return "{}"
	}
	return string(b)
}

// fill puts an arguments object into the fields; it fails (changing
// nothing) when the object has a key the form has no field for, or a value
// a field cannot show (a boolean field given a string).
func (f *callForm) fill(raw json.RawMessage) error {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil || obj == nil {
		return errors.New("the arguments are not a JSON object")
	}
	byName := map[string]*formField{}
	for _, fd := range f.fields {
		byName[fd.name] = fd
	}
	var unknown []string
	for k := range obj {
		if byName[k] == nil {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("the form has no field for %s", strings.Join(unknown, ", "))
	}
	type set struct {
		fd   *formField
		v    json.RawMessage
		text string
	}
	var sets []set
	for _, fd := range f.fields {
		v, ok := obj[fd.name]
		if !ok {
			sets = append(sets, set{fd: fd})
			continue
		}
		switch fd.kind {
		case fieldBool:
			var b bool
			if json.Unmarshal(v, &b) != nil {
				return fmt.Errorf("%s must be true or false", fd.name)
			}
		case fieldEnum:
			found := false
			for _, e := range fd.enum {
				if bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(v)) {
					found = true
				}
			}
			if !found {
				return fmt.Errorf("%s must be one of its choices", fd.name)
			}
		case fieldMulti:
			var vs []json.RawMessage
			if json.Unmarshal(v, &vs) != nil {
				return fmt.Errorf("%s must be a list of its choices", fd.name)
			}
			for _, x := range vs {
				if !slices.ContainsFunc(fd.enum, func(e json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(x)) }) {
					return fmt.Errorf("%s must be a list of its choices", fd.name)
				}
			}
		case fieldString:
			var s string
			if json.Unmarshal(v, &s) != nil {
				return fmt.Errorf("%s must be a string", fd.name)
			}
			sets = append(sets, set{fd: fd, v: v, text: s})
			continue
		case fieldList:
			var items []string
			if json.Unmarshal(v, &items) != nil {
				return fmt.Errorf("%s must be a list of strings", fd.name)
			}
			for _, it := range items {
				if strings.Contains(it, "\n") {
					return fmt.Errorf("an item of %s has several lines: the form keeps one item a line", fd.name)
				}
			}
			sets = append(sets, set{fd: fd, v: v, text: strings.Join(items, "\n")})
			continue
		case fieldJSON:
			if fd.multi {
				var buf bytes.Buffer
				if json.Indent(&buf, v, "", "  ") == nil {
					sets = append(sets, set{fd: fd, v: v, text: buf.String()})
					continue
				}
			}
		}
		sets = append(sets, set{fd: fd, v: v, text: string(bytes.TrimSpace(v))})
	}
	for _, s := range sets {
		fd := s.fd
		switch fd.kind {
		case fieldBool:
			fd.set = s.v != nil
			if fd.set {
				_ = json.Unmarshal(s.v, &fd.on)
			}
		case fieldEnum:
			fd.pick = -1
			for i, e := range fd.enum {
				if s.v != nil && bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(s.v)) {
					fd.pick = i
				}
			}
		case fieldMulti:
			var vs []json.RawMessage
			_ = json.Unmarshal(s.v, &vs)
			for i, e := range fd.enum {
				fd.picks[i] = slices.ContainsFunc(vs, func(x json.RawMessage) bool { return bytes.Equal(bytes.TrimSpace(e), bytes.TrimSpace(x)) })
			}
		default:
			f.setText(fd, s.text)
		}
		fd.err = ""
	}
	return nil
}

// value is the field's JSON value; ok is false when it is left empty.
func (fd *formField) value() (json.RawMessage, bool, error) {
	switch fd.kind {
	case fieldBool:
		if !fd.set {
			return nil, false, nil
		}
		return json.RawMessage(strconv.FormatBool(fd.on)), true, nil
	case fieldEnum:
		if fd.pick < 0 {
			return nil, false, nil
		}
		return fd.enum[fd.pick], true, nil
	case fieldMulti:
		var vs []json.RawMessage
		for i, on := range fd.picks {
			if on {
				vs = append(vs, fd.enum[i])
			}
		}
		if len(vs) == 0 {
			return nil, false, nil
		}
		b, err := json.Marshal(vs)
		return b, true, err
	}
	text := fd.text()
	s := strings.TrimSpace(text)
	if fd.kind == fieldList {
		// Each line is an item; trailing empty lines are not.
		lines := strings.Split(strings.TrimRight(text, "\n"), "\n")
		if s == "" {
			return nil, false, nil
		}
		b, err := json.Marshal(lines)
		return b, true, err
	}
	if fd.kind == fieldString {
		if text == "" {
			return nil, false, nil
		}
		b, _ := json.Marshal(text) // exactly as typed: newlines, spaces
		return b, true, nil
	}
	if s == "" {
		return nil, false, nil
	}
	switch fd.kind {
	case fieldNumber:
		if _, err := strconv.ParseFloat(s, 64); err != nil {
			return nil, false, errors.New("not a number")
		}
		return json.RawMessage(s), true, nil
	case fieldInteger:
		if _, err := strconv.ParseInt(s, 10, 64); err != nil {
			return nil, false, errors.New("not an integer")
		}
		return json.RawMessage(s), true, nil
	}
	if !json.Valid([]byte(s)) {
		return nil, false, errors.New("not valid JSON")
	}
	switch fd.jsonType {
	case "object":
		if !strings.HasPrefix(s, "{") {
			return nil, false, errors.New("must be a JSON object { … }")
		}
	case "array":
		if !strings.HasPrefix(s, "[") {
			return nil, false, errors.New("must be a JSON array [ … ]")
		}
	}
	var buf bytes.Buffer
	_ = json.Compact(&buf, []byte(s))
	return buf.Bytes(), true, nil
}
