package engine

import (
	"sort"
	"strings"

	"github.com/agnivade/levenshtein"
)

// Bounds of closeMatches: the work is at most maxSuggestCandidates edit
// distances of at most maxSuggestName x maxSuggestName cells. Longer names
// get no suggestions (MCP tool names are at most 128 characters).
const (
	maxSuggestName       = 128
	maxSuggestCandidates = 10000
)

// closeMatches returns up to three names within a small edit distance of
// name, or containing it.
func closeMatches(name string, names []string) []string {
	if len(name) > maxSuggestName {
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
		if i == maxSuggestCandidates {
			break
		}
		if len(n) > maxSuggestName {
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
