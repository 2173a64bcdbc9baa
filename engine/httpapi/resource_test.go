package httpapi_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeResources creates DIR/resources with a guide, a nested file, a
// symlink inside the folder, symlinks escaping it and a secret outside.
func writeResources(t *testing.T, dir string) {
	t.Helper()
	res := filepath.Join(dir, "resources")
	mustWrite(t, filepath.Join(res, "guide.md"), "# Guide\n\nUse `_ui_refine`.\n\n<script>alert(1)</script>\n\n[x](javascript:alert(1))\n")
	mustWrite(t, filepath.Join(res, "sub", "notes.txt"), "plain notes\n")
	mustWrite(t, filepath.Join(dir, "secret.txt"), "TOP SECRET\n")
	outside := filepath.Join(t.TempDir(), "outside")
	mustWrite(t, filepath.Join(outside, "passwd"), "TOP SECRET\n")
	for link, target := range map[string]string{
		"inside-link.md": "guide.md",
		"escape.txt":     "../secret.txt",
		"abs-escape.txt": filepath.Join(outside, "passwd"),
		"escape-dir":     outside,
	} {
		if err := os.Symlink(target, filepath.Join(res, link)); err != nil {
			t.Fatal(err)
		}
	}
}

func mustWrite(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestResourceListing(t *testing.T) {
	a := startAgentEnv(t)
	// No resources folder yet: an empty listing, not an error.
	code, _, body := a.get(t, "/api/resource/")
	if code != 200 || !strings.Contains(body, `"files": []`) {
		t.Fatalf("empty listing: %d %s", code, body)
	}
	writeResources(t, a.dir)
	code, _, body = a.get(t, "/api/resource/")
	if code != 200 {
		t.Fatalf("listing: %d %s", code, body)
	}
	var list struct {
		Files []struct{ Path, URL string }
	}
	if err := json.Unmarshal([]byte(body), &list); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, f := range list.Files {
		paths = append(paths, f.Path)
	}
	if got, want := strings.Join(paths, " "), "guide.md inside-link.md sub/notes.txt"; got != want {
		t.Errorf("listed %q, want %q (escaping symlinks left out)", got, want)
	}
	code, hdr, page := a.get(t, "/api/resource/", "Accept", "text/html")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") || !strings.Contains(page, `href="/api/resource/sub/notes.txt"`) {
		t.Errorf("HTML listing: %d %s\n%s", code, hdr.Get("Content-Type"), page)
	}
	code, _, body = a.get(t, "/api/resource/sub")
	if code != 200 || !strings.Contains(body, "sub/notes.txt") || strings.Contains(body, "guide.md") {
		t.Errorf("sub listing: %d %s", code, body)
	}
}

func TestResourceFiles(t *testing.T) {
	a := startAgentEnv(t)
	writeResources(t, a.dir)

	code, hdr, body := a.get(t, "/api/resource/guide.md")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/markdown") || !strings.HasPrefix(body, "# Guide\n") {
		t.Fatalf("raw markdown: %d %s\n%s", code, hdr.Get("Content-Type"), body)
	}
	code, hdr, body = a.get(t, "/api/resource/guide.md", "Accept", "text/html,*/*")
	if code != 200 || !strings.HasPrefix(hdr.Get("Content-Type"), "text/html") {
		t.Fatalf("rendered markdown: %d %s", code, hdr.Get("Content-Type"))
	}
	if !strings.Contains(body, "<h1") || !strings.Contains(body, "<code>_ui_refine</code>") {
		t.Errorf("markdown not rendered:\n%s", body)
	}
	if strings.Contains(body, "<script>alert") || strings.Contains(body, "javascript:") {
		t.Errorf("raw HTML or a javascript: link survived rendering:\n%s", body)
	}
	if csp := hdr.Get("Content-Security-Policy"); !strings.HasPrefix(csp, "sandbox") {
		t.Errorf("CSP = %q", csp)
	}
	if code, _, body = a.get(t, "/api/resource/sub/notes.txt"); code != 200 || body != "plain notes\n" {
		t.Errorf("nested file: %d %q", code, body)
	}
	if code, _, body = a.get(t, "/api/resource/inside-link.md"); code != 200 || !strings.HasPrefix(body, "# Guide") {
		t.Errorf("symlink inside the folder: %d %q", code, body)
	}
	if code, _, _ = a.get(t, "/api/resource/missing.md"); code != 404 {
		t.Errorf("missing file: %d", code)
	}
}

func TestResourceEscapesRefused(t *testing.T) {
	a := startAgentEnv(t)
	writeResources(t, a.dir)
	for _, p := range []string{
		"/api/resource/../secret.txt",   // cleaned by the client/mux: never reaches the folder
		"/api/resource/..%2fsecret.txt", // encoded slash: one segment "../secret.txt"
		"/api/resource/sub/..%2f..%2fsecret.txt",
		"/api/resource/%2e%2e/secret.txt",
		"/api/resource/%2fetc%2fpasswd",
		"/api/resource/escape.txt",        // symlink to ../secret.txt
		"/api/resource/abs-escape.txt",    // symlink to an absolute path outside
		"/api/resource/escape-dir/passwd", // through a symlinked directory
		"/api/resource/escape-dir",
	} {
		code, _, body := a.get(t, p)
		if code != 404 {
			t.Errorf("GET %s: %d, want 404", p, code)
		}
		if strings.Contains(body, "TOP SECRET") {
			t.Errorf("GET %s leaked the secret", p)
		}
	}
}
