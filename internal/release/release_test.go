package release_test

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/release"
)

const (
	version     = "1.2.3"
	homepage    = "https://github.com/example/genui"
	downloadURL = "https://downloads.example.test/genui"
)

var (
	readme  = []byte("# genui\n\nthe README\n")
	license = []byte("MIT License\n\nthe LICENSE\n")
	modTime = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
)

// fakeBinary is the stand-in binary of p: distinct bytes per platform, so a
// binary packed for the wrong platform is caught.
func fakeBinary(p release.Platform) []byte {
	return []byte("binary for " + p.String() + "\n" + strings.Repeat(p.String(), 1000))
}

// build writes fake binaries for platforms into a temp dir and runs Build.
func build(t *testing.T, platforms []release.Platform, mutate ...func(*release.Options)) (release.Options, *release.Result) {
	t.Helper()
	dir := t.TempDir()
	for _, p := range platforms {
		if err := os.WriteFile(filepath.Join(dir, release.BinaryName(version, p)), fakeBinary(p), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	o := release.Options{Version: version, Dir: dir, Platforms: platforms, Homepage: homepage,
		DownloadURL: downloadURL, README: readme, License: license, ModTime: modTime}
	for _, m := range mutate {
		m(&o)
	}
	r, err := release.Build(o)
	if err != nil {
		t.Fatal(err)
	}
	return o, r
}

type entry struct {
	mode fs.FileMode
	data []byte
}

func readTarGz(t *testing.T, path string) map[string]entry {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]entry{}
	for {
		h, err := tr.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		if !h.ModTime.Equal(modTime) {
			t.Errorf("%s: %s has time %v, want %v", path, h.Name, h.ModTime, modTime)
		}
		out[h.Name] = entry{fs.FileMode(h.Mode).Perm(), b}
	}
}

func readZip(t *testing.T, path string) map[string]entry {
	t.Helper()
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	out := map[string]entry{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		out[f.Name] = entry{f.Mode().Perm(), b}
	}
	return out
}

func sha(b []byte) string {
	s := sha256.Sum256(b)
	return hex.EncodeToString(s[:])
}

func readFile(t *testing.T, path string) []byte {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestBuildEveryPlatform: from five binaries, Build writes an archive per
// platform (tar.gz; zip for Windows) holding that platform's binary
// (executable), README.md and LICENSE under one top folder; SHA256SUMS
// naming exactly the binaries, archives and install.sh with their real
// sums; a formula with the four macOS/Linux archives' URLs and sums and no
// Windows; one npm package per platform (npm's os/cpu names, the binary in
// bin/, executable) and the main package `genui` pinning all five as
// optional dependencies, with the launcher as its bin.
func TestBuildEveryPlatform(t *testing.T) {
	o, r := build(t, release.Supported)

	for _, p := range release.Supported {
		stem := release.Stem(version, p)
		arc := filepath.Join(o.Dir, release.ArchiveName(version, p))
		var entries map[string]entry
		exe := "genui"
		if p.GOOS == "windows" {
			if !strings.HasSuffix(arc, ".zip") {
				t.Errorf("%s: Windows archive is not a zip", arc)
			}
			entries, exe = readZip(t, arc), "genui.exe"
		} else {
			if !strings.HasSuffix(arc, ".tar.gz") {
				t.Errorf("%s: archive is not a tar.gz", arc)
			}
			entries = readTarGz(t, arc)
		}
		want := map[string]entry{
			stem + "/":          {0o755, []byte{}},
			stem + "/" + exe:    {0o755, fakeBinary(p)},
			stem + "/README.md": {0o644, readme},
			stem + "/LICENSE":   {0o644, license},
		}
		if !maps.EqualFunc(entries, want, func(a, b entry) bool { return a.mode == b.mode && bytes.Equal(a.data, b.data) }) {
			names := slices.Sorted(maps.Keys(entries))
			t.Errorf("%s holds %v, want %v with the platform's binary (0755), README.md and LICENSE (0644)", arc, names, slices.Sorted(maps.Keys(want)))
		}
	}

	// SHA256SUMS: exactly the release's files, each with its real sum.
	sums := release.ParseSums(string(readFile(t, filepath.Join(o.Dir, release.SumsFile))))
	var wantNames []string
	for _, p := range release.Supported {
		wantNames = append(wantNames, release.BinaryName(version, p), release.ArchiveName(version, p))
	}
	wantNames = append(wantNames, release.InstallScript)
	if got := slices.Sorted(maps.Keys(sums)); !slices.Equal(got, slices.Sorted(slices.Values(wantNames))) {
		t.Errorf("SHA256SUMS names %v, want %v", got, slices.Sorted(slices.Values(wantNames)))
	}
	for name, sum := range sums {
		if got := sha(readFile(t, filepath.Join(o.Dir, name))); got != sum {
			t.Errorf("SHA256SUMS says %s for %s, the file is %s", sum, name, got)
		}
	}
	if !maps.Equal(sums, r.Sums) {
		t.Errorf("Result.Sums %v differ from SHA256SUMS %v", r.Sums, sums)
	}

	// The formula: macOS and Linux, each arch's archive URL and its sum.
	formula := string(readFile(t, filepath.Join(o.Dir, r.Formula)))
	got := release.ParseFormula(formula)
	want := map[release.Platform]release.FormulaAsset{}
	for _, p := range release.Supported {
		if p.GOOS == "windows" {
			continue
		}
		name := release.ArchiveName(version, p)
		want[p] = release.FormulaAsset{URL: downloadURL + "/v" + version + "/" + name, SHA256: sums[name]}
	}
	if !maps.Equal(got, want) {
		t.Errorf("formula assets:\n got %v\nwant %v\n%s", got, want, formula)
	}
	for _, line := range []string{`class Genui < Formula`, `version "` + version + `"`, `homepage "` + homepage + `"`, `license "MIT"`, `bin.install "genui"`} {
		if !strings.Contains(formula, line) {
			t.Errorf("formula lacks %s:\n%s", line, formula)
		}
	}
	if strings.Contains(formula, "windows") {
		t.Errorf("formula names a Windows archive:\n%s", formula)
	}

	// npm: one package per platform, and the main package.
	type manifest struct {
		Name, Version, License string
		OS, CPU                []string
		Bin                    map[string]string
		OptionalDependencies   map[string]string
		Scripts                map[string]string
	}
	readManifest := func(dir string) manifest {
		var m manifest
		if err := json.Unmarshal(readFile(t, filepath.Join(o.Dir, dir, "package.json")), &m); err != nil {
			t.Fatal(err)
		}
		return m
	}
	npmNames := map[release.Platform][2]string{
		{"linux", "amd64"}: {"linux", "x64"}, {"linux", "arm64"}: {"linux", "arm64"},
		{"darwin", "amd64"}: {"darwin", "x64"}, {"darwin", "arm64"}: {"darwin", "arm64"},
		{"windows", "amd64"}: {"win32", "x64"},
	}
	wantOptional := map[string]string{}
	for i, p := range release.Supported {
		dir := r.NPMPlatforms[i]
		m := readManifest(dir)
		osCPU := npmNames[p]
		name := "@genui/" + osCPU[0] + "-" + osCPU[1]
		if m.Name != name || m.Version != version || m.License != "MIT" ||
			!slices.Equal(m.OS, []string{osCPU[0]}) || !slices.Equal(m.CPU, []string{osCPU[1]}) || len(m.Scripts) != 0 {
			t.Errorf("%s/package.json = %+v, want %s %s os [%s] cpu [%s], no scripts", dir, m, name, version, osCPU[0], osCPU[1])
		}
		exe := "bin/genui"
		if p.GOOS == "windows" {
			exe = "bin/genui.exe"
		}
		path := filepath.Join(o.Dir, dir, exe)
		if !bytes.Equal(readFile(t, path), fakeBinary(p)) {
			t.Errorf("%s is not the %s binary", path, p)
		}
		if st, err := os.Stat(path); err != nil || st.Mode().Perm() != 0o755 {
			t.Errorf("%s: mode %v (%v), want 0755", path, st.Mode(), err)
		}
		for _, f := range []string{"README.md", "LICENSE"} {
			if _, err := os.Stat(filepath.Join(o.Dir, dir, f)); err != nil {
				t.Error(err)
			}
		}
		wantOptional[name] = version
	}
	m := readManifest(r.NPMMain)
	if m.Name != "genui" || m.Version != version || !maps.Equal(m.OptionalDependencies, wantOptional) ||
		!maps.Equal(m.Bin, map[string]string{"genui": "bin/genui.js"}) || len(m.Scripts) != 0 {
		t.Errorf("main package.json = %+v, want genui %s, bin genui -> bin/genui.js, optionalDependencies %v, no install scripts", m, version, wantOptional)
	}
	launcher := filepath.Join(o.Dir, r.NPMMain, "bin", "genui.js")
	if st, err := os.Stat(launcher); err != nil || st.Mode().Perm() != 0o755 || !bytes.HasPrefix(readFile(t, launcher), []byte("#!/usr/bin/env node\n")) {
		t.Errorf("%s: want an executable node script (%v)", launcher, err)
	}

	script := string(readFile(t, filepath.Join(o.Dir, release.InstallScript)))
	for _, s := range []string{`version="${GENUI_VERSION:-` + version + `}"`, `download_url='` + downloadURL + `'`} {
		if !strings.Contains(script, s) {
			t.Errorf("install.sh lacks %s", s)
		}
	}
}

// TestBuildOnePlatform: a release of linux/amd64 alone (what CI builds)
// has one archive, a formula with only that archive, and a main npm
// package listing only that platform.
func TestBuildOnePlatform(t *testing.T) {
	p := release.Platform{GOOS: "linux", GOARCH: "amd64"}
	o, r := build(t, []release.Platform{p})
	if !slices.Equal(r.Archives, []string{release.ArchiveName(version, p)}) {
		t.Errorf("archives %v", r.Archives)
	}
	assets := release.ParseFormula(string(readFile(t, filepath.Join(o.Dir, r.Formula))))
	if len(assets) != 1 || assets[p].SHA256 != r.Sums[release.ArchiveName(version, p)] {
		t.Errorf("formula assets %v, want only %s", assets, p)
	}
	var m struct{ OptionalDependencies map[string]string }
	if err := json.Unmarshal(readFile(t, filepath.Join(o.Dir, r.NPMMain, "package.json")), &m); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(m.OptionalDependencies, map[string]string{"@genui/linux-x64": version}) {
		t.Errorf("optionalDependencies %v", m.OptionalDependencies)
	}

	// Windows alone: no formula.
	_, r = build(t, []release.Platform{{GOOS: "windows", GOARCH: "amd64"}})
	if r.Formula != "" {
		t.Errorf("a Windows-only release wrote formula %s", r.Formula)
	}
}

// TestBuildRejects: every bad option is named, and a missing binary says
// which platform's.
func TestBuildRejects(t *testing.T) {
	dir := t.TempDir()
	_, err := release.Build(release.Options{Version: "v1.2", Dir: dir,
		Platforms: []release.Platform{{GOOS: "plan9", GOARCH: "386"}}, Homepage: "http://x",
		DownloadURL: "https://x/'$(rm -rf ~)'"})
	for _, want := range []string{`version "v1.2" is not X.Y.Z`, "unsupported platform plan9/386", `homepage "http://x"`, `download URL`, "README and LICENSE"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Build error %v, want one naming %s", err, want)
		}
	}
	_, err = release.Build(release.Options{Version: version, Dir: dir, Platforms: release.Supported,
		Homepage: homepage, DownloadURL: downloadURL, README: readme, License: license})
	if err == nil || !strings.Contains(err.Error(), "the linux/amd64 binary") {
		t.Errorf("Build without binaries: %v, want it to name the linux/amd64 binary", err)
	}
	if _, err := release.ParsePlatform("linux/386"); err == nil || !strings.Contains(err.Error(), "linux/amd64") {
		t.Errorf("ParsePlatform(linux/386) = %v, want an error listing the supported ones", err)
	}
}
