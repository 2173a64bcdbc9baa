package e2e_test

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// TestWatchBuildsBeforeTheFirstStart: a fresh checkout of a project with a
// build step (its server runs from what the build writes, which is not
// there yet) is built before the server first starts, so it serves.
func TestWatchBuildsBeforeTheFirstStart(t *testing.T) {
	p := newProject(t, map[string]any{}, toolSpec(map[string]any{"b": map[string]any{"type": "string"}}, "Beta shows one thing.", "beta v1", nil))
	// The server is built: src/server.mjs is copied to build/server.mjs.
	src, err := os.ReadFile(filepath.Join(p.dir, "filetools.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(p.dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(p.dir, "src", "server.mjs"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	cfg := map[string]any{"upstream": map[string]any{
		"command": testenv.NodePath(t), "args": []string{"build/server.mjs"}, "env": map[string]string{"TOOLS_FILE": "tools.json"},
		"watch": map[string]any{"build": "mkdir -p build && cp src/server.mjs build/server.mjs && echo built"},
	}}
	b, _ := json.MarshalIndent(cfg, "", "  ")
	p.write("genui.json", string(b))

	cmd := exec.Command(testenv.GenuiBinary(t), "mcp", "--watch", "src")
	cmd.Dir = p.dir
	c := session(t, cmd, hostHandler())
	ctx := bounded(t, 3*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(p.dir, ".ui")
	api := "http://127.0.0.1:" + strconv.Itoa(waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second))
	if got, rpcErr := callText(t, ctx, c, "beta", map[string]any{}); rpcErr != nil || got != "beta v1" {
		t.Fatalf("beta on a fresh checkout: %q %v", got, rpcErr)
	}
	var st struct {
		Watch struct {
			Last *struct {
				Phase   string `json:"phase"`
				AtStart bool   `json:"atStart"`
			} `json:"last"`
		} `json:"watch"`
	}
	getJSON(t, api+"/state", &st)
	if st.Watch.Last == nil || st.Watch.Last.Phase != "built" || !st.Watch.Last.AtStart {
		t.Fatalf("/state watch.last: %+v", st.Watch.Last)
	}
	if _, err := os.Stat(filepath.Join(p.dir, "build", "server.mjs")); err != nil {
		t.Fatal(err)
	}
}
