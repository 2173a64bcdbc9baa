package tui

import (
	"bytes"
	"encoding/xml"
	"maps"
	"slices"
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"github.com/genui-dev/genui/viewdefs"
	"github.com/genui-dev/genui/viewspec"
)

// TestHighlightMatchesChroma: the lexers and styles copied from chroma are
// chroma's own (the same rules, compared as chroma serialises them, so no
// regexp runs: chroma gives each rule a 250 ms match timeout, which a
// loaded machine can hit, and a rule that times out is skipped), and a page
// tokenised with them reaches the JavaScript and CSS lexers through our
// registry.
func TestHighlightMatchesChroma(t *testing.T) {
	for _, name := range []string{"html", "javascript", "css"} {
		ours, err := chroma.NewXMLLexer(chromaFS, "chroma/"+name+".xml")
		if err != nil {
			t.Fatal(err)
		}
		theirs, ok := lexers.Get(name).(*chroma.RegexLexer)
		if !ok {
			t.Fatalf("chroma's %s lexer is a %T, not a RegexLexer", name, lexers.Get(name))
		}
		a, errA := lexerXML(ours)
		b, errB := lexerXML(theirs)
		if errA != nil || errB != nil {
			t.Fatalf("%s: %v %v", name, errA, errB)
		}
		if !bytes.Equal(a, b) {
			t.Errorf("the %s lexer differs from chroma's:\nours:\n%s\nchroma's:\n%s", name, a, b)
		}
	}
	// The readable sources: scripts and styles on many lines.
	page, err := viewdefs.Options{ReadableSources: true}.RichSpec(viewdefs.ToolData{Name: "t", Description: "<b>x</b> & y",
		InputSchema: []byte(`{"type":"object","properties":{"q":{"type":"string"}}}`)}, viewspec.New(), nil)
	if err != nil {
		t.Fatal(err)
	}
	it, err := chroma.Coalesce(htmlLexer()).Tokenise(nil, page)
	if err != nil {
		t.Fatal(err)
	}
	types := map[chroma.TokenType]bool{}
	for _, tok := range it.Tokens() {
		types[tok.Type] = true
	}
	// Only the JavaScript lexer makes declaration keywords, only the CSS
	// lexer class names (chroma/*.xml: the HTML lexer makes neither).
	for _, want := range []chroma.TokenType{chroma.KeywordDeclaration, chroma.NameClass} {
		if !types[want] {
			t.Errorf("no %v token in a page: the JavaScript and CSS lexers were not reached (types: %v)", want, types)
		}
	}
	for _, name := range []string{"github", "github-dark"} {
		ours, theirs := chromaStyles()[name], chromastyles.Get(name)
		if ours == nil {
			t.Fatalf("style %s missing", name)
		}
		for tt := range types {
			if ours.Get(tt) != theirs.Get(tt) {
				t.Errorf("%s: %v is %v, chroma's %v", name, tt, ours.Get(tt), theirs.Get(tt))
			}
		}
	}
}

// lexerXML is a lexer's config and rules as chroma serialises them, the
// states in name order (chroma.Marshal writes them in map order).
func lexerXML(l *chroma.RegexLexer) ([]byte, error) {
	rules, err := l.Rules()
	if err != nil {
		return nil, err
	}
	out, err := xml.MarshalIndent(l.Config(), "", " ")
	if err != nil {
		return nil, err
	}
	for _, state := range slices.Sorted(maps.Keys(rules)) {
		b, err := xml.MarshalIndent(struct {
			XMLName xml.Name      `xml:"state"`
			Name    string        `xml:"name,attr"`
			Rules   []chroma.Rule `xml:"rule"`
		}{Name: state, Rules: rules[state]}, "", " ")
		if err != nil {
			return nil, err
		}
		out = append(append(out, '\n'), b...)
	}
	return out, nil
}
