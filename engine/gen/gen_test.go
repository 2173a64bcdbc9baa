package gen

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/genui-dev/genui/mcpshim"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
)

func TestValidate(t *testing.T) {
	tests := []struct {
		name string
		html string
		want []string // substrings, one per expected problem; nil = clean
	}{
		{"clean inline page", `<html><head><style>body{color:red}</style></head><body><img src="data:image/png;base64,AA"><script type="module">import { x } from "./x.js"; const y = 1;</script></body></html>`, nil},
		{"bare import", `<script type="module">import { App } from "@modelcontextprotocol/ext-apps";</script>`, []string{`bare module import "@modelcontextprotocol/ext-apps"`}},
		{"default and namespace bare imports", `<script type="module">import React from "react"; import * as d3 from 'd3';</script>`, []string{`"react"`, `"d3"`}},
		{"minified import", `<script type="module">import{App}from"ext"</script>`, []string{`"ext"`}},
		{"side-effect import", `<script type="module">import "lit";</script>`, []string{`"lit"`}},
		{"export from", `<script type="module">export { a } from "lib";</script>`, []string{`"lib"`}},
		{"dynamic import", `<script>const m = await import("chart.js");</script>`, []string{`"chart.js"`}},
		{"cdn import", `<script type="module">import { App } from "https://esm.sh/@modelcontextprotocol/ext-apps";</script>`, []string{`from the network`}},
		{"absolute and parent imports ok", `<script type="module">import a from "/a.js"; import b from "../b.js";</script>`, nil},
		{"commented import ignored", "<script type=\"module\">// import x from \"y\"\n/* import z from \"w\" */ const s = \"// not a comment\";</script>", nil},
		{"json script ignored", `<script type="application/json">{"a":"import x from \"y\""}</script>`, nil},
		{"script src", `<script src="https://cdn.example/x.js"></script>`, []string{`<script src="https://cdn.example/x.js">`}},
		{"protocol relative", `<script src="//cdn.example/x.js"></script>`, []string{`//cdn.example/x.js`}},
		{"stylesheet link", `<link rel="stylesheet" href="http://fonts.example/css">`, []string{`<link href=`}},
		{"img and srcset", `<img src="https://x/y.png" srcset="a.png 1x, https://x/b.png 2x">`, []string{`https://x/y.png`, `https://x/b.png`}},
		{"iframe", `<iframe src="https://example.com"></iframe>`, []string{`<iframe src=`}},
		{"anchor href", `<a href="https://example.com">x</a>`, []string{`<a href=`}},
		{"relative urls ok", `<a href="#top">x</a><img src="logo.png"><link rel="icon" href="/favicon.ico">`, nil},
		{"css import and url", `<style>@import "https://fonts.example/a.css"; .x{background:url(https://x/y.png)}</style>`, []string{`https://fonts.example/a.css`, `https://x/y.png`}},
		{"style attribute", `<div style="background-image: url('//x/y.png')"></div>`, []string{`style attribute of <div>`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Validate(tt.html)
			if len(got) != len(tt.want) {
				t.Fatalf("Validate = %q, want %d problems like %q", got, len(tt.want), tt.want)
			}
			for i, w := range tt.want {
				if !strings.Contains(got[i], w) {
					t.Errorf("problem %d = %q, want it to contain %q", i, got[i], w)
				}
			}
		})
	}
}

var offlineSchemas = map[string]string{
	"forecast":  `{"type":"object","properties":{"location":{"type":"string","description":"City"},"days":{"type":"integer","minimum":1,"maximum":14,"default":7}},"required":["location"]}`,
	"all kinds": `{"type":"object","properties":{"s":{"type":"string","format":"date"},"e":{"type":"string","format":"email"},"u":{"type":"string","format":"uri","pattern":"^https://"},"n":{"type":"number","multipleOf":0.5},"b":{"type":"boolean"},"en":{"enum":["a","b"]},"o":{"type":"object"},"a":{"type":"array","items":{"type":"string"}},"any":{},"u2":{"anyOf":[{"type":"string"},{"type":"null"}]},"one":{"oneOf":[{"type":"string"},{"type":"integer"}]}}}`,
	"empty":     `{"type":"object"}`,
	"none":      ``,
	"hostile":   `{"type":"object","properties":{"</script><script>alert(1)</script>":{"type":"string","description":"<img src=x onerror=alert(1)> https://evil.example"}}}`,
}

// TestOfflinePackedTextIsASCII: every script and style an offline page's
// loader decodes, and those of the rich views it reads through the host, is
// ASCII, whatever the tool's own text (that stays in the page's markup): one
// character past U+00FF makes the loader's decoded text a two-byte string,
// which the CSS parser, the script compiler and the DOM then work through at
// twice the bytes (bench/README.md, render round 10). Covers what reaches a
// page without internal/minify's check, such as the vendored markdown reader.
func TestOfflinePackedTextIsASCII(t *testing.T) {
	reStyle := regexp.MustCompile(`(?s)<style[^>]*>(.*?)</style>`)
	check := func(where, text string) {
		t.Helper()
		for i := 0; i < len(text); i++ {
			if text[i] >= 0x80 {
				t.Errorf("%s: a byte past ASCII at %d: %q (part opening %.60q)", where, i, text[max(0, i-30):min(len(text), i+10)], text)
				return
			}
		}
	}
	for name, schema := range offlineSchemas {
		res, err := NewOffline().Generate(context.Background(), Request{Tool: Tool{
			Name: "tool_" + strings.ReplaceAll(name, " ", "_"), Description: "Caf\u00e9 \u2615 r\u00e9sum\u00e9 \u2014 \u20ac", InputSchema: json.RawMessage(schema)}})
		if err != nil {
			t.Fatal(err)
		}
		scripts, err := pagepack.PackedScripts(res.HTML)
		if err != nil || len(scripts) == 0 {
			t.Fatalf("%s: packed scripts %d, %v", name, len(scripts), err)
		}
		for i, s := range scripts {
			check(fmt.Sprintf("%s: packed script %d", name, i), s)
		}
		page, err := pagepack.Unpack(res.HTML)
		if err != nil {
			t.Fatal(err)
		}
		styles := reStyle.FindAllStringSubmatch(page, -1)
		if len(styles) == 0 {
			t.Fatalf("%s: no style in the unpacked page", name)
		}
		for i, m := range styles {
			check(fmt.Sprintf("%s: style %d", name, i), m[1])
		}
	}
	for i, set := range viewdefs.DeferredParts() {
		for j, p := range set {
			check(fmt.Sprintf("deferred set %d part %d", i, j), p.Text)
		}
	}
}

func TestOfflineOutputIsSelfContained(t *testing.T) {
	g := NewOffline()
	if g.Name() != "offline" {
		t.Fatalf("Name = %q", g.Name())
	}
	for name, schema := range offlineSchemas {
		t.Run(name, func(t *testing.T) {
			res, err := g.Generate(context.Background(), Request{Tool: Tool{
				Name: "tool_" + strings.ReplaceAll(name, " ", "_"), Description: "A <b>test</b> tool", InputSchema: json.RawMessage(schema),
			}})
			if err != nil {
				t.Fatal(err)
			}
			if res.UIType != UITypeOfflineRich || res.Provider != "offline" || res.Duration <= 0 {
				t.Errorf("result metadata = %q %q %v", res.UIType, res.Provider, res.Duration)
			}
			// The checks read the code too: the page as it was before packing.
			page, err := pagepack.Unpack(res.HTML)
			if err != nil || !pagepack.IsPacked(res.HTML) {
				t.Fatalf("the offline page is not a good packed page: %v", err)
			}
			for _, p := range []string{res.HTML, page} {
				if p := Validate(p); len(p) > 0 {
					t.Errorf("Validate: %q", p)
				}
			}
			if strings.Count(res.HTML, mcpshim.ShimAttr) != 1 {
				t.Errorf("want exactly one inlined shim")
			}
			if strings.Contains(page, `from "@modelcontextprotocol/ext-apps"`) {
				t.Errorf("ext-apps import not replaced")
			}
			// No URL of any kind may reach the page except inside the JSON data of a hostile schema.
			rest := page
			if i := strings.Index(rest, `id="tool-data">`); i >= 0 {
				j := strings.Index(rest[i:], "</script>")
				rest = rest[:i] + rest[i+j:]
			}
			for _, u := range []string{"http://", "https://"} {
				if strings.Contains(rest, u) {
					t.Errorf("output contains %q", u)
				}
			}
			if strings.Contains(res.HTML, "<b>test</b>") {
				t.Errorf("description not escaped")
			}
		})
	}
}

func TestOfflineErrors(t *testing.T) {
	g := NewOffline()
	if _, err := g.Generate(context.Background(), Request{Tool: Tool{Name: "x", InputSchema: json.RawMessage(`{"type":`)}}); err == nil || !strings.Contains(err.Error(), "inputSchema") {
		t.Errorf("bad schema: err = %v", err)
	}
	if _, err := g.Generate(context.Background(), Request{Tool: Tool{Name: ""}}); err == nil {
		t.Errorf("empty name: want error")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := g.Generate(ctx, Request{Tool: Tool{Name: "x"}}); err == nil {
		t.Errorf("cancelled context: want error")
	}
	res, err := g.Generate(context.Background(), Request{Tool: Tool{Name: "x"}, Refinements: []string{"make it blue"}})
	if err != nil || len(res.Warnings) != 1 {
		t.Errorf("refinements: warnings = %q, err = %v", res.Warnings, err)
	}
}
