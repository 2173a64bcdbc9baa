package gen

import (
	"encoding/json"

	"github.com/genui-dev/genui/viewdefs"
	"github.com/genui-dev/genui/viewspec"
)

// ParseIntents reads refinement feedback offline, oldest first, later ones
// overriding earlier ones, into a view configuration. It understands theme
// (light/dark), preferred view (table, cards, chart, list, json), chart kind
// (line or bar) and x/y fields, which columns to show and in what order
// ("as a table with name and size"), columns to hide, fields to show again
// ("show the relations too"), showing or folding the input form, font size
// (in px, bigger, smaller), monospace, an initial sort, page size and
// title, in many phrasings. warnings holds one
// `not understood offline: "..."` entry per piece of feedback it could not
// use, plus notes on values it adjusted (a page size over the maximum).
func ParseIntents(refinements []string) (cfg viewdefs.ViewConfig, warnings []string) {
	st := &intentState{}
	for _, r := range refinements {
		parseRefinement(r, st)
	}
	return st.cfg, st.warnings
}

// ProposeSpec is the view spec the offline generator proposes for t from
// its outputSchema and, when there is one, a real result.
func ProposeSpec(t Tool, example json.RawMessage) viewspec.Spec {
	return proposeFrom(newShape(t.OutputSchema, example))
}

// RenderSpec is PageOptions{}.RenderSpec: the page as genui serves it.
func RenderSpec(t Tool, spec viewspec.Spec, outcomes []viewspec.Outcome) (string, error) {
	return PageOptions{}.RenderSpec(t, spec, outcomes)
}

// servedLLMPage is a model-written page as genui serves it by default.
func servedLLMPage(page string) string { return PageOptions{}.servedLLMPage(page) }
