package config

import (
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"sort"
	"strings"
	"text/tabwriter"
)

// Entry is one value of the effective configuration as `genui config show`
// prints it: secrets already redacted.
type Entry struct {
	Path   string `json:"path"`
	Value  any    `json:"value"`
	Source Source `json:"source"`
}

// Entries lists every set value in schema order, each with its source;
// API keys, credential-like headers and environment entries, values read
// from secret-looking ${env:VAR}s, URL credentials and anything shaped like
// a provider key are redacted, and any other ${env:VAR} value shows as
// <from ${env:VAR}> (Secrets.Redact).
func (eff *Effective) Entries() []Entry {
	var out []Entry
	for _, s := range settings {
		v, ok := getPath(eff.tree, s.Path)
		if !ok {
			continue
		}
		if m, isMap := v.(map[string]any); isMap && s.Kind == kMap {
			for _, k := range sortedKeys(m) {
				p := s.Path + "." + k
				out = append(out, Entry{Path: p, Value: eff.redact(p, k, m[k]), Source: eff.sourceOf(p)})
			}
			continue
		}
		src := eff.sourceOf(s.Path)
		if src.Layer == "" {
			src.Layer = LayerDefault
		}
		out = append(out, Entry{Path: s.Path, Value: eff.redact(s.Path, "", v), Source: src})
	}
	return out
}

// redact hides v when it is, or may hold, a secret. name is the map key
// for entries of upstream.env and upstream.headers.
func (eff *Effective) redact(path, name string, v any) any {
	switch {
	case path == "llm.apiKey", eff.secret[path], name != "" && (secretName(name) || strings.EqualFold(name, "authorization")):
		return Redacted
	}
	switch x := v.(type) {
	case string:
		return redactURL(RedactString(eff.Config.Secrets.Redact(x)))
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			if eff.secret[fmt.Sprintf("%s[%d]", path, i)] {
				out[i] = Redacted
				continue
			}
			out[i] = eff.redact(fmt.Sprintf("%s[%d]", path, i), "", e)
		}
		return out
	}
	return v
}

// redactURL hides the password of a URL with credentials.
func redactURL(s string) string {
	u, err := url.Parse(s)
	if err != nil || u.User == nil || u.Host == "" {
		return s
	}
	if _, has := u.User.Password(); has {
		u.User = url.UserPassword(u.User.Username(), "REDACTED")
	} else {
		u.User = url.User("REDACTED")
	}
	return u.String()
}

// Show writes the effective configuration: a table of path, value (JSON)
// and source, or with asJSON one document {file, values, warnings}.
func (eff *Effective) Show(w io.Writer, asJSON bool) error {
	entries := eff.Entries()
	if asJSON {
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		warnings := eff.Warnings
		if warnings == nil {
			warnings = []string{}
		}
		return enc.Encode(map[string]any{"file": eff.File, "values": entries, "warnings": warnings})
	}
	file := eff.File
	if file == "" {
		file = "none"
	}
	fmt.Fprintf(w, "# genui's effective configuration (config file: %s; precedence: flags > GENUI_* environment > file > defaults)\n", file)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, e := range entries {
		var b strings.Builder // <from ${env:VAR}> as it is, not \u003c...
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(e.Value)
		fmt.Fprintf(tw, "%s\t%s\t%s\n", e.Path, strings.TrimSuffix(b.String(), "\n"), e.Source)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, wn := range eff.Warnings {
		fmt.Fprintln(w, "# warning:", wn)
	}
	return nil
}

// ValidateFile checks one config file on its own (over the defaults; no
// GENUI_* variables or flags): syntax, ${env:VAR} references, the schema
// and the rules between values. The error is an *Errors listing every
// problem; warnings are returned either way.
func ValidateFile(path string, lookup func(string) (string, bool)) (warnings []string, err error) {
	eff, err := Load(Input{File: path, LookupEnv: lookup, FileOnly: true})
	if err != nil {
		var errs *Errors
		if ok := asErrors(err, &errs); ok && errs.File == "" {
			errs.File = path
		}
		return nil, err
	}
	return eff.Warnings, nil
}

func asErrors(err error, target **Errors) bool {
	e, ok := err.(*Errors)
	if ok {
		*target = e
	}
	return ok
}

// ValidateCommand is `genui config validate FILE`: "FILE: valid" (and any
// warnings) on w, or an error listing every problem.
func ValidateCommand(path string, w io.Writer) error {
	warnings, err := ValidateFile(path, nil)
	if err != nil {
		return err
	}
	fmt.Fprintf(w, "%s: valid\n", path)
	for _, wn := range warnings {
		fmt.Fprintln(w, "warning:", wn)
	}
	return nil
}

// sortedKeys is the keys of m in order.
func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
