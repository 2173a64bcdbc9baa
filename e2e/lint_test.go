package e2e_test

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/internal/testenv"
)

// genuiLint runs `genui lint ARGS...` in dir.
func genuiLint(t *testing.T, dir string, args ...string) (string, int) {
	t.Helper()
	ctx := bounded(t, 2*time.Minute)
	cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), append([]string{"lint"}, args...)...)
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

// TestLintCommand: genui lint against a real server (the filetools fixture)
// whose "count" tool answers structuredContent that breaks its own
// outputSchema: the result pinned as a check is reported with the tool, the
// rule and the path, and genui lint (and genui check --lint) exit 1; the
// same server with a conforming answer lints clean (exit 0).
func TestLintCommand(t *testing.T) {
	spec := func(count any) map[string]any {
		return map[string]any{
			"tools": []any{
				map[string]any{"name": "count", "description": "Counts things.", "inputSchema": map[string]any{"type": "object"},
					"outputSchema": map[string]any{"type": "object", "properties": map[string]any{"count": map[string]any{"type": "integer"}}, "required": []any{"count"}},
					"annotations":  map[string]any{"readOnlyHint": true}},
				map[string]any{"name": "echo", "description": "Echoes.", "inputSchema": map[string]any{"type": "object"}},
			},
			"results": map[string]any{"count": map[string]any{"structuredContent": map[string]any{"count": count},
				"content": []any{map[string]any{"type": "text", "text": "counted"}}}},
		}
	}
	p := newProject(t, map[string]any{}, spec("three"))
	if out, code := genuiCheck(t, p.dir, "add", "count-check", "count"); code != 0 {
		t.Fatalf("check add: %d %s", code, out)
	}
	out, code := genuiLint(t, p.dir, "--json")
	if code != 1 {
		t.Fatalf("genui lint exited %d on a result breaking its schema:\n%s", code, out)
	}
	var rep contract.LintReport
	if err := json.Unmarshal([]byte(out[:strings.LastIndex(out, "}")+1]), &rep); err != nil {
		t.Fatalf("lint --json: %v\n%s", err, out)
	}
	var found bool
	for _, f := range rep.Findings {
		if f.Tool == "count" && f.Rule == "structured-content-invalid" && f.Path == "/structuredContent/count" && f.Source == "check count-check" {
			found = true
		}
	}
	if !found || rep.Errors == 0 || rep.Tools != 2 || rep.Results == 0 {
		t.Fatalf("the broken result is not reported: %+v", rep)
	}
	if out, code := genuiCheck(t, p.dir, "--lint"); code != 1 || !strings.Contains(out, "structured-content-invalid") {
		t.Fatalf("genui check --lint: exit %d\n%s", code, out)
	}

	// The fixed server: a conforming answer, pinned again, lints clean.
	p.setTools(spec(3))
	if out, code := genuiCheck(t, p.dir, "add", "count-check", "count", "--replace"); code != 0 {
		t.Fatalf("check add --replace: %d %s", code, out)
	}
	if out, code := genuiLint(t, p.dir); code != 0 || !strings.Contains(out, "0 errors") {
		t.Fatalf("genui lint of a clean server: exit %d\n%s", code, out)
	}
}
