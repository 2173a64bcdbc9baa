package tui

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/genui-dev/genui/engine/contract"
)

// varTree is the Variables tab: the engine state as the same tree
// /variables serves, expandable node by node. Expansion is kept by path, so
// it survives refreshes that renumber the nodes.
type varTree struct {
	vars     contract.Variables
	expanded map[string]bool
	visible  []int // node ids in display order
	depth    []int
}

func newVarTree() *varTree { return &varTree{expanded: map[string]bool{"": true}} }

func (t *varTree) set(v contract.Variables) {
	t.vars = v
	t.rebuild()
}

func (t *varTree) rows() int { return len(t.visible) }

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

func (m *Model) varLine(i, w int, _ bool) string {
	st, t := m.styles, m.vars
	n := t.vars.Variables[t.visible[i]]
	pad := strings.Repeat("  ", max(t.depth[i], 0))
	name := st.Text.Render(clean(n.Name))
	switch n.Type {
	case "object", "array":
		mark := "▸ "
		if t.expanded[n.Path] {
			mark = "▾ "
		}
		open, close := "{", "}"
		if n.Type == "array" {
			open, close = "[", "]"
		}
		return pad + st.Accent.Render(mark) + name + st.Muted.Render(fmt.Sprintf(" %s%d%s", open, n.Size, close))
	}
	b, _ := json.Marshal(n.Value)
	vs := st.Text
	switch n.Type {
	case "string":
		vs = st.OK
	case "number":
		vs = st.Info
	case "boolean", "null":
		vs = st.Accent
	}
	return pad + "  " + name + st.Muted.Render(": ") + vs.Render(clean(string(b)))
}
