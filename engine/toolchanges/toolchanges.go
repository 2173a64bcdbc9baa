// Package toolchanges says what changed from one tool list to the next:
// names added, removed, changed and unchanged, and for each added, removed
// or changed tool how, field by field and path by path (a structural diff
// of its definition, engine/resultdiff). The engine reports it on every
// tools refresh (contract.ToolDiff) and after a watched upstream restarts.
package toolchanges

import (
	"sort"

	"github.com/genui-dev/genui/engine/contract"
	"github.com/genui-dev/genui/engine/registry"
	"github.com/genui-dev/genui/engine/resultdiff"
)

// Diff is what changed from one tool list to the next: names added,
// removed, changed and unchanged (in the new list's order; removed sorted)
// and, for each added, removed or changed tool, how (see toolChange).
func Diff(before, after []*registry.Tool) contract.ToolDiff {
	old := make(map[string]*registry.Tool, len(before))
	for _, t := range before {
		old[t.Name] = t
	}
	var d contract.ToolDiff
	seen := map[string]bool{}
	for _, t := range after {
		seen[t.Name] = true
		p, ok := old[t.Name]
		switch {
		case !ok:
			d.Added = append(d.Added, t.Name)
			d.Changes = append(d.Changes, contract.ToolChange{Tool: t.Name, Kind: contract.ChangeAdded})
		case string(p.Raw) != string(t.Raw): // the hash is a function of Raw; comparing Raw keeps hashing lazy
			d.Changed = append(d.Changed, t.Name)
			d.Changes = append(d.Changes, toolChange(p, t))
		default:
			d.Unchanged = append(d.Unchanged, t.Name)
		}
	}
	for _, t := range before {
		if !seen[t.Name] {
			d.Removed = append(d.Removed, t.Name)
		}
	}
	sort.Strings(d.Removed)
	for _, n := range d.Removed {
		d.Changes = append(d.Changes, contract.ToolChange{Tool: n, Kind: contract.ChangeRemoved})
	}
	return d
}

// Describe adds to a registry diff how each added, removed or
// changed tool changed.
func Describe(d contract.ToolDiff, before, after []*registry.Tool) contract.ToolDiff {
	full := Diff(before, after)
	d.Changes = full.Changes
	return d
}

// toolChange says which fields of a tool's definition changed and how,
// path by path ("/description", "/inputSchema/properties/days/maximum").
func toolChange(before, after *registry.Tool) contract.ToolChange {
	c := contract.ToolChange{Tool: after.Name, Kind: contract.ChangeChanged}
	d, err := resultdiff.Compare(before.Raw, after.Raw, nil)
	if err != nil {
		return c
	}
	fields := map[string]bool{}
	for _, pc := range d.Changes {
		f := fieldOf(pc.Path)
		if !fields[f] {
			fields[f] = true
			c.Fields = append(c.Fields, f)
		}
	}
	sort.Strings(c.Fields)
	c.Changes = d.Changes
	return c
}

// fieldOf is the top-level field a change path is in.
func fieldOf(path string) string {
	if path == "" {
		return "definition"
	}
	segs, err := resultdiff.ParsePath(path)
	if err != nil || len(segs) == 0 {
		return path
	}
	return segs[0]
}
