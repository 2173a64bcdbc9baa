package engine

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestKeptToolsCopiesOnlyAPageWithMuchElse: the registry keeps the tools
// keptTools returns. An answer that is mostly its tools is kept where it
// arrived (no copy of a 36 MB answer); one that carries much else (a
// hostile 1 MB member next to two small tools) is compacted, so the tools
// do not hold that member alive; the bytes are the same either way.
func TestKeptToolsCopiesOnlyAPageWithMuchElse(t *testing.T) {
	for _, tc := range []struct {
		name  string
		res   string
		alias bool
	}{
		{"mostly tools", `{"tools":[` + strings.Repeat(`{"name":"a","inputSchema":{"type":"object"}},`, 1000) + `{"name":"b"}]}`, true},
		{"much else", `{"junk":"` + strings.Repeat("x", 1<<20) + `","tools":[{"name":"a"},{"name":"b"}]}`, false},
	} {
		res := json.RawMessage(tc.res)
		tools, _, err := splitToolsPage(res)
		if err != nil {
			t.Fatal(err)
		}
		want := make([]string, len(tools))
		for i, tool := range tools {
			want[i] = string(tool)
		}
		kept := keptTools(res, tools)
		for i, tool := range kept {
			if string(tool) != want[i] {
				t.Fatalf("%s: tool %d is %s, want %s", tc.name, i, tool, want[i])
			}
			if cap(tool) != len(tool) && !tc.alias {
				t.Fatalf("%s: tool %d can grow into other memory", tc.name, i)
			}
		}
		first, last := &kept[0][0], &kept[len(kept)-1][0]
		inRes := func(p *byte) bool {
			for i := range res {
				if &res[i] == p {
					return true
				}
			}
			return false
		}
		if inRes(first) != tc.alias || inRes(last) != tc.alias {
			t.Fatalf("%s: tools kept in the answer's memory: %v, want %v", tc.name, inRes(first), tc.alias)
		}
	}
}
