package browsertest

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// ContrastJS is a JavaScript function expression, called as
// fn(window, document, min) (FrameEval passes the first two; min defaults
// to 4.5), that walks the rendered DOM and returns every piece of visible
// text whose colour has a WCAG 2 contrast ratio below min against the
// background it is drawn on, as ContrastIssue objects (worst first, at most
// 60, one per colour pair and element kind).
//
// What counts as text: an element's own non-blank text nodes, the value of
// a text input, select or text area, the generated ::before/::after text of
// an element, and SVG text (its fill). Text that is not rendered
// (checkVisibility with opacity and visibility), inside a disabled control
// (WCAG exempts inactive components) or a placeholder is left out. The
// background is found by compositing the background colours of the element
// and its ancestors (translucent layers over the first opaque one, else
// white); the text colour's alpha and the ancestors' opacity are blended in.
const ContrastJS = `(w, d, min) => {
  min = min || 4.5;
  const parse = (s) => {
    if (!s) return null;
    let m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,\/]\s*([\d.]+%?))?\s*\)/.exec(s);
    if (m) return [+m[1], +m[2], +m[3], m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : +m[4]];
    m = /color\(srgb\s+([\d.e+-]+)\s+([\d.e+-]+)\s+([\d.e+-]+)(?:\s*\/\s*([\d.]+%?))?\s*\)/.exec(s);
    if (m) return [m[1] * 255, m[2] * 255, m[3] * 255, m[4] === undefined ? 1 : m[4].endsWith("%") ? parseFloat(m[4]) / 100 : +m[4]];
    return null;
  };
  const over = (top, under) => [0, 1, 2].map((i) => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const lum = (c) => {
    const f = (v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); };
    return 0.2126 * f(c[0]) + 0.7152 * f(c[1]) + 0.0722 * f(c[2]);
  };
  const ratio = (a, b) => { const x = lum(a), y = lum(b); return (Math.max(x, y) + 0.05) / (Math.min(x, y) + 0.05); };
  const hex = (c) => "#" + c.slice(0, 3).map((v) => Math.round(v).toString(16).padStart(2, "0")).join("");
  const background = (e) => {
    const layers = [];
    let alpha = 1;
    for (let a = e; a && a.nodeType === 1; a = a.parentElement) {
      const cs = w.getComputedStyle(a);
      alpha *= parseFloat(cs.opacity);
      const bg = parse(cs.backgroundColor);
      if (bg && bg[3] > 0) { layers.push(bg); if (bg[3] >= 1) break; }
    }
    let c = [255, 255, 255, 1];
    for (let i = layers.length - 1; i >= 0; i--) c = over(layers[i], c);
    return { bg: c, alpha: alpha };
  };
  const path = (e) => {
    const parts = [];
    for (let a = e; a && a.nodeType === 1 && parts.length < 4 && a !== d.body; a = a.parentElement) {
      let p = a.tagName.toLowerCase();
      if (a.id) p += "#" + a.id;
      else if (typeof a.className === "string" && a.className.trim()) p += "." + a.className.trim().split(/\s+/).join(".");
      parts.unshift(p);
    }
    return parts.join(" > ");
  };
  const disabled = (e) => !!(e.closest && e.closest(":disabled, [aria-disabled=true]"));
  const out = [], seen = {};
  const check = (e, colour, text, what) => {
    const fg = parse(colour);
    if (!fg || !text.trim()) return;
    const b = background(e);
    const c = over([fg[0], fg[1], fg[2], fg[3] * b.alpha], b.bg);
    const r = ratio(c, b.bg);
    if (r >= min) return;
    const key = hex(c) + hex(b.bg) + path(e).replace(/:nth.*$/, "") + what;
    if (seen[key]) return;
    seen[key] = true;
    out.push({ path: path(e) + (what ? " " + what : ""), text: text.trim().slice(0, 60), color: hex(c), background: hex(b.bg), ratio: Math.round(r * 100) / 100 });
  };
  for (const e of d.body.querySelectorAll("*")) {
    if (/^(?:SCRIPT|STYLE|TEMPLATE|OPTION|NOSCRIPT|TITLE)$/.test(e.tagName)) continue;
    if (e.closest("svg") && !/^(?:text|tspan)$/i.test(e.tagName)) continue;
    if (!e.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true }) || disabled(e)) continue;
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    const cs = w.getComputedStyle(e);
    if (e.closest("svg")) { check(e, cs.fill, e.textContent, ""); continue; }
    let own = "";
    for (const n of e.childNodes) if (n.nodeType === 3) own += n.nodeValue;
    if (e.tagName === "INPUT" && !/^(?:checkbox|radio|range|color|file|hidden|image|submit|button|reset)$/.test(e.type)) own = e.value;
    if (e.tagName === "TEXTAREA") own = e.value;
    if (e.tagName === "SELECT") own = e.selectedOptions && e.selectedOptions[0] ? e.selectedOptions[0].textContent : "";
    check(e, cs.color, own, "");
    for (const pseudo of ["::before", "::after"]) {
      const pc = w.getComputedStyle(e, pseudo);
      const content = pc.content;
      if (!content || content === "none" || content === "normal" || pc.display === "none") continue;
      let text = content.replace(/^["']|["']$/g, "");
      const am = /^attr\(([\w-]+)\)$/.exec(content);
      if (am) text = e.getAttribute(am[1]) || "";
      check(e, pc.color, text, pseudo);
    }
  }
  out.sort((a, b) => a.ratio - b.ratio);
  return out.slice(0, 60);
}`

// ContrastIssue is one piece of text below the contrast asked for.
type ContrastIssue struct {
	Path       string  `json:"path"`       // the element (up to 4 levels), and ::before/::after
	Text       string  `json:"text"`       // its text, up to 60 characters
	Color      string  `json:"color"`      // the text colour as drawn (#rrggbb)
	Background string  `json:"background"` // the composited background (#rrggbb)
	Ratio      float64 `json:"ratio"`
}

func (c ContrastIssue) String() string {
	return fmt.Sprintf("%.2f:1 %s on %s: %s %q", c.Ratio, c.Color, c.Background, c.Path, c.Text)
}

// LowContrast walks the document of the iframe iframeSel selects with
// ContrastJS and returns the text below min (4.5 for WCAG AA body text).
func LowContrast(ctx context.Context, iframeSel string, min float64) ([]ContrastIssue, error) {
	fn := fmt.Sprintf("(w, d) => (%s)(w, d, %g)", ContrastJS, min)
	raw, err := FrameEval(ctx, iframeSel, fn)
	if err != nil {
		return nil, err
	}
	var out []ContrastIssue
	if err := json.Unmarshal(raw, &out); err != nil {
		return nil, fmt.Errorf("contrast walk: %w (%s)", err, strings.TrimSpace(string(raw)))
	}
	return out, nil
}
