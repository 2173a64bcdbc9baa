// Package uicorpus holds the corpus of real MCP results that genui's offline
// UIs are checked against: for each of a dozen MCP servers from the npm
// registry (browser automation, terminal, git, databases, spreadsheets,
// search, fetch, time, ...) its tool definitions and the raw JSON-RPC answers
// to realistic calls, one error case included. `make uicorpus` records them
// (record/, run by scripts/uicorpus.sh); the files live in the repository
// under testdata/uicorpus so the invariant tests need no server installed.
package uicorpus

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
)

// Server is one recorded corpus server: what it is, how it ran and what it
// answered.
type Server struct {
	// Name is the short name the files are named after ("playwright").
	Name string `json:"name"`
	// Package, Version and License are the npm package's, as installed.
	Package string `json:"package"`
	Version string `json:"version"`
	License string `json:"license"`
	// Kind says what sort of server it is ("browser automation").
	Kind string `json:"kind"`
	// Command is how it ran, with the recording's temporary paths replaced
	// by Root.
	Command []string `json:"command"`
	// Setup says what the recorder prepared for it (a git repository, a
	// PostgreSQL database, a local web site, ...).
	Setup string `json:"setup,omitempty"`
	// Tools are the tools/list entries, raw.
	Tools []json.RawMessage `json:"tools"`
	// Skipped are the tools deliberately not called, each with the reason.
	Skipped map[string]string `json:"skipped,omitempty"`
	// Calls are the calls made, in order.
	Calls []Call `json:"calls"`
}

// Call is one tools/call and its answer: Result (the raw CallToolResult) or
// Error (the raw JSON-RPC error object).
type Call struct {
	Tool      string          `json:"tool"`
	Arguments json.RawMessage `json:"arguments"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     json.RawMessage `json:"error,omitempty"`
	// ErrorCase marks the call made to fail on purpose.
	ErrorCase bool `json:"errorCase,omitempty"`
}

// Root is the folder recorded paths are rewritten to: the recording's
// temporary directory becomes Root so that fixtures stay the same from one
// recording to the next.
const Root = "/home/dev/corpus"

// ToolName is the name of a raw tool definition.
func ToolName(raw json.RawMessage) string {
	var t struct {
		Name string `json:"name"`
	}
	_ = json.Unmarshal(raw, &t)
	return t.Name
}

// Dir is the corpus folder in this source tree (testdata/uicorpus at the
// module root).
func Dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "uicorpus")
}

// HeldOutDir is the held-out split of the corpus (testdata/uicorpus/heldout):
// servers recorded once and scored, never looked at while the generator
// changes (testdata/uicorpus/README.md).
func HeldOutDir() string {
	return filepath.Join(Dir(), "heldout")
}

// Load reads every *.json server file of dir, sorted by name. A file that
// does not parse, or a call naming a tool the server does not list, is an
// error.
func Load(dir string) ([]Server, error) {
	paths, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, err
	}
	if len(paths) == 0 {
		return nil, fmt.Errorf("uicorpus: no server files in %s", dir)
	}
	sort.Strings(paths)
	var out []Server
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			return nil, err
		}
		var s Server
		if err := json.Unmarshal(b, &s); err != nil {
			return nil, fmt.Errorf("uicorpus: %s: %w", filepath.Base(p), err)
		}
		if want := strings.TrimSuffix(filepath.Base(p), ".json"); s.Name != want {
			return nil, fmt.Errorf("uicorpus: %s names server %q", filepath.Base(p), s.Name)
		}
		if s.Package == "" || s.Version == "" || s.License == "" {
			return nil, fmt.Errorf("uicorpus: %s: package, version and license are required", s.Name)
		}
		names := map[string]bool{}
		for _, t := range s.Tools {
			names[ToolName(t)] = true
		}
		for i, c := range s.Calls {
			if !names[c.Tool] {
				return nil, fmt.Errorf("uicorpus: %s: call %d names tool %q, not listed", s.Name, i, c.Tool)
			}
			if (len(c.Result) == 0) == (len(c.Error) == 0) {
				return nil, fmt.Errorf("uicorpus: %s: call %d (%s) must hold a result or an error", s.Name, i, c.Tool)
			}
		}
		out = append(out, s)
	}
	if len(out) == 0 {
		return nil, errors.New("uicorpus: empty corpus")
	}
	return out, nil
}
