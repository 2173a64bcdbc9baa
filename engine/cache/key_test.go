package cache

import (
	"encoding/json"
	"testing"
)

func TestCanonicalJSON(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"sorted keys", `{"b":1,"a":2}`, `{"a":2,"b":1}`},
		{"nested and arrays", `{"z":{"y":[{"b":1,"a":2}],"x":null},"a":true}`, `{"a":true,"z":{"x":null,"y":[{"a":2,"b":1}]}}`},
		{"whitespace", " {\n  \"a\" : [ 1 , 2 ]\n}\n", `{"a":[1,2]}`},
		{"numbers as written", `[1.0,1e3,-0,12345678901234567890123]`, `[1.0,1e3,-0,12345678901234567890123]`},
		{"no html escaping", `{"h":"<b>&</b>"}`, `{"h":"<b>&</b>"}`},
		{"escaped and raw unicode agree", `"\u003cé"`, `"<é"`},
		{"scalar", `"x"`, `"x"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := CanonicalJSON(json.RawMessage(tt.in))
			if err != nil {
				t.Fatalf("CanonicalJSON(%s): %v", tt.in, err)
			}
			if string(got) != tt.want {
				t.Errorf("CanonicalJSON(%s) = %s, want %s", tt.in, got, tt.want)
			}
		})
	}
}

func TestCanonicalJSONRejectsBadInput(t *testing.T) {
	for _, in := range []string{``, `   `, `{`, `{"a":1}{"b":2}`, `{"a":1} x`, `[1,]`, `nul`} {
		if got, err := CanonicalJSON(json.RawMessage(in)); err == nil {
			t.Errorf("CanonicalJSON(%q) = %s, want error", in, got)
		}
	}
}

// keyFor builds a cache key the way the engine does.
func keyFor(tool ToolIdentity, refinementHash string, cfg Config) Key {
	return MakeKey(tool.Name, ToolHash(tool), refinementHash, cfg.Hash())
}

func TestKeyChanges(t *testing.T) {
	baseTool := ToolIdentity{
		Name:         "weather",
		Description:  "Current weather for a city",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1},"units":{"enum":["c","f"]}},"required":["city"]}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"temp":{"type":"number"}}}`),
	}
	baseCfg := Config{PromptVersion: "p1", TemplateVersion: "t1", Provider: "anthropic", Model: "m1", Temperature: 0.2, Theme: "dark"}
	const baseRef = ""
	base := keyFor(baseTool, baseRef, baseCfg)

	tests := []struct {
		name     string
		tool     func(*ToolIdentity)
		cfg      func(*Config)
		ref      string
		wantSame bool
	}{
		{name: "unchanged", wantSame: true},
		{name: "description", tool: func(t *ToolIdentity) { t.Description += "!" }},
		{name: "tool name", tool: func(t *ToolIdentity) { t.Name = "weather2" }},
		{name: "input schema", tool: func(t *ToolIdentity) {
			t.InputSchema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":2},"units":{"enum":["c","f"]}},"required":["city"]}`)
		}},
		{name: "output schema", tool: func(t *ToolIdentity) { t.OutputSchema = json.RawMessage(`{"type":"object"}`) }},
		{name: "output schema removed", tool: func(t *ToolIdentity) { t.OutputSchema = nil }},
		{name: "number as written", tool: func(t *ToolIdentity) {
			t.InputSchema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1.0},"units":{"enum":["c","f"]}},"required":["city"]}`)
		}},
		{name: "array order", tool: func(t *ToolIdentity) {
			t.InputSchema = json.RawMessage(`{"type":"object","properties":{"city":{"type":"string","minLength":1},"units":{"enum":["f","c"]}},"required":["city"]}`)
		}},
		{name: "prompt version", cfg: func(c *Config) { c.PromptVersion = "p2" }},
		{name: "template version", cfg: func(c *Config) { c.TemplateVersion = "t2" }},
		{name: "provider", cfg: func(c *Config) { c.Provider = "openai" }},
		{name: "model", cfg: func(c *Config) { c.Model = "m2" }},
		{name: "temperature", cfg: func(c *Config) { c.Temperature = 0.3 }},
		{name: "theme", cfg: func(c *Config) { c.Theme = "light" }},
		{name: "refinement", ref: "abc123"},
		{name: "top-level key order", wantSame: true, tool: func(t *ToolIdentity) {
			t.InputSchema = json.RawMessage(`{"required":["city"],"properties":{"city":{"type":"string","minLength":1},"units":{"enum":["c","f"]}},"type":"object"}`)
		}},
		{name: "nested key order", wantSame: true, tool: func(t *ToolIdentity) {
			t.InputSchema = json.RawMessage(`{"type":"object","properties":{"units":{"enum":["c","f"]},"city":{"minLength":1,"type":"string"}},"required":["city"]}`)
		}},
		{name: "whitespace", wantSame: true, tool: func(t *ToolIdentity) {
			t.InputSchema = json.RawMessage("{\n  \"type\": \"object\",\n  \"properties\": {\n    \"city\": { \"type\": \"string\", \"minLength\": 1 },\n    \"units\": { \"enum\": [ \"c\", \"f\" ] }\n  },\n  \"required\": [ \"city\" ]\n}\n")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool, cfg := baseTool, baseCfg
			if tt.tool != nil {
				tt.tool(&tool)
			}
			if tt.cfg != nil {
				tt.cfg(&cfg)
			}
			got := keyFor(tool, tt.ref, cfg)
			if !validKey(got) {
				t.Fatalf("key %q is not 64 hex digits", got)
			}
			if same := got == base; same != tt.wantSame {
				t.Errorf("key same as base = %v, want %v", same, tt.wantSame)
			}
		})
	}
}

func TestToolHashEdgeCases(t *testing.T) {
	a := ToolIdentity{Name: "t", InputSchema: nil}
	b := ToolIdentity{Name: "t", InputSchema: json.RawMessage("null")}
	if ToolHash(a) != ToolHash(b) {
		t.Error("empty schema and null schema should hash the same")
	}
	bad1 := ToolIdentity{Name: "t", InputSchema: json.RawMessage(`{"a":`)}
	bad2 := ToolIdentity{Name: "t", InputSchema: json.RawMessage(`{"b":`)}
	if ToolHash(bad1) == ToolHash(bad2) || ToolHash(bad1) == ToolHash(a) {
		t.Error("different invalid schemas should hash differently")
	}
	if again := bad1; ToolHash(bad1) != ToolHash(again) {
		t.Error("ToolHash is not deterministic")
	}
}

func TestMakeKeyFieldBoundaries(t *testing.T) {
	if MakeKey("ab", "c", "", "") == MakeKey("a", "bc", "", "") {
		t.Error("moving bytes between fields must change the key")
	}
}
