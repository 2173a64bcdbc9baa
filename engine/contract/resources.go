package contract

import (
	"encoding/json"
	"strings"
)

// The upstream's resources, resource templates and prompts, and the roots
// genui answers roots/list with, as front ends list and use them (the
// TUI's Resources and Prompts panes, the preview's resource links).

// Resource is one resource the upstream lists.
type Resource struct {
	URI         string          `json:"uri"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MIMEType    string          `json:"mimeType,omitempty"`
	Size        *int64          `json:"size,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	// Raw is the resource as the upstream sent it.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// ResourceTemplate is one resource template the upstream lists.
type ResourceTemplate struct {
	URITemplate string          `json:"uriTemplate"`
	Name        string          `json:"name"`
	Title       string          `json:"title,omitempty"`
	Description string          `json:"description,omitempty"`
	MIMEType    string          `json:"mimeType,omitempty"`
	Annotations json.RawMessage `json:"annotations,omitempty"`
	// Arguments are the template's variables, in order (what a form asks for).
	Arguments []string        `json:"arguments"`
	Raw       json.RawMessage `json:"raw,omitempty"`
}

// Expand is the URI the template names with these arguments (RFC 6570).
func (t ResourceTemplate) Expand(args map[string]string) string {
	return ExpandURITemplate(t.URITemplate, args)
}

// ResourceContents is a resources/read result.
type ResourceContents struct {
	URI      string            `json:"uri"`
	Contents []ResourceContent `json:"contents"`
	// Raw is the result verbatim.
	Raw json.RawMessage `json:"raw,omitempty"`
}

// ResourceContent is one of a resource's contents: Text, or Blob (base64).
type ResourceContent struct {
	URI      string          `json:"uri"`
	MIMEType string          `json:"mimeType,omitempty"`
	Text     *string         `json:"text,omitempty"`
	Blob     string          `json:"blob,omitempty"`
	Meta     json.RawMessage `json:"_meta,omitempty"`
}

// Prompt is one prompt the upstream lists.
type Prompt struct {
	Name        string           `json:"name"`
	Title       string           `json:"title,omitempty"`
	Description string           `json:"description,omitempty"`
	Arguments   []PromptArgument `json:"arguments"`
	Raw         json.RawMessage  `json:"raw,omitempty"`
}

// PromptArgument is one argument of a prompt.
type PromptArgument struct {
	Name        string `json:"name"`
	Title       string `json:"title,omitempty"`
	Description string `json:"description,omitempty"`
	Required    bool   `json:"required,omitempty"`
}

// GetPromptRequest asks for a prompt with its arguments filled in.
type GetPromptRequest struct {
	Name      string            `json:"name"`
	Arguments map[string]string `json:"arguments,omitempty"`
}

// PromptResult is a prompts/get result.
type PromptResult struct {
	Description string `json:"description,omitempty"`
	// Messages are the prompt's messages verbatim (role + content block).
	Messages json.RawMessage `json:"messages"`
	Raw      json.RawMessage `json:"raw,omitempty"`
}

// Root is one root genui answers the upstream's roots/list with.
type Root struct {
	URI  string `json:"uri"`
	Name string `json:"name,omitempty"`
}

// ResourceUpdated is the detail of EventResourceUpdated: the upstream said
// a resource changed (notifications/resources/updated); subscribe with
// SubscribeResource.
type ResourceUpdated struct {
	URI string `json:"uri"`
}

// ListChanged is the detail of EventListChanged: the upstream's list of
// resources or prompts changed (List is "resources" or "prompts").
type ListChanged struct {
	List string `json:"list"`
}

// TemplateVariables lists the variables of an RFC 6570 URI template, in
// order, each once.
func TemplateVariables(tpl string) []string {
	out := []string{}
	seen := map[string]bool{}
	for _, ex := range templateExpressions(tpl) {
		for _, v := range ex.vars {
			if !seen[v.name] {
				seen[v.name] = true
				out = append(out, v.name)
			}
		}
	}
	return out
}

// ExpandURITemplate expands an RFC 6570 URI template (levels 1-3 and the
// explode and prefix modifiers for string values). Undefined variables
// expand to nothing.
func ExpandURITemplate(tpl string, args map[string]string) string {
	var b strings.Builder
	for _, part := range splitTemplate(tpl) {
		if !part.expr {
			b.WriteString(part.text)
			continue
		}
		ex := parseExpression(part.text)
		first := true
		for _, v := range ex.vars {
			val, ok := args[v.name]
			if !ok {
				continue
			}
			if v.prefix > 0 && len([]rune(val)) > v.prefix {
				val = string([]rune(val)[:v.prefix])
			}
			if first {
				b.WriteString(ex.first)
				first = false
			} else {
				b.WriteString(ex.sep)
			}
			if ex.named {
				b.WriteString(v.name)
				if val == "" {
					b.WriteString(ex.ifEmpty)
					continue
				}
				b.WriteByte('=')
			}
			b.WriteString(encodeTemplateValue(val, ex.reserved))
		}
	}
	return b.String()
}

type templatePart struct {
	text string
	expr bool
}

func splitTemplate(tpl string) []templatePart {
	var out []templatePart
	for tpl != "" {
		i := strings.IndexByte(tpl, '{')
		if i < 0 {
			out = append(out, templatePart{text: tpl})
			break
		}
		j := strings.IndexByte(tpl[i:], '}')
		if j < 0 {
			out = append(out, templatePart{text: tpl})
			break
		}
		if i > 0 {
			out = append(out, templatePart{text: tpl[:i]})
		}
		out = append(out, templatePart{text: tpl[i+1 : i+j], expr: true})
		tpl = tpl[i+j+1:]
	}
	return out
}

type templateVar struct {
	name   string
	prefix int
}

type templateExpr struct {
	first, sep, ifEmpty string
	named, reserved     bool
	vars                []templateVar
}

func templateExpressions(tpl string) []templateExpr {
	var out []templateExpr
	for _, p := range splitTemplate(tpl) {
		if p.expr {
			out = append(out, parseExpression(p.text))
		}
	}
	return out
}

func parseExpression(s string) templateExpr {
	ex := templateExpr{sep: ","}
	if s != "" {
		switch s[0] {
		case '+':
			ex.reserved, s = true, s[1:]
		case '#':
			ex.first, ex.reserved, s = "#", true, s[1:]
		case '.':
			ex.first, ex.sep, s = ".", ".", s[1:]
		case '/':
			ex.first, ex.sep, s = "/", "/", s[1:]
		case ';':
			ex.first, ex.sep, ex.named, s = ";", ";", true, s[1:]
		case '?':
			ex.first, ex.sep, ex.named, ex.ifEmpty, s = "?", "&", true, "=", s[1:]
		case '&':
			ex.first, ex.sep, ex.named, ex.ifEmpty, s = "&", "&", true, "=", s[1:]
		}
	}
	for _, name := range strings.Split(s, ",") {
		name = strings.TrimSuffix(strings.TrimSpace(name), "*")
		v := templateVar{name: name}
		if n, p, ok := strings.Cut(name, ":"); ok {
			v.name = n
			for _, c := range p {
				if c < '0' || c > '9' {
					v.prefix = 0
					break
				}
				v.prefix = v.prefix*10 + int(c-'0')
			}
		}
		if v.name != "" {
			ex.vars = append(ex.vars, v)
		}
	}
	return ex
}

// encodeTemplateValue percent-encodes a value: unreserved characters stay;
// with reserved ({+var}, {#var}), the reserved set and existing %XX stay too.
func encodeTemplateValue(s string, reserved bool) string {
	const unreserved = "-._~"
	const reservedSet = ":/?#[]@!$&'()*+,;="
	const hex = "0123456789ABCDEF"
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', strings.IndexByte(unreserved, c) >= 0:
			b.WriteByte(c)
		case reserved && strings.IndexByte(reservedSet, c) >= 0:
			b.WriteByte(c)
		case reserved && c == '%' && i+2 < len(s) && isHex(s[i+1]) && isHex(s[i+2]):
			b.WriteByte(c)
		default:
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&15])
		}
	}
	return b.String()
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}
