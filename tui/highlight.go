package tui

import (
	"embed"
	"sync"

	"github.com/alecthomas/chroma/v2"
)

// The UI tab highlights HTML with chroma's HTML lexer (and its JavaScript
// and CSS lexers for scripts and styles) and the github/github-dark
// styles, copied from chroma v2.27.0 (MIT, chroma/COPYING) and built on
// first use. Importing chroma's lexers and styles packages instead would
// parse its 250 lexers and 70 styles at every genui start (about 10 ms,
// paid by every command, `genui mcp` and its `genui demo-server` child
// included). TestHighlightMatchesChroma checks the copies against chroma.

//go:embed chroma/*.xml
var chromaFS embed.FS

// htmlLexer is the HTML lexer, with the JavaScript and CSS lexers it
// delegates to in its own registry.
var htmlLexer = sync.OnceValue(func() chroma.Lexer {
	reg := chroma.NewLexerRegistry()
	var html chroma.Lexer
	for _, name := range []string{"html", "javascript", "css"} {
		l, err := chroma.NewXMLLexer(chromaFS, "chroma/"+name+".xml")
		if err != nil {
			return nil
		}
		reg.Register(l)
		if name == "html" {
			html = l
		}
	}
	return html
})

// chromaStyles are the styles the UI tab uses, by name.
var chromaStyles = sync.OnceValue(func() map[string]*chroma.Style {
	out := map[string]*chroma.Style{}
	for _, name := range []string{"github", "github-dark"} {
		f, err := chromaFS.Open("chroma/" + name + ".xml")
		if err != nil {
			continue
		}
		s, err := chroma.NewXMLStyle(f)
		f.Close()
		if err == nil {
			out[name] = s
		}
	}
	return out
})
