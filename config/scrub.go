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
	if path == "llm.apiKey" || path == "upstream.oauth.clientSecret" || eff.secret[path] {
		return true
	}
	for _, m := range []string{"upstream.headers.", "upstream.env."} {
		if name, ok := strings.CutPrefix(path, m); ok {
			return secretName(name) || strings.EqualFold(name, "authorization")
		}
	}
	return false
}

// minHidden is the shortest value Secrets hides in free text: a shorter
// one (a port, a flag's "1") cannot be told from the text around it, and
// hiding it would garble every line that happens to contain it.
const minHidden = 4

// Secrets are the values genui must never print: the value of every
// ${env:VAR} the configuration read (shown as <from ${env:VAR}>) and the
// values of keys that hold secrets (llm.apiKey, the upstream's
// secret-looking headers and environment entries; shown as <secret>).
// Redact is the one function that hides them: errors about the
// configuration, `genui config show`, the upstream's command line and URL
// wherever they are shown (serve's banner, /state, /variables, the TUI's
// header, genui check's errors, events), and every log line go through
// it. A nil *Secrets hides nothing.
type Secrets struct {
	hide []hidden // longest value first
}

type hidden struct{ value, with string }

// secrets collects what tree's values must not show.
func (eff *Effective) secrets(tree map[string]any) *Secrets {
	s := &Secrets{}
	seen := map[string]bool{}
	add := func(value, with string) {
		if len(value) >= minHidden && !seen[value] {
			seen[value] = true
			s.hide = append(s.hide, hidden{value, with})
		}
	}
	for name, v := range eff.envValues {
		add(v, "<from ${env:"+name+"}>")
	}
	secretAt := func(path string, v any) {
		if str, ok := v.(string); ok && eff.secretPath(path) {
			add(str, secretPlaceholder)
		}
	}
	for _, p := range []string{"llm.apiKey", "upstream.oauth.clientSecret"} {
		if v, ok := getPath(tree, p); ok {
			secretAt(p, v)
		}
	}
	for _, m := range []string{"upstream.headers", "upstream.env"} {
		if v, ok := getPath(tree, m); ok {
			if entries, ok := v.(map[string]any); ok {
				for k, x := range entries {
					secretAt(m+"."+k, x)
				}
			}
		}
	}
	// Longest first, so a value that contains another is replaced whole;
	// then by value, so the order does not depend on the map's.
	sort.Slice(s.hide, func(i, j int) bool {
		if len(s.hide[i].value) != len(s.hide[j].value) {
			return len(s.hide[i].value) > len(s.hide[j].value)
		}
		return s.hide[i].value < s.hide[j].value
	})
	return s
}

// Redact replaces each secret value in text with its placeholder.
func (s *Secrets) Redact(text string) string {
	if s == nil {
		return text
	}
	for _, h := range s.hide {
		if strings.Contains(text, h.value) {
			text = strings.ReplaceAll(text, h.value, h.with)
		}
	}
	return text
}

// Empty reports whether there is nothing to hide.
func (s *Secrets) Empty() bool { return s == nil || len(s.hide) == 0 }

// scrub replaces, in every error's rule, each value that came from
// ${env:...} with <from ${env:VAR}> and each secret value in tree with
// <secret>: a whole value first (quoted, as rules print it: "ftp://<the
// value>/v1" is shown as <from ${env:X}>), then Secrets.Redact.
func (eff *Effective) scrub(errs []*Error, tree map[string]any) {
	var whole []hidden
	for _, o := range eff.fromEnv {
		if o.value != "" {
			whole = append(whole, hidden{o.value, o.placeholder()})
		}
	}
	sort.Slice(whole, func(i, j int) bool { return len(whole[i].value) > len(whole[j].value) })
	sec := eff.secrets(tree)
	for _, e := range errs {
		for _, h := range whole {
			e.Rule = strings.ReplaceAll(e.Rule, strconv.Quote(h.value), h.with)
		}
		for _, h := range sec.hide {
			e.Rule = strings.ReplaceAll(e.Rule, strconv.Quote(h.value), h.with)
		}
		for _, h := range whole {
			if len(h.value) >= 6 {
				e.Rule = strings.ReplaceAll(e.Rule, h.value, h.with)
			}
		}
		e.Rule = sec.Redact(e.Rule)
	}
}
