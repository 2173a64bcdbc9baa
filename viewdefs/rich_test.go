package viewdefs

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/genui-dev/genui/viewspec"
)

var reViewConfig = regexp.MustCompile(`(?s)<script type="application/json" id="view-config">(.*?)</script>`)

func TestRich(t *testing.T) {
	hostile := `</script><img src=x onerror=alert(1)>`
	cfg := ViewConfig{Theme: "dark", View: "table", Columns: []string{"name", hostile}, PageSize: 25, Title: "My <b>Weather</b>", Sort: "price desc"}
	page, err := Rich(ToolData{Name: "get_forecast", Title: "Forecast", Description: "d", InputSchema: json.RawMessage(`{"type":"object"}`)}, cfg)
	if err != nil {
		t.Fatal(err)
	}
	m := reViewConfig.FindStringSubmatch(page)
	if m == nil {
		t.Fatal("no view-config script")
	}
	var got ViewConfig
	if err := json.Unmarshal([]byte(m[1]), &got); err != nil {
		t.Fatalf("view-config is not JSON: %v\n%s", err, m[1])
	}
	if got.Columns[1] != hostile || got.Theme != "dark" || got.PageSize != 25 || got.Sort != "price desc" {
		t.Errorf("view-config round trip = %+v", got)
	}
	for _, want := range []string{`<html lang="en" data-theme="dark">`, `<title>My &lt;b&gt;Weather&lt;/b&gt;</title>`, `<template id="svg-ns"><svg></svg></template>`, "window.GenuiRich"} {
		if !strings.Contains(page, want) {
			t.Errorf("page lacks %s", want)
		}
	}
	if strings.Contains(page, "<img src=x") || strings.Contains(page, "<b>Weather") {
		t.Errorf("hostile config reached the page unescaped")
	}
	if toolData(t, page)["title"] != "My <b>Weather</b>" {
		t.Errorf("tool-data title = %v", toolData(t, page)["title"])
	}
	// Without config the page has no theme attribute but still the renderers.
	plain, err := Rich(ToolData{Name: "t"}, ViewConfig{})
	if err != nil || !strings.Contains(plain, `<html lang="en">`) || !strings.Contains(plain, `id="view-config">{}</script>`) {
		t.Errorf("plain rich page: err %v", err)
	}
}

func TestRichJSIsInlineSafe(t *testing.T) {
	for name, src := range map[string]string{"rich.js": RichJS(), "text.js": TextJS(), "form.js": FormJS()} {
		js := strings.ToLower(src)
		for _, bad := range []string{"</script", "<!--", "innerhtml", "outerhtml", "insertadjacenthtml", "document.write", "eval(", "new function", "fetch(", "xmlhttprequest", "http:", "https:", "100vh"} {
			if strings.Contains(js, bad) {
				t.Errorf("%s contains %q", name, bad)
			}
		}
	}
}

// TestVendoredMarkdown checks the vendored streaming-markdown file is what
// scripts/vendor-markdown.sh makes: the license header, a classic script
// that defines window.GenuiMarkdown with the parser and the token names
// text.js uses, nothing that ends the inline script, no module syntax, no URL.
func TestVendoredMarkdown(t *testing.T) {
	js := MarkdownJS()
	if !strings.HasPrefix(js, "/*! streaming-markdown 0.2.15 | MIT License | Copyright (c) 2024 Damian Tarnawski") {
		t.Errorf("smd.min.js lacks its license header: %.120q", js)
	}
	for _, want := range []string{"window.GenuiMarkdown={", "parser:", "parser_write:", "parser_end:", "PARAGRAPH:", "CODE_FENCE:", "TABLE_CELL:", "HREF:", "SRC:", "LANG:"} {
		if !strings.Contains(js, want) {
			t.Errorf("smd.min.js lacks %q", want)
		}
	}
	low := strings.ToLower(js)
	for _, bad := range []string{"</script", "<!--", "export{", "export {", "import(", "http://", "https://", "innerhtml"} {
		if strings.Contains(low, bad) {
			t.Errorf("smd.min.js contains %q", bad)
		}
	}
}

// TestFormNoneFoldIsFormJS: the no-argument form folds long descriptions
// with form.js's own code.
func TestFormNoneFoldIsFormJS(t *testing.T) {
	a := srcAssets()
	fold := func(src string) string {
		i := strings.Index(src, "  function fold(e) {")
		j := strings.Index(src[i:], "\n  }\n")
		if i < 0 || j < 0 {
			t.Fatal("no fold function")
		}
		return src[i : i+j]
	}
	if fold(a.formNone) != fold(a.form) {
		t.Error("form-none.js's fold differs from form.js's")
	}
	for _, tt := range []struct {
		schema string
		none   bool
	}{{``, true}, {`null`, true}, {`{"type":"object"}`, true}, {`{"type":"object","properties":{}}`, true},
		{`{"type":"object","properties":{"a":{}}}`, false}, {`{"$ref":"#/$defs/x"}`, false}, {`{"allOf":[{}]}`, false}, {`[`, false}} {
		if got := NoArguments(json.RawMessage(tt.schema)); got != tt.none {
			t.Errorf("NoArguments(%s) = %v", tt.schema, got)
		}
	}
}

// TestRichInlinesWhatTheToolNeeds: the nested form editors only for schemas
// with arrays, objects or choices; the markdown parser unless the tool
// declares structured output without strings.
func TestRichInlinesWhatTheToolNeeds(t *testing.T) {
	for _, src := range []bool{false, true} {
		UseReadableSources(src)
		t.Run(map[bool]string{false: "minified", true: "readable"}[src], testRichInlinesWhatTheToolNeeds)
	}
	UseReadableSources(false)
}

func testRichInlinesWhatTheToolNeeds(t *testing.T) {
	a := cur()
	tests := []struct {
		name       string
		in, out    string
		nested, md bool
	}{
		{"no schema", ``, ``, false, true},
		{"no properties", `{"type":"object","properties":{},"required":[]}`, ``, false, true},
		{"scalars", `{"type":"object","properties":{"q":{"type":"string"},"n":{"type":["integer","null"]}}}`, ``, false, true},
		{"array", `{"type":"object","properties":{"paths":{"type":"array","items":{"type":"string"}}}}`, ``, true, true},
		{"nested object", `{"type":"object","properties":{"f":{"type":"object"}}}`, ``, true, true},
		{"choice", `{"type":"object","properties":{"t":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`, ``, true, true},
		{"several types", `{"type":"object","properties":{"t":{"type":["string","number"]}}}`, ``, true, true},
		{"ref", `{"type":"object","properties":{"t":{"$ref":"#/$defs/x"}}}`, ``, true, true},
		{"text output", `{"type":"object"}`, `{"type":"object","properties":{"content":{"type":"string"}}}`, false, true},
		{"numeric output", `{"type":"object"}`, `{"type":"object","properties":{"temperature":{"type":"number"}}}`, false, false},
	}
	for _, tt := range tests {
		page, err := Rich(ToolData{Name: "t", InputSchema: json.RawMessage(tt.in), OutputSchema: json.RawMessage(tt.out)}, ViewConfig{})
		if err != nil {
			t.Fatal(err)
		}
		form := a.form
		if NoArguments(json.RawMessage(tt.in)) {
			form = a.formNone // a tool without arguments gets none of the form compiler
		}
		for _, src := range []string{TextJS(), RichJS(), form, a.pageRich, a.pageCSS, a.richCSS} {
			if !strings.Contains(page, src) {
				t.Errorf("%s: the rich page does not inline %.60q", tt.name, src)
			}
		}
		if form == a.formNone && strings.Contains(page, a.form) {
			t.Errorf("%s: a tool without arguments got the form compiler", tt.name)
		}
		if got := strings.Contains(page, a.formNested); got != tt.nested {
			t.Errorf("%s: nested form editors inlined = %v, want %v", tt.name, got, tt.nested)
		}
		if got := strings.Contains(page, MarkdownJS()); got != tt.md {
			t.Errorf("%s: markdown parser inlined = %v, want %v", tt.name, got, tt.md)
		}
	}
}

func TestRichErrors(t *testing.T) {
	tests := []struct {
		name string
		in   ToolData
		cfg  ViewConfig
		want string
	}{
		{"empty name", ToolData{Name: ""}, ViewConfig{}, "name is empty"},
		{"bad schema", ToolData{Name: "x", InputSchema: json.RawMessage(`{`)}, ViewConfig{}, "inputSchema"},
		{"bad output schema", ToolData{Name: "x", OutputSchema: json.RawMessage(`{`)}, ViewConfig{}, "outputSchema"},
		{"bad theme", ToolData{Name: "x"}, ViewConfig{Theme: "blue"}, `theme "blue"`},
		{"bad view", ToolData{Name: "x"}, ViewConfig{View: "pie"}, `view "pie"`},
		{"bad page size", ToolData{Name: "x"}, ViewConfig{PageSize: 5000}, "page size 5000"},
		{"bad sort", ToolData{Name: "x"}, ViewConfig{Sort: "price sideways"}, `sort "price sideways"`},
		{"bad chart", ToolData{Name: "x"}, ViewConfig{Chart: "pie"}, `chart "pie"`},
		{"bad form", ToolData{Name: "x"}, ViewConfig{Form: "gone"}, `form "gone"`},
		{"font too small", ToolData{Name: "x"}, ViewConfig{FontSize: 4}, "font size 4"},
		{"font too big", ToolData{Name: "x"}, ViewConfig{FontSize: 40}, "font size 40"},
	}
	for _, tt := range tests {
		if _, err := Rich(tt.in, tt.cfg); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.name, err, tt.want)
		}
	}
}

// TestRichSpecFormLayout: the spec's form order, hidden optional arguments
// and labels reach the schema the page's form is built from; a required
// argument stays.
func TestRichSpecFormLayout(t *testing.T) {
	spec := viewspec.New()
	spec.Form = &viewspec.Form{Mode: "folded", Order: []string{"limit", "q"}, Hidden: []string{"offset", "q"}, Labels: map[string]string{"limit": "Rows"}}
	page, err := RichSpec(ToolData{Name: "search", InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"},"offset":{"type":"integer"},"limit":{"type":"integer"}},"required":["q"]}`)}, spec, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := strings.Index(page, `"inputSchema":`)
	if i < 0 {
		t.Fatal("no inputSchema in the page")
	}
	in := page[i : i+strings.Index(page[i:], `"required"`)]
	if !strings.Contains(in, `"limit":{"title":"Rows","type":"integer"},"q":{"type":"string"}`) || strings.Contains(in, "offset") {
		t.Fatalf("form schema: %s", in)
	}
	if !strings.Contains(page, `id="view-spec">{"version":1,"form":{"mode":"folded"`) {
		t.Fatal("the page lacks its spec")
	}
}
