package httpapi_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine"
	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/httpapi"
	"github.com/genui-dev/genui/engine/upstream"
	"github.com/genui-dev/genui/internal/testenv"
)

// TestForeignHostOrOriginRefused: DNS rebinding and cross-site requests get
// 403 before any handler runs (nothing is drained from /wait, no tool runs).
func TestForeignHostOrOriginRefused(t *testing.T) {
	a := startAgentEnv(t)
	pushed := mustState(t, a.e).Events.Pushed
	for _, route := range []struct{ method, path, body string }{
		{"GET", "/state", ""},
		{"GET", "/wait?timeout=0", ""},
		{"GET", "/variables", ""},
		{"GET", "/api/resource/", ""},
		{"POST", "/api/tool/x", "{}"},
		{"POST", "/api/tool/get_current_weather", `{"location":"Paris"}`},
	} {
		for _, h := range [][]string{
			{"Host", "evil.example"},
			{"Host", "evil.example:8080"},
			{"Origin", "http://evil.example"},
			{"Origin", "http://127.0.0.1.evil.example"},
		} {
			code, _, body := a.do(t, route.method, route.path, route.body, h...)
			if code != http.StatusForbidden {
				t.Errorf("%s %s with %s: %s -> %d %s, want 403", route.method, route.path, h[0], h[1], code, body)
			}
		}
	}
	// The same requests from loopback origins pass.
	if code, _, _ := a.get(t, "/state", "Origin", "http://127.0.0.1:1234"); code != 200 {
		t.Errorf("loopback Origin: %d", code)
	}
	if code, _, _ := a.get(t, "/state", "Host", "localhost"); code != 200 {
		t.Errorf("Host localhost: %d", code)
	}
	if st := mustState(t, a.e); st.Events.Pushed != pushed {
		t.Errorf("refused tool calls reached the event queue: %+v", st.Events)
	}
}

func TestToolAPI(t *testing.T) {
	a := startAgentEnv(t)
	big := `{"x":"` + strings.Repeat("a", httpapi.MaxBodyBytes) + `"}`
	for _, c := range []struct {
		name, path, body string
		want             int
		contains         string
	}{
		{"oversized body", "/api/tool/get_current_weather", big, 413, "larger than"},
		{"array body", "/api/tool/get_current_weather", `[1,2]`, 400, "JSON object"},
		{"string body", "/api/tool/get_current_weather", `"Paris"`, 400, "JSON object"},
		{"null body", "/api/tool/get_current_weather", `null`, 400, "JSON object"},
		{"not JSON", "/api/tool/get_current_weather", `location=Paris`, 400, "JSON object"},
		{"unknown tool", "/api/tool/no_such_tool", `{}`, 404, "no_such_tool"},
		{"success", "/api/tool/get_current_weather", `{"location":"Paris"}`, 200, "Paris"},
		{"empty body means {}", "/api/tool/_ui_list", ``, 200, "get_current_weather"},
	} {
		code, hdr, body := a.do(t, http.MethodPost, c.path, c.body, "Content-Type", "application/json")
		if code != c.want || !strings.Contains(body, c.contains) {
			t.Errorf("%s: %d %s, want %d containing %q", c.name, code, agentClip(body), c.want, c.contains)
			continue
		}
		if !strings.HasPrefix(hdr.Get("Content-Type"), "application/json") {
			t.Errorf("%s: Content-Type %s", c.name, hdr.Get("Content-Type"))
		}
		var v map[string]json.RawMessage
		if err := json.Unmarshal([]byte(body), &v); err != nil {
			t.Errorf("%s: body is not a JSON object: %v", c.name, err)
			continue
		}
		// The one error body of the API: {"error", "code"[, "suggestions"]};
		// a call's answer: {"result", "isError", "duration", "callId"[, "task"][, "historyId"]}
		// (historyId: the call's entry in the call history).
		allowed := map[string]bool{"error": true, "code": true, "suggestions": true}
		key := "error"
		if c.want == 200 {
			key, allowed = "result", map[string]bool{"result": true, "isError": true, "duration": true, "callId": true, "task": true, "historyId": true}
		}
		if _, ok := v[key]; !ok {
			t.Errorf("%s: want %q in %s", c.name, key, agentClip(body))
		}
		for k := range v {
			if !allowed[k] {
				t.Errorf("%s: unexpected key %q in %s", c.name, k, agentClip(body))
			}
		}
	}
	if code, _, _ := a.get(t, "/api/tool/get_current_weather"); code != http.StatusMethodNotAllowed {
		t.Errorf("GET /api/tool/x: %d, want 405", code)
	}
}

// TestStalePortFileReplaced: a port file left by a dead genui is replaced on
// start and removed on a clean exit.
func TestStalePortFileReplaced(t *testing.T) {
	dir := t.TempDir()
	dead := exec.Command("true")
	if err := dead.Run(); err != nil {
		t.Fatal(err)
	}
	stale := []byte("1\n" + strconv.Itoa(dead.Process.Pid) + "\n")
	for _, f := range []string{"ui-port", "mcp-port"} {
		if err := os.WriteFile(filepath.Join(dir, f), stale, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if _, alive, err := httpapi.ReadPortFile(filepath.Join(dir, "mcp-port")); err != nil || alive {
		t.Fatalf("stale file: alive=%v err=%v", alive, err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	e, err := engine.New(engine.Options{Upstream: upstream.Config{Transport: "inprocess", InProcess: func(ctx context.Context, r io.Reader, w io.Writer) error {
		<-ctx.Done()
		return nil
	}}, Dir: dir, Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	srv := httpapi.New(httpapi.Options{Engine: e, Upstream: e.Relay(), Tools: e.Registry(), Dir: dir, Logger: log})
	uiLn, apiLn, err := httpapi.Listen(0, 0)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, uiLn, apiLn) }()

	wantPort := apiLn.Addr().(interface{ String() string }).String()
	replaced := func() bool {
		port, alive, err := httpapi.ReadPortFile(filepath.Join(dir, "mcp-port"))
		return err == nil && alive && strings.HasSuffix(wantPort, ":"+strconv.Itoa(port))
	}
	if !testenv.Until(10*time.Second, replaced) {
		port, alive, err := httpapi.ReadPortFile(filepath.Join(dir, "mcp-port"))
		t.Fatalf("mcp-port not replaced within 10 s: port=%d alive=%v err=%v", port, alive, err)
	}
	if port, alive, err := httpapi.ReadPortFile(filepath.Join(dir, "ui-port")); err != nil || !alive || port == 1 {
		t.Errorf("ui-port: port=%d alive=%v err=%v", port, alive, err)
	}
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Serve did not return within 10 s")
	}
	for _, f := range []string{"ui-port", "mcp-port"} {
		if _, err := os.Stat(filepath.Join(dir, f)); !os.IsNotExist(err) {
			t.Errorf("%s not removed on a clean exit: %v", f, err)
		}
	}
}

func agentClip(s string) string {
	if len(s) > 300 {
		return s[:300] + "..."
	}
	return s
}

// mustState is the engine's State or a test failure.
func mustState(t *testing.T, e *engine.Engine) contract.State {
	t.Helper()
	st, err := e.State(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return st
}
