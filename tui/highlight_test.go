package tui

import (
	"testing"

	"github.com/alecthomas/chroma/v2"
	"github.com/alecthomas/chroma/v2/lexers"
	chromastyles "github.com/alecthomas/chroma/v2/styles"

	"github.com/genui-dev/genui/viewdefs"
)

// TestHighlightMatchesChroma: the lexers and styles copied from chroma
// tokenise and colour a page exactly as chroma's own registries do.
func TestHighlightMatchesChroma(t *testing.T) {
	viewdefs.UseReadableSources(true) // scripts and styles on many lines
	page, err := viewdefs.Rich(viewdefs.ToolData{Name: "t", Description: "<b>x</b> & y",
		InputSchema: []byte(`{"type":"object","properties":{"q":{"type":"string"}}}`)}, viewdefs.ViewConfig{})
	viewdefs.UseReadableSources(false)
	if err != nil {
		t.Fatal(err)
	}
	tokens := func(l chroma.Lexer) []chroma.Token {
		it, err := chroma.Coalesce(l).Tokenise(nil, page)
		if err != nil {
			t.Fatal(err)
		}
		return it.Tokens()
	}
	ours, theirs := tokens(htmlLexer()), tokens(lexers.Get("html"))
	if len(ours) != len(theirs) {
		t.Fatalf("%d tokens, chroma's HTML lexer makes %d", len(ours), len(theirs))
	}
	types := map[chroma.TokenType]bool{}
	for i := range ours {
		if ours[i] != theirs[i] {
			t.Fatalf("token %d: %v, chroma's %v", i, ours[i], theirs[i])
		}
		types[ours[i].Type] = true
	}
	if len(types) < 10 {
		t.Errorf("only %d token types in a page: the JavaScript and CSS lexers were not used", len(types))
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
