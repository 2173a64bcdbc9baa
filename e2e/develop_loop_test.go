package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/testenv"
)

// The develop loop against the real binary and a real stdio server whose
// tools and answers come from a file (testdata/filetools.mjs): --watch
// restarts it when the file changes, hosts hear tools/list_changed, the
// changed tool's UI (only it) is regenerated with its refinements, a
// failing build or a server that does not start leaves the old one
// serving; the call history survives a genui restart within its bounds;
// genui check replays pinned calls.

// project is a folder holding filetools.mjs, its tools.json and a
// genui.json naming it as the upstream.
type project struct {
	dir string
	t   *testing.T
}

func newProject(t *testing.T, genuiJSON map[string]any, tools map[string]any) *project {
	t.Helper()
	p := &project{dir: t.TempDir(), t: t}
	src, err := os.ReadFile(filepath.Join("testdata", "filetools.mjs"))
	if err != nil {
		t.Fatal(err)
	}
	p.write("filetools.mjs", string(src))
	up, _ := genuiJSON["upstream"].(map[string]any)
	if up == nil {
		up = map[string]any{}
	}
	up["command"], up["args"], up["env"] = testenv.NodePath(t), []string{"filetools.mjs"}, map[string]string{"TOOLS_FILE": "tools.json"}
	genuiJSON["upstream"] = up
	b, _ := json.MarshalIndent(genuiJSON, "", "  ")
	p.write("genui.json", string(b))
	p.setTools(tools)
	return p
}

func (p *project) write(name, content string) {
	p.t.Helper()
	// Write and rename, as editors do: the watcher sees one change, never
	// a half-written file.
	tmp := filepath.Join(p.dir, "."+name+".new")
	if err := os.WriteFile(tmp, []byte(content), 0o644); err != nil {
		p.t.Fatal(err)
	}
	if err := os.Rename(tmp, filepath.Join(p.dir, name)); err != nil {
		p.t.Fatal(err)
	}
}

func (p *project) setTools(spec map[string]any) {
	p.t.Helper()
	b, _ := json.MarshalIndent(spec, "", "  ")
	p.write("tools.json", string(b))
}

// toolSpec is tools.json: alpha and beta, with beta's schema, description
// and answer given.
func toolSpec(betaProps map[string]any, betaDesc, betaAnswer string, extra map[string]any) map[string]any {
	spec := map[string]any{
		"tools": []any{
			map[string]any{"name": "alpha", "description": "Alpha lists things.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"q": map[string]any{"type": "string"}}}},
			map[string]any{"name": "beta", "description": betaDesc,
				"inputSchema": map[string]any{"type": "object", "properties": betaProps}},
			map[string]any{"name": "slow", "description": "Answers after 20 s.", "inputSchema": map[string]any{"type": "object"}},
		},
		"results": map[string]any{
			"beta": map[string]any{"content": []any{map[string]any{"type": "text", "text": betaAnswer}}},
		},
		"delayMs": map[string]any{"slow": 20000},
	}
	for k, v := range extra {
		spec[k] = v
	}
	return spec
}

// event is one /events envelope with the time it arrived.
type event struct {
	Kind   string          `json:"kind"`
	Tool   string          `json:"tool"`
	Detail json.RawMessage `json:"detail"`
	at     time.Time
}

// watchEvents follows GET /events of the genui whose API is api.
func watchEvents(t *testing.T, api string) <-chan event {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, api+"/events", nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	out := make(chan event, 1024)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		sc.Buffer(make([]byte, 1<<16), 8<<20)
		for sc.Scan() {
			data, ok := strings.CutPrefix(sc.Text(), "data: ")
			if !ok {
				continue
			}
			var ev event
			if json.Unmarshal([]byte(data), &ev) == nil {
				ev.at = time.Now()
				select {
				case out <- ev:
				default:
				}
			}
		}
	}()
	return out
}

// restartPhase is the phase of an upstream-restart event ("" otherwise).
func restartPhase(ev event) string {
	if ev.Kind != "upstream-restart" {
		return ""
	}
	var d struct {
		Phase string `json:"phase"`
	}
	_ = json.Unmarshal(ev.Detail, &d)
	return d.Phase
}

// until collects events until one satisfies stop (bounded).
func until(t *testing.T, evs <-chan event, what string, d time.Duration, stop func(event) bool) []event {
	t.Helper()
	var seen []event
	timeout := time.After(d)
	for {
		select {
		case ev := <-evs:
			seen = append(seen, ev)
			if stop(ev) {
				return seen
			}
		case <-timeout:
			var kinds []string
			for _, e := range seen {
				kinds = append(kinds, e.Kind+"/"+restartPhase(e)+"/"+e.Tool)
			}
			t.Fatalf("no %s within %s; events: %v", what, d, kinds)
		}
	}
}

func callText(t *testing.T, ctx context.Context, c interface {
	Request(context.Context, string, any) (json.RawMessage, *jsonrpc.Error, error)
}, tool string, args any) (string, *jsonrpc.Error) {
	t.Helper()
	res, rpcErr, err := c.Request(ctx, "tools/call", map[string]any{"name": tool, "arguments": args})
	if err != nil {
		t.Fatal(err)
	}
	if rpcErr != nil {
		return "", rpcErr
	}
	var r struct {
		Content []struct{ Text string } `json:"content"`
	}
	_ = json.Unmarshal(res, &r)
	if len(r.Content) == 0 {
		return string(res), nil
	}
	return r.Content[0].Text, nil
}

func TestWatchRestartsTheUpstream(t *testing.T) {
	const debounce = 200 * time.Millisecond
	p := newProject(t, map[string]any{"upstream": map[string]any{"watch": map[string]any{
		"debounce": debounce.String(),
		"build":    `if grep -q BROKEN tools.json; then echo "build: tools.json is marked BROKEN" >&2; exit 2; fi; echo build ok`,
	}}}, toolSpec(map[string]any{"b": map[string]any{"type": "string"}}, "Beta shows one thing.", "beta v1", nil))
	bin := testenv.GenuiBinary(t)
	dir := filepath.Join(p.dir, ".ui")
	cmd := exec.Command(bin, "mcp", "--watch", "tools.json")
	cmd.Dir = p.dir
	c := session(t, cmd, hostHandler())
	ctx := bounded(t, 3*time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	api := "http://127.0.0.1:" + strconv.Itoa(waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second))
	t.Cleanup(func() {
		if t.Failed() {
			if b, err := os.ReadFile(filepath.Join(dir, "log", "genui.log")); err == nil {
				t.Logf("genui.log (last 8 KiB):\n%s", tail(string(b), 8192))
			}
		}
	})
	tools := func() map[string]json.RawMessage {
		res, rpcErr, err := c.Request(ctx, "tools/list", map[string]any{})
		if err != nil || rpcErr != nil {
			t.Fatalf("tools/list: %v %v", err, rpcErr)
		}
		var r struct{ Tools []json.RawMessage }
		_ = json.Unmarshal(res, &r)
		out := map[string]json.RawMessage{}
		for _, raw := range r.Tools {
			var n struct{ Name string }
			_ = json.Unmarshal(raw, &n)
			out[n.Name] = raw
		}
		return out
	}
	if ts := tools(); ts["alpha"] == nil || ts["beta"] == nil {
		t.Fatalf("tools: %v", ts)
	}
	readUI := func(tool string) string {
		res, rpcErr, err := c.Request(ctx, "resources/read", map[string]any{"uri": "ui://" + tool})
		if err != nil || rpcErr != nil {
			t.Fatalf("read ui://%s: %v %v", tool, err, rpcErr)
		}
		var r struct{ Contents []struct{ Text string } }
		_ = json.Unmarshal(res, &r)
		return r.Contents[0].Text
	}
	readUI("alpha")
	readUI("beta")
	if _, rpcErr, err := c.Request(ctx, "tools/call", map[string]any{"name": "_ui_refine",
		"arguments": map[string]any{"toolName": "beta", "feedback": "dark theme, call it Beta Board"}}); err != nil || rpcErr != nil {
		t.Fatalf("_ui_refine: %v %v", err, rpcErr)
	}
	if got, _ := callText(t, ctx, c, "beta", map[string]any{}); got != "beta v1" {
		t.Fatalf("beta before the change: %q", got)
	}
	var st0 struct {
		Upstream struct{ PID, Generation int }
	}
	getJSON(t, api+"/state", &st0)
	listChanged := func() int { return countNotes(c.Notifications(), "notifications/tools/list_changed") }
	before := listChanged()

	// A call in flight when the upstream restarts ends with a clear error.
	slow := make(chan *jsonrpc.Error, 1)
	go func() {
		_, rpcErr, err := c.Request(ctx, "tools/call", map[string]any{"name": "slow", "arguments": map[string]any{}})
		if err != nil {
			rpcErr = &jsonrpc.Error{Message: err.Error()}
		}
		slow <- rpcErr
	}()
	waitLog(t, dir, "the call to reach the upstream", func(l map[string]any) bool { return l["line"] == "filetools: call slow" })

	evs := watchEvents(t, api)
	changedAt := time.Now()
	p.setTools(toolSpec(map[string]any{"b": map[string]any{"type": "string"}, "c": map[string]any{"type": "integer", "maximum": 7}},
		"Beta shows two things.", "beta v2", nil))
	seen := until(t, evs, "the restart", 30*time.Second, func(ev event) bool { return restartPhase(ev) == "restarted" })
	restartedAt := seen[len(seen)-1].at
	var phases []string
	for _, ev := range seen {
		if ph := restartPhase(ev); ph != "" {
			phases = append(phases, ph)
		}
	}
	if !slices.Equal(phases, []string{"changed", "building", "restarting", "restarted"}) {
		t.Fatalf("restart phases %v", phases)
	}
	var done struct {
		Generation int
		Diff       struct{ Changed []string }
		Changes    []struct {
			Tool, Kind string
			Fields     []string
		}
		Regenerated []string
		Duration    time.Duration
	}
	_ = json.Unmarshal(seen[len(seen)-1].Detail, &done)
	if !slices.Equal(done.Diff.Changed, []string{"beta"}) || !slices.Equal(done.Regenerated, []string{"beta"}) ||
		len(done.Changes) != 1 || !slices.Equal(done.Changes[0].Fields, []string{"description", "inputSchema"}) {
		t.Fatalf("restarted: %s", seen[len(seen)-1].Detail)
	}
	// Only beta's UI was generated again.
	for _, ev := range seen {
		if strings.HasPrefix(ev.Kind, "generation-") && ev.Tool != "beta" {
			t.Fatalf("%s for %s after the change: only beta changed", ev.Kind, ev.Tool)
		}
	}
	// The host hears tools/list_changed and sees the new schema.
	if _, err := c.WaitMessage(ctx, func(m *jsonrpc.Message) bool { return listChanged() > before }); err != nil {
		t.Fatal(err)
	}
	notedAt := time.Now()
	if ts := tools(); !strings.Contains(string(ts["beta"]), `"maximum":7`) || !strings.Contains(string(ts["beta"]), "two things") {
		t.Fatalf("beta after the change: %s", ts["beta"])
	}
	t.Logf("measured: file written -> restarted event %s (debounce %s, restart itself %s), -> tools/list_changed seen by the host %s",
		restartedAt.Sub(changedAt).Round(time.Millisecond), debounce, done.Duration.Round(time.Millisecond), notedAt.Sub(changedAt).Round(time.Millisecond))
	if d := restartedAt.Sub(changedAt); d > debounce+10*time.Second {
		t.Fatalf("the restart took %s after the change", d)
	}
	select {
	case rpcErr := <-slow:
		if rpcErr == nil || !strings.Contains(rpcErr.Message, "upstream restarted") {
			t.Fatalf("the call in flight during the restart: %+v", rpcErr)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the call in flight did not end after the restart")
	}
	// Refinements are kept: beta's new UI has them.
	if html := readUI("beta"); !strings.Contains(html, "Beta Board") || !strings.Contains(html, `data-theme="dark"`) {
		t.Fatal("beta's regenerated UI lost its refinements")
	}
	if got, _ := callText(t, ctx, c, "beta", map[string]any{}); got != "beta v2" {
		t.Fatalf("beta after the change: %q", got)
	}
	var st1 struct {
		Upstream struct{ PID, Generation int }
	}
	getJSON(t, api+"/state", &st1)
	if st1.Upstream.PID == st0.Upstream.PID || st1.Upstream.Generation != st0.Upstream.Generation+1 {
		t.Fatalf("upstream before %+v after %+v", st0.Upstream, st1.Upstream)
	}

	// A broken build keeps the old upstream serving, and says why.
	p.setTools(toolSpec(map[string]any{}, "BROKEN", "beta v3", nil))
	seen = until(t, evs, "the failed build", 30*time.Second, func(ev event) bool { return restartPhase(ev) == "build-failed" })
	var failed struct{ Output, Error string }
	_ = json.Unmarshal(seen[len(seen)-1].Detail, &failed)
	if !strings.Contains(failed.Output, "marked BROKEN") || !strings.Contains(failed.Error, "exit status 2") {
		t.Fatalf("build-failed: %s", seen[len(seen)-1].Detail)
	}
	if got, _ := callText(t, ctx, c, "beta", map[string]any{}); got != "beta v2" {
		t.Fatalf("after the failed build: %q, want the old upstream's answer", got)
	}
	// So does a server that does not start.
	p.setTools(toolSpec(map[string]any{}, "crashes", "beta v4", map[string]any{"crash": true}))
	seen = until(t, evs, "the failed restart", 30*time.Second, func(ev event) bool { return restartPhase(ev) == "restart-failed" })
	if d := string(seen[len(seen)-1].Detail); !strings.Contains(d, "did not start") {
		t.Fatalf("restart-failed: %s", d)
	}
	if got, _ := callText(t, ctx, c, "beta", map[string]any{}); got != "beta v2" {
		t.Fatalf("after the failed restart: %q, want the old upstream's answer", got)
	}
	var st2 struct {
		Upstream struct{ PID int }
		Watch    struct {
			Restarts int
			Last     struct{ Phase string }
		}
	}
	getJSON(t, api+"/state", &st2)
	if st2.Upstream.PID != st1.Upstream.PID || st2.Watch.Restarts != 1 || st2.Watch.Last.Phase != "restart-failed" {
		t.Fatalf("state after the failures: %+v", st2)
	}
}

func countNotes(msgs []*jsonrpc.Message, method string) int {
	n := 0
	for _, m := range msgs {
		if m.Method == method {
			n++
		}
	}
	return n
}

// TestHistorySurvivesRestart: calls from a host are recorded, kept
// across a genui restart within history.maxEntries (the oldest go), and
// an excluded tool's arguments never reach the files.
func TestHistorySurvivesRestart(t *testing.T) {
	spec := toolSpec(map[string]any{"b": map[string]any{"type": "string"}}, "Beta.", "beta v1", nil)
	spec["tools"] = append(spec["tools"].([]any), map[string]any{"name": "secret_login", "description": "Logs in.",
		"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"password": map[string]any{"type": "string"}}}})
	spec["results"].(map[string]any)["secret_login"] = map[string]any{"content": []any{map[string]any{"type": "text", "text": "token tok-SECRET"}}}
	p := newProject(t, map[string]any{"history": map[string]any{"maxEntries": 12, "excludeArguments": []string{"secret_*"},
		"excludeResults": []string{"secret_*"}}}, spec)
	bin := testenv.GenuiBinary(t)
	dir := filepath.Join(p.dir, ".ui")
	run := func(calls, from int, last int64) string {
		cmd := exec.Command(bin, "mcp")
		cmd.Dir = p.dir
		c := session(t, cmd, hostHandler())
		ctx := bounded(t, 2*time.Minute)
		if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
			t.Fatal(err)
		}
		for i := from; i < from+calls; i++ {
			callText(t, ctx, c, "alpha", map[string]any{"q": fmt.Sprintf("call %d", i)})
		}
		callText(t, ctx, c, "secret_login", map[string]any{"password": "hunter2"})
		api := "http://127.0.0.1:" + strconv.Itoa(waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second))
		var page struct {
			Entries []struct {
				ID               int64
				Tool, Source     string
				Arguments        json.RawMessage
				ArgumentsOmitted string
			}
			Matching int
		}
		newestIsLast := func() bool {
			getJSON(t, api+"/api/history", &page)
			return len(page.Entries) > 0 && page.Entries[0].ID == last
		}
		if !testenv.Until(10*time.Second, newestIsLast) {
			t.Fatalf("the history's newest entry is not call %d within 10 s: %+v", last, page.Entries)
		}
		if page.Entries[0].Tool != "secret_login" || page.Entries[0].ArgumentsOmitted != "excluded" || page.Entries[0].Source != "mcp" {
			t.Fatalf("newest entry %+v", page.Entries[0])
		}
		if err := c.Close(); err != nil {
			t.Fatal(err)
		}
		b, _ := json.Marshal(page)
		return string(b)
	}
	first := run(8, 0, 9) // ids 1..9
	if !strings.Contains(first, `call 0`) {
		t.Fatalf("first run's history: %s", first)
	}
	second := run(8, 10, 18) // ids 10..18; at most 12 kept
	var page struct {
		Entries []struct {
			ID        int64
			Arguments json.RawMessage
		}
		Matching int
	}
	_ = json.Unmarshal([]byte(second), &page)
	if page.Matching > 12 || page.Matching < 9 || page.Entries[0].ID != 18 {
		t.Fatalf("after the restart: %d entries, newest %d", page.Matching, page.Entries[0].ID)
	}
	oldest := page.Entries[len(page.Entries)-1].ID
	if oldest <= 1 || oldest > 10 {
		t.Fatalf("oldest kept %d: the first run's oldest calls should be gone, some of it kept", oldest)
	}
	if !strings.Contains(second, `call 7`) {
		t.Fatalf("the first run's newest calls did not survive the restart: %s", second)
	}
	names, _ := filepath.Glob(filepath.Join(dir, "history", "calls-*.jsonl"))
	for _, n := range names {
		b, _ := os.ReadFile(n)
		if bytes.Contains(b, []byte("hunter2")) || bytes.Contains(b, []byte("tok-SECRET")) {
			t.Fatalf("%s holds an excluded value", n)
		}
		if bytes.Contains(b, []byte(`"call 0"`)) {
			t.Fatalf("%s still holds the oldest call", n)
		}
	}
}

// genuiCheck runs `genui check ARGS...` in dir.
func genuiCheck(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	ctx := bounded(t, 2*time.Minute)
	cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), append([]string{"check"}, args...)...)
	cmd.Dir, cmd.Env = dir, testenv.OfflineEnv()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return stdout.String() + stderr.String(), code
}

// TestCheckCommand: genui check exits 0 when every pinned call matches,
// 1 with a readable diff when one changed; ignore paths hold; --update
// rewrites only the changed check's file.
func TestCheckCommand(t *testing.T) {
	withAt := func(answer, at string) map[string]any {
		spec := toolSpec(map[string]any{"b": map[string]any{"type": "string"}}, "Beta.", answer, nil)
		spec["results"].(map[string]any)["alpha"] = map[string]any{"structuredContent": map[string]any{"count": 3, "generatedAt": at},
			"content": []any{map[string]any{"type": "text", "text": "3 things"}}}
		return spec
	}
	p := newProject(t, map[string]any{}, withAt("beta v1", "10:00"))
	if out, code := genuiCheck(t, p.dir, "add", "beta-check", "beta", `{"b":"x"}`); code != 0 || !strings.Contains(out, "pinned beta-check") {
		t.Fatalf("check add beta: %d %s", code, out)
	}
	if out, code := genuiCheck(t, p.dir, "add", "alpha-check", "alpha", "--ignore", "structuredContent.generatedAt"); code != 0 {
		t.Fatalf("check add alpha: %d %s", code, out)
	}
	checks := filepath.Join(p.dir, "genui-checks")
	if b, err := os.ReadFile(filepath.Join(checks, "beta-check.json")); err != nil || !strings.Contains(string(b), "\"text\": \"beta v1\"") {
		t.Fatalf("beta-check.json: %s %v", b, err)
	}
	if out, code := genuiCheck(t, p.dir); code != 0 || !strings.Contains(out, "2 equal, 0 changed, 0 failed") {
		t.Fatalf("genui check on an unchanged server: %d\n%s", code, out)
	}

	// The server changes: beta answers differently, alpha only in an
	// ignored path.
	p.setTools(withAt("beta v2", "11:30"))
	out, code := genuiCheck(t, p.dir)
	if code != 1 || !strings.Contains(out, `~ /content/0/text: "beta v1" → "beta v2"`) || !strings.Contains(out, "1 equal, 1 changed, 0 failed") ||
		!strings.Contains(out, "(1 ignored difference(s))") {
		t.Fatalf("genui check after the change: %d\n%s", code, out)
	}
	js, code := genuiCheck(t, p.dir, "--json")
	var rep struct {
		Outcomes []struct{ Name, Status string }
		Changed  int
	}
	if i := strings.Index(js, "{"); i >= 0 {
		_ = json.NewDecoder(strings.NewReader(js[i:])).Decode(&rep)
	}
	if code != 1 || rep.Changed != 1 || len(rep.Outcomes) != 2 || rep.Outcomes[1].Status != "changed" {
		t.Fatalf("--json: %d %s", code, js)
	}
	alphaBefore, _ := os.ReadFile(filepath.Join(checks, "alpha-check.json"))
	old := time.Now().Add(-time.Hour)
	_ = os.Chtimes(filepath.Join(checks, "alpha-check.json"), old, old)
	if out, code := genuiCheck(t, p.dir, "--update"); code != 0 || !strings.Contains(out, "changed, updated") {
		t.Fatalf("--update: %d\n%s", code, out)
	}
	if fi, _ := os.Stat(filepath.Join(checks, "alpha-check.json")); !fi.ModTime().Equal(old) {
		t.Fatal("--update rewrote alpha-check.json, which had not changed")
	}
	if b, _ := os.ReadFile(filepath.Join(checks, "alpha-check.json")); !bytes.Equal(b, alphaBefore) {
		t.Fatal("alpha-check.json changed")
	}
	if out, code := genuiCheck(t, p.dir); code != 0 || !strings.Contains(out, "2 equal") {
		t.Fatalf("after --update: %d\n%s", code, out)
	}
	// A call that fails is a failed check (exit 1).
	p.setTools(map[string]any{"tools": []any{}})
	if out, code := genuiCheck(t, p.dir, "beta-check"); code != 1 || !strings.Contains(out, "failed: unknown tool beta") {
		t.Fatalf("a failing call: %d\n%s", code, out)
	}
}
