package httpapi

import (
	"bytes"
	"io"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"sync"

	template "github.com/DataDog/datadog-agent/pkg/template/html"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// GET /api/resource/ lists the files under DIR/resources and
// GET /api/resource/{path...} serves one: markdown is rendered to HTML for
// browsers (Accept: text/html) and sent raw otherwise. Every file is opened
// through an os.Root, so "..", absolute paths and symlinks that leave the
// folder are refused (404) even when they are created after start.

// MaxRenderedBytes bounds a markdown file rendered to HTML.
const MaxRenderedBytes = 4 << 20

// resourceCSP is sent with every served file: the API origin must never run
// a resource's scripts (sandbox gives the document an opaque origin).
const resourceCSP = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:"

// ResourceFile is one entry of the resource listing.
type ResourceFile struct {
	Path string `json:"path"`
	Size int64  `json:"size"`
	URL  string `json:"url"`
}

// ResourceDir is DIR/resources ("" when the server has no Dir).
func (s *Server) ResourceDir() string {
	if s.opts.Dir == "" {
		return ""
	}
	return filepath.Join(s.opts.Dir, "resources")
}

// markdown renders a resource; raw HTML and javascript: links are dropped by
// default. It and the page templates are built on first use, not at every
// genui start.
var markdown = sync.OnceValue(func() goldmark.Markdown { return goldmark.New(goldmark.WithExtensions(extension.GFM)) })

func (s *Server) handleResource(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimSuffix(r.PathValue("path"), "/")
	if name == "" {
		name = "."
	}
	if !fs.ValidPath(name) {
		resourceNotFound(w, r.PathValue("path"))
		return
	}
	dir := s.ResourceDir()
	if dir == "" {
		resourceNotFound(w, name)
		return
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		if name == "." { // no resources folder yet: an empty listing
			s.serveListing(w, r, ".", nil)
			return
		}
		resourceNotFound(w, name)
		return
	}
	defer root.Close()
	info, err := root.Stat(name) // follows symlinks, but only inside the root
	if err != nil {
		resourceNotFound(w, name)
		return
	}
	if info.IsDir() {
		files, err := listResources(root, name)
		if err != nil {
			s.log.Warn("listing resources", "dir", name, "err", err)
		}
		s.serveListing(w, r, name, files)
		return
	}
	if !info.Mode().IsRegular() {
		resourceNotFound(w, name)
		return
	}
	f, err := root.Open(name)
	if err != nil {
		resourceNotFound(w, name)
		return
	}
	defer f.Close()
	h := w.Header()
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Security-Policy", resourceCSP)
	h.Set("Cache-Control", "no-cache")
	h.Add("Vary", "Accept")
	ext := strings.ToLower(path.Ext(name))
	isMarkdown := ext == ".md" || ext == ".markdown"
	if isMarkdown && wantsHTML(r) {
		s.serveMarkdown(w, name, f)
		return
	}
	if isMarkdown {
		h.Set("Content-Type", "text/markdown; charset=utf-8")
	}
	http.ServeContent(w, r, name, info.ModTime(), f)
}

func (s *Server) serveMarkdown(w http.ResponseWriter, name string, f io.Reader) {
	src, err := io.ReadAll(io.LimitReader(f, MaxRenderedBytes+1))
	if err != nil {
		http.Error(w, "reading "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	if len(src) > MaxRenderedBytes {
		http.Error(w, name+" is too large to render; request it without Accept: text/html", http.StatusRequestEntityTooLarge)
		return
	}
	var body bytes.Buffer
	if err := markdown().Convert(src, &body); err != nil {
		http.Error(w, "rendering "+name+": "+err.Error(), http.StatusInternalServerError)
		return
	}
	var page bytes.Buffer
	// goldmark escapes text and drops raw HTML (no WithUnsafe), so its
	// output is safe to embed as is.
	err = resourcePage().Execute(&page, map[string]any{"Title": name, "Body": template.HTML(body.String())})
	if err != nil {
		s.log.Error("resource page", "err", err)
		http.Error(w, "rendering failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = w.Write(page.Bytes())
}

// listResources returns the regular files under dir (recursively), symlinks
// included only when they resolve inside the root.
func listResources(root *os.Root, dir string) ([]ResourceFile, error) {
	var files []ResourceFile
	err := fs.WalkDir(root.FS(), dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return nil // unreadable entry: leave it out
		}
		if d.IsDir() {
			return nil
		}
		info, err := root.Stat(p)
		if err != nil || !info.Mode().IsRegular() {
			return nil
		}
		files = append(files, ResourceFile{Path: p, Size: info.Size(), URL: "/api/resource/" + escapePath(p)})
		return nil
	})
	sort.Slice(files, func(i, j int) bool { return files[i].Path < files[j].Path })
	return files, err
}

// escapePath URL-escapes each segment of a slash-separated path.
func escapePath(p string) string {
	parts := strings.Split(p, "/")
	for i, s := range parts {
		parts[i] = url.PathEscape(s)
	}
	return strings.Join(parts, "/")
}

func (s *Server) serveListing(w http.ResponseWriter, r *http.Request, dir string, files []ResourceFile) {
	if files == nil {
		files = []ResourceFile{}
	}
	w.Header().Set("Cache-Control", "no-cache")
	w.Header().Add("Vary", "Accept")
	if !wantsHTML(r) {
		writeJSON(w, http.StatusOK, map[string]any{"dir": dir, "files": files})
		return
	}
	var page bytes.Buffer
	if err := resourceIndex().Execute(&page, map[string]any{"Dir": dir, "Files": files}); err != nil {
		s.log.Error("resource index", "err", err)
		http.Error(w, "rendering failed", http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Content-Security-Policy", resourceCSP)
	_, _ = w.Write(page.Bytes())
}

func resourceNotFound(w http.ResponseWriter, name string) {
	writeJSON(w, http.StatusNotFound, map[string]string{"error": "no resource " + name + " (see GET /api/resource/)"})
}

var pageStyle = `body{font:15px/1.55 system-ui,sans-serif;max-width:52rem;margin:1.5rem auto;padding:0 1rem;color:#1d2330;background:#fbfbfd}
@media (prefers-color-scheme:dark){body{color:#d8dee9;background:#16181d}a{color:#8ab4f8}}
pre,code{font:13px ui-monospace,Menlo,monospace}pre{overflow:auto;padding:.75rem;background:rgba(127,127,127,.12);border-radius:6px}
table{border-collapse:collapse}td,th{border:1px solid rgba(127,127,127,.4);padding:.25rem .5rem}`

var resourcePage = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("resource").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{{.Title}} · genui</title><style>` + pageStyle + `</style></head>
<body><p><a href="/api/resource/">resources</a> / {{.Title}}</p>
<article>{{.Body}}</article></body></html>
`))
})

var resourceIndex = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("index").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>genui resources</title><style>` + pageStyle + `</style></head>
<body><h1>genui resources{{if ne .Dir "."}}: {{.Dir}}{{end}}</h1>
{{if .Files}}<ul>{{range .Files}}<li><a href="{{.URL}}">{{.Path}}</a> ({{.Size}} bytes)</li>{{end}}</ul>
{{else}}<p>No files yet. Run <code>genui install</code> to add the agent guide.</p>{{end}}
</body></html>
`))
})
