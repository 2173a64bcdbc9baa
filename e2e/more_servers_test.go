package e2e_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/testenv"
)

// npm's reference servers wrapped here (pinned in scripts/npm-packages.txt).
const (
	memoryPkg     = "@modelcontextprotocol/server-memory"
	filesystemPkg = "@modelcontextprotocol/server-filesystem"
)

// serverCall is one step of a realistic call sequence: a tools/call, or
// (with method set) another request.
type serverCall struct {
	method string // default "tools/call"
	name   string
	args   any
	// fails says the upstream is expected to answer with an error (a
	// JSON-RPC error or an isError result); the error must pass unchanged.
	fails bool
}

// TestMemoryServer wraps npm's server-memory (a knowledge graph persisted
// to the JSONL file named by env MEMORY_FILE_PATH). Direct and proxied get
// separate memory files; after the same sequence of calls both results and
// both files must be equal.
func TestMemoryServer(t *testing.T) {
	testenv.GenuiBinary(t)
	entry := testenv.NPMBin(t, memoryPkg, "")
	node := testenv.NodePath(t)
	directFile := filepath.Join(t.TempDir(), "memory.jsonl")
	proxiedFile := filepath.Join(t.TempDir(), "memory.jsonl")

	cmd := exec.Command(node, entry)
	cmd.Env = append(testenv.OfflineEnv(), "MEMORY_FILE_PATH="+directFile)
	direct := session(t, cmd, hostHandler())
	// genui passes its environment on to the stdio upstream.
	proxied, _ := genuiMCPEnv(t, []string{"MEMORY_FILE_PATH=" + proxiedFile}, "--", node, entry)
	ctx := bounded(t, 3*time.Minute)
	initBoth(ctx, t, direct, proxied)

	tools := compareToolLists(ctx, t, direct, proxied, 9)
	checkToolUIs(ctx, t, proxied, tools)

	const graph = "memory://knowledge-graph"
	// Subscribing first lets the mutations below announce themselves.
	seq := []serverCall{
		{method: "resources/subscribe", args: map[string]any{"uri": graph}},
		{name: "read_graph", args: map[string]any{}}, // empty graph, no file yet
		{name: "create_entities", args: map[string]any{"entities": []any{
			map[string]any{"name": "Ada Lovelace", "entityType": "person", "observations": []any{"wrote the first program"}},
			map[string]any{"name": "Analytical Engine", "entityType": "machine", "observations": []any{"designed by Babbage"}},
			map[string]any{"name": "London", "entityType": "city", "observations": []any{}},
		}}},
		{name: "create_entities", args: map[string]any{"entities": []any{ // duplicate: skipped
			map[string]any{"name": "London", "entityType": "city", "observations": []any{"again"}},
		}}},
		{name: "create_relations", args: map[string]any{"relations": []any{
			map[string]any{"from": "Ada Lovelace", "to": "Analytical Engine", "relationType": "programmed"},
			map[string]any{"from": "Ada Lovelace", "to": "London", "relationType": "lived in"},
		}}},
		{name: "add_observations", args: map[string]any{"observations": []any{
			map[string]any{"entityName": "Ada Lovelace", "contents": []any{"born 1815", "wrote the first program"}},
			map[string]any{"entityName": "London", "contents": []any{"capital of England"}},
		}}},
		{name: "add_observations", fails: true, args: map[string]any{"observations": []any{
			map[string]any{"entityName": "Nobody", "contents": []any{"x"}},
		}}},
		{name: "read_graph", args: map[string]any{}},
		{name: "search_nodes", args: map[string]any{"query": "program"}},
		{name: "search_nodes", args: map[string]any{"query": "no such thing"}},
		{name: "open_nodes", args: map[string]any{"names": []any{"London", "Analytical Engine"}}},
		{name: "delete_observations", args: map[string]any{"deletions": []any{
			map[string]any{"entityName": "Ada Lovelace", "observations": []any{"born 1815"}},
		}}},
		{name: "delete_relations", args: map[string]any{"relations": []any{
			map[string]any{"from": "Ada Lovelace", "to": "London", "relationType": "lived in"},
		}}},
		{method: "resources/read", args: map[string]any{"uri": graph}},
		{name: "create_entities", fails: true, args: map[string]any{"entities": "not a list"}},
	}
	runSequence(ctx, t, direct, proxied, seq, nil)

	// Each mutation sent resources/updated for the subscribed graph: the
	// same number must have come through genui.
	count := func(c *mcptest.Client) int {
		n := 0
		for _, m := range c.Notifications() {
			if m.Method == "notifications/resources/updated" && bytes.Contains(m.Params, []byte(graph)) {
				n++
			}
		}
		return n
	}
	if want, got := count(direct), count(proxied); want == 0 || got != want {
		t.Errorf("notifications/resources/updated for %s: genui %d, upstream %d (want equal and > 0)", graph, got, want)
	}

	// Same operations, same persisted state.
	want, err := os.ReadFile(directFile)
	if err != nil {
		t.Fatalf("direct memory file: %v", err)
	}
	got, err := os.ReadFile(proxiedFile)
	if err != nil {
		t.Fatalf("proxied memory file: %v", err)
	}
	if !bytes.Contains(want, []byte("Analytical Engine")) {
		t.Errorf("direct memory file lacks the created entities:\n%s", want)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("memory files differ:\n genui: %s\nupstream: %s", got, want)
	}
	checkStdout(t, direct, proxied)
}

// TestFilesystemServer wraps npm's server-filesystem with a temp dir as its
// allowed root (command-line argument). It also asks the client for MCP
// roots after initialize; hostHandler answers an empty list and the server
// then keeps its command-line root. Direct and proxied get separate roots
// with the same contents; the root path and file times are normalized.
func TestFilesystemServer(t *testing.T) {
	testenv.GenuiBinary(t)
	entry := testenv.NPMBin(t, filesystemPkg, "")
	node := testenv.NodePath(t)
	directRoot, proxiedRoot := fsRoot(t), fsRoot(t)

	direct := session(t, exec.Command(node, entry, directRoot), hostHandler())
	proxied, _ := genuiMCP(t, "--", node, entry, proxiedRoot)
	ctx := bounded(t, 3*time.Minute)
	initBoth(ctx, t, direct, proxied)

	tools := compareToolLists(ctx, t, direct, proxied, 10)
	checkToolUIs(ctx, t, proxied, tools)

	// Paths are relative to the root; runSequence makes them absolute per
	// side (the server resolves relative paths against its own cwd).
	seq := []serverCall{
		{name: "list_allowed_directories", args: map[string]any{}},
		{name: "list_directory", args: map[string]any{"path": "."}},
		{name: "write_file", args: map[string]any{"path": "notes/new.txt", "content": "line one\nline two\nline three\n"}},
		{name: "read_text_file", args: map[string]any{"path": "notes/new.txt"}},
		{name: "read_text_file", args: map[string]any{"path": "notes/new.txt", "head": 2}},
		{name: "read_file", args: map[string]any{"path": "notes/todo.md"}},
		{name: "edit_file", args: map[string]any{"path": "notes/new.txt", "edits": []any{map[string]any{"oldText": "line two", "newText": "line 2"}}}},
		{name: "read_multiple_files", args: map[string]any{"paths": []any{"notes/new.txt", "src/main.go"}}},
		{name: "create_directory", args: map[string]any{"path": "build/out"}},
		{name: "move_file", args: map[string]any{"source": "notes/new.txt", "destination": "build/out/new.txt"}},
		{name: "list_directory", args: map[string]any{"path": "notes"}},
		{name: "list_directory_with_sizes", args: map[string]any{"path": "src"}},
		{name: "directory_tree", args: map[string]any{"path": "."}},
		{name: "get_file_info", args: map[string]any{"path": "build/out/new.txt"}},
		{name: "get_file_info", args: map[string]any{"path": "src"}},
		{name: "search_files", args: map[string]any{"path": ".", "pattern": "**/*.txt"}},
		{name: "search_files", args: map[string]any{"path": ".", "pattern": "*.nothing"}},
		{name: "read_text_file", fails: true, args: map[string]any{"path": "/etc/hostname"}}, // outside the root
		{name: "read_text_file", fails: true, args: map[string]any{"path": "notes/missing.txt"}},
	}
	rel := func(root string) func(serverCall) serverCall {
		return func(c serverCall) serverCall {
			m, ok := c.args.(map[string]any)
			if !ok {
				return c
			}
			abs := func(p any) any {
				s, ok := p.(string)
				if !ok || filepath.IsAbs(s) {
					return p
				}
				return filepath.Join(root, s)
			}
			out := map[string]any{}
			for k, v := range m {
				switch k {
				case "path", "source", "destination":
					out[k] = abs(v)
				case "paths":
					var ps []any
					for _, p := range v.([]any) {
						ps = append(ps, abs(p))
					}
					out[k] = ps
				default:
					out[k] = v
				}
			}
			c.args = out
			return c
		}
	}
	norm := func(root string) func(any) any {
		return func(v any) any { return normalizeFS(v, root) }
	}
	runSequenceFS(ctx, t, direct, proxied, seq, rel(directRoot), rel(proxiedRoot), norm(directRoot), norm(proxiedRoot))

	// Both roots end up with the same files and contents.
	if w, g := treeContents(t, directRoot), treeContents(t, proxiedRoot); !reflect.DeepEqual(g, w) {
		t.Errorf("roots differ after the sequence:\n genui: %v\nupstream: %v", g, w)
	} else if _, ok := w["build/out/new.txt"]; !ok {
		t.Errorf("the sequence did not move notes/new.txt: %v", w)
	}
	checkStdout(t, direct, proxied)
}

// genuiMCPEnv is genuiMCP with extra environment variables for genui (and
// so for its stdio upstream).
func genuiMCPEnv(t *testing.T, env []string, extra ...string) (*mcptest.Client, string) {
	t.Helper()
	bin := testenv.GenuiBinary(t)
	dir := filepath.Join(t.TempDir(), "ui")
	cmd := exec.Command(bin, append([]string{"mcp", "--dir", dir}, extra...)...)
	cmd.Env = append(testenv.OfflineEnv(), env...)
	c := session(t, cmd, hostHandler())
	t.Cleanup(func() {
		if !t.Failed() {
			return
		}
		if b, err := os.ReadFile(filepath.Join(dir, "log", "genui.log")); err == nil {
			t.Logf("genui.log (last 8 KiB):\n%s", tail(string(b), 8192))
		}
	})
	return c, dir
}

// initBoth initializes the direct and the proxied session the same way.
func initBoth(ctx context.Context, t *testing.T, direct, proxied *mcptest.Client) {
	t.Helper()
	for name, c := range map[string]*mcptest.Client{"direct": direct, "genui": proxied} {
		if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
			t.Fatalf("%s initialize: %v", name, err)
		}
	}
}

// compareToolLists checks that genui lists every upstream tool unchanged
// except for its UI metadata, plus only _ui_* tools, and returns the
// upstream tool names. The upstream must have at least min tools.
func compareToolLists(ctx context.Context, t *testing.T, direct, proxied *mcptest.Client, min int) []string {
	t.Helper()
	items, err := direct.ListAll(ctx, "tools/list", "tools")
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]json.RawMessage{}
	for _, raw := range items {
		want[toolName(raw)] = raw
	}
	if len(want) < min {
		t.Fatalf("upstream lists %d tools, want at least %d", len(want), min)
	}
	checkToolsEqual(t, want, proxiedToolList(ctx, t, proxied, want))
	return sortedKeys(want)
}

// checkToolUIs reads ui://<tool> for every tool through genui and checks it
// is one self-contained text/html;profile=mcp-app item (checkUIResource).
func checkToolUIs(ctx context.Context, t *testing.T, c *mcptest.Client, tools []string) {
	t.Helper()
	for _, name := range tools {
		checkUIResource(ctx, t, c, "ui://"+name)
	}
}

// runSequence sends each call to both sessions and compares the outcomes
// (normalized by norm when not nil).
func runSequence(ctx context.Context, t *testing.T, direct, proxied *mcptest.Client, seq []serverCall, norm func(any) any) {
	t.Helper()
	same := func(c serverCall) serverCall { return c }
	if norm == nil {
		norm = func(v any) any { return v }
	}
	runSequenceFS(ctx, t, direct, proxied, seq, same, same, norm, norm)
}

// runSequenceFS is runSequence with per-side argument rewriting (prepD,
// prepP) and result normalization (normD, normP).
func runSequenceFS(ctx context.Context, t *testing.T, direct, proxied *mcptest.Client, seq []serverCall, prepD, prepP func(serverCall) serverCall, normD, normP func(any) any) {
	t.Helper()
	succeeded := 0
	for i, step := range seq {
		label := step.method
		if label == "" {
			label = step.name
		}
		send := func(c *mcptest.Client, s serverCall) any {
			if s.method != "" {
				return outcome(ctx, t, c, s.method, s.args)
			}
			return outcome(ctx, t, c, "tools/call", map[string]any{"name": s.name, "arguments": s.args})
		}
		want := normD(send(direct, prepD(step)))
		got := normP(send(proxied, prepP(step)))
		if failed := isFailure(want); failed != step.fails {
			t.Errorf("step %d %s: upstream failed=%v, want %v: %s", i, label, failed, step.fails, clip([]byte(mustJSON(want))))
		} else if !failed {
			succeeded++
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("step %d %s differs:\n genui: %s\nupstream: %s", i, label, mustJSON(got), mustJSON(want))
		}
	}
	if succeeded == 0 {
		t.Error("no step succeeded upstream; the comparison proves nothing")
	}
}

// isFailure reports whether an outcome is a JSON-RPC error or an isError
// tool result.
func isFailure(o any) bool {
	m, _ := o.(map[string]any)
	if _, ok := m["error"]; ok {
		return true
	}
	r, _ := m["result"].(map[string]any)
	return r["isError"] == true
}

// fsTimeRE matches the time lines of server-filesystem's get_file_info
// ("modified: Sun Nov 22 2026 00:50:50 GMT+0000 (Coordinated Universal Time)").
var fsTimeRE = regexp.MustCompile(`(?m)^(created|modified|accessed): .*$`)

// normalizeFS replaces root with "<root>" and file times with "<time>" in
// every string of v.
func normalizeFS(v any, root string) any {
	switch x := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = normalizeFS(e, root)
		}
		return out
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = normalizeFS(e, root)
		}
		return out
	case string:
		return fsTimeRE.ReplaceAllString(strings.ReplaceAll(x, root, "<root>"), "$1: <time>")
	}
	return v
}

// fsRoot creates a fresh allowed root (symlinks resolved, as the server
// reports real paths) with a few files.
func fsRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	files := map[string]string{
		"notes/todo.md":   "# Todo\n\n- wrap a server\n- compare results\n",
		"notes/ideas.txt": "an idea\n",
		"src/main.go":     "package main\n\nfunc main() {}\n",
		"README.txt":      "root readme\n",
	}
	for _, name := range sortedKeys(files) { // fixed creation order
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(files[name]), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// treeContents maps every file under root (slash-separated relative path)
// to its contents, and every directory to "<dir>".
func treeContents(t *testing.T, root string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil || p == root {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			out[filepath.ToSlash(rel)] = "<dir>"
			return nil
		}
		b, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// checkStdout checks that both sessions' stdout carried only JSON-RPC.
func checkStdout(t *testing.T, direct, proxied *mcptest.Client) {
	t.Helper()
	for name, c := range map[string]*mcptest.Client{"direct": direct, "genui": proxied} {
		if err := c.CheckStdout(); err != nil {
			t.Errorf("%s stdout is not pure JSON-RPC: %v", name, err)
		}
	}
}

// checkToolsEqual: every upstream tool is listed by genui and equal to the
// upstream's after removing exactly genui's UI metadata; genui adds nothing
// but its _ui_ tools.
func checkToolsEqual(t *testing.T, want, got map[string]json.RawMessage) {
	t.Helper()
	for _, name := range sortedKeys(want) {
		g, ok := got[name]
		if !ok {
			t.Errorf("genui lacks upstream tool %q", name)
			continue
		}
		stripped := stripUIMeta(t, name, decode(t, g))
		if w := decode(t, want[name]); !reflect.DeepEqual(stripped, w) {
			t.Errorf("tool %q differs after removing genui's UI metadata:\n genui: %s\nupstream: %s", name, mustJSON(stripped), mustJSON(w))
		}
	}
	for name := range got {
		if _, ok := want[name]; !ok && !isWrapperTool(name) {
			t.Errorf("genui lists %q, which upstream does not have and is not a _ui_ tool", name)
		}
	}
}
