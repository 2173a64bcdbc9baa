package release

import (
	"bytes"
	"embed"
	"os"
	"path/filepath"
	"text/template"
)

// files holds the launcher and the templates of the generated text files.
//
//go:embed files
var files embed.FS

var templates = template.Must(template.New("").ParseFS(files, "files/*.tmpl"))

// render executes files/<name>.tmpl.
func render(name string, data any) ([]byte, error) {
	var b bytes.Buffer
	if err := templates.ExecuteTemplate(&b, name+".tmpl", data); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// writeInstallScript renders install.sh with this release's version and
// download root as its defaults.
func writeInstallScript(o Options, path string) error {
	b, err := render("install.sh", map[string]any{
		"Version": o.Version, "DownloadURL": o.DownloadURL, "ReleaseURL": o.ReleaseURL(),
	})
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, b, 0o755); err != nil {
		return err
	}
	return os.Chmod(path, 0o755)
}

// writeFormula renders homebrew/genui.rb with the archives of the macOS
// and Linux platforms built. It returns the file's path relative to Dir,
// or "" when there is none of those.
func writeFormula(o Options, sums map[string]string) (string, error) {
	assets := map[string]*FormulaAsset{}
	for _, p := range o.Platforms {
		if p.GOOS == "windows" {
			continue
		}
		name := ArchiveName(o.Version, p)
		assets[p.GOOS+"/"+p.GOARCH] = &FormulaAsset{URL: o.ReleaseURL() + "/" + name, SHA256: sums[name]}
	}
	if len(assets) == 0 {
		return "", nil
	}
	b, err := render("genui.rb", map[string]any{
		"Version":  o.Version,
		"Homepage": o.Homepage,
		"MacARM":   assets["darwin/arm64"], "MacIntel": assets["darwin/amd64"],
		"LinuxARM": assets["linux/arm64"], "LinuxIntel": assets["linux/amd64"],
	})
	if err != nil {
		return "", err
	}
	path := filepath.Join(o.Dir, filepath.FromSlash(FormulaFile))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return FormulaFile, os.WriteFile(path, b, 0o644)
}
