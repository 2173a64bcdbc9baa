package gen

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
	"github.com/genui-dev/genui/viewspec"
)

// UITypeOfflineRich is the UIType of the offline generator's output: the
// minimal form plus the rich result renderers (table, chart, card), with the
// refinements it understood applied as view configuration. It is used for
// every offline page, configured or not, because the renderers are always
// included and pick a view from the data at run time.
const UITypeOfflineRich = "offline-rich"

type offline struct{ pages PageOptions }

// PageOptions are how a generator renders and serves its pages. The zero
// value is what genui serves: the minified build, packed.
type PageOptions struct {
	// ReadableSources inlines the readable JavaScript and CSS sources
	// instead of their minified build and leaves pages unpacked (genui
	// --debug: a page read in a browser's developer tools). Per generator,
	// so two engines in one process can differ.
	ReadableSources bool
}

// NewOffline returns the built-in generator that needs no LLM: it proposes
// a view specification (SpecFor: from the tool's schemas and the request's
// real result, when it has one, edited by the refinements that the intent
// parser understands), renders viewdefs' rich offline UI drawing it
// (schema-compiled form; what the spec leaves auto is chosen in the
// browser) and inlines the mcpshim App. What became of each refinement is
// in Result.Outcomes and on the page; feedback it does not understand is
// also reported in Result.Warnings.
func NewOffline() Generator { return offline{} }

// NewOfflineWith is NewOffline rendering its pages with o.
func NewOfflineWith(o PageOptions) Generator { return offline{pages: o} }

func (offline) Name() string { return "offline" }

func (g offline) Generate(ctx context.Context, req Request) (Result, error) {
	if err := ctx.Err(); err != nil {
		return Result{}, err
	}
	start := time.Now()
	t := req.Tool
	spec, outcomes, warnings := SpecFor(t, req.Example, req.Refinements)
	html, err := g.pages.RenderSpec(t, spec, outcomes)
	if err != nil {
		return Result{}, err
	}
	res := Result{HTML: html, UIType: UITypeOfflineRich, Provider: "offline", Warnings: warnings, Duration: time.Since(start),
		Spec: &spec, Outcomes: outcomes}
	return res, nil
}

// RenderSpec returns the served page of t drawing spec, as the offline
// generator makes its pages: viewdefs' rich page with the spec and the
// refinements' outcomes, the App shim inlined, packed (not with readable
// sources, which are inlined readable) and with its CSP meta tag. A spec
// Validate rejects is an error.
func (o PageOptions) RenderSpec(t Tool, spec viewspec.Spec, outcomes []viewspec.Outcome) (string, error) {
	html, err := viewdefs.Options{ReadableSources: o.ReadableSources}.RichSpec(viewdefs.ToolData{
		Name: t.Name, Title: t.Title, Description: t.Description,
		InputSchema: t.InputSchema, OutputSchema: t.OutputSchema, Visibility: t.Visibility(), Annotations: t.Annotations,
	}, spec, outcomes)
	if err != nil {
		return "", fmt.Errorf("offline generator: %w", err)
	}
	html = mcpshim.Options{ReadableSources: o.ReadableSources}.Inject(html)
	if problems := Validate(html); len(problems) > 0 {
		// Our own template produced this: a bug, not bad input.
		return "", fmt.Errorf("offline generator: output for %q is not self-contained: %s", t.Name, strings.Join(problems, "; "))
	}
	if !o.ReadableSources { // --debug serves pages unpacked
		if html, err = pagepack.Pack(html); err != nil {
			return "", fmt.Errorf("offline generator: %w", err)
		}
	}
	return pagecsp.Apply(html), nil
}

// The offline pages' deferred sets (the rich views), for pagepack.Deferred
// to pack on a miss: a process serving pages from the UI cache before it
// has packed one, or reading another genui process's page, finds their
// blocks (the URIs name the scripts, so the same build gives the same).
func init() { pagepack.SetDeferredSource(viewdefs.DeferredParts) }
