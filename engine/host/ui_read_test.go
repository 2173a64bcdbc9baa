package host_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/genui-dev/genui/engine/host"
)

// TestUIReadIsASCIIAndStable: a cached UI's resources/read answer is pure
// ASCII on the wire (non-ASCII characters escaped, so Node's decoder
// stays on its fast path), decodes to the page with its non-ASCII
// characters intact, and is the same bytes on every read (memoized).
func TestUIReadIsASCIIAndStable(t *testing.T) {
	h := startHost(t, demoUpstream(), host.UIMetaAlways)
	h.c.initialize(nil)
	var lines []string
	for i := range 3 {
		h.c.result("resources/read", map[string]any{"uri": "ui://set_units"}, nil)
		h.c.mu.Lock()
		for j := len(h.c.raw) - 1; j >= 0; j-- {
			if strings.Contains(h.c.raw[j], `"contents"`) {
				lines = append(lines, h.c.raw[j])
				break
			}
		}
		h.c.mu.Unlock()
		if len(lines) != i+1 {
			t.Fatal("no resources/read answer line")
		}
	}
	line := lines[2]
	for i := 0; i < len(line); i++ {
		if line[i] >= 0x80 {
			t.Fatalf("byte %d of the answer is not ASCII: %.40q", i, line[i:])
		}
	}
	var r struct {
		Result struct {
			Contents []struct {
				Text     string `json:"text"`
				MimeType string `json:"mimeType"`
			} `json:"contents"`
		} `json:"result"`
	}
	if err := json.Unmarshal([]byte(line), &r); err != nil || len(r.Result.Contents) != 1 {
		t.Fatalf("answer: %v %.200s", err, line)
	}
	html := r.Result.Contents[0].Text
	// set_units' schema says "metric (°C)": the page carries it readable.
	if !strings.Contains(html, "°C") || !strings.Contains(line, `\u00b0C`) {
		t.Errorf("the page's non-ASCII characters should be escaped on the wire and intact once decoded")
	}
	if strings.TrimPrefix(lines[1], lines[1][:strings.Index(lines[1], `"result"`)]) !=
		strings.TrimPrefix(lines[2], lines[2][:strings.Index(lines[2], `"result"`)]) {
		t.Error("two warm reads of the same UI differ")
	}
}
