package install_test

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/install"
)

// fakeGenui answers the routes the helper uses: the first /wait returns two
// events, later ones 204; /api/tool/{name} echoes the tool and body; /state
// returns a small object.
func fakeGenui(t *testing.T, dir string) {
	t.Helper()
	var waits atomic.Int32
	mux := http.NewServeMux()
	mux.HandleFunc("GET /wait", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("timeout") != "120" {
			http.Error(w, "bad timeout", 400)
			return
		}
		if waits.Add(1) > 1 {
			w.WriteHeader(http.StatusNoContent)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `[{"seq":1,"type":"ui/message","payload":{"text":"a b"}},{"seq":2,"type":"refine-request","payload":{"feedback":"x"}}]`+"\n")
	})
	mux.HandleFunc("POST /api/tool/{name}", func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if r.PathValue("name") == "missing" {
			w.WriteHeader(404)
			io.WriteString(w, `{"error":"unknown tool \"missing\""}`)
			return
		}
		fmt.Fprintf(w, `{"result":{"tool":%q,"args":%s}}`, r.PathValue("name"), b)
	})
	mux.HandleFunc("GET /state", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, `{"version":"x"}`) })
	ts := httptest.NewServer(mux)
	t.Cleanup(ts.Close)
	_, port, _ := net.SplitHostPort(ts.Listener.Addr().String())
	if err := os.WriteFile(filepath.Join(dir, "mcp-port"), []byte(port+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

// pathWith makes a PATH holding only the tools the helper needs plus extra.
func pathWith(t *testing.T, extra ...string) string {
	t.Helper()
	bin := t.TempDir()
	for _, tool := range append([]string{"sh", "curl", "sed", "mktemp", "cat", "rm", "dirname", "sleep"}, extra...) {
		p, err := exec.LookPath(tool)
		if err != nil {
			t.Skipf("%s not installed", tool)
		}
		if tool == "python3" { // may be a shim script (pyenv): link the interpreter itself
			out, err := exec.Command(p, "-c", "import sys; print(sys.executable)").Output()
			if err != nil {
				t.Skipf("python3: %v", err)
			}
			p = strings.TrimSpace(string(out))
		}
		if err := os.Symlink(p, filepath.Join(bin, tool)); err != nil {
			t.Fatal(err)
		}
	}
	return bin
}

func runScript(t *testing.T, path, script string, stdin string, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, script, args...)
	cmd.Env = []string{"PATH=" + path, "TMPDIR=" + t.TempDir()}
	cmd.Dir = t.TempDir()
	cmd.Stdin = strings.NewReader(stdin)
	out, err := cmd.Output()
	if ee, ok := err.(*exec.ExitError); ok {
		return string(out) + string(ee.Stderr), err
	}
	return string(out), err
}

func TestScriptAgainstServer(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not installed")
	}
	dir := filepath.Join(t.TempDir(), ".ui")
	if _, err := install.Install(install.Options{Dir: dir, Version: "0.1.0"}); err != nil {
		t.Fatal(err)
	}
	script := filepath.Join(dir, "mcp")
	fakeGenui(t, dir)
	path := pathWith(t)

	for _, c := range []struct {
		args  []string
		stdin string
		want  string
	}{
		{[]string{"get_current_weather", `{"location":"Paris"}`}, "", `{"result":{"tool":"get_current_weather","args":{"location":"Paris"}}}`},
		{[]string{"_ui_list"}, "", `{"result":{"tool":"_ui_list","args":{}}}`},
		{[]string{"call", "status", `{"a":1}`}, "", `{"result":{"tool":"status","args":{"a":1}}}`},
		{[]string{"_ui_refine", "-"}, `{"toolName":"t","feedback":"it's \"quoted\""}`, `{"result":{"tool":"_ui_refine","args":{"toolName":"t","feedback":"it's \"quoted\""}}}`},
		{[]string{"status"}, "", `{"result":{"tool":"_ui_status","args":{}}}`},
		{[]string{"state"}, "", `{"version":"x"}`},
	} {
		out, err := runScript(t, path, script, c.stdin, c.args...)
		if err != nil || strings.TrimSpace(out) != c.want {
			t.Errorf("mcp %v: err=%v\n got %s\nwant %s", c.args, err, out, c.want)
		}
	}
	out, err := runScript(t, path, script, "", "missing")
	if err == nil || !strings.Contains(out, "unknown tool") {
		t.Errorf("mcp missing: err=%v out=%s", err, out)
	}
	if out, err := runScript(t, path, script, "", "bad/name"); err == nil || !strings.Contains(out, "bad tool name") {
		t.Errorf("mcp bad/name: err=%v out=%s", err, out)
	}
}

// TestScriptEventSplitting runs `mcp event --once` with each JSON splitter
// the helper knows, and with none.
func TestScriptEventSplitting(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Skip("curl not installed")
	}
	perLine := "{\"seq\":1,\"type\":\"ui/message\",\"payload\":{\"text\":\"a b\"}}\n{\"seq\":2,\"type\":\"refine-request\",\"payload\":{\"feedback\":\"x\"}}\n"
	for _, c := range []struct{ tool, want string }{
		{"jq", perLine},
		{"python3", perLine},
		{"node", perLine},
		{"", `[{"seq":1,"type":"ui/message","payload":{"text":"a b"}},{"seq":2,"type":"refine-request","payload":{"feedback":"x"}}]` + "\n"},
	} {
		t.Run("splitter="+c.tool, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), ".ui")
			if _, err := install.Install(install.Options{Dir: dir, Version: "0.1.0"}); err != nil {
				t.Fatal(err)
			}
			fakeGenui(t, dir)
			var extra []string
			if c.tool != "" {
				extra = append(extra, c.tool)
			}
			out, err := runScript(t, pathWith(t, extra...), filepath.Join(dir, "mcp"), "", "event", "--once")
			if err != nil || out != c.want {
				t.Errorf("event --once: err=%v\n got %q\nwant %q", err, out, c.want)
			}
		})
	}
}
