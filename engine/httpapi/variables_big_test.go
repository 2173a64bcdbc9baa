package httpapi

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/jsonrpc"
	"github.com/genui-dev/genui/engine/upstream"
)

// manyToolsUpstream serves n tools, each with a small but real schema.
func manyToolsUpstream(n int) upstream.Config {
	var tools []string
	for i := 0; i < n; i++ {
		tools = append(tools, fmt.Sprintf(`{"name":"tool_%04d","title":"Tool %d <b>","description":"does thing %d","inputSchema":{"type":"object","properties":{"a":{"type":"string","default":"x"},"b":{"type":"integer"},"c":{"type":"array","items":{"type":"string"}},"d":{"enum":["p","q"]}},"required":["a"]}}`, i, i, i))
	}
	list := `{"tools":[` + strings.Join(tools, ",") + `]}`
	serve := func(ctx context.Context, r io.Reader, w io.Writer) error {
		sc := bufio.NewScanner(r)
		sc.Buffer(make([]byte, 1<<20), 16<<20)
		for sc.Scan() {
			m, err := jsonrpc.Parse(sc.Bytes())
			if err != nil || !m.IsRequest() {
				continue
			}
			res := `{}`
			switch m.Method {
			case "initialize":
				res = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"many","version":"1"}}`
			case "tools/list":
				res = list
			}
			_, _ = w.Write(append(jsonrpc.NewResult(m.ID, json.RawMessage(res)), '\n'))
		}
		return sc.Err()
	}
	return upstream.Config{Transport: "inprocess", InProcess: serve}
}

// TestVariablesThousandTools: /variables stays correct with 1,000 tools
// (JSON and the server-rendered page). How quick it is:
// BenchmarkVariablesThousandTools.
func TestVariablesThousandTools(t *testing.T) {
	p := startPreview(t, manyToolsUpstream(1000))
	if n := len(p.e.Registry().List()); n != 1000 {
		t.Fatalf("%d tools, want 1000", n)
	}
	start := time.Now()
	code, _, body := do(t, "GET", p.apiTS.URL+"/variables", "", "Accept", "application/json")
	jsonTime := time.Since(start)
	if code != 200 {
		t.Fatalf("GET /variables: %d", code)
	}
	var vars contract.Variables
	if err := json.Unmarshal([]byte(body), &vars); err != nil {
		t.Fatal(err)
	}
	byPath := map[string]contract.Variable{}
	for i, v := range vars.Variables {
		if v.ID != i {
			t.Fatalf("variable %d has id %d", i, v.ID)
		}
		byPath[v.Path] = v
	}
	if v, ok := byPath["tools"]; !ok || v.Type != "array" || v.Size != 1000 {
		t.Fatalf("tools node: %+v", v)
	}
	if v := byPath["tools[999].name"]; v.Value != "tool_0999" {
		t.Errorf("tools[999].name = %+v", v)
	}
	start = time.Now()
	code, _, page := do(t, "GET", p.apiTS.URL+"/variables", "", "Accept", "text/html")
	htmlTime := time.Since(start)
	if code != 200 || !strings.Contains(page, `data-path="tools[999].name"`) || strings.Contains(page, "Tool 1 <b>") {
		t.Errorf("page: %d, has last tool: %v", code, strings.Contains(page, `data-path="tools[999].name"`))
	}
	t.Logf("%d variables; JSON %d bytes in %s, page %d bytes in %s", len(vars.Variables), len(body), jsonTime, len(page), htmlTime)
}
