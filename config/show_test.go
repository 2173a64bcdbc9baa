package config

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// TestShowNeverShowsAKey: keys written in the file, read through
// ${env:VAR}, passed as headers or URL credentials, or set in the upstream's
// environment never appear in `genui config show`, in either format; the
// other values and their sources do.
func TestShowNeverShowsAKey(t *testing.T) {
	secrets := []string{"sk-ant-api03-literalkey0123456789", "tok-from-env-0123456789", "hdr-secret-0123456789",
		"s3cr3tpassw0rd", "child-env-secret-012345", "xoxb-custom-0123456789"}
	e := env{"MY_TOKEN": secrets[1], "GENUI_LLM_TEMPERATURE": "0.5", "CUSTOM_SECRET": secrets[5]}
	eff, err := load(t, `{
	  "llm": {"provider": "anthropic", "apiKey": "`+secrets[0]+`", "model": "claude-x"},
	  "upstream": {"url": "https://user:`+secrets[3]+`@example.com/mcp",
	               "headers": {"Authorization": "Bearer ${env:MY_TOKEN}", "X-Api-Key": "`+secrets[2]+`",
	                           "X-Custom": "${env:CUSTOM_SECRET}", "X-Tenant": "acme"}}}`, e, "--dir", "custom-dir")
	if err != nil {
		t.Fatal(err)
	}
	for _, asJSON := range []bool{false, true} {
		var buf bytes.Buffer
		if err := eff.Show(&buf, asJSON); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		for _, s := range secrets {
			if strings.Contains(out, s) {
				t.Errorf("json=%v: config show printed the secret %q:\n%s", asJSON, s, out)
			}
		}
		for _, want := range []string{"custom-dir", "--dir", "claude-x", "GENUI_LLM_TEMPERATURE", "acme", "[REDACTED]", "default"} {
			if !strings.Contains(out, want) {
				t.Errorf("json=%v: config show lacks %q:\n%s", asJSON, want, out)
			}
		}
	}
	var buf bytes.Buffer
	_ = eff.Show(&buf, true)
	var doc struct {
		Values []Entry `json:"values"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	got := map[string]Entry{}
	for _, v := range doc.Values {
		got[v.Path] = v
	}
	if got["llm.temperature"].Source.Layer != LayerEnv || got["dir"].Source.Layer != LayerFlag ||
		got["llm.model"].Source.Layer != LayerFile || got["cache.maxEntries"].Source.Layer != LayerDefault {
		t.Errorf("sources: %+v", got)
	}
	if got["upstream.headers.X-Tenant"].Value != "acme" {
		t.Errorf("a plain header was redacted: %+v", got["upstream.headers.X-Tenant"])
	}
}

// TestSchemaExampleValidates: the genui.json `genui config schema` carries
// as its example, written to a file, validates and loads.
func TestSchemaExampleValidates(t *testing.T) {
	var doc struct {
		Examples []json.RawMessage `json:"examples"`
	}
	if err := json.Unmarshal(Schema, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Examples) == 0 {
		t.Fatal("the schema has no example")
	}
	dir := t.TempDir()
	for i, ex := range doc.Examples {
		p := filepath.Join(dir, "genui.json")
		if err := os.WriteFile(p, ex, 0o644); err != nil {
			t.Fatal(err)
		}
		warnings, err := ValidateFile(p, env{}.lookup)
		if err != nil {
			t.Errorf("example %d does not validate: %v", i, err)
		}
		if len(warnings) > 0 {
			t.Errorf("example %d warns: %q", i, warnings)
		}
	}
	// And the schema really checks: break the example.
	var m map[string]any
	_ = json.Unmarshal(doc.Examples[0], &m)
	m["llm"].(map[string]any)["temperature"] = 9
	b, _ := json.Marshal(m)
	p := filepath.Join(dir, "bad.json")
	_ = os.WriteFile(p, b, 0o644)
	if _, err := ValidateFile(p, env{}.lookup); err == nil || !strings.Contains(err.Error(), "llm.temperature: must be <= 2") {
		t.Errorf("a broken example validated: %v", err)
	}
}

// TestREADMEExamplesValidate: every genui.json the README shows passes
// the schema (docs and schema cannot drift apart), as copied: with no
// variable set but HOME (an example that needs the reader to set one first
// fails).
func TestREADMEExamplesValidate(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	blocks := regexp.MustCompile("(?s)```json\n(.*?)```").FindAllSubmatch(b, -1)
	if len(blocks) < 2 {
		t.Fatalf("found %d JSON examples in the README", len(blocks))
	}
	for i, m := range blocks {
		if isViewSpec(m[1]) {
			continue // a view specification, checked against its own schema (viewspec's README test)
		}
		if _, errs := ParseFile(m[1], env{"HOME": "/home/someone"}.lookup, nil); len(errs) > 0 {
			t.Errorf("README example %d does not validate: %v\n%s", i, (&Errors{List: errs}).Error(), m[1])
		}
	}
}

// isViewSpec says whether a README JSON block is a view specification (its
// top-level "version" key), not a genui.json.
func isViewSpec(b []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(b, &m) != nil {
		return false
	}
	_, ok := m["version"]
	return ok
}
