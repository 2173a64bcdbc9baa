package e2e_test

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/internal/testenv"
)

// genuiRun runs the genui binary to completion (bounded) and returns
// stdout, stderr and the error.
func genuiRun(t *testing.T, dir string, args ...string) (string, string, error) {
	t.Helper()
	ctx := bounded(t, 2*time.Minute)
	cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), args...)
	cmd.Env = testenv.OfflineEnv()
	cmd.Dir = dir
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	return out.String(), errb.String(), err
}

func TestCLIVersionAndBadFlags(t *testing.T) {
	wd := t.TempDir()
	out, _, err := genuiRun(t, wd, "version")
	if err != nil || !strings.HasPrefix(out, "genui v") {
		t.Fatalf("version: %q %v", out, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"mcp", "--ui-metadata", "sometimes"}, "--ui-metadata must be always, auto or never"},
		{[]string{"mcp", "--llm", "anthropic"}, "set ANTHROPIC_API_KEY"},
		{[]string{"mcp", "--llm", "gpt"}, "unknown LLM provider"},
		{[]string{"mcp", "--llm", "openai-compatible"}, "needs a base URL"},
		{[]string{"mcp", "--upstream-url", "http://127.0.0.1:1/mcp", "--", "x"}, "not both"},
		{[]string{"mcp", "--header", "novalue", "--upstream-url", "http://127.0.0.1:1/mcp"}, "want 'Key: Value'"},
		{[]string{"mcp", "--config", "missing.json"}, "missing.json"},
		{[]string{"export"}, `required flag(s) "out" not set`},
		{[]string{"tui", "--attach"}, "no genui is running"},
		{[]string{"tui", "--attach", "--no-attach"}, "contradict each other"},
	} {
		out, stderr, err := genuiRun(t, wd, tc.args...)
		if err == nil || !strings.Contains(stderr, tc.want) || out != "" {
			t.Errorf("genui %v: err=%v stdout=%q stderr=%q, want a failure naming %q and nothing on stdout", tc.args, err, out, stderr, tc.want)
		}
	}
}

func TestCLIExport(t *testing.T) {
	wd := t.TempDir()
	out := filepath.Join(wd, "out")
	_, stderr, err := genuiRun(t, wd, "export", "--out", out, "--dir", filepath.Join(wd, "ui"))
	if err != nil {
		t.Fatalf("export: %v\n%s", err, stderr)
	}
	for _, tool := range []string{"get_forecast", "datastore_search", "get_current_weather", "get_tiny_image"} {
		b, err := os.ReadFile(filepath.Join(out, tool+".html"))
		if err != nil {
			t.Fatalf("export wrote no %s.html: %v", tool, err)
		}
		page := string(b)
		if !strings.HasPrefix(strings.ToLower(page), "<!doctype html") || !(strings.Contains(page, "<script data-genui-shim>") || strings.Contains(page, "data-genui-packed-shim")) {
			t.Errorf("%s.html is not a standalone genui page", tool)
		}
		if problems := selfContainedProblems(page); len(problems) > 0 {
			t.Errorf("%s.html is not self-contained: %v", tool, problems)
		}
		// The view spec the page draws is kept beside it, readable.
		spec, err := os.ReadFile(filepath.Join(out, tool+".spec.json"))
		if err != nil {
			t.Fatalf("export wrote no %s.spec.json: %v", tool, err)
		}
		var sp struct {
			Version int `json:"version"`
		}
		if err := json.Unmarshal(spec, &sp); err != nil || sp.Version != 1 {
			t.Errorf("%s.spec.json: %v %s", tool, err, spec)
		}
	}
}

// TestCLIPreviewReusesRunningGenui: with a genui running in DIR, `genui
// preview TOOL` prints that genui's preview URL and exits.
func TestCLIPreviewReusesRunningGenui(t *testing.T) {
	c, dir := genuiMCP(t)
	if _, err := c.Initialize(bounded(t, time.Minute), protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	port := waitPortFile(t, filepath.Join(dir, "mcp-port"), 30*time.Second)
	_, stderr, err := genuiRun(t, t.TempDir(), "preview", "get_forecast", "--no-open", "--dir", dir, "--args", `{"location":"Oslo"}`)
	if err != nil {
		t.Fatalf("preview: %v\n%s", err, stderr)
	}
	want := "http://127.0.0.1:" + strconv.Itoa(port) + "/preview/get_forecast?"
	if !strings.Contains(stderr, want) || !strings.Contains(stderr, "call=1") {
		t.Fatalf("preview printed %q, want the running genui's URL %s...call=1", stderr, want)
	}
}

// TestStateResources: genui's own ui://genui/state and ui://genui/variables are listed
// and read back as MCP Apps carrying the JSON document.
func TestStateResources(t *testing.T) {
	c, _ := genuiMCP(t)
	ctx := bounded(t, time.Minute)
	if _, err := c.Initialize(ctx, protocol, hostCaps); err != nil {
		t.Fatal(err)
	}
	for uri, want := range map[string]string{"ui://genui/state": `"upstream"`, "ui://genui/variables": `"childIds"`} {
		page := readUI(t, c, uri)
		m := regexp.MustCompile(`(?s)<script type="application/json" id="genui-data">(.*?)</script>`).FindStringSubmatch(page)
		if m == nil || !json.Valid([]byte(m[1])) || !strings.Contains(m[1], want) {
			t.Errorf("%s: no JSON data block with %s in the page", uri, want)
		}
	}
}

// TestCLIConfig: `genui config schema` prints the JSON Schema; its own
// example, saved as genui.json, passes `genui config validate` and runs;
// validate exits non-zero listing every error of a bad file; `config show`
// names each value's source and never prints a key.
func TestCLIConfig(t *testing.T) {
	wd := t.TempDir()
	schema, _, err := genuiRun(t, wd, "config", "schema")
	if err != nil {
		t.Fatalf("config schema: %v", err)
	}
	var doc struct {
		Schema   string            `json:"$schema"`
		Examples []json.RawMessage `json:"examples"`
	}
	if err := json.Unmarshal([]byte(schema), &doc); err != nil || doc.Schema == "" || len(doc.Examples) == 0 {
		t.Fatalf("config schema printed no JSON Schema with an example: %v", err)
	}
	if err := os.WriteFile(filepath.Join(wd, "genui.schema.json"), []byte(schema), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(wd, "genui.json"), doc.Examples[0], 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, err := genuiRun(t, wd, "config", "validate")
	if err != nil || !strings.Contains(out, "genui.json: valid") {
		t.Fatalf("the schema's own example does not validate: %v\n%s%s", err, out, stderr)
	}

	bad := filepath.Join(wd, "bad.json")
	_ = os.WriteFile(bad, []byte(`{"llm": {"provider": "offline", "temperature": 3}, "cache": {"maxEntries": "x"}, "logging": {"level": "loud"}, "extra": 1}`), 0o644)
	out, stderr, err = genuiRun(t, wd, "config", "validate", bad)
	if err == nil || out != "" {
		t.Fatalf("validate of a bad file: err=%v stdout=%q", err, out)
	}
	for _, want := range []string{"4 errors", "llm.temperature: must be <= 2", "cache.maxEntries: must be an integer", "logging.level: must be debug, info, warn or error", "extra: unknown key"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("validate's errors lack %q:\n%s", want, stderr)
		}
	}
	// A run refuses the bad file the same way, before starting anything.
	_, stderr, err = genuiRun(t, wd, "mcp", "--config", bad)
	if err == nil || !strings.Contains(stderr, "llm.temperature: must be <= 2") {
		t.Errorf("genui mcp with a bad config: err=%v stderr=%q", err, stderr)
	}

	key := "sk-ant-api03-clitestkey0123456789"
	_ = os.WriteFile(filepath.Join(wd, "keyed.json"), []byte(`{"llm": {"provider": "anthropic", "apiKey": "`+key+`"}, "dir": "d"}`), 0o644)
	cmd := exec.Command(testenv.GenuiBinary(t), "config", "show", "--config", "keyed.json", "--model", "m-flag")
	cmd.Dir = wd
	cmd.Env = append(testenv.OfflineEnv(), "GENUI_CACHE_MAX_ENTRIES=42")
	b, err := cmd.Output()
	if err != nil {
		t.Fatalf("config show: %v", err)
	}
	show := string(b)
	if strings.Contains(show, key) {
		t.Errorf("config show printed the API key:\n%s", show)
	}
	for _, want := range []string{`"m-flag"`, "flag --model", "42", "env GENUI_CACHE_MAX_ENTRIES", `"d"`, "file keyed.json", "[REDACTED]", "default"} {
		if !strings.Contains(show, want) {
			t.Errorf("config show lacks %q:\n%s", want, show)
		}
	}
}

// TestCLIConfigErrorsHideEnvSecrets: a config whose llm.baseUrl comes from
// ${env:X}, where X holds a key, fails `genui config validate` and the
// start of `genui mcp` naming the path, the rule and <from ${env:X}>, and
// neither prints the key.
func TestCLIConfigErrorsHideEnvSecrets(t *testing.T) {
	wd := t.TempDir()
	const secret = "sk-SUPERSECRET-e2e-0123456789"
	cfg := filepath.Join(wd, "genui.json")
	if err := os.WriteFile(cfg, []byte(`{"llm": {"provider": "openai-compatible", "baseUrl": "${env:X}"}}`), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{{"config", "validate", cfg}, {"mcp", "--config", cfg}, {"serve", "--config", cfg}} {
		ctx := bounded(t, time.Minute)
		cmd := exec.CommandContext(ctx, testenv.GenuiBinary(t), args...)
		cmd.Env = append(testenv.OfflineEnv(), "X="+secret)
		cmd.Dir = wd
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		err := cmd.Run()
		if err == nil {
			t.Fatalf("genui %v accepted a base URL that is no URL", args)
		}
		if strings.Contains(out.String()+errb.String(), "SUPERSECRET") {
			t.Errorf("genui %v printed the value of ${env:X}:\n%s%s", args, out.String(), errb.String())
		}
		if want := "llm.baseUrl: must be an http:// or https:// URL, not <from ${env:X}>"; !strings.Contains(errb.String(), want) {
			t.Errorf("genui %v: stderr %q lacks %q", args, errb.String(), want)
		}
	}
}
