// Package release turns the genui binaries that `make release` builds into
// the files a release ships: an archive per platform (tar.gz, zip for
// Windows) holding the binary, README.md and LICENSE; an npm package set
// (one package per platform holding its binary, selected by npm through
// "os"/"cpu", and the main package `genui`, whose bin is a small launcher
// that runs the right one); a POSIX install script that checks an archive
// against SHA256SUMS before installing it; a Homebrew formula with the
// archives' URLs and sums; and SHA256SUMS itself. It writes files only:
// nothing is published. gen/ is the command the Makefile runs.
package release

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"
)

// Options describe one release.
type Options struct {
	// Version is X.Y.Z (README.md's version line), without a leading v.
	Version string
	// Dir holds the binaries genui-vX.Y.Z-OS-ARCH[.exe]; every output is
	// written there.
	Dir string
	// Platforms are the GOOS/GOARCH pairs built, each one of Supported.
	Platforms []Platform
	// Homepage is the project's page (the GitHub repository), named in
	// the npm packages and the formula.
	Homepage string
	// DownloadURL is the root under which each release's files are
	// published: DownloadURL/vX.Y.Z/<file>. The formula's URLs and the
	// install script's default base URL come from it.
	DownloadURL string
	// README and License are the files packed beside the binary.
	README, License []byte
	// ModTime stamps every archive entry (the commit's time keeps the
	// archives reproducible).
	ModTime time.Time
}

// Platform is one build target.
type Platform struct{ GOOS, GOARCH string }

// Supported are the platforms a release may contain, with the names npm
// uses for them (process.platform and process.arch).
var Supported = []Platform{
	{"linux", "amd64"}, {"linux", "arm64"},
	{"darwin", "amd64"}, {"darwin", "arm64"},
	{"windows", "amd64"},
}

var (
	npmOS  = map[string]string{"linux": "linux", "darwin": "darwin", "windows": "win32"}
	npmCPU = map[string]string{"amd64": "x64", "arm64": "arm64"}
)

// ParsePlatform reads "GOOS/GOARCH".
func ParsePlatform(s string) (Platform, error) {
	goos, goarch, ok := strings.Cut(s, "/")
	p := Platform{goos, goarch}
	if !ok || !slices.Contains(Supported, p) {
		return Platform{}, fmt.Errorf("unsupported platform %q (want one of %s)", s, supportedList())
	}
	return p, nil
}

func supportedList() string {
	s := make([]string, len(Supported))
	for i, p := range Supported {
		s[i] = p.String()
	}
	return strings.Join(s, ", ")
}

func (p Platform) String() string { return p.GOOS + "/" + p.GOARCH }

// exe is the binary's file name inside archives and npm packages.
func (p Platform) exe() string {
	if p.GOOS == "windows" {
		return "genui.exe"
	}
	return "genui"
}

// NPMOS and NPMCPU are npm's "os" and "cpu" values for p.
func (p Platform) NPMOS() string  { return npmOS[p.GOOS] }
func (p Platform) NPMCPU() string { return npmCPU[p.GOARCH] }

// NPMPackage is the name of p's npm package: @genui/<os>-<cpu>.
func (p Platform) NPMPackage() string { return "@genui/" + p.NPMOS() + "-" + p.NPMCPU() }

// Stem is genui-vX.Y.Z-OS-ARCH: the binary's name without .exe, and the
// archive's name and its top folder without the extension.
func Stem(version string, p Platform) string {
	return "genui-v" + version + "-" + p.GOOS + "-" + p.GOARCH
}

// BinaryName is the binary `make release` builds for p.
func BinaryName(version string, p Platform) string {
	if p.GOOS == "windows" {
		return Stem(version, p) + ".exe"
	}
	return Stem(version, p)
}

// ArchiveName is p's release archive.
func ArchiveName(version string, p Platform) string {
	if p.GOOS == "windows" {
		return Stem(version, p) + ".zip"
	}
	return Stem(version, p) + ".tar.gz"
}

// Result lists what Build wrote, relative to Options.Dir.
type Result struct {
	Binaries, Archives []string
	InstallScript      string
	Formula            string // "" when no macOS or Linux platform was built
	NPMMain            string
	NPMPlatforms       []string
	// Sums maps every file named in SHA256SUMS to its hex SHA256.
	Sums map[string]string
}

// Paths inside Options.Dir.
const (
	SumsFile      = "SHA256SUMS"
	InstallScript = "install.sh"
	FormulaFile   = "homebrew/genui.rb"
	NPMDir        = "npm"
)

var (
	versionRE = regexp.MustCompile(`^\d+\.\d+\.\d+$`)
	// urlRE: the URL is written into the install script and the formula
	// as is, so it may hold no character the shell or Ruby would read.
	urlRE = regexp.MustCompile(`^[a-z][a-z0-9+.-]*://[A-Za-z0-9._~:/?#@!&()*+,;=%-]+$`)
)

func (o *Options) check() error {
	var errs []error
	if !versionRE.MatchString(o.Version) {
		errs = append(errs, fmt.Errorf("version %q is not X.Y.Z", o.Version))
	}
	if len(o.Platforms) == 0 {
		errs = append(errs, errors.New("no platforms"))
	}
	for _, p := range o.Platforms {
		if !slices.Contains(Supported, p) {
			errs = append(errs, fmt.Errorf("unsupported platform %s (want one of %s)", p, supportedList()))
		}
	}
	if !strings.HasPrefix(o.Homepage, "https://") {
		errs = append(errs, fmt.Errorf("homepage %q is not an https URL", o.Homepage))
	}
	if !urlRE.MatchString(o.DownloadURL) {
		errs = append(errs, fmt.Errorf("download URL %q is not a URL without quotes, spaces or $", o.DownloadURL))
	}
	if len(o.README) == 0 || len(o.License) == 0 {
		errs = append(errs, errors.New("README and LICENSE must not be empty"))
	}
	return errors.Join(errs...)
}

// ReleaseURL is where this release's files are published:
// DownloadURL/vX.Y.Z.
func (o *Options) ReleaseURL() string {
	return strings.TrimRight(o.DownloadURL, "/") + "/v" + o.Version
}

// Build writes the archives, npm packages, install script, formula and
// SHA256SUMS for the binaries in o.Dir.
func Build(o Options) (*Result, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	r := &Result{Sums: map[string]string{}}
	for _, p := range o.Platforms {
		bin := BinaryName(o.Version, p)
		if _, err := os.Stat(filepath.Join(o.Dir, bin)); err != nil {
			return nil, fmt.Errorf("the %s binary: %w", p, err)
		}
		r.Binaries = append(r.Binaries, bin)
		arc := ArchiveName(o.Version, p)
		if err := writeArchive(o, p, filepath.Join(o.Dir, arc)); err != nil {
			return nil, fmt.Errorf("archive %s: %w", arc, err)
		}
		r.Archives = append(r.Archives, arc)
	}
	if err := writeInstallScript(o, filepath.Join(o.Dir, InstallScript)); err != nil {
		return nil, err
	}
	r.InstallScript = InstallScript
	for _, name := range slices.Concat(r.Binaries, r.Archives, []string{InstallScript}) {
		sum, err := fileSHA256(filepath.Join(o.Dir, name))
		if err != nil {
			return nil, err
		}
		r.Sums[name] = sum
	}
	if err := writeSums(filepath.Join(o.Dir, SumsFile), r.Sums); err != nil {
		return nil, err
	}
	formula, err := writeFormula(o, r.Sums)
	if err != nil {
		return nil, err
	}
	r.Formula = formula
	if r.NPMMain, r.NPMPlatforms, err = writeNPM(o); err != nil {
		return nil, err
	}
	return r, nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// writeSums writes SHA256SUMS in sha256sum's text format ("HASH  NAME"),
// sorted by name, so `sha256sum -c SHA256SUMS` checks it.
func writeSums(path string, sums map[string]string) error {
	names := make([]string, 0, len(sums))
	for n := range sums {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	for _, n := range names {
		fmt.Fprintf(&b, "%s  %s\n", sums[n], n)
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// ParseSums reads SHA256SUMS text ("HASH  NAME" or "HASH *NAME" lines).
func ParseSums(text string) map[string]string {
	sums := map[string]string{}
	for line := range strings.Lines(text) {
		if f := strings.Fields(line); len(f) == 2 {
			sums[strings.TrimPrefix(f[1], "*")] = f[0]
		}
	}
	return sums
}

// FormulaAsset is one platform's archive as a Homebrew formula names it.
type FormulaAsset struct{ URL, SHA256 string }

var (
	formulaOSRE   = regexp.MustCompile(`(?s)\n  on_(macos|linux) do\n(.*?)\n  end\n`)
	formulaArchRE = regexp.MustCompile(`(?s)\n    on_(arm|intel) do\n      url "([^"]+)"\n      sha256 "([0-9a-f]{64})"\n    end`)
)

// ParseFormula reads the per-platform url/sha256 pairs of a formula
// rendered by Build (on_macos/on_linux, then on_arm/on_intel).
func ParseFormula(text string) map[Platform]FormulaAsset {
	goos := map[string]string{"macos": "darwin", "linux": "linux"}
	goarch := map[string]string{"arm": "arm64", "intel": "amd64"}
	assets := map[Platform]FormulaAsset{}
	for _, block := range formulaOSRE.FindAllStringSubmatch(text, -1) {
		for _, a := range formulaArchRE.FindAllStringSubmatch("\n"+block[2], -1) {
			assets[Platform{goos[block[1]], goarch[a[1]]}] = FormulaAsset{URL: a[2], SHA256: a[3]}
		}
	}
	return assets
}
