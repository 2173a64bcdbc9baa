package toolchanges

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/registry"
)

func tool(name, raw string) *registry.Tool {
	return &registry.Tool{Name: name, Raw: json.RawMessage(raw)}
}

// TestDiff: names added, removed (sorted), changed and unchanged, in the
// new list's order, and how each changed tool changed, field by field.
func TestDiff(t *testing.T) {
	before := []*registry.Tool{
		tool("keep", `{"name":"keep"}`),
		tool("zeta", `{"name":"zeta"}`),
		tool("alpha", `{"name":"alpha"}`),
		tool("edit", `{"name":"edit","description":"old","inputSchema":{"type":"object","properties":{"days":{"maximum":7}}}}`),
	}
	after := []*registry.Tool{
		tool("edit", `{"name":"edit","description":"new","inputSchema":{"type":"object","properties":{"days":{"maximum":14}}}}`),
		tool("keep", `{"name":"keep"}`),
		tool("new", `{"name":"new"}`),
	}
	d := Diff(before, after)
	if !reflect.DeepEqual(d.Added, []string{"new"}) || !reflect.DeepEqual(d.Removed, []string{"alpha", "zeta"}) ||
		!reflect.DeepEqual(d.Changed, []string{"edit"}) || !reflect.DeepEqual(d.Unchanged, []string{"keep"}) {
		t.Fatalf("names: %+v", d)
	}
	var kinds []string
	for _, c := range d.Changes {
		kinds = append(kinds, c.Tool+" "+c.Kind)
	}
	want := []string{"edit " + contract.ChangeChanged, "new " + contract.ChangeAdded, "alpha " + contract.ChangeRemoved, "zeta " + contract.ChangeRemoved}
	if !reflect.DeepEqual(kinds, want) {
		t.Fatalf("changes %q, want %q", kinds, want)
	}
	if f := d.Changes[0].Fields; !reflect.DeepEqual(f, []string{"description", "inputSchema"}) {
		t.Errorf("fields of edit: %q", f)
	}
	var paths []string
	for _, c := range d.Changes[0].Changes {
		paths = append(paths, c.Path)
	}
	if !reflect.DeepEqual(paths, []string{"/description", "/inputSchema/properties/days/maximum"}) {
		t.Errorf("paths of edit: %q", paths)
	}
}

// TestDescribe keeps a registry diff's names and fills in its changes.
func TestDescribe(t *testing.T) {
	before := []*registry.Tool{tool("a", `{"name":"a","title":"A"}`)}
	after := []*registry.Tool{tool("a", `{"name":"a","title":"B"}`)}
	d := Describe(contract.ToolDiff{Changed: []string{"a"}}, before, after)
	if !reflect.DeepEqual(d.Changed, []string{"a"}) || len(d.Changes) != 1 || !reflect.DeepEqual(d.Changes[0].Fields, []string{"title"}) {
		t.Fatalf("%+v", d)
	}
}
