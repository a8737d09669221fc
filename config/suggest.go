package config

import "fmt"

// suggest offers a fix for the unknown key: a close spelling among the keys
// of the same table, or the table where a key of that exact name belongs.
// It returns "" when nothing is close.
func suggest(key string) string {
	table, name := splitKey(key)
	best, bestDist := "", 3 // at most 2 edits away
	for _, s := range siblings(table) {
		if d := editDistance(name, s); d < bestDist {
			best, bestDist = s, d
		}
	}
	if best != "" {
		return fmt.Sprintf("did you mean %q?", best)
	}
	for k, f := range schema {
		if parent, n := splitKey(k); n == name && !f.isTable() && f.array == "" {
			if parent == "" {
				return fmt.Sprintf("%q belongs at the top level", name)
			}
			return fmt.Sprintf("%q belongs in [%s]", name, parent)
		}
	}
	return ""
}

// editDistance is the Levenshtein distance between a and b.
func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
