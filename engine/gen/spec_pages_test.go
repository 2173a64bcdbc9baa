package gen

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/genui-dev/genui/internal/uicorpus"
	"github.com/genui-dev/genui/pagepack"
	"github.com/genui-dev/genui/viewspec"
)

var reViewSpec = regexp.MustCompile(`<script type="application/json" id="view-spec">([^<]*)</script>`)

// pageSpec is the view spec a generated page carries (unpacked first).
func pageSpec(t *testing.T, html string) viewspec.Spec {
	t.Helper()
	if pagepack.IsPacked(html) {
		var err error
		if html, err = pagepack.Unpack(html); err != nil {
			t.Fatal(err)
		}
	}
	m := reViewSpec.FindStringSubmatch(html)
	if m == nil {
		t.Fatal("the page carries no #view-spec")
	}
	s, errs := viewspec.Validate([]byte(m[1]))
	if errs != nil {
		t.Fatalf("the page's spec is not valid: %v\n%s", errs, m[1])
	}
	return s
}

// TestEveryOfflinePageCarriesItsSpec: the offline page of every demo tool
// (from its schemas) and of every recorded corpus tool (with its first
// recorded result, as the engine passes it) carries a valid view spec, the
// one the generator reports, and a refinement's outcome with it.
func TestEveryOfflinePageCarriesItsSpec(t *testing.T) {
	var list struct {
		Tools []struct {
			Name         string          `json:"name"`
			Title        string          `json:"title"`
			Description  string          `json:"description"`
			InputSchema  json.RawMessage `json:"inputSchema"`
			OutputSchema json.RawMessage `json:"outputSchema"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(demoRPC(t, "tools/list", map[string]any{}), &list); err != nil {
		t.Fatal(err)
	}
	type job struct {
		tool    Tool
		example json.RawMessage
	}
	var jobs []job
	for _, d := range list.Tools {
		jobs = append(jobs, job{tool: Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema}})
	}
	servers, err := uicorpus.Load(uicorpus.Dir())
	if err != nil {
		t.Fatal(err)
	}
	withPrincipal := 0
	for _, s := range servers {
		for _, raw := range s.Tools {
			var d struct {
				Name, Title, Description string
				InputSchema              json.RawMessage `json:"inputSchema"`
				OutputSchema             json.RawMessage `json:"outputSchema"`
			}
			if err := json.Unmarshal(raw, &d); err != nil {
				t.Fatal(err)
			}
			j := job{tool: Tool{Name: d.Name, Title: d.Title, Description: d.Description, InputSchema: d.InputSchema, OutputSchema: d.OutputSchema}}
			for _, c := range s.Calls {
				if c.Tool == d.Name && c.Result != nil {
					j.example = c.Result
					break
				}
			}
			jobs = append(jobs, j)
		}
	}
	if len(jobs) < 150 {
		t.Fatalf("only %d tools", len(jobs))
	}
	g := NewOffline()
	for i, j := range jobs {
		req := Request{Tool: j.tool, Example: j.example}
		if i%10 == 0 {
			req.Refinements = []string{"hide the id"}
		}
		res, err := g.Generate(context.Background(), req)
		if err != nil {
			t.Fatalf("%s: %v", j.tool.Name, err)
		}
		if res.Spec == nil {
			t.Fatalf("%s: no spec in the result", j.tool.Name)
		}
		got := pageSpec(t, res.HTML)
		if string(got.JSON()) != string(res.Spec.JSON()) {
			t.Errorf("%s: the page carries %s, the generator says %s", j.tool.Name, got.JSON(), res.Spec.JSON())
		}
		if got.Version != viewspec.Version {
			t.Errorf("%s: version %d", j.tool.Name, got.Version)
		}
		if got.Principal != "" {
			withPrincipal++
		}
		if len(req.Refinements) != len(res.Outcomes) {
			t.Errorf("%s: %d refinements, %d outcomes", j.tool.Name, len(req.Refinements), len(res.Outcomes))
		}
	}
	if withPrincipal == 0 {
		t.Error("no page's spec names its principal data: the proposal reads nothing")
	}
	t.Logf("%d pages, %d with a principal path", len(jobs), withPrincipal)
}
