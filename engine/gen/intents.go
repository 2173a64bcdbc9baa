package gen

import (
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"

	"github.com/genui-dev/genui/viewdefs"
)

// The offline intent parser: without an LLM, refinement feedback is read by
// a fixed set of patterns. Each refinement is matched against the patterns in
// priority order; a match claims its span of the text, so later (looser)
// patterns never reuse words an earlier one understood. Within one
// refinement and across refinements (oldest first) a later statement of the
// same setting wins. Whatever is left that is not filler ("please", "make it",
// "the", ...) is reported as not understood.

const (
	// intentItem is one field name: a bare identifier or a quoted name.
	intentItem = `(?:"[^"\n]+"|'[^'\n]+'|“[^”\n]+”|[a-z_][a-z0-9_.\-]*)`
	// intentList is one or more items separated by commas, "&", "and" or
	// "then" (each maybe followed by "the").
	intentList = intentItem + `(?:\s*(?:,|&|\band\b|\bthen\b)\s*(?:the\s+)?` + intentItem + `)*`
	// viewWord names a view.
	viewWord = `(line\s+chart|raw\s+json|bullet(?:ed)?\s+list|tables?|grid|spreadsheet|cards?|tiles|charts?|graphs?|plot|list|json)`
)

var (
	reIntentItem = lazyRegexp(intentItem)
	reTitle      = lazyRegexp(`(?i)\b(?:title|heading|call\s+it|name\s+it|rename(?:\s+it)?\s+to|label\s+it)\s*(?:[:=]|\bto\b|\bas\b|\bis\b)?\s*(?:"([^"\n]*)"|'([^'\n]*)'|“([^”\n]*)”|([^,;\n]+))`)
	reReset      = lazyRegexp(`\b(?:reset(?:\s+(?:everything|all|the\s+view|view|settings))?|start\s+over|clear\s+(?:all\s+)?(?:refinements|settings|customi[sz]ations))\b`)

	// intentRules are the rule patterns, in priority order, compiled on
	// first use (about 1 ms at every genui start otherwise).
	intentRules = sync.OnceValue(func() []intentRule {
		return []intentRule{
			// "a table with one column per field": every field, nothing hidden.
			{regexp.MustCompile(`\b(?:with\s+)?(?:one|a|its\s+own)\s+column\s+(?:per|for\s+(?:each|every))\s+(?:field|key|property|attribute)\b|\b(?:every|each|all)\s+(?:the\s+)?(?:fields?|keys?|propert(?:y|ies))\s+(?:as|in)\s+(?:its\s+own\s+|their\s+own\s+|separate\s+)?columns?\b`),
				0, nil, func(m []string, st *intentState) {
					st.set("view", "table")
					st.set("columns", []string(nil))
					st.set("hide", []string(nil))
					st.allFields = true
				}},
			// "show the branches only once": that part is the principal data, drawn once.
			{regexp.MustCompile(`\b(?:show|display|list|draw)\s+(?:me\s+)?(?:the\s+)?(` + intentItem + `)\s+(?:only\s+once|just\s+once|once|a\s+single\s+time)\b`),
				0, nil, func(m []string, st *intentState) { st.principalOf(unquoteName(m[1]), "drawn once") }},
			// "show only the note content": a field named with the field it sits in.
			{regexp.MustCompile(`\b(?:(?:show|display|keep|include)\s+only|only\s+(?:show|display|keep|include)|just\s+(?:show|display))\s+(?:the\s+)?([a-z_][a-z0-9_\-]*)(?:'s)?\s+([a-z_][a-z0-9_\-]*)\b`),
				0, func(m []string, st *intentState) bool {
					return st.shape.known() && st.shape.resolve(m[1]+" "+m[2]) != nil && !intentListStop[m[2]] && m[2] != "and" && m[2] != "then" &&
						!strings.HasPrefix(m[2], "column") && !strings.HasPrefix(m[2], "field")
				}, func(m []string, st *intentState) { st.only([]string{m[1] + " " + m[2]}) }},
			// The form: before "hide ..." reads "the form" as a column.
			{regexp.MustCompile(`\b(?:hide|collapse|fold(?:\s+away)?|remove|drop|close|minimi[sz]e|no|without)\s+(?:the\s+|a\s+)?(?:input\s+|inputs?\s+)?(?:form|inputs|input\s+fields|parameters|arguments)\b`),
				0, nil, func(m []string, st *intentState) { st.set("form", "hidden") }},
			{regexp.MustCompile(`\b(?:show|display|keep|expand|unfold|open|bring\s+back)\s+(?:the\s+)?(?:input\s+|inputs?\s+)?(?:form|inputs|input\s+fields|parameters|arguments)\b`),
				0, nil, func(m []string, st *intentState) { st.set("form", "shown") }},
			// Font: size in px, or bigger/smaller, and monospace.
			{regexp.MustCompile(`\b(?:font|text)[\s-]*size\s*(?:of|to|at|is|=|:)?\s*(\d{1,3})\s*(?:px|pt|pixels?)?|\b(\d{1,3})\s*(?:px|pt|pixels?)\s+(?:font|text|type)\b`),
				0, nil, func(m []string, st *intentState) {
					d := m[1]
					if d == "" {
						d = m[2]
					}
					st.fontSize(d)
				}},
			{regexp.MustCompile(`\b(?:(much|a\s+lot|way)\s+)?(?:bigger|larger|increase(?:\s+the)?|enlarge(?:\s+the)?)\s+(?:font(?:[\s-]*size)?|text(?:[\s-]*size)?|type|letters|print)\b|\b(?:font|text)(?:[\s-]*size)?\s+(?:(much|a\s+lot|way)\s+)?(?:bigger|larger|up)\b|\bzoom\s+in\b`),
				0, nil, func(m []string, st *intentState) { st.fontStep(+1, m[1] != "" || m[2] != "") }},
			{regexp.MustCompile(`\b(?:(much|a\s+lot|way)\s+)?(?:smaller|decrease(?:\s+the)?|reduce(?:\s+the)?|shrink(?:\s+the)?)\s+(?:font(?:[\s-]*size)?|text(?:[\s-]*size)?|type|letters|print)\b|\b(?:font|text)(?:[\s-]*size)?\s+(?:(much|a\s+lot|way)\s+)?(?:smaller|down)\b|\bzoom\s+out\b`),
				0, nil, func(m []string, st *intentState) { st.fontStep(-1, m[1] != "" || m[2] != "") }},
			{regexp.MustCompile(`\b(?:normal|default|regular|reset(?:\s+the)?)\s+(?:font|text)[\s-]*size\b`),
				0, nil, func(m []string, st *intentState) { st.cfg.FontSize = 0 }},
			{regexp.MustCompile(`\b(?:no|not|without|stop\s+using)\s+(?:a\s+)?(?:mono(?:space[d]?)?|fixed[\s-]*width)(?:\s+(?:font|text|type))?\b|\b(?:proportional|sans(?:[\s-]*serif)?)\s+(?:font|text|type)\b`),
				0, nil, func(m []string, st *intentState) { st.cfg.Mono = false }},
			{regexp.MustCompile(`\b(?:(?:use|in|with)\s+(?:a\s+)?)?(?:mono(?:space[d]?)?|fixed[\s-]*width)(?:\s+(?:font|text|type(?:face)?|style))?\b|\b(?:code|terminal|typewriter|console)\s+(?:font|style|look|typeface)\b`),
				0, nil, func(m []string, st *intentState) { st.cfg.Mono = true }},
			// "show the relations too": a field that was hidden or dropped.
			{regexp.MustCompile(`\b(?:also\s+)?(?:show|display|include|add|keep|bring\s+back|restore)\s+(?:me\s+)?(?:the\s+)?(?:columns?\s+|fields?\s+)?(` + intentList + `)(?:\s+(?:columns?|fields?|tabs?|arrays?|lists?))?\s+(?:too|as\s+well|also)\b`),
				1, nil, func(m []string, st *intentState) { st.show(intentItems(m[1])) }},
			// "show the processes as a table", "render the sheet as a grid": the
			// noun names the result itself, not one of its fields.
			{regexp.MustCompile(`\b(?:show|render|display|draw|present|list|put|lay\s+out)\s+(?:me\s+)?(?:the\s+|all\s+(?:the\s+)?|these\s+|those\s+)?(?:[a-z][a-z_-]*\s+){0,2}?[a-z][a-z_-]*\s+(?:as|in|into)\s+(?:an?\s+|the\s+)?(tables?|grid|spreadsheet|cards?|tiles|list|bullet(?:ed)?\s+list|raw\s+json|json)\b`),
				0, nil, func(m []string, st *intentState) { st.set("view", viewName(m[1])) }},
			// A view with its columns: "as a table with name and size".
			{regexp.MustCompile(`\b(?:(?:as|in|use|show(?:\s+it)?(?:\s+as)?|display(?:\s+it)?(?:\s+as)?|make\s+it)\s+)?(?:an?\s+|the\s+)?(tables?|cards?|list)\s+(?:with|of|showing|using)\s+(?:only\s+)?(?:the\s+)?(?:columns?\s+|fields?\s+)?(` + intentList + `)(?:\s+(?:columns?|fields?))?`),
				2, nil, func(m []string, st *intentState) {
					st.set("view", viewName(m[1]))
					st.set("columns", intentItems(m[2]))
					st.set("hide", []string(nil))
				}},
			{regexp.MustCompile(`\b(?:(line|bar|column)\s+)?(?:chart|plot|graph)(?:\s+(?:of|showing))?\s+(` + intentList + `)\s+(?:over|by|against|vs\.?|versus|per|across)\s+(?:the\s+)?(` + intentItem + `)`),
				0, nil, func(m []string, st *intentState) {
					st.set("view", "chart")
					st.chartKind(m[1])
					st.set("chartY", intentItems(m[2]))
					st.set("chartX", unquoteName(m[3]))
				}},
			// "a bar chart of size": the y fields without an x axis (the page picks it).
			{regexp.MustCompile(`\b(?:(line|bar|column)[\s-]*)?(?:charts?|plots?|graphs?)\s+(?:of|showing|for)\s+(?:the\s+)?(` + intentList + `)`),
				2, nil, func(m []string, st *intentState) {
					st.set("view", "chart")
					st.chartKind(m[1])
					st.set("chartY", intentItems(m[2]))
				}},
			{regexp.MustCompile(`\b(?:(?:as|in|use|show(?:\s+it)?(?:\s+as)?|display(?:\s+it)?(?:\s+as)?|make\s+it|draw|plot|prefer|switch\s+to|i\s+want)\s+)?(?:an?\s+|the\s+)?(?:(bar|line|column)[\s-]*(?:charts?|graphs?|plots?)|(bars|histogram))\b`),
				0, nil, func(m []string, st *intentState) {
					st.set("view", "chart")
					if m[2] != "" {
						st.chartKind("bar")
					} else {
						st.chartKind(m[1])
					}
				}},
			{regexp.MustCompile(`\bx(?:\s*[:=]|[\s-]*axis\s*(?:[:=]|\bis\b|\bshould\s+be\b|\bas\b|\bto\b)?)\s*(` + intentItem + `)`),
				1, nil, func(m []string, st *intentState) { st.set("chartX", unquoteName(m[1])) }},
			{regexp.MustCompile(`\by(?:\s*[:=]|[\s-]*axis\s*(?:[:=]|\bis\b|\bshould\s+be\b|\bas\b|\bto\b)?)\s*(` + intentList + `)`),
				1, nil, func(m []string, st *intentState) { st.set("chartY", intentItems(m[1])) }},
			{regexp.MustCompile(`(` + intentItem + `)\s+(?:on|for|as|along)\s+(?:the\s+)?x[\s-]*axis\b`),
				0, nil, func(m []string, st *intentState) { st.set("chartX", unquoteName(m[1])) }},
			{regexp.MustCompile(`(` + intentList + `)\s+(?:on|for|as|along)\s+(?:the\s+)?y[\s-]*axis\b`),
				0, nil, func(m []string, st *intentState) { st.set("chartY", intentItems(m[1])) }},
			{regexp.MustCompile(`\b(?:(?:theme|mode|colou?r\s*scheme)\s*[:=]?\s*)?(dark|light|night)(?:[\s-]*(?:theme|mode|colou?r\s*scheme|colou?rs?|background|ui|look))?\b`),
				0, nil, func(m []string, st *intentState) {
					t := m[1]
					if t == "night" {
						t = "dark"
					}
					st.set("theme", t)
				}},
			{regexp.MustCompile(`\b(\d{1,7})\s*(?:rows?|items?|records?|results?|entries|lines|cards?)?\s*(?:per|a|each|/|on\s+each|on\s+a)\s*page\b`),
				0, nil, func(m []string, st *intentState) { st.pageSize(m[1]) }},
			{regexp.MustCompile(`\bpage[\s-]*size\s*(?:of|is|to|[:=])?\s*(\d{1,7})\b`),
				0, nil, func(m []string, st *intentState) { st.pageSize(m[1]) }},
			{regexp.MustCompile(`\b(?:paginate|page)\s+(?:by|at|in)\s+(\d{1,7})\b`),
				0, nil, func(m []string, st *intentState) { st.pageSize(m[1]) }},
			{regexp.MustCompile(`\b(?:show|display|limit(?:\s+it)?\s+to|only)\s+(\d{1,7})\s+(?:rows?|items?|records?|results?|entries|cards?)(?:\s+at\s+a\s+time)?\b`),
				0, nil, func(m []string, st *intentState) { st.pageSize(m[1]) }},
			{regexp.MustCompile(`\b(?:sort(?:ed)?|order(?:ed)?)\s+(?:it\s+|them\s+|rows\s+|the\s+rows\s+)?by\s+(` + intentItem + `)(?:\s+(asc(?:ending)?|desc(?:ending)?|(?:high(?:est)?|large(?:st)?|big(?:gest)?|new(?:est)?|late(?:st)?)\s+first|(?:low(?:est)?|small(?:est)?|old(?:est)?|early|earliest)\s+first|reversed?))?`),
				0, nil, func(m []string, st *intentState) {
					dir := "asc"
					switch w := m[2]; {
					case strings.HasPrefix(w, "desc"), strings.HasPrefix(w, "rev"),
						strings.HasPrefix(w, "high"), strings.HasPrefix(w, "large"), strings.HasPrefix(w, "big"),
						strings.HasPrefix(w, "new"), strings.HasPrefix(w, "late"):
						dir = "desc"
					}
					st.set("sort", unquoteName(m[1])+" "+dir)
				}},
			{regexp.MustCompile(`\b(?:(?:show|display)\s+)?all\s+(?:the\s+)?(?:columns|fields)\b`),
				0, nil, func(m []string, st *intentState) { st.set("columns", []string(nil)); st.set("hide", []string(nil)) }},
			{regexp.MustCompile(`\b(?:(?:show|display|keep|include)\s+only|only\s+(?:show|display|keep|include)|just\s+(?:show|display))\s+(?:the\s+)?(?:columns?\s+|fields?\s+)?(` + intentList + `)(?:\s+(?:columns?|fields?))?`),
				1, nil, func(m []string, st *intentState) { st.only(intentItems(m[1])) }},
			{regexp.MustCompile(`\b(?:(?:show|display)\s+(?:the\s+)?)?(?:columns?|fields?|column\s+order|order)\s*(?:[:=]|\bto\b|\bare\b|\bshould\s+be\b)\s*(` + intentList + `)`),
				1, nil, func(m []string, st *intentState) { st.set("columns", intentItems(m[1])); st.set("hide", []string(nil)) }},
			{regexp.MustCompile(`\b(?:show|display)\s+(?:the\s+)?(?:columns?|fields?)\s+(` + intentList + `)`),
				1, nil, func(m []string, st *intentState) { st.set("columns", intentItems(m[1])); st.set("hide", []string(nil)) }},
			{regexp.MustCompile(`\b(?:hide|remove|drop|exclude|without)\s+(?:the\s+)?(?:columns?\s+|fields?\s+)?(` + intentList + `)(?:\s+(?:columns?|fields?))?`),
				1, nil, func(m []string, st *intentState) { st.add("hide", intentItems(m[1])) }},
			{regexp.MustCompile(`\b(?:(?:as|in|use|show|display|prefer|switch\s+to|view\s*[:=]?|render(?:\s+it)?\s+as|make\s+it|give\s+me|i\s+want)\s+)?(?:an?\s+|the\s+)?` + viewWord + `(?:\s+(?:view|layout|format|mode))?\b`),
				0, nil, func(m []string, st *intentState) {
					v := viewName(m[1])
					st.set("view", v)
					if v == "chart" && strings.HasPrefix(m[1], "line") {
						st.chartKind("line")
					}
				}},
			// Last: "show the relations", "include size" (any field by name).
			{regexp.MustCompile(`\b(?:also\s+)?(?:show|display|include|unhide|bring\s+back|restore)\s+(?:me\s+)?(?:the\s+)?(?:columns?\s+|fields?\s+)?(` + intentList + `)(?:\s+(?:columns?|fields?|tabs?))?`),
				1, nil, func(m []string, st *intentState) { st.show(intentItems(m[1])) }},
		}
	})

	// intentFiller words carry no intent on their own.
	intentFiller = map[string]bool{}
	// intentListStop words end a field list: they start another request.
	intentListStop = map[string]bool{}
	reIntentWord   = lazyRegexp(`[\p{L}\p{N}_'’]+`)
)

func init() {
	for _, w := range strings.Fields(`a an the it its it's this that these those and or also then but please pls kindly
		make use show display set switch change put to be is are should would could can i i'd we you me my our us want
		like prefer with in on of for as by view ui instead just only really very now always default so let let's lets
		thanks thank maybe too some more bit little`) {
		intentFiller[w] = true
	}
	for _, w := range strings.Fields(`make use show display set switch change put please pls it its i we you me also but so
		let lets with in on for as by to the is are be should would could can want like add`) {
		intentListStop[w] = true
	}
}

// intentState accumulates the settings and warnings of all refinements.
type intentState struct {
	cfg      viewdefs.ViewConfig
	warnings []string
	// shape is what is known of the result's fields (nil: nothing); names
	// are resolved against it at any depth.
	shape *shape
	// principal is the JSON Pointer a refinement made the principal data.
	principal string
	// allFields: a refinement asked for every field as a column.
	allFields bool
	// reasons say why part of the current refinement was not applied.
	reasons []string
	// note says what the current refinement confirmed ("/branches is the
	// principal data, drawn once").
	note string
}

// intentRule is one pattern; list, when not 0, is the index of a trailing
// list group that is cut at the first stop word ("... name and price and
// make it sparkle" keeps name and price and leaves the rest unclaimed).
type intentRule struct {
	re   *regexp.Regexp
	list int
	// accept, when set, may refuse a match (a later, looser rule then reads the words).
	accept func(m []string, st *intentState) bool
	apply  func(m []string, st *intentState)
}

type intentMatch struct {
	start, end int
	sub        []string
	apply      func([]string, *intentState)
}

func (st *intentState) set(field string, v any) {
	switch field {
	case "view":
		st.cfg.View = v.(string)
	case "theme":
		st.cfg.Theme = v.(string)
	case "chartX":
		st.cfg.ChartX = v.(string)
	case "chartY":
		st.cfg.ChartY = v.([]string)
	case "columns":
		st.cfg.Columns = v.([]string)
	case "hide":
		st.cfg.Hide = v.([]string)
	case "sort":
		st.cfg.Sort = v.(string)
	case "form":
		st.cfg.Form = v.(string)
	}
}

func (st *intentState) add(field string, v []string) {
	if field == "hide" {
		for _, h := range v {
			if !slices.Contains(st.cfg.Hide, h) {
				st.cfg.Hide = append(st.cfg.Hide, h)
			}
		}
		// A hidden column no longer belongs to an explicit column list.
		st.cfg.Columns = slices.DeleteFunc(slices.Clone(st.cfg.Columns), func(c string) bool { return slices.Contains(v, c) })
	}
}

// show makes fields visible: no longer hidden, added to an explicit column
// list, and listed in Show (the page then looks for them in every row and
// opens their tab or section).
func (st *intentState) show(names []string) {
	for _, n := range names {
		if !slices.Contains(st.cfg.Show, n) {
			st.cfg.Show = append(st.cfg.Show, n)
		}
		if len(st.cfg.Columns) > 0 && !slices.Contains(st.cfg.Columns, n) {
			st.cfg.Columns = append(slices.Clone(st.cfg.Columns), n)
		}
	}
	st.cfg.Hide = slices.DeleteFunc(slices.Clone(st.cfg.Hide), func(h string) bool { return slices.Contains(names, h) })
	if len(st.cfg.Hide) == 0 {
		st.cfg.Hide = nil
	}
}

func (st *intentState) chartKind(w string) {
	switch strings.TrimSpace(w) {
	case "bar", "column", "bars":
		st.cfg.Chart = "bar"
	case "line":
		st.cfg.Chart = "line"
	}
}

// defaultFontSize is the page's base font size in px.
const defaultFontSize = 14

func (st *intentState) fontSize(digits string) {
	n, err := strconv.Atoi(digits)
	switch {
	case err != nil || n < viewdefs.MinFontSize:
		st.warnings = append(st.warnings, fmt.Sprintf("font size %s ignored: it must be %d to %d px", digits, viewdefs.MinFontSize, viewdefs.MaxFontSize))
	case n > viewdefs.MaxFontSize:
		st.warnings = append(st.warnings, fmt.Sprintf("font size %d is above the maximum; using %d px", n, viewdefs.MaxFontSize))
		st.cfg.FontSize = viewdefs.MaxFontSize
	default:
		st.cfg.FontSize = n
	}
}

// fontStep makes the font one step (2 px, or 4 px for "much") bigger or smaller.
func (st *intentState) fontStep(dir int, much bool) {
	cur := st.cfg.FontSize
	if cur == 0 {
		cur = defaultFontSize
	}
	step := 2
	if much {
		step = 4
	}
	st.cfg.FontSize = min(max(cur+dir*step, viewdefs.MinFontSize), viewdefs.MaxFontSize)
}

func (st *intentState) pageSize(digits string) {
	n, err := strconv.Atoi(digits)
	switch {
	case err != nil || n < 1:
		st.warnings = append(st.warnings, fmt.Sprintf("page size %s ignored: it must be 1 to %d", digits, viewdefs.MaxPageSize))
	case n > viewdefs.MaxPageSize:
		st.warnings = append(st.warnings, fmt.Sprintf("page size %d is above the maximum; using %d", n, viewdefs.MaxPageSize))
		st.cfg.PageSize = viewdefs.MaxPageSize
	default:
		st.cfg.PageSize = n
	}
}

func parseRefinement(text string, st *intentState) {
	used := make([]bool, len(text))
	claim := func(a, b int) {
		for i := a; i < b; i++ {
			used[i] = true
		}
	}
	free := func(a, b int) bool {
		for i := a; i < b; i++ {
			if used[i] {
				return false
			}
		}
		return true
	}

	// The title keeps its case, so it is read from the original text first.
	var title string
	for _, m := range reTitle().FindAllStringSubmatchIndex(text, -1) {
		for g := 1; g <= 4; g++ {
			if m[2*g] >= 0 {
				title = strings.TrimSpace(strings.TrimRight(text[m[2*g]:m[2*g+1]], ". "))
				break
			}
		}
		claim(m[0], m[1])
	}
	// Lower-case ASCII only, so byte offsets stay those of text.
	low := []byte(text)
	for i, c := range low {
		if 'A' <= c && c <= 'Z' {
			low[i] = c + 'a' - 'A'
		}
	}
	st.joinFieldWords(low)
	work := func() string {
		// Claimed spans become ";" so lists and phrases cannot run across them.
		b := slices.Clone(low)
		for i := range b {
			if used[i] {
				b[i] = ';'
			}
		}
		return string(b)
	}
	if loc := reReset().FindAllIndex([]byte(work()), -1); loc != nil {
		st.cfg = viewdefs.ViewConfig{}
		st.principal, st.allFields = "", false
		for _, l := range loc {
			claim(l[0], l[1])
		}
	}
	if title != "" {
		st.cfg.Title = title
	}

	var found []intentMatch
	for _, r := range intentRules() {
		w := work()
		for _, m := range r.re.FindAllStringSubmatchIndex(w, -1) {
			if !free(m[0], m[1]) {
				continue
			}
			if r.list > 0 {
				end := trimList(w, m[2*r.list], m[2*r.list+1])
				if end < 0 {
					continue // only stop words: not a list
				}
				if end < m[2*r.list+1] {
					m[2*r.list+1], m[1] = end, end
				}
			}
			sub := make([]string, len(m)/2)
			for g := range sub {
				if m[2*g] >= 0 {
					sub[g] = w[m[2*g]:m[2*g+1]]
				}
			}
			if r.accept != nil && !r.accept(sub, st) {
				continue
			}
			claim(m[0], m[1])
			found = append(found, intentMatch{m[0], m[1], sub, r.apply})
		}
	}
	// Later statements win: apply in text order.
	sort.SliceStable(found, func(i, j int) bool { return found[i].start < found[j].start })
	for _, m := range found {
		m.apply(m.sub, st)
	}
	for _, piece := range leftovers(text, used) {
		st.warnings = append(st.warnings, fmt.Sprintf("not understood offline: %q", piece))
	}
}

// leftovers returns the unclaimed runs of text, split at clause punctuation,
// that hold a word other than filler, trimmed of connectors in front and filler at the end.
func leftovers(text string, used []bool) []string {
	var out []string
	flush := func(run string) {
		words := reIntentWord().FindAllStringIndex(run, -1)
		meaningful := false
		for _, w := range words {
			if !intentFiller[strings.ToLower(run[w[0]:w[1]])] {
				meaningful = true
				break
			}
		}
		if !meaningful {
			return
		}
		// Trim connectors in front ("and", "also", ...) and filler at the end
		// ("make it sparkle and use" -> "make it sparkle").
		for len(words) > 0 && isConnector(run[words[0][0]:words[0][1]]) {
			words = words[1:]
		}
		for len(words) > 0 && intentFiller[strings.ToLower(run[words[len(words)-1][0]:words[len(words)-1][1]])] {
			words = words[:len(words)-1]
		}
		if len(words) == 0 {
			return
		}
		out = append(out, strings.TrimSpace(run[words[0][0]:words[len(words)-1][1]]))
	}
	start := -1
	for i := 0; i <= len(text); i++ {
		boundary := i == len(text) || used[i] || strings.IndexByte(",;!?\n", text[i]) >= 0 ||
			(text[i] == '.' && (i+1 == len(text) || text[i+1] == ' ' || text[i+1] == '\n'))
		if boundary {
			if start >= 0 {
				flush(text[start:i])
				start = -1
			}
			continue
		}
		if start < 0 {
			start = i
		}
	}
	return out
}

func isConnector(w string) bool {
	switch strings.ToLower(w) {
	case "and", "also", "then", "but", "please", "pls", "or", "so", "thanks":
		return true
	}
	return false
}

// trimList returns the end of the list in w[start:end] cut before its first
// stop word (a verb or pronoun that starts another request), or -1 when it
// starts with one.
func trimList(w string, start, end int) int {
	last := -1
	for _, t := range reIntentItem().FindAllStringIndex(w[start:end], -1) {
		word := w[start+t[0] : start+t[1]]
		switch {
		case word == "and" || word == "then" || (word == "the" && last >= 0):
			continue
		case intentListStop[word]:
			return last
		}
		last = start + t[1]
	}
	return last
}

// items splits a matched list into field names.
func intentItems(s string) []string {
	var out []string
	for _, it := range reIntentItem().FindAllString(s, -1) {
		switch it {
		case "and", "then", "the":
			continue
		}
		if name := unquoteName(it); name != "" && !slices.Contains(out, name) {
			out = append(out, name)
		}
	}
	return out
}

func unquoteName(s string) string {
	s = strings.TrimSpace(s)
	for _, q := range [][2]string{{`"`, `"`}, {`'`, `'`}, {"“", "”"}} {
		if strings.HasPrefix(s, q[0]) && strings.HasSuffix(s, q[1]) && len(s) >= len(q[0])+len(q[1]) {
			return strings.TrimSpace(s[len(q[0]) : len(s)-len(q[1])])
		}
	}
	return strings.TrimRight(s, ".-")
}

func viewName(w string) string {
	w = strings.Join(strings.Fields(w), " ")
	switch {
	case strings.Contains(w, "chart"), strings.HasPrefix(w, "graph"), w == "plot":
		return "chart"
	case strings.HasPrefix(w, "table"), w == "grid", w == "spreadsheet":
		return "table"
	case strings.HasPrefix(w, "card"), w == "tiles":
		return "cards"
	case strings.Contains(w, "json"):
		return "json"
	default:
		return "list"
	}
}
