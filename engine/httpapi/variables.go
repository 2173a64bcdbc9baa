package httpapi

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync"

	template "github.com/DataDog/datadog-agent/pkg/template/html"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
)

// GET /variables shows the engine state (what /state serves) as a tree of
// variables: every JSON value becomes one Variable, objects and arrays list
// their children by id. Browsers get an interactive, collapsible page that
// follows GET /events; everything else (Accept: application/json, curl)
// gets JSON.

// wantsHTML reports whether the client asked for a page: ?format=html, or an
// Accept header naming text/html (browsers) unless ?format=json. curl's
// default "*/*" gets the machine-readable form.
func wantsHTML(r *http.Request) bool {
	switch r.URL.Query().Get("format") {
	case "html":
		return true
	case "json", "raw":
		return false
	}
	return strings.Contains(r.Header.Get("Accept"), "text/html")
}

func (s *Server) handleVariables(w http.ResponseWriter, r *http.Request) {
	vars, err := s.e.Variables(r.Context())
	if err != nil {
		s.log.Error("variables", "err", err)
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Add("Vary", "Accept")
	if !wantsHTML(r) {
		writeJSON(w, http.StatusOK, vars)
		return
	}
	var buf bytes.Buffer
	if err := variablesPage().Execute(&buf, variablesPageData{
		Version: engine.Version, Root: treeOf(vars.Variables, 0), Kinds: liveEventKinds,
	}); err != nil {
		s.log.Error("variables page", "err", err)
		http.Error(w, "rendering the variables page failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
	_, _ = w.Write(buf.Bytes())
}

// liveEventKinds are the /events event names after which the page
// re-fetches the tree (EventSource only delivers named events it listens to).
var liveEventKinds = []contract.EventKind{
	contract.EventToolsChanged, contract.EventUIUpdated, contract.EventGenerationStarted,
	contract.EventGenerationFinished, contract.EventGenerationFailed, contract.EventUpstreamUp, contract.EventUpstreamDown,
	contract.EventSessionsChanged, contract.EventQueued, contract.EventQueueDrained,
}

// node is a Variable with its children resolved, for the template.
type node struct {
	contract.Variable
	Label    string
	Display  string
	Children []*node
}

func treeOf(vars []contract.Variable, id int) *node {
	v := vars[id]
	n := &node{Variable: v, Label: v.Name}
	if n.Label == "" {
		n.Label = "state"
	}
	switch v.Type {
	case "object":
		n.Display = fmt.Sprintf("{%d}", v.Size)
	case "array":
		n.Display = fmt.Sprintf("[%d]", v.Size)
	case "string":
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false) // html/template escapes; keep "<" readable
		_ = enc.Encode(v.Value)
		n.Display = strings.TrimSuffix(b.String(), "\n")
	case "null":
		n.Display = "null"
	default:
		n.Display = fmt.Sprint(v.Value)
	}
	for _, c := range v.ChildIDs {
		n.Children = append(n.Children, treeOf(vars, c))
	}
	return n
}

type variablesPageData struct {
	Version string
	Root    *node
	Kinds   []contract.EventKind
}

// variablesPage renders the tree server-side (it works without scripts);
// the script re-renders it from GET /variables JSON after each engine event,
// building DOM nodes with textContent only and keeping open nodes open.
var variablesPage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("variables").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>genui variables</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<style>
body{font:13px/1.5 ui-monospace,SFMono-Regular,Menlo,monospace;margin:1rem 1.5rem;color:#1d2330;background:#fbfbfd}
@media (prefers-color-scheme:dark){body{color:#d8dee9;background:#16181d}.t{color:#8891a7}}
h1{font-size:15px;margin:0 0 .5rem}ul{list-style:none;margin:0;padding-left:1.1rem}#tree>ul{padding-left:0}
summary{cursor:pointer}.k{font-weight:600}.t{color:#6b7385;margin-left:.4rem}.string{color:#0b7a3e}.number{color:#1f5fbf}
.boolean{color:#a14d00}.null{color:#888}#status{color:#6b7385;margin-left:1rem}button{font:inherit}
</style></head>
<body data-live="connecting">
<h1>genui v{{.Version}} · variables<span id="status"></span></h1>
<p><button id="expand" type="button">expand all</button> <button id="collapse" type="button">collapse all</button>
 <a href="?format=json">JSON</a></p>
<div id="tree"><ul>{{template "node" .Root}}</ul></div>
<script type="application/json" id="kinds">{{.Kinds}}</script>
<script>
"use strict";
(function () {
  const tree = document.getElementById("tree"), status = document.getElementById("status");
  function el(tag, cls, text) { const e = document.createElement(tag); if (cls) e.className = cls; if (text !== undefined) e.textContent = text; return e; }
  function display(v) {
    switch (v.type) {
      case "object": return "{" + v.size + "}";
      case "array": return "[" + v.size + "]";
      case "string": return JSON.stringify(v.value);
      case "null": return "null";
      default: return String(v.value);
    }
  }
  function render(vars, id, open) {
    const v = vars[id], li = el("li"), label = v.name || "state";
    li.dataset.path = v.path;
    if (v.type !== "object" && v.type !== "array") {
      li.append(el("span", "k", label), document.createTextNode(": "), el("span", v.type, display(v)));
      return li;
    }
    if (v.childIds.length === 0) {
      li.append(el("span", "k", label), el("span", "t", display(v)));
      return li;
    }
    const d = el("details"), s = el("summary");
    d.dataset.path = v.path;
    d.open = open.has(v.path);
    s.append(el("span", "k", label), el("span", "t", display(v)));
    const ul = el("ul");
    for (const c of v.childIds) ul.append(render(vars, c, open));
    d.append(s, ul);
    li.append(d);
    return li;
  }
  function openPaths() { return new Set([...tree.querySelectorAll("details[open]")].map(d => d.dataset.path)); }
  let pending = null;
  async function refresh() {
    try {
      const r = await fetch("/variables", { headers: { Accept: "application/json" }, cache: "no-store" });
      if (!r.ok) throw new Error("HTTP " + r.status);
      const data = await r.json(), open = openPaths(), ul = el("ul");
      ul.append(render(data.variables, data.rootId, open));
      tree.replaceChildren(ul);
      status.textContent = " · updated " + new Date().toLocaleTimeString();
    } catch (e) {
      status.textContent = " · refresh failed: " + e.message;
    }
  }
  function schedule() { if (!pending) pending = setTimeout(() => { pending = null; refresh(); }, 150); }
  document.getElementById("expand").onclick = () => tree.querySelectorAll("details").forEach(d => d.open = true);
  document.getElementById("collapse").onclick = () => tree.querySelectorAll("details").forEach(d => d.open = false);
  const es = new EventSource("/events");
  es.onopen = () => { document.body.dataset.live = "live"; schedule(); };
  es.onerror = () => { document.body.dataset.live = "reconnecting"; };
  es.onmessage = schedule;
  for (const k of JSON.parse(document.getElementById("kinds").textContent)) es.addEventListener(k, schedule);
  window.genuiVariablesRefresh = refresh;
})();
</script>
</body></html>
{{define "node"}}<li data-path="{{.Path}}">{{if .Children}}<details data-path="{{.Path}}"{{if eq .Path ""}} open{{end}}><summary><span class="k">{{.Label}}</span><span class="t">{{.Display}}</span></summary><ul>{{range .Children}}{{template "node" .}}{{end}}</ul></details>{{else if or (eq .Type "object") (eq .Type "array")}}<span class="k">{{.Label}}</span><span class="t">{{.Display}}</span>{{else}}<span class="k">{{.Label}}</span>: <span class="{{.Type}}">{{.Display}}</span>{{end}}</li>{{end}}
`))
})
