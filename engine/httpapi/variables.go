package httpapi

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"html/template"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/genui-dev/genui/engine"
)

// GET /variables shows the engine state (what /state serves) as a tree of
// variables: every JSON value becomes one Variable, objects and arrays list
// their children by id. Browsers get an interactive, collapsible page that
// follows GET /events; everything else (Accept: application/json, curl)
// gets JSON.

func init() {
	extraRoutes = append(extraRoutes, func(s *Server) {
		s.api.HandleFunc("GET /variables", s.handleVariables)
	})
}

// Variable is one node of the state tree.
type Variable struct {
	ID int `json:"id"`
	// ParentID is null for the root.
	ParentID *int `json:"parentId"`
	// Name is the key in the parent object, or "[i]" in an array ("" for the root).
	Name string `json:"name"`
	// Path addresses the node from the root: "upstream.connected",
	// "tools[0].name", `refinements["my.tool"]` ("" for the root).
	Path string `json:"path"`
	// Type is the JSON type: object, array, string, number, boolean or null.
	Type string `json:"type"`
	// Value is the scalar's value; null for objects and arrays.
	Value any `json:"value"`
	// Size is the number of children of an object or array.
	Size     int   `json:"size,omitempty"`
	ChildIDs []int `json:"childIds"`
}

// Variables is the body of GET /variables as JSON. Variables[0] is the root
// (id 0) and ids are indexes into Variables.
type Variables struct {
	Version   string     `json:"version"`
	RootID    int        `json:"rootId"`
	Variables []Variable `json:"variables"`
}

// StateJSON returns /state's body, the source of the MCP resource ui://state.
func (s *Server) StateJSON() ([]byte, error) {
	b, err := json.MarshalIndent(s.Snapshot(), "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding state: %w", err)
	}
	return b, nil
}

// VariablesJSON returns /variables' JSON body, the source of the MCP
// resource ui://variables.
func (s *Server) VariablesJSON() ([]byte, error) {
	vars, err := s.variables()
	if err != nil {
		return nil, err
	}
	b, err := json.MarshalIndent(vars, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("encoding variables: %w", err)
	}
	return b, nil
}

func (s *Server) variables() (Variables, error) {
	state, err := json.Marshal(s.Snapshot())
	if err != nil {
		return Variables{}, fmt.Errorf("encoding state: %w", err)
	}
	vars, err := BuildVariables(state)
	if err != nil {
		return Variables{}, err
	}
	return Variables{Version: engine.Version, RootID: 0, Variables: vars}, nil
}

// BuildVariables walks any JSON document and returns its nodes in document
// order (object keys keep their order), the root first with id 0.
func BuildVariables(doc []byte) ([]Variable, error) {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	w := &walker{dec: dec}
	if _, err := w.value(nil, "", ""); err != nil {
		return nil, fmt.Errorf("variables: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, errors.New("variables: trailing data after the JSON document")
	}
	return w.vars, nil
}

type walker struct {
	dec  *json.Decoder
	vars []Variable
}

// value reads one JSON value and appends it (and its subtree) to w.vars.
func (w *walker) value(parent *int, name, path string) (int, error) {
	tok, err := w.dec.Token()
	if err != nil {
		return 0, err
	}
	id := len(w.vars)
	w.vars = append(w.vars, Variable{ID: id, ParentID: parent, Name: name, Path: path, ChildIDs: []int{}})
	switch t := tok.(type) {
	case json.Delim:
		var children []int
		switch t {
		case '{':
			w.vars[id].Type = "object"
			for w.dec.More() {
				kt, err := w.dec.Token()
				if err != nil {
					return 0, err
				}
				key, _ := kt.(string)
				child, err := w.value(&id, key, joinKey(path, key))
				if err != nil {
					return 0, err
				}
				children = append(children, child)
			}
		case '[':
			w.vars[id].Type = "array"
			for i := 0; w.dec.More(); i++ {
				idx := "[" + strconv.Itoa(i) + "]"
				child, err := w.value(&id, idx, path+idx)
				if err != nil {
					return 0, err
				}
				children = append(children, child)
			}
		default:
			return 0, fmt.Errorf("unexpected %v", t)
		}
		if _, err := w.dec.Token(); err != nil { // closing delimiter
			return 0, err
		}
		if children != nil {
			w.vars[id].ChildIDs = children
		}
		w.vars[id].Size = len(children)
	case string:
		w.vars[id].Type, w.vars[id].Value = "string", t
	case json.Number:
		w.vars[id].Type, w.vars[id].Value = "number", t
	case bool:
		w.vars[id].Type, w.vars[id].Value = "boolean", t
	case nil:
		w.vars[id].Type = "null"
	}
	return id, nil
}

var identRE = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$-]*$`)

// joinKey appends an object key to a path: a.b for plain keys, a["x.y"] for
// keys that are not identifiers.
func joinKey(path, key string) string {
	if !identRE.MatchString(key) {
		q, _ := json.Marshal(key)
		return path + "[" + string(q) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

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
	vars, err := s.variables()
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
	if err := variablesPage.Execute(&buf, variablesPageData{
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
var liveEventKinds = []string{
	engine.EventToolsChanged, engine.EventUIUpdated, engine.EventGenerationStarted,
	engine.EventGenerationFinished, engine.EventGenerationFailed, engine.EventUpstreamUp, engine.EventUpstreamDown,
}

// node is a Variable with its children resolved, for the template.
type node struct {
	Variable
	Label    string
	Display  string
	Children []*node
}

func treeOf(vars []Variable, id int) *node {
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
	Kinds   []string
}

// variablesPage renders the tree server-side (it works without scripts);
// the script re-renders it from GET /variables JSON after each engine event,
// building DOM nodes with textContent only and keeping open nodes open.
var variablesPage = template.Must(template.New("variables").Parse(`<!doctype html>
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
