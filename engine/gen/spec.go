package gen

import (
	"encoding/json"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strings"

	"github.com/genui-dev/genui/viewdefs"
	"github.com/genui-dev/genui/viewspec"
)

// SpecFor returns the view specification of a tool's offline page: the
// proposal (ProposeSpec) edited by each refinement in order, and what
// became of each refinement (applied, partly applied, not applied, with
// the changes and the reason). Field names are resolved at any depth
// against example (one real CallToolResult) or, without one, the tool's
// outputSchema; with neither, names are taken as given and the page says
// which the result lacks. warnings are ParseIntents' (values adjusted,
// words not understood).
func SpecFor(t Tool, example json.RawMessage, refinements []string) (viewspec.Spec, []viewspec.Outcome, []string) {
	sh := newShape(t.OutputSchema, example)
	base := proposeFrom(sh)
	st := &intentState{shape: sh}
	outcomes := make([]viewspec.Outcome, 0, len(refinements))
	for _, r := range refinements {
		before := specOf(base, st)
		prevCfg, prevWarn := st.cfg, len(st.warnings)
		st.reasons, st.note = nil, ""
		parseRefinement(r, st)
		st.checkNames(prevCfg)
		after := specOf(base, st)
		o := viewspec.Outcome{Refinement: r, Changes: specChanges(before, after)}
		var notUnderstood []string
		for _, w := range st.warnings[prevWarn:] {
			if q, ok := strings.CutPrefix(w, "not understood offline: "); ok {
				notUnderstood = append(notUnderstood, q)
			} else {
				st.reasons = append(st.reasons, w)
			}
		}
		if len(notUnderstood) > 0 {
			st.reasons = append(st.reasons, "not understood offline: "+strings.Join(notUnderstood, ", "))
		}
		o.Reason = strings.Join(st.reasons, "; ")
		switch {
		case len(o.Changes) == 0 && o.Reason == "":
			// Understood, and the page already was so.
			o.Status, o.Reason = viewspec.Applied, "the page already shows it so"
			if st.note != "" {
				o.Reason = "the page already shows it so: " + st.note
			}
		case len(o.Changes) == 0:
			o.Status = viewspec.NotApplied
		case o.Reason != "":
			o.Status = viewspec.PartlyApplied
		default:
			o.Status = viewspec.Applied
			if !sh.known() && namesField(after, before) {
				o.Reason = "no result seen yet to check the field names against; the page says which it lacks"
			}
		}
		outcomes = append(outcomes, o)
	}
	return specOf(base, st), outcomes, st.warnings
}

// namesField reports whether after names fields that before did not.
func namesField(after, before viewspec.Spec) bool {
	return !slices.Equal(after.Hidden, before.Hidden) || !slices.Equal(after.Shown, before.Shown) ||
		!slices.Equal(after.View.ColumnFields(), before.View.ColumnFields())
}

func proposeFrom(sh *shape) viewspec.Spec {
	s := viewspec.New()
	if sh == nil || sh.text {
		return s // text: the renderer reads it (markdown, logs, diffs, tables in text)
	}
	if p, ok := sh.principalRecords(); ok {
		// The records' view stays auto: a table, with a chart above it
		// when they are a series.
		if len(p) > 0 {
			s.Principal = viewspec.Pointer(p...)
		}
		return s
	}
	if !sh.known() {
		return s
	}
	if len(sh.recordArrays) == 0 && len(sh.paths) > 0 {
		flat := true
		for _, p := range sh.paths {
			if len(p) > 1 {
				flat = false
				break
			}
		}
		if flat {
			s.ViewOf().Kind = viewspec.KindCard
		}
	}
	return s
}

// specOf is base with the refinements' settings (st) over it.
func specOf(base viewspec.Spec, st *intentState) viewspec.Spec {
	s := base
	if base.View != nil {
		v := *base.View
		s.View = &v
	}
	c := st.cfg
	if c.Title != "" {
		s.Title = c.Title
	}
	if st.principal != "" {
		s.Principal = st.principal
	}
	if c.View != "" {
		s.ViewOf().Kind = c.View
	}
	if len(c.Columns) > 0 {
		v := s.ViewOf()
		v.Columns = nil
		for _, f := range c.Columns {
			v.Columns = append(v.Columns, viewspec.Column{Field: f})
		}
	}
	if c.Sort != "" {
		i := strings.LastIndexByte(c.Sort, ' ')
		s.ViewOf().Sort = &viewspec.Sort{Field: c.Sort[:i], Dir: c.Sort[i+1:]}
	}
	if c.PageSize > 0 {
		s.ViewOf().PageSize = c.PageSize
	}
	if c.Chart != "" || c.ChartX != "" || len(c.ChartY) > 0 {
		s.ViewOf().Chart = &viewspec.Chart{Kind: c.Chart, X: c.ChartX, Y: slices.Clone(c.ChartY)}
	}
	s.Hidden = slices.Clone(c.Hide)
	s.Shown = slices.Clone(c.Show)
	switch c.Form {
	case "hidden":
		s.Form = &viewspec.Form{Mode: "folded"}
	case "shown":
		s.Form = &viewspec.Form{Mode: "shown"}
	}
	if c.Theme != "" || c.FontSize != 0 || c.Mono {
		s.Theme = &viewspec.Theme{Scheme: c.Theme, FontSize: c.FontSize, Mono: c.Mono}
	}
	if s.View != nil && reflect.DeepEqual(*s.View, viewspec.View{}) {
		s.View = nil
	}
	return s
}

// specChanges says what differs between two specs, one entry per changed
// setting ("view.kind: table", "hidden: message", "title removed").
func specChanges(a, b viewspec.Spec) []string {
	fa, fb := flatSpec(a), flatSpec(b)
	var keys []string
	for k := range fa {
		keys = append(keys, k)
	}
	for k := range fb {
		if _, ok := fa[k]; !ok {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	var out []string
	for _, k := range keys {
		va, oka := fa[k]
		vb, okb := fb[k]
		switch {
		case !okb:
			out = append(out, k+" removed")
		case !oka || va != vb:
			out = append(out, k+": "+vb)
		}
	}
	return out
}

// flatSpec maps each setting of s (a dotted name) to its value as text;
// lists are one setting.
func flatSpec(s viewspec.Spec) map[string]string {
	var m map[string]any
	_ = json.Unmarshal(s.JSON(), &m)
	out := map[string]string{}
	var walk func(prefix string, v any)
	walk = func(prefix string, v any) {
		switch x := v.(type) {
		case map[string]any:
			for k, e := range x {
				p := k
				if prefix != "" {
					p = prefix + "." + k
				}
				walk(p, e)
			}
		case []any:
			var parts []string
			for _, e := range x {
				if o, ok := e.(map[string]any); ok && len(o) == 1 && o["field"] != nil {
					parts = append(parts, fmt.Sprint(o["field"])) // a column that is only its field
					continue
				}
				b, _ := json.Marshal(e)
				parts = append(parts, strings.Trim(string(b), `"`))
			}
			out[prefix] = strings.Join(parts, ", ")
		default:
			b, _ := json.Marshal(x)
			out[prefix] = strings.Trim(string(b), `"`)
		}
	}
	walk("", m)
	delete(out, "version")
	return out
}

// principalOf makes the part the user named the principal data.
func (st *intentState) principalOf(name, why string) {
	p := st.shape.resolve(name)
	switch {
	case !st.shape.known():
		st.reasons = append(st.reasons, fmt.Sprintf("no result seen yet to find %q in; run the tool once and ask again", name))
	case p == nil:
		st.reasons = append(st.reasons, st.missing(name))
	case slices.Contains(p, shapeWildcard):
		st.reasons = append(st.reasons, fmt.Sprintf("%q is a field of each row, not a part of the result that can be %s", name, why))
	default:
		st.principal = viewspec.Pointer(p...)
		st.note = st.principal + " is the principal data, " + why
	}
}

// only shows only the named fields: columns of the records, or, for a
// part of the result outside them, that part as the principal data.
func (st *intentState) only(names []string) {
	if !st.shape.known() {
		st.set("columns", names)
		st.set("hide", []string(nil))
		return
	}
	recs, haveRecs := st.shape.principalRecords()
	if st.principal != "" {
		recs, haveRecs = viewspec.PointerTokens(st.principal), true
	}
	var cols []string
	var principal []string
	for _, n := range names {
		p := st.shape.resolve(n)
		if p == nil {
			st.reasons = append(st.reasons, st.missing(n))
			continue
		}
		if slices.Contains(p, shapeWildcard) {
			// A field inside an array: the array's rows show it as a column.
			last := lastWildcard(p)
			arr, row := p[:last], p[last+1:]
			if !slices.Contains(arr, shapeWildcard) && (!haveRecs || !slices.Equal(arr, recs)) {
				if principal != nil && !slices.Equal(principal, arr) {
					st.reasons = append(st.reasons, fmt.Sprintf("%q is in another part of the result than %s", n, viewspec.Pointer(principal...)))
					continue
				}
				principal = arr
			}
			cols = append(cols, columnField(row))
			continue
		}
		if principal != nil {
			st.reasons = append(st.reasons, fmt.Sprintf("only one part of the result can be shown alone: %s, not %q as well", viewspec.Pointer(principal...), n))
			continue
		}
		principal = p
	}
	if principal != nil {
		st.principal = viewspec.Pointer(principal...)
	}
	if len(cols) > 0 {
		st.set("columns", cols)
		st.set("hide", []string(nil))
	} else if principal != nil {
		st.set("columns", []string(nil))
	}
}

// lastWildcard is the index of p's last array step (-1: none).
func lastWildcard(p []string) int {
	for i := len(p) - 1; i >= 0; i-- {
		if p[i] == shapeWildcard {
			return i
		}
	}
	return -1
}

// columnField is a column's field for a path inside a row: the key, or a
// JSON Pointer when it is deeper.
func columnField(row []string) string {
	if len(row) == 1 {
		return row[0]
	}
	return viewspec.Pointer(row...)
}

// missing is the reason a named field was not applied.
func (st *intentState) missing(name string) string {
	fields := st.shape.fieldNames(12)
	src := "the result"
	if !st.shape.fromExample {
		src = "the tool's outputSchema"
	}
	if st.shape.text {
		return fmt.Sprintf("the result is text with no fields, so there is no %q to find", name)
	}
	if len(fields) == 0 {
		return fmt.Sprintf("no field %q in %s", name, src)
	}
	return fmt.Sprintf("no field %q in %s (its fields: %s)", name, src, strings.Join(fields, ", "))
}

// checkNames resolves the field names the current refinement added
// (columns, hidden, shown, sort, chart axes) against the shape: a name
// found at any depth stays (a column inside a row becomes its pointer), a
// name found nowhere is taken out again with the reason.
func (st *intentState) checkNames(prev viewdefs.ViewConfig) {
	if !st.shape.known() {
		return
	}
	check := func(names, before []string, column bool) []string {
		var out []string
		for _, n := range names {
			if slices.Contains(before, n) || strings.HasPrefix(n, "/") {
				out = append(out, n)
				continue
			}
			p := st.shape.resolve(n)
			if p == nil {
				st.reasons = append(st.reasons, st.missing(n))
				continue
			}
			switch {
			case column && slices.Contains(p, shapeWildcard):
				last := lastWildcard(p)
				out = append(out, columnField(p[last+1:]))
			case p[len(p)-1] != shapeWildcard:
				// As the data spells it ("currentBranch", not the lower-cased
				// words); "note content" hides or shows content.
				out = append(out, p[len(p)-1])
			default:
				out = append(out, n)
			}
		}
		return out
	}
	c := &st.cfg
	if !slices.Equal(c.Columns, prev.Columns) && len(c.Columns) > 0 {
		c.Columns = check(c.Columns, prev.Columns, true)
	}
	if !slices.Equal(c.Hide, prev.Hide) {
		c.Hide = check(c.Hide, prev.Hide, false)
	}
	if !slices.Equal(c.Show, prev.Show) {
		c.Show = check(c.Show, prev.Show, false)
	}
	if c.Sort != prev.Sort && c.Sort != "" {
		i := strings.LastIndexByte(c.Sort, ' ')
		if st.shape.resolve(c.Sort[:i]) == nil {
			st.reasons = append(st.reasons, st.missing(c.Sort[:i]))
			c.Sort = prev.Sort
		}
	}
	if c.ChartX != prev.ChartX && c.ChartX != "" && st.shape.resolve(c.ChartX) == nil {
		st.reasons = append(st.reasons, st.missing(c.ChartX))
		c.ChartX = prev.ChartX
	}
	if !slices.Equal(c.ChartY, prev.ChartY) {
		c.ChartY = check(c.ChartY, prev.ChartY, false)
	}
	if c.View == "chart" && prev.View != "chart" && st.shape.fromExample {
		if _, ok := st.shape.principalRecords(); !ok && len(st.shape.recordArrays) == 0 {
			st.reasons = append(st.reasons, "the result has no rows to chart")
			c.View = prev.View
		}
	}
	if (c.View == "table" || c.View == "cards" || c.View == "list") && c.View != prev.View && st.shape.fromExample && !st.shape.text &&
		len(st.shape.recordArrays) == 0 && !st.shape.rootRecords && !st.allFields {
		st.reasons = append(st.reasons, "the result has no rows to show as a "+strings.TrimSuffix(c.View, "s")+": it is a single record")
		c.View = prev.View
	}
	if st.allFields && st.shape.fromExample && len(st.shape.recordArrays) == 0 && !st.shape.rootRecords {
		st.reasons = append(st.reasons, "the result has no rows: it is "+map[bool]string{true: "text", false: "a single record"}[st.shape.text])
		c.View = prev.View
	}
	st.allFields = false
}

// reFieldWords finds runs of two or three words (letters, digits, _).
var reFieldWords = lazyRegexp(`[a-z0-9_]+(?: [a-z0-9_]+){1,2}`)

// joinFieldWords rewrites, in place and at the same length, words that
// together name one field of the result, so the rules read them as one
// name: "commit hash" becomes commit_hash (commitHash), "note content"
// note.content (content inside note). Only with a known shape, never
// across filler words.
func (st *intentState) joinFieldWords(low []byte) {
	if !st.shape.known() || st.shape.text {
		return
	}
	words := regexp.MustCompile(`[a-z0-9_]+`).FindAllIndex(low, -1)
	for i := 0; i < len(words); i++ {
		for n := 3; n >= 2; n-- {
			if i+n > len(words) {
				continue
			}
			run := words[i : i+n]
			ok := true
			var parts []string
			for j, w := range run {
				word := string(low[w[0]:w[1]])
				if intentFiller[word] || intentListStop[word] || word == "and" || word == "then" || (j > 0 && run[j-1][1]+1 != w[0]) {
					ok = false
					break
				}
				parts = append(parts, word)
			}
			if !ok {
				continue
			}
			sep := byte(0)
			switch {
			case st.shape.resolveExact(strings.Join(parts, "")):
				sep = '_'
			case !st.shape.resolveExact(parts[len(parts)-1]) && st.shape.resolve(strings.Join(parts, ".")) != nil:
				sep = '.'
			case st.shape.resolveExact(parts[len(parts)-1]) && st.shape.resolve(strings.Join(parts, ".")) != nil && !st.shape.resolveExact(parts[0]):
				sep = '.'
			}
			if sep == 0 {
				continue
			}
			for _, w := range run[:len(run)-1] {
				low[w[1]] = sep
			}
			i += n - 1
			break
		}
	}
}
