package viewdefs

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	template "github.com/DataDog/datadog-agent/pkg/template/html"

	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewspec"
)

// The offline rich renderers (rich.js) are plain browser JavaScript that
// defines window.GenuiRich. Rich inlines them into the minimal page, whose
// result area then picks a view at run time from the shape of the result:
// a table (sort, filter, paging, CSV of the visible page; paging through the
// tool itself for large remote tables), an SVG line chart above the table
// for time series, a key/value card for a single record, and the plain
// content renderers (text, images, links) for everything else. Every view
// keeps the Raw JSON toggle. text.js reads text results for the data they
// hold and draws the rest (markdown, code, diffs, bounded blocks with
// copy); rich.js uses it. Both come minified (assets.go).

// markdownJS is the vendored streaming-markdown parser (MIT, see
// vendor/smd.LICENSE; refreshed by scripts/vendor-markdown.sh), rewritten to
// define window.GenuiMarkdown. It was chosen over marked + DOMPurify (about
// 80 KB together) because it is 13 KB and builds DOM nodes through a
// renderer we supply, so no HTML string is ever parsed: text.js's renderer
// creates each element itself and filters link and image URLs, which is the
// whole of the sanitising a page under the MCP Apps CSP needs.
//
//go:embed vendor/smd.min.js
var markdownJS string

// ViewConfig is what a user asked for in refinements, as understood by the
// offline intent parser. It reaches the page as JSON in
// <script type="application/json" id="view-config"> and rich.js honours it.
// The zero value means "decide from the data".
type ViewConfig struct {
	// Theme is "light" or "dark"; it wins over the host's theme.
	Theme string `json:"theme,omitempty"`
	// View is the preferred view: "table", "cards", "chart", "list" or "json".
	View string `json:"view,omitempty"`
	// ChartX and ChartY name the chart's x field and y fields.
	ChartX string   `json:"chartX,omitempty"`
	ChartY []string `json:"chartY,omitempty"`
	// Columns lists the columns to show, in order; empty means all.
	Columns []string `json:"columns,omitempty"`
	// Hide lists columns not to show.
	Hide []string `json:"hide,omitempty"`
	// Sort is the initial sort, "field asc" or "field desc".
	Sort string `json:"sort,omitempty"`
	// PageSize is the number of rows (or cards, or list items) per page.
	PageSize int `json:"pageSize,omitempty"`
	// Title replaces the page heading.
	Title string `json:"title,omitempty"`
	// Chart is the chart kind: "line" or "bar" (default: line for a series,
	// bar for categories).
	Chart string `json:"chart,omitempty"`
	// Form is "hidden" to fold the input form away (a click opens it) or
	// "shown" (the default).
	Form string `json:"form,omitempty"`
	// Mono shows result text, tables and cards in a monospace font.
	Mono bool `json:"mono,omitempty"`
	// FontSize is the base font size in px (0: the default, 14).
	FontSize int `json:"fontSize,omitempty"`
	// Show lists fields to show even when hidden, left out of Columns, or
	// not among the first rows' keys; an array among several opens first.
	Show []string `json:"show,omitempty"`
}

// Views are the accepted ViewConfig.View values.
var Views = []string{"table", "cards", "chart", "list", "json"}

// MaxPageSize bounds ViewConfig.PageSize.
const MaxPageSize = 1000

// MinFontSize and MaxFontSize bound ViewConfig.FontSize.
const (
	MinFontSize = 9
	MaxFontSize = 28
)

// Check reports the first field of c that the page could not honour.
func (c ViewConfig) Check() error {
	if c.Theme != "" && c.Theme != "light" && c.Theme != "dark" {
		return fmt.Errorf("theme %q: want light or dark", c.Theme)
	}
	if c.View != "" && !contains(Views, c.View) {
		return fmt.Errorf("view %q: want one of %s", c.View, strings.Join(Views, ", "))
	}
	if c.Sort != "" {
		i := strings.LastIndexByte(c.Sort, ' ')
		if i <= 0 || strings.TrimSpace(c.Sort[:i]) == "" || (c.Sort[i+1:] != "asc" && c.Sort[i+1:] != "desc") {
			return fmt.Errorf("sort %q: want \"field asc\" or \"field desc\"", c.Sort)
		}
	}
	if c.PageSize < 0 || c.PageSize > MaxPageSize {
		return fmt.Errorf("page size %d: want 1 to %d", c.PageSize, MaxPageSize)
	}
	if c.Chart != "" && c.Chart != "line" && c.Chart != "bar" {
		return fmt.Errorf("chart %q: want line or bar", c.Chart)
	}
	if c.Form != "" && c.Form != "hidden" && c.Form != "shown" {
		return fmt.Errorf("form %q: want hidden or shown", c.Form)
	}
	if c.FontSize != 0 && (c.FontSize < MinFontSize || c.FontSize > MaxFontSize) {
		return fmt.Errorf("font size %d: want %d to %d px", c.FontSize, MinFontSize, MaxFontSize)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Rich returns the offline UI of t with the rich result renderers and the
// view configuration cfg (not yet shim-injected): the minimal page's form,
// plus table, chart and card views chosen in the browser. It fails like
// Minimal on bad input, and on a cfg that Check rejects.
func Rich(t ToolData, cfg ViewConfig) (string, error) { return Options{}.rich(t, cfg, nil, nil) }

// RichSpec returns the offline UI of t drawn as spec says, rendered with o (not yet
// shim-injected): the page carries the spec as JSON in
// <script type="application/json" id="view-spec">, and rich.js honours
// every field it sets (a field left out is decided from the data, as
// before). outcomes, what became of each refinement, go along in
// #view-outcomes and the page says those not (fully) applied. It fails on
// a spec that viewspec.Validate rejects.
func (o Options) RichSpec(t ToolData, spec viewspec.Spec, outcomes []viewspec.Outcome) (string, error) {
	if errs := spec.Check(); len(errs) > 0 {
		return "", fmt.Errorf("viewdefs: tool %q: view spec: %w", t.Name, errors.Join(errs...))
	}
	cfg := ViewConfig{Title: spec.Title}
	if spec.Theme != nil && spec.Theme.Scheme != "auto" {
		cfg.Theme = spec.Theme.Scheme
	}
	return o.rich(t, cfg, &spec, outcomes)
}

func (o Options) rich(t ToolData, cfg ViewConfig, spec *viewspec.Spec, outcomes []viewspec.Outcome) (string, error) {
	if strings.TrimSpace(t.Name) == "" {
		return "", errors.New("viewdefs: tool name is empty")
	}
	if err := cfg.Check(); err != nil {
		return "", fmt.Errorf("viewdefs: tool %q: view config: %w", t.Name, err)
	}
	in, err := schemaJSON(t.InputSchema)
	if err != nil {
		return "", fmt.Errorf("viewdefs: tool %q: inputSchema: %w", t.Name, err)
	}
	if spec != nil {
		in = formLayout(in, spec.Form)
	}
	out, err := schemaJSON(t.OutputSchema)
	if err != nil {
		return "", fmt.Errorf("viewdefs: tool %q: outputSchema: %w", t.Name, err)
	}
	if bytes.Equal(out, []byte("null")) {
		out = nil
	}
	title := t.Title
	if cfg.Title != "" {
		title = cfg.Title
	}
	data := pageData{Tool: pageTool{Name: t.Name, Title: title, Description: t.Description, InputSchema: in, OutputSchema: out,
		ModelOnly: t.ModelOnly(), Annotations: annotationsFor(t.Annotations)}}
	a := o.assets()
	js := func(units []string) []template.JS {
		out := make([]template.JS, 0, len(units))
		for _, u := range units {
			if u == markdownUnit {
				out = append(out, template.JS(markdownJS)) // vendored minified
				continue
			}
			out = append(out, template.JS(a.get(u)))
		}
		return out
	}
	return render("minimal.html.tmpl", map[string]any{
		"Name": t.Name, "Title": title, "Description": t.Description, "Data": data, "ModelOnly": t.ModelOnly(),
		"Rich": true, "Theme": cfg.Theme, "ViewConfig": viewConfigOf(cfg, spec), "Spec": spec, "Outcomes": outcomes,
		// Embedded files; template.JS and template.CSS inline them verbatim.
		"FormJS": js(formUnits(in)), "RendererJS": js(rendererUnits(out, spec)), "DeferredJS": js(deferredUnits(out, spec)), "ConnectJS": template.JS(a.get("min/connect.js")),
		"CSS": template.CSS(a.get("min/page.css") + a.get("min/rich.css")), "DeferredCSS": template.CSS(a.get(deferredStyle)), "PageJS": template.JS(a.get("min/page-rich.js")),
	})
}

// markdownUnit names the vendored markdown parser among a page's units.
const markdownUnit = "vendor/smd.min.js"

// rendererUnits are the result renderers a page carries, in the order they
// run, before rich.js (which the page carries as a deferred script: see
// rich.html.tmpl and pagepack's DeferAttr): text.js's own readers always (JSON, fenced blocks,
// diffs, CSV/TSV, listings, key/value lines, bullet lists, sections, prose
// and code in bounded boxes: every result stays drawable), and the readers
// of text (textlines.js, textdata.js) and the markdown parser only when a
// text can reach the view: the tool declares no outputSchema or one with a
// string in it, or spec draws something as text (a markdown, text, log or
// diff view). A tool that declares structured output with no string in it
// sends its data as JSON (its text repeats it or summarises it): a text
// that comes all the same (an error, a note) is read by text.js alone and a
// markdown text shows as plain text in a bounded box.
func rendererUnits(outputSchema json.RawMessage, spec *viewspec.Spec) []string {
	if TextCanReach(outputSchema, spec) {
		return []string{markdownUnit, "min/textdata.js", "min/text.js"}
	}
	return []string{"min/text.js"}
}

// DeferredParts are the deferred elements of every page the offline
// generator makes (the minified build; readable sources are not packed),
// one list per set deferredUnits gives, in a page's order: the deferred
// style (deferredStyle, in the head) and then the deferred scripts.
func DeferredParts() [][]pagepack.DeferredPart {
	a := Options{}.assets()
	var out [][]pagepack.DeferredPart
	for _, units := range [][]string{deferredUnits(nil, nil), deferredUnits(json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"}}}`), nil)} {
		parts := []pagepack.DeferredPart{{Text: a.get(deferredStyle), Style: true}}
		for _, u := range units {
			parts = append(parts, pagepack.DeferredPart{Text: a.get(u)})
		}
		out = append(out, parts)
	}
	return out
}

// deferredStyle is the style a page carries as a deferred element with its
// deferred scripts: rich-views.css, the rules only rich.js and textlines.js
// draw with (rich.css keeps what text.js and a plain drawing use).
const deferredStyle = "min/rich-views.css"

// deferredUnits are the renderers a page carries as deferred scripts
// (rich.html.tmpl marks them with pagepack's DeferAttr): packed out of the
// page and read through the host after the handshake. rich.js (the data
// views: tables, cards, charts, trees) and, where a text can reach the
// view, textlines.js (version-control logs, numbered lines, log views).
// Until they are in, and on a host that does not pass a view's resource
// reads on, page.js draws results with text.js and render.js: markdown,
// code, diffs, and data as tables, cards and lists, never less than
// readable. Kept in the page: what the first frame and that plain drawing
// need (the form, text.js, textdata.js with its markdown preparation, the
// markdown parser, page.css and rich.css); rich-views.css, the rules only
// the deferred scripts use, is deferred with them (deferredStyle).
func deferredUnits(outputSchema json.RawMessage, spec *viewspec.Spec) []string {
	if TextCanReach(outputSchema, spec) {
		return []string{"min/textlines.js", "min/rich.js"}
	}
	return []string{"min/rich.js"}
}

// TextCanReach reports whether a page for a tool with outputSchema and
// spec (nil: none) can be handed text to read (see rendererUnits): no
// outputSchema, one with a string in it, or a view of spec that draws text.
func TextCanReach(outputSchema json.RawMessage, spec *viewspec.Spec) bool {
	if len(bytes.TrimSpace(outputSchema)) == 0 || string(bytes.TrimSpace(outputSchema)) == "null" ||
		bytes.Contains(outputSchema, []byte(`"string"`)) {
		return true
	}
	if spec == nil {
		return false
	}
	textKind := func(v *viewspec.View) bool {
		if v == nil {
			return false
		}
		switch v.Kind {
		case viewspec.KindMarkdown, viewspec.KindText, viewspec.KindLog, viewspec.KindDiff:
			return true
		}
		return false
	}
	if textKind(spec.View) {
		return true
	}
	for _, p := range spec.Parts {
		if textKind(p.View) {
			return true
		}
	}
	return false
}

// viewConfigOf is the page's #view-config: cfg, or nothing but the theme
// and title when the page carries a spec (rich.js reads the spec then).
func viewConfigOf(cfg ViewConfig, spec *viewspec.Spec) ViewConfig {
	if spec == nil {
		return cfg
	}
	return ViewConfig{Theme: cfg.Theme, Title: cfg.Title}
}
