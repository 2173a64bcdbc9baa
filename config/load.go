// Package config resolves genui's configuration: flags > GENUI_*
// environment > genui.json > defaults, every value validated against one
// embedded JSON Schema, each value's source kept for `genui config show`.
// It also sets up logging (log/slog, rotated by size) and turns the result
// into the options engine/app builds a running genui from. Every command
// (mcp, serve, preview, export, install, tui, config) goes through it.
package config

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"math"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/spf13/pflag"
)

// DefaultFile is read when --config is not given (and skipped when absent).
const DefaultFile = "genui.json"

// Layer is where a value came from.
type Layer string

// Layers, lowest precedence first.
const (
	LayerDefault Layer = "default"
	LayerFile    Layer = "file"
	LayerEnv     Layer = "env"
	LayerFlag    Layer = "flag"
)

func (l Layer) rank() int {
	switch l {
	case LayerFile:
		return 1
	case LayerEnv:
		return 2
	case LayerFlag:
		return 3
	}
	return 0
}

// Source is a value's origin: the layer and the flag, variable or file.
type Source struct {
	Layer Layer  `json:"layer"`
	Name  string `json:"name,omitempty"`
}

func (s Source) String() string {
	if s.Name == "" {
		return string(s.Layer)
	}
	return string(s.Layer) + " " + s.Name
}

// Error is one configuration problem: the path in genui.json's terms, the
// rule it breaks, and where the value came from.
type Error struct {
	Path   string `json:"path"`
	Rule   string `json:"rule"`
	Source Source `json:"source"`
}

func (e *Error) Error() string {
	switch {
	case e.Source.Layer == LayerFlag && e.Source.Name != "":
		if strings.HasPrefix(e.Rule, "must") {
			return e.Source.Name + " " + e.Rule
		}
		return e.Source.Name + ": " + e.Rule
	case e.Source.Layer == LayerEnv:
		return e.Path + ": " + e.Rule + " (from " + e.Source.Name + ")"
	case e.Path == "":
		return e.Rule
	}
	return e.Path + ": " + e.Rule
}

// Errors are every problem found, in path order.
type Errors struct {
	// File is the config file the errors are about ("" for flags and
	// the environment).
	File string
	List []*Error
}

func (e *Errors) Error() string {
	var lines []string
	for _, x := range e.List {
		lines = append(lines, x.Error())
	}
	prefix := ""
	if e.File != "" {
		prefix = e.File + ": "
	}
	if len(lines) == 1 {
		return prefix + lines[0]
	}
	return fmt.Sprintf("%s%d errors:\n  %s", prefix, len(lines), strings.Join(lines, "\n  "))
}

// Input is what Load reads besides the process environment.
type Input struct {
	// File is the config file; "" means DefaultFile when present.
	File string
	// LookupEnv reads the environment (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
	// Flags are the command's parsed flags (nil = none); only flags the
	// user set count.
	Flags *pflag.FlagSet
	// Command is the upstream command line given after "--".
	Command []string
	// FileOnly ignores GENUI_* variables (the file over the defaults, as
	// `genui config validate` checks it; ${env:VAR} still expands).
	FileOnly bool
}

// Effective is the configuration after every layer, with each value's
// source.
type Effective struct {
	Config Config
	// Sources maps each set path (map entries as path.key) to its origin.
	Sources map[string]Source
	// File is the config file read ("" when none).
	File string
	// Warnings are non-fatal remarks (an API key in the file, deprecated
	// names); the commands log them and print them to stderr.
	Warnings []string
	// secret marks paths whose value came from a secret-looking ${env:VAR}.
	secret map[string]bool
	// fromEnv records the strings that ${env:VAR} references expanded to,
	// by path, so errors show <from ${env:VAR}> instead (scrub).
	fromEnv map[string]envOrigin
	// envValues are the values of the variables ${env:VAR} referenced, by
	// name: what Secrets hides in everything genui prints.
	envValues map[string]string
	// tree is the merged document.
	tree map[string]any
}

// Load resolves the configuration. Errors are *Errors listing every
// problem of the failing layer, each naming its path and rule.
func Load(in Input) (*Effective, error) {
	if in.LookupEnv == nil {
		in.LookupEnv = os.LookupEnv
	}
	eff := &Effective{Sources: map[string]Source{}, secret: map[string]bool{}, fromEnv: map[string]envOrigin{}, envValues: map[string]string{}}
	path, explicit := in.File, true
	if path == "" {
		path, explicit = DefaultFile, false
	}
	file, err := readFile(path, explicit, in.LookupEnv, eff)
	if err != nil {
		return nil, err
	}
	if file != nil {
		eff.File = path
	}
	env, envSrc, errs := envLayer(in.LookupEnv)
	if in.FileOnly {
		env, envSrc, errs = nil, nil, nil
	}
	flags, flagSrc, ferrs := flagLayer(in.Flags, in.Command)
	if errs = append(errs, ferrs...); len(errs) > 0 {
		return nil, &Errors{List: errs}
	}
	tree := map[string]any{}
	fileSrc := Source{Layer: LayerFile, Name: path}
	for _, s := range settings {
		if s.Default != nil {
			setPath(tree, s.Path, s.Default)
			eff.Sources[s.Path] = Source{Layer: LayerDefault}
		}
		layers := []struct {
			tree map[string]any
			src  func(string) Source
		}{
			{file, func(string) Source { return fileSrc }},
			{env, func(p string) Source { return envSrc[p] }},
			{flags, func(p string) Source { return flagSrc[p] }},
		}
		for _, l := range layers {
			if l.tree == nil {
				continue
			}
			v, ok := getPath(l.tree, s.Path)
			if !ok {
				continue
			}
			if s.Kind == kMap {
				m, _ := getPath(tree, s.Path)
				merged, _ := m.(map[string]any)
				if merged == nil {
					merged = map[string]any{}
				}
				for k, kv := range v.(map[string]any) {
					merged[k] = kv
					eff.Sources[s.Path+"."+k] = l.src(s.Path)
				}
				setPath(tree, s.Path, merged)
				eff.Sources[s.Path] = l.src(s.Path)
				continue
			}
			setPath(tree, s.Path, v)
			eff.Sources[s.Path] = l.src(s.Path)
		}
	}
	if err := eff.selectUpstream(tree); err != nil {
		return nil, err
	}
	verrs, err := validateTree(tree)
	if err != nil {
		return nil, err
	}
	for _, e := range verrs {
		e.Source = eff.sourceOf(e.Path)
	}
	verrs = append(verrs, eff.check(tree)...)
	if len(verrs) > 0 {
		eff.scrub(verrs, tree)
		return nil, &Errors{List: verrs}
	}
	eff.tree = tree
	b, err := json.Marshal(tree)
	if err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &eff.Config); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	eff.Config.Secrets = eff.secrets(tree)
	return eff, nil
}

// sourceOf is the source of the value at path (or of the setting holding
// it).
func (eff *Effective) sourceOf(path string) Source {
	for p := path; p != ""; {
		if s, ok := eff.Sources[p]; ok {
			return s
		}
		i := strings.LastIndexAny(p, ".[")
		if i < 0 {
			break
		}
		p = p[:i]
	}
	return Source{}
}

// selectUpstream keeps the upstream named by the highest layer: a command
// (stdio) or a URL (http/sse), never both from one layer.
func (eff *Effective) selectUpstream(tree map[string]any) error {
	cmdSrc, hasCmd := eff.Sources["upstream.command"]
	urlSrc, hasURL := eff.Sources["upstream.url"]
	if !hasCmd || !hasURL {
		return nil
	}
	switch {
	case cmdSrc.Layer.rank() == urlSrc.Layer.rank():
		msg := "give either an upstream command or a URL, not both"
		if cmdSrc.Layer == LayerFlag {
			msg = "give either an upstream command after -- or --upstream-url, not both"
		}
		return &Errors{List: []*Error{{Path: "upstream", Rule: msg, Source: cmdSrc}}}
	case cmdSrc.Layer.rank() > urlSrc.Layer.rank():
		eff.drop(tree, cmdSrc.Layer, "upstream.url", "upstream.headers")
		if t, ok := getPath(tree, "upstream.transport"); ok && t != "stdio" {
			eff.drop(tree, cmdSrc.Layer, "upstream.transport")
		}
	default:
		eff.drop(tree, urlSrc.Layer, "upstream.command", "upstream.args", "upstream.env", "upstream.cwd")
		if t, ok := getPath(tree, "upstream.transport"); ok && t == "stdio" {
			eff.drop(tree, urlSrc.Layer, "upstream.transport")
		}
	}
	return nil
}

// drop removes paths set by layers below winner.
func (eff *Effective) drop(tree map[string]any, winner Layer, paths ...string) {
	for _, p := range paths {
		if s, ok := eff.Sources[p]; ok && s.Layer.rank() < winner.rank() {
			deletePath(tree, p)
			for k := range eff.Sources {
				if k == p || strings.HasPrefix(k, p+".") {
					delete(eff.Sources, k)
				}
			}
		}
	}
}

// check applies the rules a schema cannot say.
func (eff *Effective) check(tree map[string]any) []*Error {
	var errs []*Error
	bad := func(path, rule string) {
		errs = append(errs, &Error{Path: path, Rule: rule, Source: eff.sourceOf(path)})
	}
	str := func(p string) string { v, _ := getPath(tree, p); s, _ := v.(string); return s }
	_, hasCmd := getPath(tree, "upstream.command")
	_, hasURL := getPath(tree, "upstream.url")
	switch t := str("upstream.transport"); {
	case t == "stdio" && !hasCmd:
		bad("upstream.transport", "stdio needs upstream.command (or a command after --)")
	case (t == "http" || t == "sse") && !hasURL:
		bad("upstream.transport", t+" needs upstream.url")
	}
	if _, ok := getPath(tree, "upstream.args"); ok && !hasCmd {
		bad("upstream.args", "needs upstream.command")
	}
	dur := func(p string) (int64, bool) {
		d, err := time.ParseDuration(str(p))
		return int64(d), err == nil
	}
	for _, p := range []string{"generation.budget", "generation.waitBudget", "generation.timeout", "upstream.reconnect.min", "upstream.reconnect.max",
		"mcp.sessions.evictIdle", "mcp.listen.stallTimeout"} {
		if d, ok := dur(p); ok && d <= 0 {
			bad(p, "must be longer than 0s")
		}
	}
	if lo, ok := dur("upstream.reconnect.min"); ok {
		if hi, ok := dur("upstream.reconnect.max"); ok && lo > hi {
			bad("upstream.reconnect.min", "must not be longer than upstream.reconnect.max ("+eff.shown("upstream.reconnect.max", str("upstream.reconnect.max"))+")")
		}
	}
	num := func(p string) int64 {
		v, _ := getPath(tree, p)
		n, _ := strconv.ParseInt(fmt.Sprint(v), 10, 64)
		return n
	}
	if num("cache.maxEntryBytes") > num("cache.maxTotalBytes") {
		bad("cache.maxEntryBytes", fmt.Sprintf("must not exceed cache.maxTotalBytes (%d)", num("cache.maxTotalBytes")))
	}
	if list, ok := getPath(tree, "http.allowedOrigins"); ok {
		for i, o := range list.([]any) {
			if s, _ := o.(string); strings.EqualFold(s, "http://*") || strings.EqualFold(s, "https://*") {
				bad(fmt.Sprintf("http.allowedOrigins[%d]", i), eff.shown(fmt.Sprintf("http.allowedOrigins[%d]", i), s)+
					" would let every web site in: name http(s) origins exactly")
			}
		}
	}
	if p := num("http.uiPort"); p != 0 && p == num("http.mcpPort") {
		bad("http.mcpPort", "must differ from http.uiPort")
	}
	return errs
}

// readFile reads, expands and validates the config file; nil when the
// default file is absent.
func readFile(path string, explicit bool, lookup func(string) (string, bool), eff *Effective) (map[string]any, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		if !explicit && errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, fmt.Errorf("config: %w", err)
	}
	tree, errs := ParseFile(b, lookup, eff)
	if len(errs) > 0 {
		return nil, &Errors{File: path, List: errs}
	}
	return tree, nil
}

// ParseFile checks one genui.json: JSON syntax, ${env:VAR} references, the
// schema, and the file's own rules; it returns the normalized document (the
// canonical names: llm as an object, promptsDirectory, command + args) or
// every problem found. eff, when not nil, receives warnings and the paths
// of secret values.
func ParseFile(b []byte, lookup func(string) (string, bool), eff *Effective) (map[string]any, []*Error) {
	if eff == nil {
		eff = &Effective{}
	}
	if eff.secret == nil {
		eff.secret = map[string]bool{}
	}
	if eff.fromEnv == nil {
		eff.fromEnv = map[string]envOrigin{}
	}
	if eff.envValues == nil {
		eff.envValues = map[string]string{}
	}
	src := Source{Layer: LayerFile}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var doc any
	if err := dec.Decode(&doc); err != nil {
		return nil, []*Error{{Rule: syntaxError(b, err), Source: src}}
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, []*Error{{Rule: fmt.Sprintf("%s: more than one JSON value", position(b, dec.InputOffset())), Source: src}}
	}
	tree, ok := doc.(map[string]any)
	if !ok {
		return nil, []*Error{{Rule: "the file must hold a JSON object, not " + display(doc), Source: src}}
	}
	var errs []*Error
	expandTree(tree, "", lookup, eff, &errs)
	verrs, err := validateTree(tree)
	if err != nil {
		return nil, []*Error{{Rule: err.Error()}}
	}
	errs = append(errs, verrs...)
	errs = append(errs, normalize(tree, eff)...)
	for _, e := range errs {
		e.Source = src
	}
	eff.scrub(errs, tree)
	sort.SliceStable(errs, func(i, j int) bool { return errs[i].Path < errs[j].Path })
	if len(errs) > 0 {
		return nil, errs
	}
	return tree, nil
}

// normalize rewrites legacy forms to the canonical names.
func normalize(tree map[string]any, eff *Effective) []*Error {
	var errs []*Error
	delete(tree, "$schema")
	if p, ok := tree["llm"].(string); ok {
		tree["llm"] = map[string]any{"provider": p}
	}
	if m, ok := tree["model"]; ok {
		delete(tree, "model")
		if _, set := getPath(tree, "llm.model"); set {
			eff.Warnings = append(eff.Warnings, "model: ignored, llm.model is set (model is the old name of llm.model)")
		} else {
			setPath(tree, "llm.model", m)
			eff.Warnings = append(eff.Warnings, "model: deprecated, write llm.model")
		}
	}
	if p, ok := getPath(tree, "generation.promptsDir"); ok {
		deletePath(tree, "generation.promptsDir")
		if _, set := getPath(tree, "generation.promptsDirectory"); set {
			errs = append(errs, &Error{Path: "generation.promptsDir", Rule: "give promptsDirectory or its old name promptsDir, not both"})
		} else {
			setPath(tree, "generation.promptsDirectory", p)
		}
	}
	if arr, ok := getPath(tree, "upstream.command"); ok {
		if list, ok := arr.([]any); ok {
			if _, set := getPath(tree, "upstream.args"); set {
				errs = append(errs, &Error{Path: "upstream.args", Rule: "not allowed when upstream.command is an array (put the arguments in the array or make command a string)"})
			} else {
				setPath(tree, "upstream.command", list[0])
				if len(list) > 1 {
					setPath(tree, "upstream.args", list[1:])
				}
			}
		}
	}
	_, hasCmd := getPath(tree, "upstream.command")
	_, hasURL := getPath(tree, "upstream.url")
	if hasCmd && hasURL {
		errs = append(errs, &Error{Path: "upstream", Rule: "give either command (stdio) or url (http/sse), not both"})
	}
	if _, ok := getPath(tree, "llm.apiKey"); ok && !eff.secret["llm.apiKey"] {
		eff.Warnings = append(eff.Warnings, "llm.apiKey: an API key written in genui.json ends up wherever the file goes; "+
			"prefer the provider's variable (ANTHROPIC_API_KEY, ...) or \"${env:VAR}\"")
	}
	return errs
}

var reEnvRef = regexp.MustCompile(`\$\$\{env:|\$\{env:([^}]*)\}|\$\{env:`)

var reEnvName = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]*$`)

// expandTree replaces ${env:VAR} in every string (object keys excepted).
func expandTree(v any, path string, lookup func(string) (string, bool), eff *Effective, errs *[]*Error) any {
	switch x := v.(type) {
	case map[string]any:
		for _, k := range slices.Sorted(maps.Keys(x)) {
			p := k
			if path != "" {
				p = path + "." + k
			}
			x[k] = expandTree(x[k], p, lookup, eff, errs)
		}
	case []any:
		for i := range x {
			x[i] = expandTree(x[i], fmt.Sprintf("%s[%d]", path, i), lookup, eff, errs)
		}
	case string:
		out, names, secret, err := expand(x, lookup)
		if err != nil {
			*errs = append(*errs, &Error{Path: path, Rule: err.Error()})
			return x
		}
		if secret {
			eff.secret[path] = true
		}
		if len(names) > 0 {
			eff.fromEnv[path] = envOrigin{value: out, names: names}
			for _, n := range names {
				if v, ok := lookup(n); ok {
					eff.envValues[n] = v
				}
			}
		}
		return out
	}
	return v
}

// expand replaces each ${env:VAR} in s with VAR's value ($${env: is a
// literal ${env:; an unset VAR is an error), reports whether a referenced
// variable's name looks like it holds a secret, and the names of the variables s
// referenced (nil when it referenced none).
func expand(s string, lookup func(string) (string, bool)) (out string, names []string, secret bool, err error) {
	if !strings.Contains(s, "${env:") {
		return s, nil, false, nil
	}
	var errs []string
	out = reEnvRef.ReplaceAllStringFunc(s, func(m string) string {
		if m == "$${env:" {
			return "${env:"
		}
		if !strings.HasSuffix(m, "}") {
			errs = append(errs, "unterminated ${env:")
			return m
		}
		name := m[len("${env:") : len(m)-1]
		if !reEnvName.MatchString(name) {
			errs = append(errs, fmt.Sprintf("%s: %q is not an environment variable name", m, name))
			return m
		}
		v, ok := lookup(name)
		if !ok {
			errs = append(errs, fmt.Sprintf("%s: %s is not set", m, name))
			return m
		}
		if secretName(name) {
			secret = true
		}
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
		return v
	})
	if len(errs) > 0 {
		return s, nil, false, errors.New(strings.Join(errs, "; "))
	}
	return out, names, secret, nil
}

var reSecretName = regexp.MustCompile(`(?i)(key|token|secret|passw|auth|cookie|credential|session)`)

func secretName(name string) bool { return reSecretName.MatchString(name) }

func syntaxError(b []byte, err error) string {
	var se *json.SyntaxError
	if errors.As(err, &se) {
		return position(b, max(se.Offset-1, 0)) + ": " + se.Error()
	}
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) {
		return position(b, int64(len(b))) + ": the JSON ends too early"
	}
	return err.Error()
}

// position is "line L, column C" of byte offset off.
func position(b []byte, off int64) string {
	off = min(off, int64(len(b)))
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	col := off - int64(bytes.LastIndexByte(b[:off], '\n'))
	return fmt.Sprintf("line %d, column %d", line, col)
}

// envLayer reads the GENUI_* variables.
func envLayer(lookup func(string) (string, bool)) (map[string]any, map[string]Source, []*Error) {
	tree, src := map[string]any{}, map[string]Source{}
	var errs []*Error
	for _, s := range settings {
		for _, name := range s.envNames() {
			raw, ok := lookup(name)
			if !ok || raw == "" {
				continue
			}
			source := Source{Layer: LayerEnv, Name: name}
			v, err := parseValue(s, raw)
			if err != nil {
				errs = append(errs, &Error{Path: s.Path, Rule: err.Error(), Source: source})
				break
			}
			setPath(tree, s.Path, v)
			src[s.Path] = source
			break
		}
	}
	return tree, src, errs
}

// flagLayer reads the flags the user set, and the command after "--".
func flagLayer(fs *pflag.FlagSet, command []string) (map[string]any, map[string]Source, []*Error) {
	tree, src := map[string]any{}, map[string]Source{}
	var errs []*Error
	if fs != nil {
		for _, s := range settings {
			if s.Flag == "" {
				continue
			}
			fl := fs.Lookup(s.Flag)
			if fl == nil || !fl.Changed {
				continue
			}
			source := Source{Layer: LayerFlag, Name: "--" + s.Flag}
			var v any
			var err error
			switch {
			case s.Kind == kMap:
				vals, _ := fs.GetStringArray(s.Flag)
				v, err = parseHeaders(vals)
			case s.Kind == kList && fl.Value.Type() == "stringArray":
				// Repeated flags, each one value (a glob may hold commas).
				vals, _ := fs.GetStringArray(s.Flag)
				list := []any{}
				for _, x := range vals {
					if x = strings.TrimSpace(x); x != "" {
						list = append(list, x)
					}
				}
				v = list
			case s.Kind == kList:
				vals, _ := fs.GetStringSlice(s.Flag)
				list := []any{}
				for _, x := range vals {
					list = append(list, x)
				}
				v = list
			default:
				v, err = parseValue(s, fl.Value.String())
			}
			if err != nil {
				errs = append(errs, &Error{Path: s.Path, Rule: err.Error(), Source: source})
				continue
			}
			setPath(tree, s.Path, v)
			src[s.Path] = source
		}
	}
	if len(command) > 0 {
		source := Source{Layer: LayerFlag, Name: "-- " + command[0]}
		setPath(tree, "upstream.command", command[0])
		src["upstream.command"] = source
		args := []any{}
		for _, a := range command[1:] {
			args = append(args, a)
		}
		setPath(tree, "upstream.args", args)
		src["upstream.args"] = source
	}
	if len(tree) == 0 {
		return nil, src, errs
	}
	return tree, src, errs
}

// parseHeaders turns repeated "K: V" flags into a map.
func parseHeaders(vals []string) (map[string]any, error) {
	m := map[string]any{}
	for _, h := range vals {
		k, v, ok := strings.Cut(h, ":")
		if !ok || strings.TrimSpace(k) == "" {
			return nil, fmt.Errorf("%q: want 'Key: Value'", h)
		}
		m[strings.TrimSpace(k)] = strings.TrimSpace(v)
	}
	return m, nil
}

// parseValue reads a flag or environment string as s's kind; the schema
// checks ranges and enums afterwards.
func parseValue(s setting, raw string) (any, error) {
	raw = strings.TrimSpace(raw)
	switch s.Kind {
	case kInt:
		n, err := strconv.ParseInt(raw, 10, 64)
		if err != nil {
			return nil, fmt.Errorf("must be an integer, not %q", raw)
		}
		return json.Number(strconv.FormatInt(n, 10)), nil
	case kNumber:
		f, err := strconv.ParseFloat(raw, 64)
		if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
			return nil, fmt.Errorf("must be a number, not %q", raw)
		}
		return json.Number(strconv.FormatFloat(f, 'g', -1, 64)), nil
	case kBool:
		b, err := strconv.ParseBool(raw)
		if err != nil {
			return nil, fmt.Errorf("must be true or false, not %q", raw)
		}
		return b, nil
	case kList:
		out := []any{}
		for _, p := range splitList(raw) {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
		return out, nil
	case kMap:
		return nil, fmt.Errorf("cannot be set from a single value")
	}
	return raw, nil
}

// splitList splits a comma-separated list, leaving commas inside braces
// alone (a glob such as src/**/*.{ts,js} is one entry).
func splitList(raw string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range raw {
		switch c {
		case '{':
			depth++
		case '}':
			if depth > 0 {
				depth--
			}
		case ',':
			if depth == 0 {
				out = append(out, raw[start:i])
				start = i + 1
			}
		}
	}
	return append(out, raw[start:])
}
