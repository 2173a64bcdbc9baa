// Package viewspec is genui's view specification: a versioned JSON document
// that says everything a generated page shows of a tool's result (where the
// principal data is, the view of each part, columns with labels, widths and
// formats, charts, sorting, paging, what is hidden, the form's layout and
// theme). The offline generator proposes one, refinements and the LLM edit
// it, and the trusted renderers (viewdefs) draw it. Its JSON Schema is
// embedded (Schema) and printed by `genui spec schema`.
//
// A field left out is "auto": the renderer decides from the data. Paths are
// JSON Pointers (RFC 6901) into the result's data: structuredContent when
// the result has it, else the JSON its text content holds.
//
// Edits are JSON Merge Patches (RFC 7396, Apply): an object patch sets the
// keys it names, null removes a key, and arrays (columns, hidden) are
// replaced whole. A merge patch was chosen over JSON Patch (RFC 6902)
// because a model writes it as a small spec fragment, and it needs no
// indices into arrays the model may not know.
package viewspec

import (
	_ "embed"
	"encoding/json"
	"strings"

	"github.com/genui-dev/genui/engine/contract"
)

// Version is the format's version; a Spec carries it in "version".
const Version = 1

// Schema is the format's JSON Schema (draft 2020-12).
//
//go:embed schema.json
var schema []byte

// Schema returns the JSON Schema of the format (a copy).
func Schema() []byte { return append([]byte(nil), schema...) }

// Spec is one page's view specification.
type Spec struct {
	Version int `json:"version"`
	// Title replaces the page heading.
	Title string `json:"title,omitempty"`
	// Principal is a JSON Pointer to the principal data ("" is auto).
	Principal string `json:"principal,omitempty"`
	// View is the principal data's view.
	View *View `json:"view,omitempty"`
	// Parts are other parts of the result with their own view, or hidden.
	Parts []Part `json:"parts,omitempty"`
	// Hidden are fields not shown anywhere (a name at any depth, or a
	// JSON Pointer).
	Hidden []string `json:"hidden,omitempty"`
	// Shown are fields shown even where the renderer would fold them.
	Shown []string `json:"shown,omitempty"`
	// Labels are display labels by field name.
	Labels map[string]string `json:"labels,omitempty"`
	Form   *Form             `json:"form,omitempty"`
	Theme  *Theme            `json:"theme,omitempty"`
}

// View kinds (View.Kind).
const (
	KindAuto     = "auto"
	KindTable    = "table"
	KindCards    = "cards"
	KindCard     = "card"
	KindList     = "list"
	KindTree     = "tree"
	KindChart    = "chart"
	KindMarkdown = "markdown"
	KindText     = "text"
	KindLog      = "log"
	KindDiff     = "diff"
	KindImage    = "image"
	KindLinks    = "links"
	KindJSON     = "json"
)

// Kinds are the accepted View.Kind values.
var Kinds = []string{KindAuto, KindTable, KindCards, KindCard, KindList, KindTree, KindChart, KindMarkdown, KindText, KindLog, KindDiff, KindImage, KindLinks, KindJSON}

// View is how one part of the result is drawn.
type View struct {
	Kind     string   `json:"kind,omitempty"`
	Columns  []Column `json:"columns,omitempty"`
	Sort     *Sort    `json:"sort,omitempty"`
	PageSize int      `json:"pageSize,omitempty"`
	Chart    *Chart   `json:"chart,omitempty"`
}

// Column is one column of a table (or one key of a card).
type Column struct {
	// Field is the row's key, or a JSON Pointer into the row ("/note/content").
	Field string `json:"field"`
	Label string `json:"label,omitempty"`
	// Width in px (0: auto).
	Width  int    `json:"width,omitempty"`
	Format string `json:"format,omitempty"`
}

// Sort is the initial sort.
type Sort struct {
	Field string `json:"field"`
	Dir   string `json:"dir,omitempty"` // "asc" (default) or "desc"
}

// Chart is a chart's kind, axes and unit.
type Chart struct {
	Kind   string   `json:"kind,omitempty"` // "line" or "bar"
	X      string   `json:"x,omitempty"`
	Y      []string `json:"y,omitempty"`
	Unit   string   `json:"unit,omitempty"`
	XLabel string   `json:"xLabel,omitempty"`
	YLabel string   `json:"yLabel,omitempty"`
}

// Part is a part of the result other than the principal data.
type Part struct {
	Path   string `json:"path"`
	Label  string `json:"label,omitempty"`
	Hidden bool   `json:"hidden,omitempty"`
	View   *View  `json:"view,omitempty"`
}

// Form is the input form's layout.
type Form struct {
	Mode   string            `json:"mode,omitempty"` // "shown" (default) or "folded"
	Order  []string          `json:"order,omitempty"`
	Hidden []string          `json:"hidden,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
}

// Theme is the page's look.
type Theme struct {
	Scheme   string `json:"scheme,omitempty"` // "auto", "light" or "dark"
	FontSize int    `json:"fontSize,omitempty"`
	Mono     bool   `json:"mono,omitempty"`
}

// New returns the empty spec of this version: everything auto.
func New() Spec { return Spec{Version: Version} }

// JSON returns s as compact JSON (never fails for a Spec).
func (s Spec) JSON() []byte {
	b, err := json.Marshal(s)
	if err != nil { // a Spec holds only strings, numbers and bools
		panic("viewspec: " + err.Error())
	}
	return b
}

// Indented returns s as indented JSON, for people.
func (s Spec) Indented() string {
	b, _ := json.MarshalIndent(s, "", "  ")
	return string(b)
}

// Principal view's helpers.

// ViewOf returns the principal view, creating it.
func (s *Spec) ViewOf() *View {
	if s.View == nil {
		s.View = &View{}
	}
	return s.View
}

// ColumnFields returns the fields of v's columns in order.
func (v *View) ColumnFields() []string {
	if v == nil {
		return nil
	}
	out := make([]string, 0, len(v.Columns))
	for _, c := range v.Columns {
		out = append(out, c.Field)
	}
	return out
}

// PointerTokens splits a JSON Pointer into its unescaped tokens ("" -> none).
func PointerTokens(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range parts {
		parts[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return parts
}

// Pointer joins tokens into a JSON Pointer.
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// Refinement outcomes: every refinement is answered with one of these and a
// reason, on the page, in _ui_refine's result and in the TUI.
const (
	Applied       = contract.RefinementApplied
	PartlyApplied = contract.RefinementPartlyApplied
	NotApplied    = contract.RefinementNotApplied
)

// Outcome is what became of one refinement: the contract's type (a page's
// metadata carries the outcomes its spec was made with as they are), with
// its String ("applied: hidden: message" / "not applied: reason").
type Outcome = contract.RefinementOutcome
