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

// TestFormNoneSharesFormJSCode: the no-argument form and the form
// compiler are built on one source (form-base.js, AssetUnits): the fold
// both pages use is the same code, in both builds.
func TestFormNoneSharesFormJSCode(t *testing.T) {
	none, _ := assetunitFind("min/form-none.js")
	form, _ := assetunitFind("min/form.js")
	if none.Srcs[0] != "form-base.js" || form.Srcs[0] != "form-base.js" || !none.Wrapped || !form.Wrapped {
		t.Fatalf("form.js and form-none.js are not both wrapped units opening with form-base.js: %+v %+v", form, none)
	}
	for _, src := range []string{"form.js", "form-none.js"} {
		b, _ := srcFS.ReadFile(src)
		if strings.Contains(string(b), "function fold(") || strings.Contains(string(b), "function el(") {
			t.Errorf("%s defines fold or el itself: they are form-base.js's", src)
		}
	}
	a := srcAssets()
	base, _ := srcFS.ReadFile("form-base.js")
	for _, u := range []string{"min/form.js", "min/form-none.js"} {
		if !strings.Contains(a.get(u), string(base)) {
			t.Errorf("readable %s does not carry form-base.js", u)
		}
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
	for _, o := range []Options{{}, {ReadableSources: true}} {
		t.Run(map[bool]string{false: "minified", true: "readable"}[o.ReadableSources], func(t *testing.T) { testRichInlinesWhatTheToolNeeds(t, o) })
	}
}

func testRichInlinesWhatTheToolNeeds(t *testing.T, o Options) {
	a := o.assets()
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
		page, err := o.RichSpec(ToolData{Name: "t", InputSchema: json.RawMessage(tt.in), OutputSchema: json.RawMessage(tt.out)}, viewspec.New(), nil)
		if err != nil {
			t.Fatal(err)
		}
		form := a.get("min/form.js")
		if NoArguments(json.RawMessage(tt.in)) {
			form = a.get("min/form-none.js") // a tool without arguments gets none of the form compiler
		}
		for _, src := range []string{a.get("min/text.js"), a.get("min/rich.js"), form, a.get("min/page-rich.js"), a.get("min/page.css"), a.get("min/rich.css")} {
			if !strings.Contains(page, src) {
				t.Errorf("%s: the rich page does not inline %.60q", tt.name, src)
			}
		}
		if form == a.get("min/form-none.js") && strings.Contains(page, a.get("min/form.js")) {
			t.Errorf("%s: a tool without arguments got the form compiler", tt.name)
		}
		if got := strings.Contains(page, a.get("min/form-nested.js")); got != tt.nested {
			t.Errorf("%s: nested form editors inlined = %v, want %v", tt.name, got, tt.nested)
		}
		// The markdown parser and the text readers go together: only where a text can reach the view.
		for name, src := range map[string]string{"markdown parser": MarkdownJS(), "textlines.js": a.get("min/textlines.js"), "textdata.js": a.get("min/textdata.js")} {
			if got := strings.Contains(page, src); got != tt.md {
				t.Errorf("%s: %s inlined = %v, want %v", tt.name, name, got, tt.md)
			}
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

// TestTextReadersFollowTheSpec: a tool whose structured output holds no
// string gets no text readers nor markdown parser, unless its spec draws a
// part as text (a markdown, text, log or diff view), which then brings them.
func TestTextReadersFollowTheSpec(t *testing.T) {
	tool := ToolData{Name: "t", InputSchema: json.RawMessage(`{"type":"object"}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"n":{"type":"number"},"log":{}}}`)}
	a := minAssets()
	for _, tt := range []struct {
		name string
		spec viewspec.Spec
		text bool
	}{
		{"no text view", viewspec.Spec{Version: viewspec.Version, View: &viewspec.View{Kind: viewspec.KindTable}}, false},
		{"log part", viewspec.Spec{Version: viewspec.Version, Parts: []viewspec.Part{{Path: "/log", View: &viewspec.View{Kind: viewspec.KindLog}}}}, true},
		{"markdown view", viewspec.Spec{Version: viewspec.Version, View: &viewspec.View{Kind: viewspec.KindMarkdown}}, true},
	} {
		page, err := RichSpec(tool, tt.spec, nil)
		if err != nil {
			t.Fatal(err)
		}
		for name, src := range map[string]string{"markdown parser": MarkdownJS(), "textlines.js": a.get("min/textlines.js"), "textdata.js": a.get("min/textdata.js")} {
			if got := strings.Contains(page, src); got != tt.text {
				t.Errorf("%s: %s inlined = %v, want %v", tt.name, name, got, tt.text)
			}
		}
		if !strings.Contains(page, a.get("min/text.js")) || !strings.Contains(page, a.get("min/rich.js")) {
			t.Errorf("%s: text.js or rich.js left out: a result would have no renderer", tt.name)
		}
	}
}
