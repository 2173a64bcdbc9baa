package pagepack_test

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/genui-dev/genui/mcpshim"
	. "github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewdefs"
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

// codeDiff says how the style and script elements of two pages differ, ""
// when they are the same in the same order.
func codeDiff(want, got string) string {
	ws, wj := codeElements(want)
	gs, gj := codeElements(got)
	if strings.Join(ws, "\x00") == strings.Join(gs, "\x00") && strings.Join(wj, "\x00") == strings.Join(gj, "\x00") {
		return ""
	}
	first, w, g := "", slices.Concat(ws, wj), slices.Concat(gs, gj)
	for i, w := range w {
		if i >= len(g) || g[i] != w {
			first = fmt.Sprintf("; element %d is %.120q, want %.120q", i, at(g, i), w)
			break
		}
	}
	return fmt.Sprintf("%d/%d styles, %d/%d scripts%s", len(gs), len(ws), len(gj), len(wj), first)
}

func at(xs []string, i int) string {
	if i < len(xs) {
		return xs[i]
	}
	return "(none)"
}

func richPage(t *testing.T, schema string) string {
	t.Helper()
	page, err := viewdefs.Rich(viewdefs.ToolData{Name: "t", Title: "T", Description: "d <b>x</b>",
		InputSchema: json.RawMessage(schema), OutputSchema: json.RawMessage(`{"type":"object","properties":{"md":{"type":"string","format":"markdown"}}}`)}, viewdefs.ViewConfig{})
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
		if d := codeDiff(page, back); d != "" {
			t.Fatalf("%s: unpacked elements differ: %s", schema, d)
		}
		if IsPacked(back) || strings.Contains(back, PackAttr) {
			t.Fatalf("%s: unpacked page still has packing", schema)
		}
	}
}

// TestPackLeavesOthersAlone: JSON blocks and scripts with attributes are
// not ours to pack; a page with nothing to pack comes back as it was.
func TestPackLeavesOthersAlone(t *testing.T) {
	page := `<!doctype html><html><head></head><body>` +
		`<script type="application/json" id="d">{"a":1}</script><script src="x.js"></script><script id="mine">keep()</script></body></html>`
	got, err := Pack(page)
	if err != nil || got != page {
		t.Fatalf("Pack changed a page with nothing of ours: %v\n%s", err, got)
	}
}

// TestUnpackRefusesDamage: a damaged block is an error, never a panic or a
// page with half its code.
func TestUnpackRefusesDamage(t *testing.T) {
	packed, err := Pack(richPage(t, `{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(packed, PackAttr+">") + len(PackAttr+">")
	end := start + strings.Index(packed[start:], "</script>")
	b64 := packed[start:end]
	for name, bad := range map[string]string{
		"truncated":   b64[:len(b64)/2],
		"not base64":  "!!!" + b64[3:],
		"not deflate": "AAAA" + b64[4:],
	} {
		if _, err := Unpack(packed[:start] + bad + packed[end:]); err == nil {
			t.Errorf("%s block: no error", name)
		}
	}
}

// TestPackPutsTheShimFirst: the shim Inject put in and the scripts marked
// FirstAttr are packed in a segment of their own ahead of the rest (the
// loader runs them before it inflates the rest); the page is marked so that
// Inject (which the engine runs on every page it serves) leaves it as it
// is, and Unpack gives the shim back, once, in the head, and the first
// scripts ahead of the others.
func TestPackPutsTheShimFirst(t *testing.T) {
	page := mcpshim.Inject(richPage(t, `{"type":"object","properties":{"q":{"type":"string"}}}`))
	page = strings.Replace(page, `<script type="application/json" id="view-config">`,
		`<script `+FirstAttr+`>connectEarly()</script><script type="application/json" id="view-config">`, 1)
	packed, err := Pack(page)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(packed, "<script "+mcpshim.ShimAttr+">") || strings.Contains(packed, "connectEarly") || !strings.Contains(packed, PackedShimAttr) {
		t.Fatal("the shim or the first script was not packed, or the page not marked")
	}
	start := strings.Index(packed, PackAttr+">") + len(PackAttr+">")
	if n := strings.Count(packed[start:start+strings.Index(packed[start:], "<")], ","); n != 1 {
		t.Fatalf("block of %d segments, want 2", n+1)
	}
	scripts, err := PackedScripts(packed)
	if err != nil || len(scripts) < 3 || scripts[0] != mcpshim.AppJS() || (scripts[1] != "connectEarly()" && scripts[2] != "connectEarly()") {
		t.Fatalf("scripts start %.60q (%v); want the shim, then the first script", scripts, err)
	}
	if !CarriesShim(packed) || CarriesShim(page) {
		t.Fatal("CarriesShim does not tell the packed page from the injected one")
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
	if i := strings.Index(back, "<script "+FirstAttr+">connectEarly()</script>"); i < 0 || i > strings.Index(back, "<script>") {
		t.Fatal("Unpack did not give the first script back ahead of the others")
	}
	if again, err := Pack(back); err != nil || again != packed {
		t.Fatalf("packing the unpacked page again gave another page (%v)", err)
	}
	if len(packed)*2 >= len(page) {
		t.Errorf("packed %d bytes of %d, want under half", len(packed), len(page))
	}
}

// TestStripLeavesTheMarkup: Strip takes out what packing added (hide
// style, block, loader) for one note, keeps the page's markup and data, and
// leaves other pages alone.
func TestStripLeavesTheMarkup(t *testing.T) {
	packed, err := Pack(mcpshim.Inject(richPage(t, `{"type":"object"}`)))
	if err != nil {
		t.Fatal(err)
	}
	got := Strip(packed, "<!-- note -->")
	if strings.Contains(got, PackAttr) || strings.Count(got, "<!-- note -->") != 1 ||
		!strings.Contains(got, `id="tool-data"`) || len(got)*3 > len(packed) {
		t.Fatalf("Strip left packing, lost the markup or kept too much (%d of %d bytes)", len(got), len(packed))
	}
	plain := "<!doctype html><p>mentions " + PackAttr + " and " + PackedShimAttr + "</p>"
	if Strip(plain, "x") != plain || IsPacked(plain) || CarriesShim(plain) {
		t.Fatal("a page that only mentions the marks was taken for a packed one")
	}
}

// TestPackCountsTextInUTF16: a stream measures its parts in UTF-16 code
// units (what the loader's JavaScript slices by), so parts with characters
// of two, three and four UTF-8 bytes (one of them outside the BMP: two
// units) come back whole, in order; a header that claims more or less than
// the stream holds is an error.
func TestPackCountsTextInUTF16(t *testing.T) {
	page := `<!doctype html><html><head><style>#x::after { content: "é…😀"; }</style></head><body><div id="x"></div>` +
		`<script>window.a = "😀é…";</script><script>window.b = "after";</script></body></html>`
	packed, err := Pack(page)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Unpack(packed)
	if err != nil {
		t.Fatal(err)
	}
	if d := codeDiff(page, back); d != "" {
		t.Fatalf("unpacked parts differ: %s", d)
	}
	if _, err := Pack(`<html><body><script>x = "` + "\xff" + `"</script></body></html>`); err == nil {
		t.Error("a part that is not UTF-8: no error")
	}
}

// TestUnpackReadsEachStreamFormat: the header format and the JSON array of
// [kind, text] that pages packed before hold; damaged headers are errors.
func TestUnpackReadsEachStreamFormat(t *testing.T) {
	for name, tc := range map[string]struct {
		stream string
		want   string // the parts joined, "" for an error
	}{
		"header":          {"{\"parts\":[[\"style\",3],[\"script\",5]]}\na{}😀x=1", "style:a{}|script:😀x=1"},
		"array":           {`[["style","a{}"],["script","x=1"]]`, "style:a{}|script:x=1"},
		"too long":        {"{\"parts\":[[\"script\",9]]}\nx=1", ""},
		"bytes left":      {"{\"parts\":[[\"script\",2]]}\nx=1", ""},
		"splits a pair":   {"{\"parts\":[[\"script\",1],[\"script\",1]]}\n😀", ""},
		"no header":       {"x=1", ""},
		"negative length": {"{\"parts\":[[\"script\",-1]]}\nx", ""},
	} {
		parts, err := StreamParts([]byte(tc.stream))
		var got []string
		for _, p := range parts {
			got = append(got, p[0]+":"+p[1])
		}
		if tc.want == "" {
			if err == nil {
				t.Errorf("%s: no error (%q)", name, got)
			}
			continue
		}
		if err != nil || strings.Join(got, "|") != tc.want {
			t.Errorf("%s: %q, %v; want %q", name, got, err, tc.want)
		}
	}
}

// TestPackDeflatesOneStream: the first segment and the rest are one
// deflate stream (the rest compressed with the shim in its window), cut
// after the first parts by a sync flush: smaller than two streams, the
// first segment inflates whole on its own, and the second does not
// inflate without it.
func TestPackDeflatesOneStream(t *testing.T) {
	page := mcpshim.Inject(richPage(t, `{"type":"object","properties":{"q":{"type":"string"}}}`))
	packed, err := Pack(page)
	if err != nil {
		t.Fatal(err)
	}
	block := PackedBlock(packed)
	segs := strings.Split(block, ",")
	if len(segs) != 2 {
		t.Fatalf("%d segments", len(segs))
	}
	first, err := InflateSegments(segs[0])
	if err != nil || !strings.Contains(first, mcpshim.AppJS()) || strings.Contains(first, "<style>") {
		t.Fatalf("the first segment does not inflate to the shim alone (%v)", err)
	}
	if _, err := InflateSegments(segs[1]); err == nil {
		t.Error("the second segment inflates without the first: not one stream")
	}
	two, err := TwoStreams(page)
	if err != nil {
		t.Fatal(err)
	}
	// Pages packed before (cached) hold two streams: still read alike.
	old := strings.Replace(packed, block, two, 1)
	back, err := Unpack(packed)
	if err != nil {
		t.Fatal(err)
	}
	if oldBack, err := Unpack(old); err != nil || oldBack != back {
		t.Errorf("a two-stream block unpacks otherwise (%v)", err)
	}
	if len(block) >= len(two) {
		t.Errorf("one stream %d bytes, two streams %d: nothing shared", len(block), len(two))
	}
	t.Logf("block %d bytes as one stream, %d as two", len(block), len(two))
}

// TestLoaderNamesTheFormat: the loader (loader.js, minified) looks for the
// elements by pagepack's own names and splits the block at the segment
// separator Pack writes.
func TestLoaderNamesTheFormat(t *testing.T) {
	for _, want := range []string{`"style[` + PackAttr + `-hide]"`, `"script[` + PackAttr + `]"`, `"` + ShimAttr + `"`, `split(",")`, `"genui-unpacked"`} {
		if !strings.Contains(Loader(), want) {
			t.Errorf("the loader lacks %s", want)
		}
	}
	if strings.Contains(Loader(), "\n  ") {
		t.Error("the loader is not the minified build")
	}
}

// TestUnpackFindsTheBlockPastADecoy: a block's text holds no "<", so an
// element that starts like a block but holds markup (a page quoting the
// format) is passed over and the real block after it is unpacked.
func TestUnpackFindsTheBlockPastADecoy(t *testing.T) {
	packed, err := Pack(richPage(t, `{"type":"object"}`))
	if err != nil {
		t.Fatal(err)
	}
	block := PackedBlock(packed)
	if block == "" {
		t.Fatal("no block found in a packed page")
	}
	for _, decoy := range []string{
		`<script type="application/octet-stream" ` + PackAttr + `><b>quoted</b></script>`,
		`<script type="application/octet-stream" ` + PackAttr + `>bm90IGEgYmxvY2s=</script>`, // no "<": only its place tells
	} {
		unpacksPastDecoy(t, packed, block, decoy)
	}
}

func unpacksPastDecoy(t *testing.T, packed, block, decoy string) {
	t.Helper()
	withDecoy := strings.Replace(packed, "<body", decoy+"<body", 1)
	if withDecoy == packed {
		t.Fatal("no <body in the page to put the decoy before")
	}
	if got := PackedBlock(withDecoy); got != block {
		t.Fatalf("found %.40q, want the real block %.40q", got, block)
	}
	want, err := Unpack(packed)
	if err != nil {
		t.Fatal(err)
	}
	got, err := Unpack(withDecoy)
	if err != nil {
		t.Fatal(err)
	}
	if got != strings.Replace(want, "<body", decoy+"<body", 1) {
		t.Fatal("the page with a decoy did not unpack to the page with the decoy")
	}
	// The CSP hashes are of the same block's scripts.
	wantScripts, err := PackedScripts(packed)
	if err != nil {
		t.Fatal(err)
	}
	gotScripts, err := PackedScripts(withDecoy)
	if err != nil || len(gotScripts) == 0 || strings.Join(gotScripts, "\x00") != strings.Join(wantScripts, "\x00") {
		t.Fatalf("PackedScripts past a decoy: %d scripts, %v; want the block's %d", len(gotScripts), err, len(wantScripts))
	}
}

// TestUnpackRefusesGroupsTheLoaderWouldNotRead: the loader reads one group
// of parts per segment, so a block whose one segment inflates to many
// groups (a damaged or hostile block: here 40,000 tiny ones, which cost
// quadratic time when each group copied the rest) is an error, at once,
// from Unpack and PackedScripts alike; so is a block with a segment more
// than its groups.
func TestUnpackRefusesGroupsTheLoaderWouldNotRead(t *testing.T) {
	deflated := func(text string) string {
		var b bytes.Buffer
		w, _ := flate.NewWriter(&b, flate.BestSpeed)
		_, _ = w.Write([]byte(text))
		_ = w.Close()
		return base64.StdEncoding.EncodeToString(b.Bytes())
	}
	page := func(block string) string {
		return `<!doctype html><html><body><main>x</main><script type="application/octet-stream" ` + PackAttr + `>` + block + `</script></body></html>`
	}
	group := `{"parts":[["script",1]]}` + "\n" + "x"
	for name, block := range map[string]string{
		"many groups in one segment": deflated(strings.Repeat(group, 40000)),
		"two groups in one segment":  deflated(group + group),
		"a segment without a group":  deflated(group) + "," + deflated(""),
	} {
		if _, err := Unpack(page(block)); err == nil || !strings.Contains(err.Error(), "segment") {
			t.Errorf("%s: Unpack gave %v, want an error about its groups and segments", name, err)
		}
		if _, err := PackedScripts(page(block)); err == nil {
			t.Errorf("%s: PackedScripts read it", name)
		}
	}
}

// TestPackDefersMarkedScripts: a script or style marked DeferAttr leaves
// the page: the page's block keeps an empty place for it and names a
// deferred block, which Deferred serves and which holds its text; Unpack
// and PackedScripts (the CSP's hashes, scripts only) put it back in its
// place. A block naming a deferred
// block this process did not pack, one outside DeferredPrefix, or places
// without a block, is an error.
func TestPackDefersMarkedScripts(t *testing.T) {
	page := mcpshim.Inject(richPage(t, `{"type":"object","properties":{"q":{"type":"string"}}}`))
	var deferredTexts, deferredStyles []string
	for _, m := range reElement.FindAllStringSubmatch(page, -1) {
		if m[2] == " "+DeferAttr {
			deferredTexts = append(deferredTexts, m[3])
			if m[1] == "style" {
				deferredStyles = append(deferredStyles, m[3])
			}
		}
	}
	if len(deferredTexts) == 0 || len(deferredStyles) != 1 {
		t.Fatalf("the rich page marks %d elements deferred, %d of them styles; want its rich views' scripts and style", len(deferredTexts), len(deferredStyles))
	}
	packed, err := Pack(page)
	if err != nil {
		t.Fatal(err)
	}
	inline, err := InflateSegments(PackedBlock(packed))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`;(` + regexp.QuoteMeta(DeferredPrefix) + `[0-9a-f]{32})</script>`).FindStringSubmatch(packed)
	if m == nil {
		t.Fatal("the packed page names no deferred block")
	}
	uri := m[1]
	blob, ok := Deferred(uri)
	if !ok {
		t.Fatalf("Deferred(%s): not served", uri)
	}
	z, err := base64.StdEncoding.DecodeString(blob)
	if err != nil {
		t.Fatal(err)
	}
	var raw bytes.Buffer
	if _, err := raw.ReadFrom(flate.NewReader(bytes.NewReader(z))); err != nil {
		t.Fatal(err)
	}
	for _, text := range deferredTexts {
		if strings.Contains(inline, text) || strings.Contains(packed, text) {
			t.Errorf("a deferred script (%d bytes) is still in the page", len(text))
		}
		if !strings.Contains(raw.String(), text) {
			t.Errorf("the deferred block lacks a deferred script (%d bytes)", len(text))
		}
	}
	scripts, err := PackedScripts(packed)
	if err != nil {
		t.Fatal(err)
	}
	for _, text := range deferredTexts {
		if isStyle := slices.Contains(deferredStyles, text); slices.Contains(scripts, text) == isStyle {
			t.Errorf("PackedScripts: deferred element (%d bytes, a style: %v) listed %v; want the scripts, which the CSP would refuse without", len(text), isStyle, !isStyle)
		}
	}
	back, err := Unpack(packed)
	if err != nil {
		t.Fatal(err)
	}
	if d := codeDiff(page, back); d != "" {
		t.Fatalf("unpacked elements differ: %s", d)
	}
	for name, bad := range map[string]string{
		"unknown block":   strings.Replace(packed, uri, DeferredPrefix+strings.Repeat("0", 32), 1),
		"foreign scheme":  strings.Replace(packed, uri, "https://example.com/x", 1),
		"no block at all": strings.Replace(packed, ";"+uri, "", 1),
	} {
		if _, err := Unpack(bad); err == nil {
			t.Errorf("%s: Unpack gave no error", name)
		}
		if _, err := PackedScripts(bad); err == nil {
			t.Errorf("%s: PackedScripts gave no error", name)
		}
	}
	if _, ok := Deferred(DeferredPrefix + strings.Repeat("0", 32)); ok {
		t.Error("Deferred serves a block nobody packed")
	}
}

// TestDeferredFromItsSource: a process that has not packed a page finds
// its deferred block all the same once the program says where its
// deferred elements come from (SetDeferredSource): they pack to the URI the
// page names. Without a source, or for other elements (the same texts with
// a style taken for a script), it is not there.
func TestDeferredFromItsSource(t *testing.T) {
	t.Cleanup(ForgetDeferred)
	page := "<!doctype html><html><head><style " + DeferAttr + ">.r{}</style></head><body><script>a()</script><script " + DeferAttr + ">rich()</script><script " + DeferAttr + ">more()</script></body></html>"
	packed, err := Pack(page)
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`;(` + regexp.QuoteMeta(DeferredPrefix) + `[0-9a-f]{32})</script>`).FindStringSubmatch(packed)
	if m == nil {
		t.Fatal("the packed page names no deferred block")
	}
	ForgetDeferred()
	if _, ok := Deferred(m[1]); ok {
		t.Fatal("a block found in a process that holds none and has no source")
	}
	if _, err := Unpack(packed); err == nil {
		t.Error("Unpack read a page whose deferred block is nowhere")
	}
	ForgetDeferred()
	SetDeferredSource(func() [][]DeferredPart { return [][]DeferredPart{{{Text: ".r{}"}, {Text: "rich()"}, {Text: "more()"}}} })
	if _, ok := Deferred(m[1]); ok {
		t.Fatal("the block is found from a source that holds its style as a script")
	}
	ForgetDeferred()
	SetDeferredSource(func() [][]DeferredPart {
		return [][]DeferredPart{{{Text: "other()"}}, {{Text: ".r{}", Style: true}, {Text: "rich()"}, {Text: "more()"}}}
	})
	if _, ok := Deferred(m[1]); !ok {
		t.Fatal("the block is not found from the source that holds its elements")
	}
	back, err := Unpack(packed)
	if err != nil || !strings.Contains(back, "<style "+DeferAttr+">.r{}</style>") || !strings.Contains(back, "<script "+DeferAttr+">rich()</script><script "+DeferAttr+">more()</script>") {
		t.Errorf("Unpack after priming: %v\n%s", err, back)
	}
}
