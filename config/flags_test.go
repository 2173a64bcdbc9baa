package config

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/spf13/pflag"
)

// TestRegisterExceptKeepsWhatItRegisters: a command registering a subset
// of the common flags (export, check) refuses the others and still reads
// the ones it has, through the same resolution as Register's.
func TestRegisterExceptKeepsWhatItRegisters(t *testing.T) {
	file := filepath.Join(t.TempDir(), "absent.json")
	if err := os.WriteFile(file, []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := &Flags{}
	fs := pflag.NewFlagSet("check", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	f.RegisterCheck(fs)
	if err := fs.Parse([]string{"--watch", "x.js"}); err == nil {
		t.Error("check accepted --watch")
	}
	if err := fs.Parse([]string{"--llm", "offline"}); err == nil {
		t.Error("check accepted --llm")
	}
	if err := fs.Parse([]string{"--upstream-url", "http://127.0.0.1:1/mcp", "--log-level", "debug", "--dir", "d"}); err != nil {
		t.Fatal(err)
	}
	eff, err := Load(Input{File: file, Flags: f.flagSet(), LookupEnv: env{}.lookup})
	if err != nil {
		t.Fatal(err)
	}
	c := eff.Config
	if c.Upstream.URL != "http://127.0.0.1:1/mcp" || c.Logging.Level != "debug" || c.Dir != "d" {
		t.Errorf("check's flags did not resolve: upstream %q, log level %q, dir %q", c.Upstream.URL, c.Logging.Level, c.Dir)
	}

	e := &Flags{}
	fs = pflag.NewFlagSet("export", pflag.ContinueOnError)
	fs.SetOutput(io.Discard)
	e.RegisterExport(fs)
	if err := fs.Parse([]string{"--refresh-interval", "5m"}); err == nil {
		t.Error("export accepted --refresh-interval")
	}
	if err := fs.Parse([]string{"--llm", "offline"}); err != nil {
		t.Fatal(err)
	}
	if eff, err = Load(Input{File: file, Flags: e.flagSet(), LookupEnv: env{}.lookup}); err != nil || eff.Config.LLM.Provider != "offline" {
		t.Errorf("export's --llm did not resolve: %v %+v", err, eff)
	}
}
