package lifecycle

import (
	"fmt"
	"time"
)

// RenderMemory is one render in flight as the memory guard sees it.
type RenderMemory struct {
	Worker  int           // slot id
	Running time.Duration // since the render started
	// Growth is this render's share of the live heap's growth while it
	// ran (the guard shares each change among the renders in flight).
	Growth int64
}

// MemoryVictim picks the render to interrupt, if any. A render during
// which the live heap grew by more than budget is over it; since all isolates share one
// heap, every render that overlapped the growth sees it, and the
// longest-running of them is the likely offender (renders that started
// later saw less of it, and ordinary renders are short). When the heap's
// objects (live and garbage) come within 5% of the soft memory limit, the
// GC can no longer keep up: a render is interrupted whatever the budget: the one the heap grew most during (the longest
// running on a tie). ok is false when nothing needs to go.
func MemoryVictim(rs []RenderMemory, budget int64, heapLive, softLimit uint64) (victim int, why string, ok bool) {
	if budget > 0 {
		if r, found := largest(rs, func(r RenderMemory) bool { return r.Growth > budget }); found {
			return r.Worker, fmt.Sprintf("the live heap grew by %s during this render, over %s", mib(r.Growth), mib(budget)), true
		}

	}
	if softLimit > 0 && heapLive > softLimit-softLimit/10 {
		// The GC runs all the time near the limit, so the live figure is
		// fresh: the render with the largest share goes first.
		if best, found := largest(rs, func(RenderMemory) bool { return true }); found {
			return best.Worker, fmt.Sprintf("the live heap (%s) is near the soft memory limit (%s); this render's share of its growth is the largest (%s)", mib(int64(heapLive)), mib(int64(softLimit)), mib(best.Growth)), true
		}
	}
	return 0, "", false
}

// largest is the render of rs that keep accepts with the largest Growth,
// the longest running on a tie.
func largest(rs []RenderMemory, keep func(RenderMemory) bool) (RenderMemory, bool) {
	var best RenderMemory
	found := false
	for _, r := range rs {
		if keep(r) && (!found || r.Growth > best.Growth || (r.Growth == best.Growth && r.Running > best.Running)) {
			best, found = r, true
		}
	}
	return best, found
}

func mib(n int64) string { return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20)) }
