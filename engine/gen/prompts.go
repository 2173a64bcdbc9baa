package gen

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"text/template"

	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagepack"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// Prompt template names; a prompts directory overrides any of them with a
// file of the same name.
var promptNames = []string{"system.tmpl", "generate.tmpl", "refine.tmpl"}

// Limits on what of a tool reaches the prompt (characters).
const (
	limitName        = 100
	limitDescription = 2000
	limitSchema      = 5000
	limitExample     = 4000
	limitFeedback    = 2000
)

var reDeclaredVersion = regexp.MustCompile(`version\s+([\w.\-]+)`)

// Prompts are the parsed system, generate and refine templates.
type Prompts struct {
	system, generate, refine *template.Template
	systemText               string
	// Version identifies the three templates (declared versions and content
	// hashes); it is part of every cache key.
	Version string
	// Sources says where each template came from ("embedded" or a path).
	Sources map[string]string
}

// LoadPrompts parses the embedded templates, each replaced by dir/<name>
// when dir is set and holds that file. A template that does not parse is an
// error that names the file.
func LoadPrompts(dir string) (*Prompts, error) {
	p := &Prompts{Sources: map[string]string{}}
	var versions []string
	for _, name := range promptNames {
		src, err := fs.ReadFile(promptFS, "prompts/"+name)
		if err != nil {
			return nil, fmt.Errorf("embedded prompt %s: %w", name, err)
		}
		from := "embedded"
		if dir != "" {
			path := filepath.Join(dir, name)
			b, err := os.ReadFile(path)
			switch {
			case err == nil:
				src, from = b, path
			case !errors.Is(err, fs.ErrNotExist):
				return nil, fmt.Errorf("prompt %s: %w", path, err)
			}
		}
		t, err := template.New(name).Option("missingkey=error").Parse(string(src))
		if err != nil {
			return nil, fmt.Errorf("prompt %s (%s): %w", name, from, err)
		}
		declared := "0"
		if m := reDeclaredVersion.FindSubmatch(firstLine(src)); m != nil {
			declared = string(m[1])
		}
		sum := sha256.Sum256(src)
		versions = append(versions, strings.TrimSuffix(name, ".tmpl")+"="+declared+"."+hex.EncodeToString(sum[:4]))
		p.Sources[name] = from
		switch name {
		case "system.tmpl":
			p.system = t
			var b strings.Builder
			if err := t.Execute(&b, nil); err != nil {
				return nil, fmt.Errorf("prompt %s (%s): %w", name, from, err)
			}
			p.systemText = b.String()
		case "generate.tmpl":
			p.generate = t
		case "refine.tmpl":
			p.refine = t
		}
	}
	p.Version = strings.Join(versions, ",")
	return p, nil
}

func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i]
	}
	return b
}

// System is the fixed system prompt.
func (p *Prompts) System() string { return p.systemText }

// User renders the user message for req: the refine template when req has
// a current page and refinements, else the generate template.
func (p *Prompts) User(req Request) (string, error) {
	data := map[string]any{
		"ToolJSON": toolJSON(req.Tool),
		"NameJSON": jsonString(clip(req.Tool.Name, limitName)),
		"Example":  exampleText(req.Example),
	}
	var refs []string
	for _, r := range req.Refinements {
		refs = append(refs, oneLine(clip(r, limitFeedback)))
	}
	t := p.generate
	if req.CurrentHTML != "" && len(refs) > 0 {
		t = p.refine
		data["History"] = refs[:len(refs)-1]
		data["Feedback"] = refs[len(refs)-1]
		data["CurrentHTML"] = fence(stripPacked(stripShim(req.CurrentHTML)), "current_page")
	} else {
		data["Refinements"] = refs
	}
	var b strings.Builder
	if err := t.Execute(&b, data); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", t.Name(), err)
	}
	return b.String(), nil
}

// toolJSON is the tool definition as the model sees it: JSON with every
// string clipped to its limit and HTML-escaped (<, >, & as \u003c ...), so
// nothing in it can close the prompt's markers or read as markup.
func toolJSON(t Tool) string {
	def := map[string]any{"name": clip(t.Name, limitName)}
	if t.Title != "" {
		def["title"] = clip(t.Title, limitName)
	}
	if t.Description != "" {
		def["description"] = clip(t.Description, limitDescription)
	}
	def["inputSchema"] = schemaValue(t.InputSchema)
	if len(bytes.TrimSpace(t.OutputSchema)) > 0 && string(bytes.TrimSpace(t.OutputSchema)) != "null" {
		def["outputSchema"] = schemaValue(t.OutputSchema)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	enc.SetIndent("", "  ")
	_ = enc.Encode(def)
	return strings.TrimSpace(buf.String())
}

// schemaValue keeps a schema as JSON when it fits the limit, else as its
// clipped text.
func schemaValue(raw json.RawMessage) any {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return map[string]any{"type": "object"}
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil && compact.Len() <= limitSchema {
		return json.RawMessage(compact.Bytes())
	}
	return clip(string(raw), limitSchema)
}

// exampleText is a result as compact JSON, clipped and HTML-escaped.
func exampleText(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return ""
	}
	var compact bytes.Buffer
	if json.Compact(&compact, raw) != nil {
		return ""
	}
	var esc bytes.Buffer
	json.HTMLEscape(&esc, compact.Bytes())
	return clip(esc.String(), limitExample)
}

func jsonString(s string) string {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	_ = enc.Encode(s)
	return strings.TrimSpace(buf.String())
}

// clip shortens s to at most n characters (runes), marking the cut.
func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + " …[truncated]"
}

// oneLine keeps a refinement on one line and away from the markers.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	return neutralizeMarkers(s)
}

var reMarker = regexp.MustCompile(`(?i)</?\s*(tool_definition|example_result|user_refinements|refinement_history|user_feedback|current_page)\b`)

// neutralizeMarkers breaks any prompt marker inside data.
func neutralizeMarkers(s string) string {
	return reMarker.ReplaceAllStringFunc(s, func(m string) string { return strings.Replace(m, "<", "‹", 1) })
}

// fence keeps the current page from closing its own marker.
func fence(html, marker string) string {
	return regexp.MustCompile(`(?i)</\s*`+marker).ReplaceAllString(html, "<\\/"+marker)
}

var reShimElement = regexp.MustCompile(`(?is)<script\s+` + mcpshim.ShimAttr + `\b[^>]*>.*?</script\s*>`)

// stripShim removes genui's inlined App bridge (30 KB the model need not
// see; repair puts it back).
func stripShim(html string) string { return reShimElement.ReplaceAllString(html, "") }

// stripPacked replaces the packed renderers of an offline page (tens of KB
// of base64 a model can neither read nor keep) with a note.
func stripPacked(html string) string {
	return pagepack.Strip(html, "<!-- genui's offline renderers and styles were here (packed, left out): write the page's own code and styles -->")
}
