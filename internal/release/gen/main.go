// Command gen writes a release's archives, npm packages, install script,
// Homebrew formula and SHA256SUMS (see package release) beside the binaries
// `make release` built:
//
//	go run ./internal/release/gen -version X.Y.Z -dir release \
//	    -platforms "linux/amd64 darwin/arm64" -homepage https://github.com/OWNER/REPO \
//	    -download-url https://github.com/OWNER/REPO/releases/download [-mtime UNIX]
package main

import (
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/genui-dev/genui/internal/release"
)

func main() {
	if err := run(os.Args[1:]); err != nil {
		fmt.Fprintln(os.Stderr, "release:", err)
		os.Exit(1)
	}
}

func run(args []string) error {
	fs := flag.NewFlagSet("release", flag.ContinueOnError)
	var o release.Options
	fs.StringVar(&o.Version, "version", "", "X.Y.Z")
	fs.StringVar(&o.Dir, "dir", "release", "the folder holding the binaries; outputs go there too")
	platforms := fs.String("platforms", "", "GOOS/GOARCH pairs, space-separated")
	fs.StringVar(&o.Homepage, "homepage", "", "the project's https URL")
	fs.StringVar(&o.DownloadURL, "download-url", "", "the root of the releases' files: URL/vX.Y.Z/FILE")
	readme := fs.String("readme", "README.md", "the README packed beside the binary")
	license := fs.String("license", "LICENSE", "the LICENSE packed beside the binary")
	mtime := fs.Int64("mtime", 0, "the archive entries' time, Unix seconds (default now)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	for _, s := range strings.Fields(*platforms) {
		p, err := release.ParsePlatform(s)
		if err != nil {
			return err
		}
		o.Platforms = append(o.Platforms, p)
	}
	var err error
	if o.README, err = os.ReadFile(*readme); err != nil {
		return err
	}
	if o.License, err = os.ReadFile(*license); err != nil {
		return err
	}
	o.ModTime = time.Now()
	if *mtime > 0 {
		o.ModTime = time.Unix(*mtime, 0)
	}
	r, err := release.Build(o)
	if err != nil {
		return err
	}
	fmt.Printf("archives:       %s\n", strings.Join(r.Archives, " "))
	fmt.Printf("install script: %s\n", r.InstallScript)
	if r.Formula != "" {
		fmt.Printf("formula:        %s\n", r.Formula)
	}
	fmt.Printf("npm packages:   %s\n", strings.Join(append([]string{r.NPMMain}, r.NPMPlatforms...), " "))
	fmt.Printf("%s:\n", release.SumsFile)
	b, err := os.ReadFile(o.Dir + "/" + release.SumsFile)
	if err != nil {
		return err
	}
	_, err = os.Stdout.Write(b)
	return err
}
