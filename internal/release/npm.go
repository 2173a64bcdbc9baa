package release

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// The npm package set follows the pattern esbuild made common: the main
// package `genui` holds only a launcher (bin/genui.js) and lists one
// package per platform as optionalDependencies, pinned to the same
// version; each platform package declares "os" and "cpu", so npm installs
// just the one matching the machine, and holds the binary. No install
// script runs and nothing is downloaded outside npm.

// NPMMainName is the main package's name (what `npx -y genui@X.Y.Z` runs).
const NPMMainName = "genui"

// NPMPackageDir is the folder (under Dir/npm) holding p's package.
func NPMPackageDir(p Platform) string { return "genui-" + p.NPMOS() + "-" + p.NPMCPU() }

type npmRepository struct {
	Type string `json:"type"`
	URL  string `json:"url"`
}

// npmManifest is a package.json; the field order is the file's.
type npmManifest struct {
	Name                 string            `json:"name"`
	Version              string            `json:"version"`
	Description          string            `json:"description"`
	Keywords             []string          `json:"keywords,omitempty"`
	Homepage             string            `json:"homepage"`
	Repository           npmRepository     `json:"repository"`
	License              string            `json:"license"`
	Bin                  map[string]string `json:"bin,omitempty"`
	OS                   []string          `json:"os,omitempty"`
	CPU                  []string          `json:"cpu,omitempty"`
	PreferUnplugged      bool              `json:"preferUnplugged,omitempty"`
	Engines              map[string]string `json:"engines"`
	OptionalDependencies map[string]string `json:"optionalDependencies,omitempty"`
}

// platformTitle names p for people ("macOS arm64").
func platformTitle(p Platform) string {
	os := map[string]string{"linux": "Linux", "darwin": "macOS", "windows": "Windows"}[p.GOOS]
	return os + " " + p.NPMCPU()
}

// writeNPM writes Dir/npm/genui and Dir/npm/genui-<os>-<cpu> for every
// platform, ready for `npm pack` or `npm publish`. It returns their folders
// relative to Dir.
func writeNPM(o Options) (main string, platforms []string, err error) {
	root := filepath.Join(o.Dir, NPMDir)
	if err := os.RemoveAll(root); err != nil {
		return "", nil, err
	}
	repo := npmRepository{Type: "git", URL: "git+" + strings.TrimRight(o.Homepage, "/") + ".git"}
	engines := map[string]string{"node": ">=18"}
	optional := map[string]string{}
	var names []string
	for _, p := range o.Platforms {
		dir := filepath.Join(root, NPMPackageDir(p))
		m := npmManifest{
			Name:            p.NPMPackage(),
			Version:         o.Version,
			Description:     "The " + platformTitle(p) + " binary of genui; install the genui package instead.",
			Homepage:        o.Homepage,
			Repository:      repo,
			License:         "MIT",
			OS:              []string{p.NPMOS()},
			CPU:             []string{p.NPMCPU()},
			PreferUnplugged: true,
			Engines:         engines,
		}
		bin, err := os.ReadFile(filepath.Join(o.Dir, BinaryName(o.Version, p)))
		if err != nil {
			return "", nil, err
		}
		readme, err := render("npm-platform-README.md", map[string]any{
			"Name": m.Name, "Title": platformTitle(p), "Version": o.Version, "Homepage": o.Homepage,
		})
		if err != nil {
			return "", nil, err
		}
		if err := writePackage(dir, m, readme, o.License, "bin/"+p.exe(), bin); err != nil {
			return "", nil, err
		}
		optional[m.Name] = o.Version
		names = append(names, m.Name)
		platforms = append(platforms, filepath.Join(NPMDir, NPMPackageDir(p)))
	}

	m := npmManifest{
		Name:        NPMMainName,
		Version:     o.Version,
		Description: "Interactive MCP Apps UIs for any MCP tool server: a proxy, a UI generator and a terminal workbench",
		Keywords:    []string{"mcp", "model-context-protocol", "mcp-apps", "mcp-server", "ui", "tui"},
		Homepage:    o.Homepage,
		Repository:  repo,
		License:     "MIT",
		Bin:         map[string]string{"genui": "bin/genui.js"},
		Engines:     engines,
		// Exact versions: the launcher and the binary always match.
		OptionalDependencies: optional,
	}
	readme, err := render("npm-README.md", map[string]any{
		"Version": o.Version, "Homepage": o.Homepage, "Packages": names,
	})
	if err != nil {
		return "", nil, err
	}
	launcher, err := files.ReadFile("files/genui.js")
	if err != nil {
		return "", nil, err
	}
	if err := writePackage(filepath.Join(root, NPMMainName), m, readme, o.License, "bin/genui.js", launcher); err != nil {
		return "", nil, err
	}
	return filepath.Join(NPMDir, NPMMainName), platforms, nil
}

// writePackage writes one package folder: package.json, README.md,
// LICENSE and the executable exe (bin/...).
func writePackage(dir string, m npmManifest, readme, license []byte, exe string, exeData []byte) error {
	var manifest bytes.Buffer
	enc := json.NewEncoder(&manifest)
	enc.SetEscapeHTML(false) // ">=18", not "\u003e=18"
	enc.SetIndent("", "  ")
	if err := enc.Encode(m); err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Join(dir, "bin"), 0o755); err != nil {
		return err
	}
	for _, f := range []struct {
		name string
		data []byte
		mode os.FileMode
	}{
		{"package.json", manifest.Bytes(), 0o644},
		{"README.md", readme, 0o644},
		{"LICENSE", license, 0o644},
		{filepath.FromSlash(exe), exeData, 0o755},
	} {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, f.mode); err != nil {
			return fmt.Errorf("npm package %s: %w", m.Name, err)
		}
		// WriteFile's mode is filtered by the umask; the binary must be
		// executable whatever the umask.
		if err := os.Chmod(filepath.Join(dir, f.name), f.mode); err != nil {
			return err
		}
	}
	return nil
}
