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
	"time"

	template "github.com/DataDog/datadog-agent/pkg/template/text"

	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagecsp"
	"github.com/genui-dev/genui/pagepack"
)

//go:embed prompts/*.tmpl
var promptFS embed.FS

// Prompt template names; a prompts directory overrides any of them with a
// file of the same name.
var promptNames = []string{"system.tmpl", "generate.tmpl", "refine.tmpl", "reask.tmpl",
	"spec_system.tmpl", "spec_generate.tmpl", "spec_refine.tmpl", "spec_reask.tmpl"}

// Limits on what of a tool reaches the prompt (characters).
const (
	limitName        = 100
	limitDescription = 2000
	limitSchema      = 5000
	limitAnnotations = 1000
	limitFeedback    = 2000
	// A seen result: structuredContent and the text, each bounded on its
	// own (structuredContent first: a long text copy never pushes it out),
	// and the arguments that produced it.
	limitStructured = 3000
	limitText       = 3000
	limitArgs       = 1000
	// longCall is the duration from which a seen call makes the tool a
	// long-running one in the prompt.
	longCall = 10 * time.Second
)

var reDeclaredVersion = lazyRegexp(`version\s+([\w.\-]+)`)

// Prompts are the parsed templates: system, generate, refine and re-ask of
// the html mode, and the same four of the spec mode (spec_*.tmpl).
type Prompts struct {
	system, generate, refine, reask *template.Template
	systemText                      string
	spec                            specPrompts
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
		if m := reDeclaredVersion().FindSubmatch(firstLine(src)); m != nil {
			declared = string(m[1])
		}
		sum := sha256.Sum256(src)
		versions = append(versions, strings.TrimSuffix(name, ".tmpl")+"="+declared+"."+hex.EncodeToString(sum[:4]))
		p.Sources[name] = from
		switch name {
		case "system.tmpl":
			p.system = t
			var b strings.Builder
			if err := t.Execute(&b, map[string]any{"Rules": RulesText()}); err != nil {
				return nil, fmt.Errorf("prompt %s (%s): %w", name, from, err)
			}
			p.systemText = b.String()
			for i, r := range Rules {
				if !strings.Contains(p.systemText, r.Text) {
					return nil, fmt.Errorf("prompt %s (%s) leaves out rule %d (%s), which genui's checker enforces: the system prompt must state every rule (write {{.Rules}})",
						name, from, i+1, r.ID)
				}
			}
		case "generate.tmpl":
			p.generate = t
		case "refine.tmpl":
			p.refine = t
		case "reask.tmpl":
			p.reask = t
		default:
			if err := p.spec.set(name, t); err != nil {
				return nil, fmt.Errorf("prompt %s (%s): %w", name, from, err)
			}
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
		"ToolJSON":    toolJSON(req.Tool),
		"NameJSON":    jsonString(clip(req.Tool.Name, limitName)),
		"Example":     exampleText(req.Example, req.ExampleArgs, req.ExampleDuration),
		"Known":       knownResults(req.Tool),
		"LongRunning": longRunningNote(req),
	}
	var refs []string
	for _, r := range req.Refinements {
		refs = append(refs, oneLine(clip(r, limitFeedback)))
	}
	t := p.generate
	if req.CurrentHTML != "" && len(refs) > 0 {
		t = p.refine
		var hist []string
		for i, r := range refs[:len(refs)-1] {
			if why, ok := req.NotApplied[req.Refinements[i]]; ok {
				r = "[NOT APPLIED: " + oneLine(clip(why, limitFeedback)) + "] " + r
			}
			hist = append(hist, r)
		}
		data["History"] = hist
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

// Reask renders the message that sends a rejected page back to the model
// with its problems (the problems of rejected rules first) and the rules
// they break.
func (p *Prompts) Reask(findings []Finding) (string, error) {
	var problems []Finding
	var rules []Rule
	seen := map[RuleID]bool{}
	for _, sev := range []Severity{SeverityReject, SeverityRepair} {
		for _, f := range findings {
			if f.Severity != sev {
				continue
			}
			f.Message = neutralizeMarkers(clip(f.Message, 400))
			problems = append(problems, f)
			if !seen[f.Rule] {
				seen[f.Rule] = true
				if r, ok := RuleByID(f.Rule); ok {
					rules = append(rules, r)
				}
			}
		}
	}
	if len(problems) > 30 {
		problems = problems[:30]
	}
	var b strings.Builder
	if err := p.reask.Execute(&b, map[string]any{"Problems": problems, "Rules": rules}); err != nil {
		return "", fmt.Errorf("render prompt %s: %w", p.reask.Name(), err)
	}
	return b.String(), nil
}

// toolJSON is the tool definition as the model sees it: JSON with every
// string clipped to its limit and HTML-escaped (<, >, & as \u003c ...), so
// nothing in it can close the prompt's markers or read as markup.
func toolJSON(t Tool) string { return toolJSONIndent(t, "  ") }

// toolJSONIndent is toolJSON indented with indent ("" is compact).
func toolJSONIndent(t Tool, indent string) string {
	def := map[string]any{"name": clip(t.Name, limitName)}
	if t.Title != "" {
		def["title"] = clip(t.Title, limitName)
	}
	if t.Description != "" {
		def["description"] = clip(t.Description, limitDescription)
	}
	def["inputSchema"] = schemaValue(t.InputSchema)
	if present(t.OutputSchema) {
		def["outputSchema"] = schemaValue(t.OutputSchema)
	}
	if present(t.Annotations) {
		def["annotations"] = jsonValue(t.Annotations, limitAnnotations)
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(true)
	enc.SetIndent("", indent)
	_ = enc.Encode(def)
	return strings.TrimSpace(buf.String())
}

func present(raw json.RawMessage) bool {
	raw = bytes.TrimSpace(raw)
	return len(raw) > 0 && string(raw) != "null"
}

// schemaValue keeps a schema as JSON when it fits the limit, else as its
// clipped text.
func schemaValue(raw json.RawMessage) any {
	if len(bytes.TrimSpace(raw)) == 0 {
		return map[string]any{"type": "object"}
	}
	return jsonValue(raw, limitSchema)
}

// jsonValue keeps raw as compact JSON when it fits n characters, else as
// its clipped text.
func jsonValue(raw json.RawMessage, n int) any {
	raw = bytes.TrimSpace(raw)
	var compact bytes.Buffer
	if json.Compact(&compact, raw) == nil && compact.Len() <= n {
		return json.RawMessage(compact.Bytes())
	}
	return clip(string(raw), n)
}

// compactEscaped is raw as compact JSON with <, > and & escaped (nothing in
// it can close a marker or read as markup), clipped to n characters, and
// its full length.
func compactEscaped(raw json.RawMessage, n int) (string, int) {
	var compact bytes.Buffer
	if json.Compact(&compact, bytes.TrimSpace(raw)) != nil {
		return "", 0
	}
	var esc bytes.Buffer
	json.HTMLEscape(&esc, compact.Bytes())
	return clip(esc.String(), n), esc.Len()
}

// exampleText shows one seen result: the arguments that produced it and
// how long it took, structuredContent first, then the text blocks, each
// bounded on its own, and what other blocks it had. "" when there is none.
func exampleText(raw, args json.RawMessage, took time.Duration) string {
	return exampleTextWithin(raw, args, took, limitStructured, limitText, false)
}

// exampleTextWithin is exampleText with its own bounds on
// structuredContent and on the text blocks (characters); with
// skipCopies, a text block that holds the same JSON as structuredContent
// is named, not repeated.
func exampleTextWithin(raw, args json.RawMessage, took time.Duration, limitStructured, limitText int, skipCopies bool) string {
	if !present(raw) {
		return ""
	}
	var r struct {
		Content           []json.RawMessage `json:"content"`
		StructuredContent json.RawMessage   `json:"structuredContent"`
		IsError           bool              `json:"isError"`
	}
	if json.Unmarshal(raw, &r) != nil {
		return ""
	}
	var b strings.Builder
	if present(args) {
		a, _ := compactEscaped(args, limitArgs)
		fmt.Fprintf(&b, "Called with arguments: %s\n", a)
	}
	if took > 0 {
		fmt.Fprintf(&b, "The call took %s.\n", took.Round(100*time.Millisecond))
	}
	if r.IsError {
		b.WriteString("isError: true (the tool reported an error)\n")
	}
	if present(r.StructuredContent) {
		sc, n := compactEscaped(r.StructuredContent, limitStructured)
		fmt.Fprintf(&b, "structuredContent (JSON, %d characters):\n%s\n", n, sc)
	} else {
		b.WriteString("structuredContent: none (the data is in the content blocks)\n")
	}
	var texts []string
	var others []string
	copies := 0
	for _, c := range r.Content {
		var blk struct {
			Type, Text, MimeType, URI, Name string
			Resource                        *struct{ URI, MimeType string }
		}
		if json.Unmarshal(c, &blk) != nil {
			continue
		}
		switch blk.Type {
		case "text":
			if skipCopies && present(r.StructuredContent) && sameJSON(blk.Text, r.StructuredContent) {
				copies++
				continue
			}
			texts = append(texts, blk.Text)
		case "image", "audio":
			others = append(others, fmt.Sprintf("%s (%s)", blk.Type, blk.MimeType))
		case "resource":
			if blk.Resource != nil {
				others = append(others, fmt.Sprintf("resource %s (%s)", blk.Resource.URI, blk.Resource.MimeType))
			}
		case "resource_link":
			others = append(others, fmt.Sprintf("resource_link %s", blk.URI))
		default:
			others = append(others, blk.Type)
		}
	}
	if copies > 0 {
		fmt.Fprintf(&b, "content: %d text block(s) holding the same JSON as structuredContent\n", copies)
	}
	if len(texts) > 0 {
		// Each block as a JSON string (escapes show tabs and newlines
		// exactly; <, > and & stay escaped), within one budget.
		fmt.Fprintf(&b, "content: %d text block(s), each a JSON string:\n", len(texts))
		left := limitText
		for i, t := range texts {
			if left <= 0 {
				fmt.Fprintf(&b, "(%d more text block(s) left out)\n", len(texts)-i)
				break
			}
			q := jsonString(t)
			n := len([]rune(t))
			if len([]rune(q)) > left {
				q = jsonString(string([]rune(t)[:min(n, left)])) + fmt.Sprintf(" …[truncated: %d of %d characters shown]", min(n, left), n)
			}
			left -= len([]rune(q))
			b.WriteString(q + "\n")
		}
	}
	if len(others) > 0 {
		fmt.Fprintf(&b, "other content blocks: %s\n", neutralizeMarkers(clip(strings.Join(others, ", "), 500)))
	}
	return strings.TrimRight(b.String(), "\n")
}

// sameJSON reports whether text is JSON equal to raw (compared compact).
func sameJSON(text string, raw json.RawMessage) bool {
	var a, b bytes.Buffer
	return json.Compact(&a, []byte(text)) == nil && json.Compact(&b, raw) == nil && bytes.Equal(a.Bytes(), b.Bytes())
}

// knownResults says what is known of a tool's results before one was seen:
// from the outputSchema, the description and the annotations.
func knownResults(t Tool) string {
	var out []string
	if present(t.OutputSchema) {
		out = append(out, "- It declares an outputSchema: result.structuredContent is a JSON value that follows it (render from it), and content usually repeats it as text.")
	} else {
		out = append(out, "- It declares no outputSchema: the data comes as content blocks, usually one text block whose format is not declared: it may be JSON, a line-based listing (\"[FILE] name\", \"key: value\"), CSV, markdown or prose. The description may say which. Parse defensively (try JSON, then lines) and always fall back to showing the text as it is.")
	}
	var a struct {
		ReadOnly    *bool `json:"readOnlyHint"`
		Destructive *bool `json:"destructiveHint"`
		Idempotent  *bool `json:"idempotentHint"`
		OpenWorld   *bool `json:"openWorldHint"`
	}
	if json.Unmarshal(t.Annotations, &a) == nil {
		if a.ReadOnly != nil && *a.ReadOnly {
			out = append(out, "- readOnlyHint: calling it changes nothing.")
		}
		if a.Destructive != nil && *a.Destructive && (a.ReadOnly == nil || !*a.ReadOnly) {
			out = append(out, "- destructiveHint: it may delete or overwrite data: make the submit button say what it does and ask for a confirmation click in the page before calling it.")
		}
		if a.OpenWorld != nil && *a.OpenWorld {
			out = append(out, "- openWorldHint: it reaches outside systems, so results vary and may fail: show errors clearly.")
		}
	}
	out = append(out, "- A failed call has isError: true with the reason as text.")
	return strings.Join(out, "\n")
}

var reLongRunning = lazyRegexp(`(?i)\b(?:long[- ]running|takes? (?:a (?:few |couple of )?|several |many )?(?:minutes?|hours?)|may take (?:a )?(?:while|long|time)|progress (?:updates|notifications)|in the background|slow)\b`)

// longRunningNote tells the model to use the call options when the tool
// may run long: its description says so, or a seen call took longCall.
func longRunningNote(req Request) string {
	why := ""
	switch {
	case req.ExampleDuration >= longCall:
		why = fmt.Sprintf("a call of it took %s", req.ExampleDuration.Round(time.Second))
	case reLongRunning().MatchString(req.Tool.Description):
		why = fmt.Sprintf("its description says %q", reLongRunning().FindString(req.Tool.Description))
	default:
		return ""
	}
	return "This tool may run long (" + neutralizeMarkers(why) + "): call it with app.callServerTool(params, { timeout, signal, onprogress }) " +
		"and a timeout of at least 10 minutes, show the progress it reports, and offer a Cancel button that aborts the call."
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

var reMarker = lazyRegexp(`(?i)</?\s*(tool_definition|example_result|user_refinements|refinement_history|user_feedback|current_page|proposed_spec|current_spec)\b`)

// neutralizeMarkers breaks any prompt marker inside data.
func neutralizeMarkers(s string) string {
	return reMarker().ReplaceAllStringFunc(s, func(m string) string { return strings.Replace(m, "<", "‹", 1) })
}

// fence keeps the current page from closing its own marker.
func fence(html, marker string) string {
	return regexp.MustCompile(`(?i)</\s*`+marker).ReplaceAllString(html, "<\\/"+marker)
}

var reShimElement = lazyRegexp(`(?is)<script\s+` + mcpshim.ShimAttr + `\b[^>]*>.*?</script\s*>`)

// stripShim removes genui's inlined App bridge (30 KB the model need not
// see; repair puts it back) and the page's CSP meta tag (written again for
// the new page's scripts).
func stripShim(html string) string { return mcpshim.StripGuarded(pagecsp.Strip(html)) }

// stripPacked replaces the packed renderers of an offline page (tens of KB
// of base64 a model can neither read nor keep) with a note.
func stripPacked(html string) string {
	return pagepack.Strip(html, "<!-- genui's offline renderers and styles were here (packed, left out): write the page's own code and styles -->")
}
