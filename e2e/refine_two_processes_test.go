package e2e_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestTwoGenuiProcessesKeepEachOthersRefinements: two `genui mcp`
// processes on one DIR (two Claude Code sessions in one project) refine
// at the same time; every refinement of both ends up in
// DIR/refinements.json, and each process sees the other's.
func TestTwoGenuiProcessesKeepEachOthersRefinements(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ui")
	a := genuiMCPIn(t, dir)
	b := genuiMCPIn(t, dir)
	const each = 6
	var wg sync.WaitGroup
	for _, p := range []struct {
		c          *mcptest.Client
		name, tool string
	}{{a, "a", "get_forecast"}, {b, "b", "datastore_search"}} {
		wg.Go(func() {
			for n := range each {
				res, err := p.c.CallTool(bounded(t, time.Minute), "_ui_refine",
					map[string]any{"toolName": p.tool, "feedback": fmt.Sprintf("%s refinement %d", p.name, n)}, nil)
				if err != nil || strings.Contains(string(res), `"isError":true`) {
					t.Errorf("%s: _ui_refine: %v %s", p.name, err, clip(res))
					return
				}
			}
		})
	}
	wg.Wait()
	data, err := os.ReadFile(filepath.Join(dir, "refinements.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Tools map[string][]struct{ Feedback string } `json:"tools"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Tools["get_forecast"]) != each || len(f.Tools["datastore_search"]) != each {
		t.Fatalf("refinements.json holds %d and %d refinements, want %d each:\n%s",
			len(f.Tools["get_forecast"]), len(f.Tools["datastore_search"]), each, clip(data))
	}
	// Each process sees the other's refinements (it rereads the file
	// within a moment).
	want := fmt.Sprintf("b refinement %d", each-1)
	var h []byte
	seesB := func() bool {
		ins := callWrapper(t, a, "_ui_inspect", map[string]any{"toolName": "datastore_search"})
		h, _ = json.Marshal(ins["history"])
		return strings.Contains(string(h), want)
	}
	if !testenv.Until(10*time.Second, seesB) {
		t.Fatalf("process a does not see b's refinements within 10 s: %s", h)
	}
}
