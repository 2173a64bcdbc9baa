package tui

import "github.com/genui-dev/genui/engine/contract"

// varTree is the Variables tab: the engine state as the same tree
// /variables serves, expandable node by node. Expansion is kept by path, so
// it survives refreshes that renumber the nodes.
type varTree struct {
	vars     contract.Variables
	expanded map[string]bool
	visible  []int // node ids in display order
	depth    []int
	version  int // counts rebuilds (a search over the rows starts over)
}

func newVarTree() *varTree { return &varTree{expanded: map[string]bool{"": true}} }

func (t *varTree) set(v contract.Variables) {
	t.vars = v
	t.rebuild()
}

func (t *varTree) rows() int { return len(t.visible) }

// itemName is what names an array's element: the string member "name"
// (or "id", "uri", "tool", "key") of an object, so lists of tools, sessions
// or resources read by name instead of [0], [1], ... ("" when it has none).
func (t *varTree) itemName(id int) string {
	vs := t.vars.Variables
	n := vs[id]
	if n.Type != "object" || n.ParentID == nil || *n.ParentID < 0 || *n.ParentID >= len(vs) || vs[*n.ParentID].Type != "array" {
		return ""
	}
	for _, want := range []string{"name", "id", "uri", "tool", "key"} {
		for _, c := range n.ChildIDs {
			if c < 0 || c >= len(vs) {
				continue
			}
			if ch := vs[c]; ch.Name == want && ch.Type == "string" {
				if v, ok := ch.Value.(string); ok && v != "" {
					return v
				}
			}
		}
	}
	return ""
}

// toggle expands or collapses the node on row i.
func (t *varTree) toggle(i int) {
	if i < 0 || i >= len(t.visible) {
		return
	}
	n := t.vars.Variables[t.visible[i]]
	if len(n.ChildIDs) == 0 {
		return
	}
	t.expanded[n.Path] = !t.expanded[n.Path]
	t.rebuild()
}

func (t *varTree) rebuild() {
	t.version++
	t.visible, t.depth = t.visible[:0], t.depth[:0]
	vs := t.vars.Variables
	if len(vs) == 0 || t.vars.RootID < 0 || t.vars.RootID >= len(vs) {
		return
	}
	var walk func(id, depth int)
	walk = func(id, depth int) {
		if id < 0 || id >= len(vs) {
			return
		}
		n := vs[id]
		if id != t.vars.RootID {
			t.visible, t.depth = append(t.visible, id), append(t.depth, depth)
		}
		if id == t.vars.RootID || t.expanded[n.Path] {
			for _, c := range n.ChildIDs {
				walk(c, depth+1)
			}
		}
	}
	walk(t.vars.RootID, -1)
}
