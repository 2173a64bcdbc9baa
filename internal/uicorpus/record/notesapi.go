package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"time"
)

// A local stand-in for Obsidian's Local REST API plugin, for the notes
// server that reaches a vault only through it (heldout.go): the vault, note
// (markdown or its JSON form with front matter, tags and stat), write,
// append, delete, patch (front matter keys, headings), simple search, the
// active file and the daily note, with the plugin's bearer key and error
// shape ({"errorCode", "message"}). It serves its own copy of the corpus
// vault (heldout_data.go).

const notesAPIKey = "corpus-vault-key"

type notesAPI struct {
	mu  sync.Mutex
	dir string
}

func (w *world) startNotesAPI() error {
	dir := filepath.Join(w.root, "obsidian-vault")
	if err := writeVault(dir); err != nil {
		return err
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	port := l.Addr().(*net.TCPAddr).Port
	w.ports[port] = 27123
	w.notesAPI = fmt.Sprintf("http://127.0.0.1:%d", port)
	srv := &http.Server{Handler: &notesAPI{dir: dir}, ReadHeaderTimeout: 10 * time.Second}
	go func() { _ = srv.Serve(l) }()
	w.stops = append(w.stops, func() { _ = srv.Close() })
	return nil
}

// frontMatter splits a note into its front matter (keys in order, values a
// string or a list of strings) and its body.
func frontMatter(text string) (keys []string, vals map[string]any, body string) {
	vals = map[string]any{}
	if !strings.HasPrefix(text, "---\n") {
		return nil, vals, text
	}
	end := strings.Index(text[4:], "\n---\n")
	if end < 0 {
		return nil, vals, text
	}
	for _, line := range strings.Split(text[4:4+end], "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		k, v = strings.TrimSpace(k), strings.TrimSpace(v)
		keys = append(keys, k)
		if strings.HasPrefix(v, "[") && strings.HasSuffix(v, "]") {
			var list []string
			for _, item := range strings.Split(v[1:len(v)-1], ",") {
				if item = strings.TrimSpace(item); item != "" {
					list = append(list, item)
				}
			}
			vals[k] = list
		} else {
			vals[k] = v
		}
	}
	return keys, vals, text[4+end+5:]
}

func joinFrontMatter(keys []string, vals map[string]any, body string) string {
	if len(keys) == 0 {
		return body
	}
	var b strings.Builder
	b.WriteString("---\n")
	for _, k := range keys {
		switch v := vals[k].(type) {
		case []string:
			fmt.Fprintf(&b, "%s: [%s]\n", k, strings.Join(v, ", "))
		default:
			fmt.Fprintf(&b, "%s: %v\n", k, v)
		}
	}
	b.WriteString("---\n")
	return b.String() + body
}

// noteTags are the front matter's tags and the body's #tags.
func noteTags(vals map[string]any, body string) []string {
	seen := map[string]bool{}
	var tags []string
	if list, ok := vals["tags"].([]string); ok {
		for _, t := range list {
			if !seen[t] {
				seen[t] = true
				tags = append(tags, t)
			}
		}
	}
	for _, f := range strings.Fields(body) {
		if len(f) > 1 && f[0] == '#' && f[1] != '#' && !seen[f[1:]] {
			seen[f[1:]] = true
			tags = append(tags, f[1:])
		}
	}
	return tags
}

func (a *notesAPI) ServeHTTP(rw http.ResponseWriter, r *http.Request) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fail := func(status, code int, msg string) {
		rw.Header().Set("Content-Type", "application/json")
		rw.WriteHeader(status)
		_ = json.NewEncoder(rw).Encode(map[string]any{"errorCode": code, "message": msg})
	}
	reply := func(v any) {
		rw.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(rw).Encode(v)
	}
	if r.URL.Path == "/" && r.Method == http.MethodGet {
		reply(map[string]any{"status": "OK", "service": "Obsidian Local REST API", "authenticated": r.Header.Get("Authorization") == "Bearer "+notesAPIKey,
			"versions": map[string]string{"obsidian": "1.8.10", "self": "3.2.0"}})
		return
	}
	if r.Header.Get("Authorization") != "Bearer "+notesAPIKey {
		fail(http.StatusUnauthorized, 40101, "Authorization required. Find your API Key in the 'Local REST API' section of your Obsidian settings.")
		return
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	p := r.URL.Path
	switch {
	case p == "/active/" || p == "/active":
		a.note(rw, r, "Projects/Orders export.md", body, fail, reply)
	case strings.HasPrefix(p, "/periodic/daily"):
		a.note(rw, r, "Daily/2026-01-20.md", body, fail, reply)
	case strings.HasPrefix(p, "/periodic/"):
		fail(http.StatusNotFound, 40400, "Periodic note not found: only daily notes are configured in this vault")
	case p == "/search/simple/" || p == "/search/simple":
		a.search(r.URL.Query().Get("query"), r.URL.Query().Get("contextLength"), reply)
	case strings.HasPrefix(p, "/vault/") && strings.HasSuffix(p, "/") || p == "/vault":
		a.list(strings.Trim(strings.TrimPrefix(p, "/vault"), "/"), fail, reply)
	case strings.HasPrefix(p, "/vault/"):
		a.note(rw, r, strings.TrimPrefix(p, "/vault/"), body, fail, reply)
	case strings.HasPrefix(p, "/commands"):
		reply(map[string]any{"commands": []map[string]string{{"id": "global-search:open", "name": "Search: Search in all files"}, {"id": "daily-notes", "name": "Daily notes: Open today's daily note"}, {"id": "editor:toggle-checklist-status", "name": "Toggle checkbox status"}}})
	default:
		fail(http.StatusNotFound, 40400, "Not Found")
	}
}

func (a *notesAPI) list(rel string, fail func(int, int, string), reply func(any)) {
	entries, err := os.ReadDir(filepath.Join(a.dir, filepath.FromSlash(rel)))
	if err != nil {
		fail(http.StatusNotFound, 40400, "Not Found")
		return
	}
	files := []string{}
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if e.IsDir() {
			files = append(files, e.Name()+"/")
		} else {
			files = append(files, e.Name())
		}
	}
	sort.Strings(files)
	reply(map[string]any{"files": files})
}

func (a *notesAPI) note(rw http.ResponseWriter, r *http.Request, rel string, body []byte, fail func(int, int, string), reply func(any)) {
	rel = path.Clean("/" + rel)[1:]
	file := filepath.Join(a.dir, filepath.FromSlash(rel))
	old, err := os.ReadFile(file)
	exists := err == nil
	switch r.Method {
	case http.MethodGet, http.MethodHead:
		if !exists {
			fail(http.StatusNotFound, 40400, "Not Found")
			return
		}
		st, _ := os.Stat(file)
		mtime := st.ModTime().Unix()
		rw.Header().Set("X-Obsidian-Mtime", fmt.Sprint(mtime))
		rw.Header().Set("X-Obsidian-Ctime", fmt.Sprint(mtime))
		if strings.Contains(r.Header.Get("Accept"), "application/vnd.olrapi.note+json") {
			_, vals, text := frontMatter(string(old))
			reply(map[string]any{"path": rel, "content": string(old), "frontmatter": vals, "tags": noteTags(vals, text),
				"stat": map[string]int64{"ctime": mtime * 1000, "mtime": mtime * 1000, "size": int64(len(old))}})
			return
		}
		rw.Header().Set("Content-Type", "text/markdown; charset=utf-8")
		if r.Method == http.MethodGet {
			_, _ = rw.Write(old)
		}
	case http.MethodPut, http.MethodPost:
		text := string(body)
		if r.Method == http.MethodPost {
			text = string(old) + text
		}
		if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
			fail(http.StatusInternalServerError, 50000, err.Error())
			return
		}
		if err := os.WriteFile(file, []byte(text), 0o644); err != nil {
			fail(http.StatusInternalServerError, 50000, err.Error())
			return
		}
		rw.WriteHeader(http.StatusNoContent)
	case http.MethodDelete:
		if !exists {
			fail(http.StatusNotFound, 40400, "Not Found")
			return
		}
		_ = os.Remove(file)
		rw.WriteHeader(http.StatusNoContent)
	case http.MethodPatch:
		if !exists {
			fail(http.StatusNotFound, 40400, "Not Found")
			return
		}
		out, msg := patchNote(string(old), r.Header, string(body))
		if msg != "" {
			fail(http.StatusBadRequest, 40080, msg)
			return
		}
		_ = os.WriteFile(file, []byte(out), 0o644)
		rw.WriteHeader(http.StatusOK)
	default:
		fail(http.StatusMethodNotAllowed, 40500, "Method not allowed")
	}
}

// patchNote applies the plugin's PATCH: Operation append, prepend or replace
// on a Target-Type frontmatter key or heading (nested headings joined by
// Target-Delimiter, "::" by default).
func patchNote(text string, h http.Header, content string) (string, string) {
	op, kind, target := h.Get("Operation"), h.Get("Target-Type"), h.Get("Target")
	switch kind {
	case "frontmatter":
		keys, vals, body := frontMatter(text)
		var v any = strings.TrimSpace(content)
		if strings.Contains(h.Get("Content-Type"), "json") {
			var j any
			if json.Unmarshal([]byte(content), &j) == nil {
				if list, ok := j.([]any); ok {
					var s []string
					for _, x := range list {
						s = append(s, fmt.Sprint(x))
					}
					v = s
				} else {
					v = fmt.Sprint(j)
				}
			}
		}
		if _, ok := vals[target]; !ok {
			if h.Get("Create-Target-If-Missing") != "true" && op != "replace" {
				return "", "invalid-target: the front matter has no key " + target
			}
			keys = append(keys, target)
		}
		if old, ok := vals[target].([]string); ok && op == "append" {
			if add, ok := v.([]string); ok {
				v = append(old, add...)
			} else {
				v = append(old, fmt.Sprint(v))
			}
		}
		vals[target] = v
		return joinFrontMatter(keys, vals, body), ""
	case "heading":
		delim := h.Get("Target-Delimiter")
		if delim == "" {
			delim = "::"
		}
		parts := strings.Split(target, delim)
		want := strings.TrimSpace(parts[len(parts)-1])
		lines := strings.Split(text, "\n")
		start, level := -1, 0
		for i, l := range lines {
			t := strings.TrimLeft(l, "#")
			if n := len(l) - len(t); n > 0 && strings.HasPrefix(t, " ") && strings.TrimSpace(t) == want {
				start, level = i, n
				break
			}
		}
		if start < 0 {
			return "", "invalid-target: no heading " + target
		}
		end := len(lines)
		for i := start + 1; i < len(lines); i++ {
			t := strings.TrimLeft(lines[i], "#")
			if n := len(lines[i]) - len(t); n > 0 && n <= level && strings.HasPrefix(t, " ") {
				end = i
				break
			}
		}
		for end > start+1 && strings.TrimSpace(lines[end-1]) == "" {
			end--
		}
		add := strings.Split(strings.TrimRight(content, "\n"), "\n")
		var out []string
		switch op {
		case "prepend":
			out = append(append(append(out, lines[:start+1]...), add...), lines[start+1:]...)
		case "replace":
			out = append(append(append(out, lines[:start+1]...), add...), lines[end:]...)
		default:
			out = append(append(append(out, lines[:end]...), add...), lines[end:]...)
		}
		return strings.Join(out, "\n"), ""
	}
	return "", "invalid-target-type: " + kind
}

func (a *notesAPI) search(query, ctxLen string, reply func(any)) {
	n := 100
	_, _ = fmt.Sscan(ctxLen, &n)
	type match struct {
		Match   map[string]int `json:"match"`
		Context string         `json:"context"`
	}
	type hit struct {
		Filename string  `json:"filename"`
		Score    float64 `json:"score"`
		Matches  []match `json:"matches"`
	}
	hits := []hit{}
	q := strings.ToLower(query)
	_ = filepath.WalkDir(a.dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(p, ".md") || q == "" {
			return nil
		}
		b, _ := os.ReadFile(p)
		text := string(b)
		low := strings.ToLower(text)
		rel, _ := filepath.Rel(a.dir, p)
		var ms []match
		for i := 0; ; {
			j := strings.Index(low[i:], q)
			if j < 0 {
				break
			}
			s := i + j
			from, to := max(0, s-n), min(len(text), s+len(q)+n)
			ms = append(ms, match{Match: map[string]int{"start": s, "end": s + len(q)}, Context: text[from:to]})
			i = s + len(q)
		}
		if len(ms) > 0 {
			hits = append(hits, hit{Filename: filepath.ToSlash(rel), Score: -float64(len(ms)), Matches: ms})
		}
		return nil
	})
	sort.Slice(hits, func(i, j int) bool { return hits[i].Filename < hits[j].Filename })
	reply(hits)
}
