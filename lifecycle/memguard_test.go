package lifecycle

import (
	"testing"
	"time"
)

func TestMemoryVictim(t *testing.T) {
	const mb = 1 << 20
	for _, c := range []struct {
		name      string
		rs        []RenderMemory
		live      uint64
		limit     uint64
		victim    int
		interrupt bool
	}{
		{"nothing running", nil, 900 * mb, 1000 * mb, 0, false},
		{"all under the budget", []RenderMemory{{0, time.Second, 10 * mb}, {1, 2 * time.Second, 63 * mb}}, 100 * mb, 1000 * mb, 0, false},
		{"the largest share over it", []RenderMemory{{0, 3 * time.Second, 100 * mb}, {1, 5 * time.Second, 120 * mb}, {2, 9 * time.Second, 10 * mb}}, 200 * mb, 1000 * mb, 1, true},
		{"at the soft limit: the longest running on a tie", []RenderMemory{{0, time.Second, 0}, {3, 4 * time.Second, 0}}, 920 * mb, 1000 * mb, 3, true},
		{"at the soft limit: the one the heap grew most during", []RenderMemory{{0, time.Second, 50 * mb}, {3, 4 * time.Second, 10 * mb}}, 920 * mb, 1000 * mb, 0, true},
		{"near but under the limit", []RenderMemory{{0, time.Second, 0}}, 890 * mb, 1000 * mb, 0, false},
		{"no limit", []RenderMemory{{0, time.Second, 0}}, 1 << 62, 0, 0, false},
	} {
		v, why, ok := MemoryVictim(c.rs, 64*mb, c.live, c.limit)
		if ok != c.interrupt || (ok && (v != c.victim || why == "")) {
			t.Errorf("%s: %d %q %v, want %d %v", c.name, v, why, ok, c.victim, c.interrupt)
		}
	}
}
