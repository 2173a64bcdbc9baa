package browsertest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
)

// Helpers to run the official MCP Apps SDK (npm @modelcontextprotocol/ext-apps,
// installed by scripts/test-deps.sh) in a test browser without a bundler:
// its self-contained App bundle inlined into a page, and its host-side
// modules served from node_modules with an import map.

// Paths of the ext-apps files the interop tests use, relative to node_modules.
const (
	ExtAppsAppBundle = "@modelcontextprotocol/ext-apps/dist/src/app-with-deps.js"
	ExtAppsBridge    = "@modelcontextprotocol/ext-apps/dist/src/app-bridge.js"
)

// reExportList matches an ES module's `export{a as B,c}` statement.
var reExportList = regexp.MustCompile(`export\s*\{([^{}]*)\}\s*;?`)

// BundleAsGlobal rewrites a self-contained ES module bundle (no imports, one
// trailing `export{...}` list, like ext-apps' app-with-deps.js) into a script
// that assigns its exports to window[global] instead, so a page can inline it
// under a CSP that forbids external scripts and still reach its exports from
// another inline script. It fails on a bundle that imports other modules or
// exports any other way, rather than producing a page that breaks later.
func BundleAsGlobal(js, global string) (string, error) {
	if !regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`).MatchString(global) {
		return "", fmt.Errorf("global %q is not a JavaScript identifier", global)
	}
	locs := reExportList.FindAllStringSubmatchIndex(js, -1)
	if len(locs) != 1 {
		return "", fmt.Errorf("bundle has %d export lists, want exactly one", len(locs))
	}
	if rest := strings.TrimSpace(js[locs[0][1]:]); rest != "" && !strings.HasPrefix(rest, "//") {
		return "", errors.New("bundle's export list is not its last statement")
	}
	if specs := moduleSpecifiers(js[:locs[0][0]]); len(specs) > 0 {
		return "", fmt.Errorf("bundle is not self-contained: it imports %v", specs)
	}
	var fields []string
	for _, item := range strings.Split(js[locs[0][2]:locs[0][3]], ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		local, exported, found := strings.Cut(item, " as ")
		local, exported = strings.TrimSpace(local), strings.TrimSpace(exported)
		if !found {
			exported = local
		}
		if exported == "default" || strings.ContainsAny(local+exported, " \"'") {
			return "", fmt.Errorf("unsupported export %q", item)
		}
		fields = append(fields, exported+":"+local)
	}
	return js[:locs[0][0]] + "window." + global + "={" + strings.Join(fields, ",") + "};" + js[locs[0][1]:], nil
}

// reImport finds module specifiers in static imports and re-exports
// (`from"x"`, `import"x"`) and dynamic imports with a literal (`import("x")`).
var reImport = regexp.MustCompile(`(?:\bfrom|\bimport)\s*["']([^"'\n]+)["']|\bimport\s*\(\s*["']([^"'\n]+)["']\s*\)`)

// moduleSpecifiers lists the module specifiers src imports, in order.
func moduleSpecifiers(src string) []string {
	var out []string
	for _, m := range reImport.FindAllStringSubmatch(src, -1) {
		if m[1] != "" {
			out = append(out, m[1])
		} else {
			out = append(out, m[2])
		}
	}
	return out
}

// ModuleImportMap walks the ES module graph that starts at entry (a path
// relative to nodeModules, e.g. ExtAppsBridge) and returns the "imports" of
// an import map that resolves every bare specifier in it to urlPrefix + the
// file's path relative to nodeModules, as a browser loading the files from a
// server of nodeModules at urlPrefix needs. Packages resolve from the top
// level of nodeModules through package.json "exports" with the conditions
// browser, import, default (or "module"/"main" without exports).
func ModuleImportMap(nodeModules, entry, urlPrefix string) (map[string]string, error) {
	imports := map[string]string{}
	seen := map[string]bool{}
	var walk func(rel string) error
	walk = func(rel string) error {
		if seen[rel] {
			return nil
		}
		seen[rel] = true
		src, err := os.ReadFile(filepath.Join(nodeModules, filepath.FromSlash(rel)))
		if err != nil {
			return err
		}
		for _, spec := range moduleSpecifiers(string(src)) {
			var next string
			switch {
			case strings.HasPrefix(spec, "./") || strings.HasPrefix(spec, "../"):
				next = path.Join(path.Dir(rel), spec)
			case strings.HasPrefix(spec, "/") || strings.Contains(spec, ":"):
				return fmt.Errorf("%s imports %q: absolute and URL specifiers are not supported", rel, spec)
			default:
				next, err = resolvePackage(nodeModules, spec)
				if err != nil {
					return fmt.Errorf("%s imports %q: %w", rel, spec, err)
				}
				imports[spec] = urlPrefix + next
			}
			if err := walk(next); err != nil {
				return err
			}
		}
		return nil
	}
	if err := walk(path.Clean(filepath.ToSlash(entry))); err != nil {
		return nil, err
	}
	return imports, nil
}

// resolvePackage resolves a bare specifier ("pkg", "@scope/pkg/sub") to a
// file path relative to nodeModules.
func resolvePackage(nodeModules, spec string) (string, error) {
	parts := strings.Split(spec, "/")
	n := 1
	if strings.HasPrefix(spec, "@") {
		n = 2
	}
	if len(parts) < n {
		return "", errors.New("malformed package specifier")
	}
	pkg := strings.Join(parts[:n], "/")
	sub := "." + strings.TrimPrefix(spec, pkg)
	b, err := os.ReadFile(filepath.Join(nodeModules, filepath.FromSlash(pkg), "package.json"))
	if err != nil {
		return "", fmt.Errorf("package %s is not installed in %s", pkg, nodeModules)
	}
	var manifest struct {
		Exports json.RawMessage `json:"exports"`
		Module  string          `json:"module"`
		Main    string          `json:"main"`
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		return "", fmt.Errorf("package %s: bad package.json: %w", pkg, err)
	}
	var target string
	switch {
	case len(manifest.Exports) > 0:
		var exports any
		if err := json.Unmarshal(manifest.Exports, &exports); err != nil {
			return "", err
		}
		// "exports" is a target, a condition map, or a map of subpaths.
		if m, ok := exports.(map[string]any); ok && hasSubpathKeys(m) {
			exports = m[sub]
		} else if sub != "." {
			exports = nil
		}
		target = pickCondition(exports)
	case sub != ".":
		target = sub
	case manifest.Module != "":
		target = manifest.Module
	case manifest.Main != "":
		target = manifest.Main
	default:
		target = "index.js"
	}
	if target == "" {
		return "", fmt.Errorf("package %s exports no %q for browser/import", pkg, sub)
	}
	return path.Join(pkg, target), nil
}

func hasSubpathKeys(m map[string]any) bool {
	for k := range m {
		if strings.HasPrefix(k, ".") {
			return true
		}
	}
	return false
}

// pickCondition chooses an export target by the conditions browser, import,
// default, in that order of preference.
func pickCondition(v any) string {
	switch t := v.(type) {
	case string:
		return t
	case map[string]any:
		for _, c := range []string{"browser", "import", "default"} {
			if s := pickCondition(t[c]); s != "" {
				return s
			}
		}
	}
	return ""
}

// ImportMapScript renders imports as a <script type="importmap"> element.
func ImportMapScript(imports map[string]string) string {
	keys := make([]string, 0, len(imports))
	for k := range imports {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	ordered := make([]string, 0, len(keys))
	for _, k := range keys {
		kb, _ := json.Marshal(k)
		vb, _ := json.Marshal(imports[k])
		ordered = append(ordered, "    "+string(kb)+": "+string(vb))
	}
	return "<script type=\"importmap\">\n{\"imports\": {\n" + strings.Join(ordered, ",\n") + "\n}}\n</script>"
}

// NodeModulesHandler serves the files under nodeModules read-only, with a
// JavaScript content type for .js and .mjs (module scripts need one) and no
// directory listings. Mount it with http.StripPrefix.
func NodeModulesHandler(nodeModules string) http.Handler {
	fs := http.FileServer(http.Dir(nodeModules))
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "read-only", http.StatusMethodNotAllowed)
			return
		}
		if strings.HasSuffix(r.URL.Path, "/") {
			http.NotFound(w, r)
			return
		}
		switch path.Ext(r.URL.Path) {
		case ".js", ".mjs":
			w.Header().Set("Content-Type", "text/javascript; charset=utf-8")
		}
		fs.ServeHTTP(w, r)
	})
}
