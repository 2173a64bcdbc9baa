package viewdefs

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/genui-dev/genui/mcpshim"
)

// elements lists a page's style and script elements (data blocks too) in
// document order, each as its tag plus body.
var reElement = regexp.MustCompile(`(?s)<(style|script)([^>]*)>(.*?)</(?:style|script)>`)

func codeElements(page string) (styles, scripts []string) {
	for _, m := range reElement.FindAllStringSubmatch(page, -1) {
		if m[1] == "style" {
			styles = append(styles, m[3])
		} else if !strings.Contains(m[2], "application/json") {
			scripts = append(scripts, m[2]+">"+m[3])
		}
	}
	return styles, scripts
}

func richPage(t *testing.T, schema string) string {
	t.Helper()
	page, err := Rich(ToolData{Name: "t", Title: "T", Description: "d <b>x</b>",
		InputSchema: json.RawMessage(schema), OutputSchema: json.RawMessage(`{"type":"object","properties":{"md":{"type":"string","format":"markdown"}}}`)}, ViewConfig{})
	if err != nil {
		t.Fatal(err)
	}
	return page
}

// TestPackRoundTrip: Unpack gives back every style and script of the page
// in its order, the data blocks and markup untouched, and the packed page
// is less than 60% of the page.
func TestPackRoundTrip(t *testing.T) {
	for _, schema := range []string{`{"type":"object"}`, `{"type":"object","properties":{"q":{"type":"string"}}}`,
		`{"type":"object","properties":{"xs":{"type":"array","items":{"type":"string"}}}}`} {
		page := richPage(t, schema)
		packed, err := Pack(page)
		if err != nil {
			t.Fatal(err)
		}
		if !IsPacked(packed) || strings.Contains(packed, "<script>") || strings.Contains(packed, "<style>") {
			t.Fatalf("%s: code left unpacked", schema)
		}
		if len(packed)*10 >= len(page)*6 {
			t.Errorf("%s: packed %d bytes of %d, want < 60%%", schema, len(packed), len(page))
		}
		for _, keep := range []string{`id="tool-data"`, `id="view-config"`, `<template id="svg-ns">`, `d &lt;b&gt;x&lt;/b&gt;`, `<form id="tool-form"`} {
			if strings.Contains(page, keep) && !strings.Contains(packed, keep) {
				t.Errorf("%s: %s lost", schema, keep)
			}
		}
		again, err := Pack(packed)
		if err != nil || again != packed {
			t.Fatalf("packing a packed page changed it (err %v)", err)
		}
		back, err := Unpack(packed)
		if err != nil {
			t.Fatal(err)
		}
		ws, wj := codeElements(page)
		gs, gj := codeElements(back)
		if strings.Join(ws, "\x00") != strings.Join(gs, "\x00") || strings.Join(wj, "\x00") != strings.Join(gj, "\x00") {
			t.Fatalf("%s: unpacked elements differ: %d/%d styles, %d/%d scripts", schema, len(gs), len(ws), len(gj), len(wj))
		}
		if IsPacked(back) || strings.Contains(back, PackAttr) {
			t.Fatalf("%s: unpacked page still has packing", schema)
		}
	}
}

// TestPackLeavesOthersAlone: JSON blocks and scripts with attributes are
// not ours to pack; a page with nothing to pack comes back as it was, and
// readable sources turn packing off.
func TestPackLeavesOthersAlone(t *testing.T) {
	page := `<!doctype html><html><head></head><body>` +
		`<script type="application/json" id="d">{"a":1}</script><script src="x.js"></script><script id="mine">keep()</script></body></html>`
	got, err := Pack(page)
	if err != nil || got != page {
		t.Fatalf("Pack changed a page with nothing of ours: %v\n%s", err, got)
	}
	rich := richPage(t, `{"type":"object"}`)
	UseReadableSources(true)
	defer UseReadableSources(false)
	if got, _ := Pack(rich); got != rich {
		t.Fatal("Pack packed with readable sources on")
	}
}

// TestUnpackRefusesDamage: a damaged block is an error, never a panic or a
// page with half its code.
func TestUnpackRefusesDamage(t *testing.T) {
	packed, err := Pack(richPage(t, `{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	m := rePackBlock.FindStringSubmatchIndex(packed)
	b64 := packed[m[2]:m[3]]
	for name, bad := range map[string]string{
		"truncated":   b64[:len(b64)/2],
		"not base64":  "!!!" + b64[3:],
		"not deflate": "AAAA" + b64[4:],
	} {
		if _, err := Unpack(packed[:m[2]] + bad + packed[m[3]:]); err == nil {
			t.Errorf("%s block: no error", name)
		}
	}
}

// TestPackCarriesTheShim: the shim Inject put in is packed with the rest;
// the page is marked so that Inject (which the engine runs on every page
// it serves) leaves it as it is, and Unpack gives the shim back, once.
func TestPackCarriesTheShim(t *testing.T) {
	page := mcpshim.Inject(richPage(t, `{"type":"object","properties":{"q":{"type":"string"}}}`))
	packed, err := Pack(page)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(packed, "<script "+mcpshim.ShimAttr+">") || !strings.Contains(packed, mcpshim.PackedShimAttr) {
		t.Fatal("the shim was not packed, or the page not marked")
	}
	if again := mcpshim.Inject(packed); again != packed {
		t.Fatal("Inject changed a packed page")
	}
	back, err := Unpack(packed)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(back, "<script "+mcpshim.ShimAttr+">"+mcpshim.AppJS()+"</script>") != 1 {
		t.Fatal("Unpack did not give the shim back once")
	}
	if strings.Index(back, mcpshim.ShimAttr) > strings.Index(back, "</head>") {
		t.Fatal("the unpacked shim is not in the head")
	}
	if len(packed)*2 >= len(page) {
		t.Errorf("packed %d bytes of %d, want under half", len(packed), len(page))
	}
}
