package pagerender

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/gen"
	"github.com/genui-dev/genui/internal/uicorpus"
	"github.com/genui-dev/genui/pagepack"
)

// BenchmarkPageSizes is `make bench`'s page-size report: the offline page
// of every tool of the recorded corpus (testdata/uicorpus, both splits:
// sizes only, no page is looked at), in bytes of its served HTML, as the
// engine serves it before any result was seen (no example) and once one
// was (the spec proposed from the tool's first recorded answer). It prints
// the median and range of each, per result shape of that answer and per
// view kind of the proposed spec, and reports the medians as metrics (goal:
// median at most 60 KB, issue 39).
func BenchmarkPageSizes(b *testing.B) {
	tuned, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		b.Fatal(err)
	}
	held, err := uicorpus.Load(uicorpus.HeldOutDir())
	if err != nil {
		b.Fatal(err)
	}
	var first, proposed []int
	var firstPages []string // by size, for the median page's composition
	byShape, byKind := map[string][]int{}, map[string][]int{}
	for range b.N {
		first, proposed, firstPages = first[:0], proposed[:0], firstPages[:0]
		clear(byShape)
		clear(byKind)
		for _, s := range slices.Concat(tuned, held) {
			for _, raw := range s.Tools {
				tool := corpusTool(raw)
				example, shape := firstAnswer(s, tool.Name)
				page, err := gen.NewOffline().Generate(context.Background(), gen.Request{Tool: tool})
				if err != nil {
					b.Fatal(err)
				}
				first = append(first, len(page.HTML))
				firstPages = append(firstPages, page.HTML)
				page, err = gen.NewOffline().Generate(context.Background(), gen.Request{Tool: tool, Example: example})
				if err != nil {
					b.Fatal(err)
				}
				proposed = append(proposed, len(page.HTML))
				byShape[shape] = append(byShape[shape], len(page.HTML))
				kind := "auto"
				if page.Spec != nil && page.Spec.View != nil && page.Spec.View.Kind != "" {
					kind = page.Spec.View.Kind
				}
				byKind[kind] = append(byKind[kind], len(page.HTML))
			}
		}
	}
	slices.SortFunc(firstPages, func(a, b string) int { return len(a) - len(b) })
	medianPage := firstPages[len(firstPages)/2]
	var out strings.Builder
	fmt.Fprintf(&out, "offline page sizes over %d corpus tools (%d servers), KB of served HTML: median [min-max]\n", len(first), len(tuned)+len(held))
	fmt.Fprintf(&out, "  %-34s %s\n", "before any result (no example)", sizeStats(first))
	fmt.Fprintf(&out, "  %-34s %s\n", "proposed from the first answer", sizeStats(proposed))
	for _, group := range []struct {
		name string
		m    map[string][]int
	}{{"answer shape", byShape}, {"view kind", byKind}} {
		names := make([]string, 0, len(group.m))
		for k := range group.m {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			fmt.Fprintf(&out, "    %-12s %-19s %s\n", group.name, k, sizeStats(group.m[k]))
		}
	}
	if err := writeComposition(&out, medianPage); err != nil {
		b.Fatal(err)
	}
	fmt.Print(out.String()) // b.Log cuts a benchmark's log to its first lines
	b.ReportMetric(median(first)/1000, "first-median-KB")
	b.ReportMetric(median(proposed)/1000, "proposed-median-KB")
}

// corpusTool is a recorded tools/list entry as the generator sees it.
func corpusTool(raw json.RawMessage) gen.Tool {
	var t gen.Tool
	_ = json.Unmarshal(raw, &t)
	return t
}

// firstAnswer is the tool's first recorded result and its shape: records
// (JSON holding an array of objects), object (other JSON), text (no JSON),
// error (isError, or a JSON-RPC error and no result) or none (not called).
func firstAnswer(s uicorpus.Server, tool string) (json.RawMessage, string) {
	shape := "none"
	for _, c := range s.Calls {
		if c.Tool != tool {
			continue
		}
		if len(c.Result) == 0 {
			shape = "error"
			continue
		}
		return c.Result, resultShape(c.Result)
	}
	return nil, shape
}

func resultShape(result json.RawMessage) string {
	var r struct {
		IsError           bool            `json:"isError"`
		StructuredContent json.RawMessage `json:"structuredContent"`
		Content           []struct {
			Type string `json:"type"`
			Text string `json:"text"`
		} `json:"content"`
	}
	if json.Unmarshal(result, &r) != nil {
		return "none"
	}
	if r.IsError {
		return "error"
	}
	data := []json.RawMessage{r.StructuredContent}
	for _, c := range r.Content {
		if c.Type == "text" && json.Valid([]byte(c.Text)) {
			data = append(data, json.RawMessage(c.Text))
		}
	}
	shape := "text"
	for _, d := range data {
		var v any
		if len(d) == 0 || json.Unmarshal(d, &v) != nil {
			continue
		}
		if holdsRecords(v, 0) {
			return "records"
		}
		shape = "object"
	}
	return shape
}

// holdsRecords: v is, or holds within a few levels, an array of objects.
func holdsRecords(v any, depth int) bool {
	if depth > 4 {
		return false
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if _, ok := e.(map[string]any); ok {
				return true
			}
		}
	case map[string]any:
		for _, e := range x {
			if holdsRecords(e, depth+1) {
				return true
			}
		}
	}
	return false
}

func median(xs []int) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	if len(s)%2 == 1 {
		return float64(s[len(s)/2])
	}
	return float64(s[len(s)/2-1]+s[len(s)/2]) / 2
}

func sizeStats(xs []int) string {
	return fmt.Sprintf("%5.1f [%5.1f-%5.1f] (%d pages)", median(xs)/1000, float64(slices.Min(xs))/1000, float64(slices.Max(xs))/1000, len(xs))
}

// writeComposition says where the bytes of page (a packed offline page)
// go: the readable HTML around the block, the block, and each packed part
// with its minified size and what it deflates to alone (level 9; in the
// block the parts share one stream, so the block is a little smaller than
// their sum), named after the minified unit it is; then the deferred
// style and scripts, which the page reads through its host after the
// handshake (pagepack's deferred block, not in the page), and that block's
// size.
func writeComposition(w io.Writer, page string) error {
	scripts, err := pagepack.PackedScripts(page)
	if err != nil {
		return err
	}
	unpacked, err := pagepack.Unpack(page)
	if err != nil {
		return err
	}
	block := strings.Index(page, `data-genui-pack>`)
	end := block + strings.Index(page[block:], "</script>")
	blockText := page[block+len(`data-genui-pack>`) : end]
	segs, uri, _ := strings.Cut(blockText, ";")
	blockLen := len(segs)
	names, err := unitNames()
	if err != nil {
		return err
	}
	deferred := map[string]bool{}
	for _, m := range reDeferred.FindAllStringSubmatch(unpacked, -1) {
		deferred[m[1]] = true
	}
	var parts, later []string
	for _, m := range reStyle.FindAllStringSubmatch(unpacked, -1) {
		parts = append(parts, m[1])
	}
	for _, m := range reDeferredStyle.FindAllStringSubmatch(unpacked, -1) {
		later = append(later, m[1])
	}
	for _, sc := range scripts {
		if deferred[sc] {
			later = append(later, sc)
		} else {
			parts = append(parts, sc)
		}
	}
	fmt.Fprintf(w, "the median page (%.1f KB): %.1f KB readable HTML (markup, tool data, CSP, loader), %.1f KB packed block (base64 of one deflate stream)\n",
		float64(len(page))/1000, float64(len(page)-blockLen)/1000, float64(blockLen)/1000)
	row := func(p string) int {
		name := names[p]
		if name == "" {
			name = "(not a unit: " + strconv.Quote(p[:min(len(p), 20)]) + "...)"
		}
		n := deflatedLen(p)
		fmt.Fprintf(w, "  %-34s %7.1f KB %6.1f KB\n", name, float64(len(p))/1000, float64(n)/1000)
		return n
	}
	fmt.Fprintf(w, "  %-34s %9s %9s\n", "packed part (styles, then scripts)", "minified", "deflated")
	sum := 0
	for _, p := range parts {
		sum += row(p)
	}
	fmt.Fprintf(w, "  %-34s %9s %6.1f KB (one stream: %.1f KB)\n", "sum", "", float64(sum)/1000, float64(blockLen)*3/4/1000)
	if uri == "" {
		return nil
	}
	blob, ok := pagepack.Deferred(uri)
	if !ok {
		return fmt.Errorf("deferred block %s not found", uri)
	}
	fmt.Fprintf(w, "read through the host after the handshake (%s: %.1f KB of base64, not in the page)\n", uri, float64(len(blob))/1000)
	sum = 0
	for _, p := range later {
		sum += row(p)
	}
	fmt.Fprintf(w, "  %-34s %9s %6.1f KB (one stream: %.1f KB)\n", "sum", "", float64(sum)/1000, float64(len(blob))*3/4/1000)
	return nil
}

var reDeferred = regexp.MustCompile(`(?s)<script ` + pagepack.DeferAttr + `>(.*?)</script>`)

var reStyle = regexp.MustCompile(`(?s)<style>(.*?)</style>`)

var reDeferredStyle = regexp.MustCompile(`(?s)<style ` + pagepack.DeferAttr + `>(.*?)</style>`)

// unitNames are the minified units the pages inline, by their text.
func unitNames() (map[string]string, error) {
	names := map[string]string{}
	for _, dir := range []string{"../../viewdefs/min", "../../mcpshim/min", "../../viewdefs/vendor"} {
		files, err := filepath.Glob(filepath.Join(dir, "*.js"))
		if err != nil {
			return nil, err
		}
		css, _ := filepath.Glob(filepath.Join(dir, "*.css"))
		for _, f := range append(files, css...) {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			names[string(b)] = strings.TrimPrefix(filepath.ToSlash(f), "../../")
		}
	}
	// The styles travel as one element, page.css then rich.css.
	pageCSS, rich := "", ""
	for text, name := range names {
		switch name {
		case "viewdefs/min/page.css":
			pageCSS = text
		case "viewdefs/min/rich.css":
			rich = text
		}
	}
	names[pageCSS+rich] = "viewdefs/min/page.css + rich.css"
	return names, nil
}

func deflatedLen(s string) int {
	var z bytes.Buffer
	w, _ := flate.NewWriter(&z, flate.BestCompression)
	_, _ = io.WriteString(w, s)
	_ = w.Close()
	return z.Len()
}
