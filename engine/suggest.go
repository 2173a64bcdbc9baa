package engine

import (
	"sort"
	"strings"
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
			d = min(d, editDistance(ln, l))
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

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := 1
			if a[i-1] == b[j-1] {
				c = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+c)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
