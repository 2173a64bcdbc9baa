// Package suggest finds the names close to one that is not known (a tool
// name with a typo): the engine's unknown-tool errors carry them as
// suggestions. Bounded, so a hostile name costs little.
package suggest

import (
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Bounds of CloseMatches: the work is at most MaxCandidates edit distances
// of at most MaxName x MaxName cells. Longer names get no suggestions (MCP
// tool names are at most 128 characters).
const (
	MaxName       = 128
	MaxCandidates = 10000
)

// CloseMatches returns up to three names within a small edit distance of
// name, or containing it, closest first.
func CloseMatches(name string, names []string) []string {
	if len(name) > MaxName {
		return nil
	}
	type cand struct {
		n string
		d int
	}
	var cs []cand
	ln := strings.ToLower(name)
	limit := max(2, len(name)/3)
	for i, n := range names {
		if i == MaxCandidates {
			break
		}
		if len(n) > MaxName {
			continue
		}
		l := strings.ToLower(n)
		d := limit + 1
		if strings.Contains(l, ln) || strings.Contains(ln, l) {
			d = 1
		}
		if diff := len(l) - len(ln); diff <= limit && -diff <= limit { // else the distance exceeds limit
			d = min(d, levenshtein.ComputeDistance(ln, l))
		}
		if d <= limit {
			cs = append(cs, cand{n, d})
		}
	}
	sort.Slice(cs, func(i, j int) bool { return cs[i].d < cs[j].d || cs[i].d == cs[j].d && cs[i].n < cs[j].n })
	var out []string
	for i := 0; i < len(cs) && i < 3; i++ {
		out = append(out, cs[i].n)
	}
	return out
}
