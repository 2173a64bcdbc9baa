package config

import (
	"sort"
	"strconv"
	"strings"
)

// Configuration errors name the path and the rule and often the offending
// value ("not \"xml\""), which helps find a typo. A value that came from
// ${env:VAR} is never shown (the variable may hold a key the user never
// meant to print: an error message ends up in terminals, CI logs and bug
// reports), nor is the value of a key that holds a secret (llm.apiKey, the
// upstream's secret-looking headers and environment entries): errors show
// <from ${env:VAR}> or <secret> in their place.

// envOrigin is what a string read from ${env:...} references expanded to.
type envOrigin struct {
	value string
	names []string // the variables referenced, in order
}

// placeholder is what errors show instead of the value.
func (o envOrigin) placeholder() string {
	refs := make([]string, len(o.names))
	for i, n := range o.names {
		refs[i] = "${env:" + n + "}"
	}
	return "<from " + strings.Join(refs, ", ") + ">"
}

// secretPlaceholder replaces the value of a key that holds a secret.
const secretPlaceholder = "<secret>"

// shown is how an error may print the string value at path: as it is, or
// its placeholder when it came from ${env:...} or holds a secret.
func (eff *Effective) shown(path, value string) string {
	if o, ok := eff.fromEnv[path]; ok {
		return o.placeholder()
	}
	if eff.secretPath(path) {
		return secretPlaceholder
	}
	return value
}

// secretPath reports whether the value at path is, or may hold, a secret.
func (eff *Effective) secretPath(path string) bool {
	if path == "llm.apiKey" || eff.secret[path] {
		return true
	}
	for _, m := range []string{"upstream.headers.", "upstream.env."} {
		if name, ok := strings.CutPrefix(path, m); ok {
			return secretName(name) || strings.EqualFold(name, "authorization")
		}
	}
	return false
}

// scrub replaces, in every error's rule, each value that came from
// ${env:...} with <from ${env:VAR}> and each secret value in tree with
// <secret>. Values are matched in the forms rules print them (quoted, and
// bare when long enough not to be mistaken for other text).
func (eff *Effective) scrub(errs []*Error, tree map[string]any) {
	type hidden struct{ value, with string }
	var hide []hidden
	for _, o := range eff.fromEnv {
		if o.value != "" {
			hide = append(hide, hidden{o.value, o.placeholder()})
		}
	}
	add := func(path string, v any) {
		if s, ok := v.(string); ok && s != "" && eff.secretPath(path) {
			hide = append(hide, hidden{s, secretPlaceholder})
		}
	}
	if v, ok := getPath(tree, "llm.apiKey"); ok {
		add("llm.apiKey", v)
	}
	for _, m := range []string{"upstream.headers", "upstream.env"} {
		if v, ok := getPath(tree, m); ok {
			if entries, ok := v.(map[string]any); ok {
				for k, x := range entries {
					add(m+"."+k, x)
				}
			}
		}
	}
	// Longest first, so a value that contains another is replaced whole.
	sort.Slice(hide, func(i, j int) bool { return len(hide[i].value) > len(hide[j].value) })
	for _, e := range errs {
		for _, h := range hide {
			e.Rule = strings.ReplaceAll(e.Rule, strconv.Quote(h.value), h.with)
			if len(h.value) >= 6 {
				e.Rule = strings.ReplaceAll(e.Rule, h.value, h.with)
			}
		}
	}
}
