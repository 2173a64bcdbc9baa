package browsertest

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestBundleAsGlobal(t *testing.T) {
	tests := []struct {
		name, js, want, errHas string
	}{
		{name: "renames", js: `var a=1;class q{}export{a as One,q as App};`, want: `var a=1;class q{}window.SDK={One:a,App:q};`},
		{name: "plain and trailing comment", js: "let App=2;export { App };\n//# sourceMappingURL=x.map\n", want: "let App=2;window.SDK={App:App};\n//# sourceMappingURL=x.map\n"},
		{name: "imports", js: `import{z}from"zod";export{z};`, errHas: "not self-contained"},
		{name: "two export lists", js: `export{a};export{b};`, errHas: "2 export lists"},
		{name: "none", js: `var a;`, errHas: "0 export lists"},
		{name: "not last", js: `export{a};var b;`, errHas: "not its last statement"},
		{name: "default", js: `export{a as default};`, errHas: "unsupported export"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, err := BundleAsGlobal(tc.js, "SDK")
			if tc.errHas != "" {
				if err == nil || !strings.Contains(err.Error(), tc.errHas) {
					t.Fatalf("err = %v, want one containing %q", err, tc.errHas)
				}
				return
			}
			if err != nil || got != tc.want {
				t.Fatalf("got %q, %v; want %q", got, err, tc.want)
			}
		})
	}
	if _, err := BundleAsGlobal(`export{a};`, "window.x"); err == nil {
		t.Error("a global that is not an identifier was accepted")
	}
}

func TestModuleImportMap(t *testing.T) {
	nm := t.TempDir()
	write := func(rel, text string) {
		p := filepath.Join(nm, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("app/dist/entry.js", `import{a}from"./chunk.js";import{b}from"@s/lib";import"side";export*from"cond/sub";`)
	write("app/dist/chunk.js", `export const a=import("plain");`)
	write("@s/lib/package.json", `{"exports":{".":{"import":{"types":"x.d.ts","default":"./dist/index.mjs"},"require":"./dist/index.cjs"}}}`)
	write("@s/lib/dist/index.mjs", `import "@s/lib/_shims";`)
	write("side/package.json", `{"module":"esm.js","main":"cjs.js"}`)
	write("side/esm.js", ``)
	write("plain/package.json", `{}`)
	write("plain/index.js", ``)
	write("cond/package.json", `{"exports":{"./sub":{"browser":"./sub.browser.js","node":"./sub.node.js","default":"./sub.js"}}}`)
	write("cond/sub.browser.js", ``)
	// "@s/lib/_shims" is a subpath the package does not export: a clear error.
	if _, err := ModuleImportMap(nm, "app/dist/entry.js", "/nm/"); err == nil || !strings.Contains(err.Error(), `"@s/lib/_shims"`) {
		t.Fatalf("unexported subpath: err = %v", err)
	}
	write("@s/lib/package.json", `{"exports":{".":{"import":"./dist/index.mjs"},"./_shims":{"browser":{"import":"./dist/shimsBrowser.mjs"},"default":"./dist/shimsNode.mjs"}}}`)
	write("@s/lib/dist/shimsBrowser.mjs", ``)
	got, err := ModuleImportMap(nm, "app/dist/entry.js", "/nm/")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"@s/lib":        "/nm/@s/lib/dist/index.mjs",
		"@s/lib/_shims": "/nm/@s/lib/dist/shimsBrowser.mjs",
		"side":          "/nm/side/esm.js",
		"cond/sub":      "/nm/cond/sub.browser.js",
		"plain":         "/nm/plain/index.js",
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("import map\n got  %v\n want %v", got, want)
	}
	if _, err := ModuleImportMap(nm, "app/dist/missing.js", "/nm/"); err == nil {
		t.Error("a missing entry was accepted")
	}
	write("bad/x.js", `import "not-installed";`)
	if _, err := ModuleImportMap(nm, "bad/x.js", "/nm/"); err == nil || !strings.Contains(err.Error(), "not installed") {
		t.Errorf("missing package: err = %v", err)
	}
	if s := ImportMapScript(want); !strings.HasPrefix(s, `<script type="importmap">`) || !strings.Contains(s, `"cond/sub": "/nm/cond/sub.browser.js"`) {
		t.Errorf("ImportMapScript = %s", s)
	}
}

func TestNodeModulesHandler(t *testing.T) {
	nm := t.TempDir()
	if err := os.WriteFile(filepath.Join(nm, "a.mjs"), []byte("export{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(NodeModulesHandler(nm))
	defer srv.Close()
	for _, tc := range []struct {
		method, path string
		status       int
		ctype        string
	}{
		{"GET", "/a.mjs", 200, "text/javascript; charset=utf-8"},
		{"GET", "/", 404, ""},
		{"POST", "/a.mjs", 405, ""},
		{"GET", "/../etc/passwd", 404, ""},
	} {
		req, _ := http.NewRequest(tc.method, srv.URL+tc.path, nil)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.status || (tc.ctype != "" && resp.Header.Get("Content-Type") != tc.ctype) {
			t.Errorf("%s %s = %d %q", tc.method, tc.path, resp.StatusCode, resp.Header.Get("Content-Type"))
		}
	}
}
