package e2e_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"mvdan.cc/sh/v3/expand"
	"mvdan.cc/sh/v3/syntax"

	"github.com/genui-dev/genui/internal/testenv"
)

// The README's command blocks, run or checked as a reader would meet them.
// Every ```sh block must parse as shell (mvdan.cc/sh, the maintained Go
// shell parser), and every command in it must be one this test knows how
// to run or check: an unknown command fails the test, so a new block
// cannot go unchecked. What runs here runs (git clone of this checkout,
// cd, export, the quick start's genui serve in the clone, genui config,
// genui demo-server); what cannot (claude, brew, npx and curl of an
// unpublished release, genui wrapping a server the reader has, make's
// long targets) is checked against the real CLI: genui's subcommands and
// flags by `genui ... --help` (cobra refuses an unknown flag or value
// there), make's targets by `make -n`, the release's URLs, version, tap
// and install.sh options against this repository.

// readmeBlock is one fenced block of README.md.
type readmeBlock struct {
	lang, text string
	line       int
}

func readmeBlocks(t *testing.T) (string, []readmeBlock) {
	t.Helper()
	root, err := testenv.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	var blocks []readmeBlock
	var cur *readmeBlock
	sc := bufio.NewScanner(bytes.NewReader(b))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &readmeBlock{lang: strings.TrimPrefix(line, "```"), line: n}
		case cur != nil && line == "```":
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.text += line + "\n"
		}
	}
	return root, blocks
}

// readmeRun is the state of a reader going through the README: where they
// are, their PATH, and what was checked.
type readmeRun struct {
	t                *testing.T
	root, dir, clone string
	path             string
	version, module  string
	bin              string
	// ran counts the commands run or checked, by program.
	ran map[string]int
}

func TestREADMECommandBlocks(t *testing.T) {
	root, blocks := readmeBlocks(t)
	bin := testenv.GenuiBinary(t)
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	r := &readmeRun{t: t, root: root, dir: t.TempDir(), path: os.Getenv("PATH"), version: readmeVersion(t),
		module: regexp.MustCompile(`(?m)^module (\S+)$`).FindStringSubmatch(string(gomod))[1], bin: bin, ran: map[string]int{}}
	// A project folder for the blocks after the quick start: genui on PATH
	// (as `make build` + export PATH put it), the README's genui.json.
	project := t.TempDir()
	projBin := filepath.Join(project, "bin")
	if err := os.MkdirAll(projBin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(bin, filepath.Join(projBin, "genui")); err != nil {
		t.Fatal(err)
	}
	nsh, njson := 0, 0
	for _, b := range blocks {
		switch b.lang {
		case "json":
			njson++
			if njson == 1 { // the full example: what `genui config validate genui.json` checks below
				if err := os.WriteFile(filepath.Join(project, "genui.json"), []byte(b.text), 0o644); err != nil {
					t.Fatal(err)
				}
			}
		case "sh":
			nsh++
			if nsh == 4 { // past the clone and the quick start: the reader's own project
				r.dir, r.path = project, projBin+string(os.PathListSeparator)+os.Getenv("PATH")
			}
			r.block(b)
		}
	}
	if nsh < 10 {
		t.Fatalf("found %d sh blocks in README.md; is this the README?", nsh)
	}
	for _, prog := range []string{"git", "cd", "make", "export", "genui", "claude", "npx", "curl", "sh", "brew", "go"} {
		if r.ran[prog] == 0 {
			t.Errorf("no README command ran or checked %s", prog)
		}
	}
	t.Logf("README commands run or checked: %v", r.ran)
}

// block parses one sh block and runs or checks each command in it.
func (r *readmeRun) block(b readmeBlock) {
	t := r.t
	f, err := syntax.NewParser().Parse(strings.NewReader(b.text), fmt.Sprintf("README.md:%d", b.line))
	if err != nil {
		t.Errorf("README.md line %d: the sh block is not valid shell: %v\n%s", b.line, err, b.text)
		return
	}
	for _, st := range f.Stmts {
		r.stmt(b, st)
	}
}

func (r *readmeRun) stmt(b readmeBlock, st *syntax.Stmt) {
	t := r.t
	where := fmt.Sprintf("README.md line %d (%s)", b.line+int(st.Pos().Line()), r.print(st))
	switch cmd := st.Cmd.(type) {
	case *syntax.BinaryCmd: // curl URL | sh [-s -- OPTIONS]
		if cmd.Op != syntax.Pipe {
			t.Errorf("%s: only pipes are checked", where)
			return
		}
		left, right := r.words(cmd.X.Cmd), r.words(cmd.Y.Cmd)
		r.curl(where, left)
		r.installScript(where, right)
	case *syntax.CallExpr:
		args := r.words(cmd)
		if len(cmd.Args) == 0 && len(cmd.Assigns) > 0 {
			t.Errorf("%s: a bare assignment", where)
			return
		}
		r.command(where, args, st.Redirs)
	case *syntax.DeclClause: // export NAME=VALUE
		if cmd.Variant.Value != "export" {
			t.Errorf("%s: %s is not checked", where, cmd.Variant.Value)
			return
		}
		r.ran["export"]++
		for _, a := range cmd.Args {
			if a.Name == nil || a.Name.Value != "PATH" {
				t.Errorf("%s: only PATH is exported", where)
				continue
			}
			r.path = r.expand(a.Value)
		}
	default:
		t.Errorf("%s: a %T is not checked", where, cmd)
	}
}

// command runs or checks one simple command.
func (r *readmeRun) command(where string, args []string, redirs []*syntax.Redirect) {
	t := r.t
	if len(args) == 0 {
		return
	}
	r.ran[args[0]]++
	switch args[0] {
	case "git":
		// git clone URL: this repository's address, cloned here from this checkout.
		if len(args) != 3 || args[1] != "clone" || args[2] != "https://"+r.module {
			t.Errorf("%s: want git clone https://%s", where, r.module)
			return
		}
		r.clone = filepath.Join(r.dir, filepath.Base(args[2]))
		r.mustRun(where, r.dir, "git", "clone", "-q", r.root, r.clone)
	case "cd":
		if len(args) != 2 {
			t.Errorf("%s: cd takes a folder", where)
			return
		}
		r.dir = filepath.Join(r.dir, args[1])
		if st, err := os.Stat(r.dir); err != nil || !st.IsDir() {
			t.Errorf("%s: no folder %s", where, r.dir)
		}
	case "make":
		// The targets exist and their recipes expand (make -n); building
		// genui again is left to the test binary, which stands in for
		// bin/genui (the first build's cost is measured in the README).
		if len(args) != 2 {
			t.Errorf("%s: make with one target", where)
			return
		}
		dir := r.dir
		if _, err := os.Stat(filepath.Join(dir, "Makefile")); err != nil {
			dir = r.root
		}
		r.mustRun(where, dir, "make", "-n", args[1])
		if args[1] == "build" && r.clone != "" {
			if err := os.MkdirAll(filepath.Join(r.clone, "bin"), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(r.bin, filepath.Join(r.clone, "bin", "genui")); err != nil {
				t.Fatal(err)
			}
		}
	case "genui":
		r.genui(where, args[1:], redirs)
	case "claude":
		// claude alone starts Claude Code; claude mcp add NAME -- COMMAND registers COMMAND.
		if len(args) == 1 {
			return
		}
		if len(args) < 6 || args[1] != "mcp" || args[2] != "add" || args[4] != "--" {
			t.Errorf("%s: want claude mcp add NAME -- COMMAND", where)
			return
		}
		r.command(where, args[5:], nil)
	case "npx":
		// npx -y genui@VERSION ARGS: the README's version; ARGS as genui's.
		if len(args) < 3 || args[1] != "-y" || args[2] != "genui@"+r.version {
			t.Errorf("%s: want npx -y genui@%s", where, r.version)
			return
		}
		r.ran["genui"]++
		r.genuiFlags(where, args[3:])
	case "brew":
		owner := strings.Split(r.module, "/")[1]
		if len(args) != 3 || args[1] != "install" || args[2] != owner+"/tap/genui" {
			t.Errorf("%s: want brew install %s/tap/genui (the formula is genui.rb)", where, owner)
		}
	case "go":
		if len(args) != 3 || args[1] != "install" || args[2] != r.module+"/cmd/genui@v"+r.version {
			t.Errorf("%s: want go install %s/cmd/genui@v%s", where, r.module, r.version)
		}
	case "node", "python":
		// an upstream's command after genui's --: the reader's server.
	default:
		t.Errorf("%s: the README runs %s, which this test neither runs nor checks", where, args[0])
	}
}

// genui runs the commands that can run here and checks the others' flags.
func (r *readmeRun) genui(where string, args []string, redirs []*syntax.Redirect) {
	t := r.t
	r.genuiFlags(where, args)
	if t.Failed() {
		return
	}
	switch {
	case slices.Equal(args, []string{"serve"}):
		r.quickStart(where)
	case len(args) >= 2 && args[0] == "config":
		out := r.mustRun(where, r.dir, "genui", args...)
		for _, rd := range redirs {
			if rd.Op != syntax.RdrOut {
				t.Errorf("%s: only > is run", where)
				continue
			}
			if err := os.WriteFile(filepath.Join(r.dir, r.expand(rd.Word)), []byte(out), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	case slices.Equal(args, []string{"demo-server"}):
		// A plain stdio MCP server: it ends when its stdin does.
		r.mustRun(where, r.dir, "genui", args...)
	}
}

// genuiFlags checks a genui command line against the real CLI: `--help`
// before the upstream's `--` makes cobra parse every flag (an unknown one,
// or a bad value, fails) and print the subcommand's help instead of
// running it.
func (r *readmeRun) genuiFlags(where string, args []string) {
	t := r.t
	head, tail := args, []string(nil)
	if i := slices.Index(args, "--"); i >= 0 {
		head, tail = args[:i], args[i:]
	}
	cmdline := append(append(slices.Clone(head), "--help"), tail...)
	out := r.mustRun(where, r.dir, r.bin, cmdline...)
	var sub []string
	for _, a := range head {
		if strings.HasPrefix(a, "-") {
			break
		}
		sub = append(sub, a)
	}
	// Positional arguments (check add NAME TOOL ARGS) follow the subcommands.
	for len(sub) > 0 && !strings.Contains(out, "genui "+strings.Join(sub, " ")) {
		sub = sub[:len(sub)-1]
	}
	if len(sub) == 0 && len(head) > 0 && !strings.HasPrefix(head[0], "-") {
		t.Errorf("%s: genui %s is not a command (its help says:\n%s)", where, head[0], out)
	}
}

// quickStart runs `genui serve` in the clone until it prints its MCP URL,
// stops it, and checks the clone is as clean as before: genui wrote only
// into .ui (git ignores it), nothing else.
func (r *readmeRun) quickStart(where string) {
	t := r.t
	if r.clone == "" {
		t.Errorf("%s: the quick start comes after the clone", where)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, r.lookPath("genui"), "serve")
	cmd.Dir, cmd.Env = r.dir, r.env()
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	var seen bytes.Buffer
	found := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		ok := false
		for sc.Scan() {
			seen.WriteString(sc.Text() + "\n")
			if !ok && regexp.MustCompile(`http://127\.0\.0\.1:\d+/mcp`).MatchString(sc.Text()) {
				ok = true
				found <- true
			}
		}
		if !ok {
			found <- false
		}
		_, _ = io.Copy(io.Discard, stderr)
	}()
	select {
	case ok := <-found:
		if !ok {
			t.Errorf("%s: genui serve exited without printing its MCP URL", where)
		}
	case <-time.After(60 * time.Second):
		t.Errorf("%s: genui serve printed no MCP URL within 60 s", where)
	}
	_ = cmd.Process.Signal(syscall.SIGINT)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		_ = cmd.Process.Kill()
		t.Errorf("%s: genui serve did not stop within 30 s of SIGINT", where)
		<-done
	}
	if _, err := os.Stat(filepath.Join(r.dir, ".ui", "log", "genui.log")); err != nil {
		t.Errorf("%s: genui serve kept no log in .ui: %v", where, err)
	}
	status := r.mustRun(where, r.dir, "git", "status", "--porcelain", "--untracked-files=all")
	if strings.TrimSpace(status) != "" {
		t.Errorf("%s: the clone is not clean after the quick start; git status:\n%s", where, status)
	}
}

// curl checks the install script's URL: the release of the README's
// version, at GitHub releases of go.mod's module.
func (r *readmeRun) curl(where string, args []string) {
	r.ran["curl"]++
	want := "https://" + r.module + "/releases/download/v" + r.version + "/install.sh"
	if len(args) != 3 || args[1] != "-fsSL" || args[2] != want {
		r.t.Errorf("%s: want curl -fsSL %s", where, want)
	}
}

// installScript checks `sh [-s -- OPTIONS]`: every option is one the
// release's install.sh handles.
func (r *readmeRun) installScript(where string, args []string) {
	t := r.t
	r.ran["sh"]++
	if len(args) == 0 || args[0] != "sh" {
		t.Errorf("%s: the script is piped to sh", where)
		return
	}
	if len(args) == 1 {
		return
	}
	if len(args) < 3 || args[1] != "-s" || args[2] != "--" {
		t.Errorf("%s: options go after sh -s --", where)
		return
	}
	script, err := os.ReadFile(filepath.Join(r.root, "internal", "release", "files", "install.sh.tmpl"))
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range args[3:] {
		if strings.HasPrefix(a, "--") && !regexp.MustCompile(`(?m)^\s*`+regexp.QuoteMeta(a)+`[)|=]`).Match(script) {
			t.Errorf("%s: install.sh has no option %s", where, a)
		}
	}
}

func (r *readmeRun) env() []string {
	env := []string{"PATH=" + r.path}
	for _, kv := range testenv.OfflineEnv() {
		if !strings.HasPrefix(kv, "PATH=") {
			env = append(env, kv)
		}
	}
	return env
}

// lookPath finds prog on the reader's PATH (not the test's).
func (r *readmeRun) lookPath(prog string) string {
	for _, d := range filepath.SplitList(r.path) {
		if p := filepath.Join(d, prog); isExecutable(p) {
			return p
		}
	}
	r.t.Fatalf("%s is not on the README's PATH %s", prog, r.path)
	return ""
}

func isExecutable(p string) bool {
	st, err := os.Stat(p)
	return err == nil && !st.IsDir() && st.Mode()&0o111 != 0
}

// mustRun runs prog (found on the reader's PATH unless it is a path) in dir
// with stdin closed, bounded, and returns its stdout.
func (r *readmeRun) mustRun(where, dir, prog string, args ...string) string {
	t := r.t
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	path := prog
	if prog == "genui" {
		path = r.lookPath(prog) // as the reader's shell finds it
	}
	cmd := exec.CommandContext(ctx, path, args...)
	cmd.Dir, cmd.Env = dir, r.env()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Errorf("%s: %s %s: %v\n%s%s", where, prog, strings.Join(args, " "), err, out.String(), errb.String())
	}
	return out.String()
}

// words expands a simple command's words as the reader's shell would
// (quotes removed, $PWD and $PATH from the reader's state).
func (r *readmeRun) words(c syntax.Command) []string {
	call, ok := c.(*syntax.CallExpr)
	if !ok {
		r.t.Errorf("not a simple command: %s", r.print(c))
		return nil
	}
	var out []string
	for _, w := range call.Args {
		out = append(out, r.expand(w))
	}
	return out
}

func (r *readmeRun) expand(w *syntax.Word) string {
	cfg := &expand.Config{Env: expand.ListEnviron("PWD="+r.dir, "PATH="+r.path, "HOME="+os.Getenv("HOME"))}
	s, err := expand.Literal(cfg, w)
	if err != nil {
		r.t.Errorf("expanding %s: %v", r.print(w), err)
	}
	return s
}

func (r *readmeRun) print(n syntax.Node) string {
	var b strings.Builder
	_ = syntax.NewPrinter().Print(&b, n)
	return strings.TrimSpace(b.String())
}

// TestCLIHelpOnStdout: help goes to stdout, so `genui serve --help | grep --
// --mcp-port` and `| less` work; mcp and serve show an example with an
// upstream after -- and say that none means the built-in demo; each command
// lists only the flags it uses.
func TestCLIHelpOnStdout(t *testing.T) {
	bin := testenv.GenuiBinary(t)
	wd := t.TempDir()
	ctx := bounded(t, time.Minute)
	out, err := exec.CommandContext(ctx, "sh", "-c", `"$0" serve --help | grep -- --mcp-port`, bin).Output()
	if err != nil || !strings.Contains(string(out), "--mcp-port") {
		t.Errorf("genui serve --help | grep -- --mcp-port: %v, %q", err, out)
	}
	help := func(args ...string) string {
		t.Helper()
		stdout, stderr, err := genuiRun(t, wd, append(args, "--help")...)
		if err != nil || stderr != "" || stdout == "" {
			t.Errorf("genui %v --help: err %v, stdout %d bytes, stderr %q; want the help on stdout", args, err, len(stdout), stderr)
		}
		return stdout
	}
	for _, sub := range []string{"mcp", "serve"} {
		h := help(sub)
		if !regexp.MustCompile(`genui `+sub+` .*-- \S`).MatchString(h) || !strings.Contains(h, "built-in demo") {
			t.Errorf("genui %s --help has no example with an upstream after -- or does not say that no upstream means the demo:\n%s", sub, h)
		}
	}
	for _, tc := range []struct {
		args          []string
		shows, hidden []string
	}{
		{[]string{"serve"}, []string{"--mcp-port", "--port", "--watch", "--llm"}, nil},
		{[]string{"mcp"}, []string{"--watch", "--llm", "--upstream-url"}, []string{"--mcp-port"}},
		{[]string{"export"}, []string{"--out", "--llm", "--upstream-url"}, []string{"--watch", "--refresh-interval", "--allowed-origins", "--ui-metadata"}},
		{[]string{"check"}, []string{"--update", "--upstream-url", "--log-level"}, []string{"--llm", "--no-cache", "--watch", "--ui-metadata", "--allowed-origins"}},
		{[]string{"check", "list"}, []string{"--dir", "--config"}, []string{"--upstream-url", "--llm", "--watch"}},
		{[]string{"install"}, []string{"--dir", "--force"}, []string{"--llm"}},
		{nil, []string{"serve", "mcp", "tui"}, nil},
	} {
		h := help(tc.args...)
		for _, f := range tc.shows {
			if !strings.Contains(h, f) {
				t.Errorf("genui %v --help lacks %s", tc.args, f)
			}
		}
		for _, f := range tc.hidden {
			if strings.Contains(h, f+" ") {
				t.Errorf("genui %v --help lists %s, which means nothing there", tc.args, f)
			}
		}
	}
}

// TestCommandsThatOnlyLookWriteNothing: DIR is created on first use, when
// genui has something to keep there (a serving genui's log, port files and
// cache; check's log of its run); commands that only look or fail before
// doing anything leave the folder as it was: no .ui, no .claude.
func TestCommandsThatOnlyLookWriteNothing(t *testing.T) {
	wd := t.TempDir()
	for _, args := range [][]string{
		{"version"}, {"--help"}, {"serve", "--help"}, {"config", "show"}, {"config", "schema"}, {"check", "list"},
		{"tui", "--attach"}, // fails: nothing runs in .ui
		{"mcp", "--ui-metadata", "sometimes"},
	} {
		_, _, _ = genuiRun(t, wd, args...)
		entries, err := os.ReadDir(wd)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			t.Errorf("genui %v wrote %s into the folder", args, e.Name())
			_ = os.RemoveAll(filepath.Join(wd, e.Name()))
		}
	}
}
