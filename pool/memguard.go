package pool

import (
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	rtmetrics "runtime/metrics"
	"sync/atomic"
	"time"

	"bext/lifecycle"
)

// ErrRenderMemory is the cause of a render interrupted by the memory
// guard: it grew the heap past [render] max_render_memory_mb, or the heap
// reached the soft memory limit while it ran longest. The request fails
// (500) and the isolate is replaced.
var ErrRenderMemory = errors.New("pool: render interrupted by the memory guard")

// guardEvery is how often the memory guard looks while renders run.
const guardEvery = 10 * time.Millisecond

// heapSample reads the live heap (as of the last GC), the heap's objects
// (live and not yet collected) and the soft memory limit.
func heapSample() (live, objects, limit uint64) {
	s := []rtmetrics.Sample{{Name: "/gc/heap/live:bytes"}, {Name: "/memory/classes/heap/objects:bytes"}}
	rtmetrics.Read(s)
	if s[0].Value.Kind() == rtmetrics.KindUint64 {
		live = s[0].Value.Uint64()
	}
	if s[1].Value.Kind() == rtmetrics.KindUint64 {
		objects = s[1].Value.Uint64()
	}
	if l := debug.SetMemoryLimit(-1); l > 0 && l < 1<<62 {
		limit = uint64(l)
	}
	return live, objects, limit
}

// renderBlame is a render in flight and its share of the live heap's
// growth so far.
type renderBlame struct {
	seq   int64
	blame float64 // bytes
}

// minForcedGC spaces the GCs the guard forces to bring the live heap up to
// date. They happen only while renders run and the heap took in more than
// half the budget since the last GC: rare for ordinary traffic, and every step
// of a string doubled in a loop, so that such a render is stopped at its
// first doubling past the budget, not many later.
const minForcedGC = 20 * time.Millisecond

// guard is the memory guard's state, owned by its goroutine.
type guard struct {
	p          *Pool
	blame      map[*worker]*renderBlame
	lastLive   uint64
	lastChange time.Time // when the live figure last changed (a GC ended)
	objectsGC  uint64    // heap objects right after the last GC seen
	lastForced time.Time
	victim     *worker // interrupted, its render not over yet
	gcRunning  atomic.Bool
}

// guardMemory runs while the pool is open. goja has no per-runtime memory
// limit and all isolates share one heap, so the guard watches the heap
// itself while renders run (never while idle). The live heap only changes
// at a GC; each change is shared among the renders in flight by how long
// each overlapped the interval since the previous change, so a render that
// allocates and keeps memory all along takes the blame, not a short one
// that happened to run at that moment. The render lifecycle.MemoryVictim
// picks is interrupted (500, isolate replaced). Renders shorter than
// guardEvery are never even seen.
func (p *Pool) guardMemory() {
	defer p.bg.Done()
	g := &guard{p: p, blame: map[*worker]*renderBlame{}}
	t := time.NewTimer(guardEvery)
	defer t.Stop()
	for {
		if p.inFlight.Load() == 0 {
			clear(g.blame)
			select {
			case <-p.closing:
				return
			case <-p.renderStarted:
			}
		}
		t.Reset(guardEvery)
		select {
		case <-p.closing:
			return
		case <-t.C:
		}
		g.check()
	}
}

// running is one render in flight at a check.
type running struct {
	w     *worker
	id    int
	since time.Duration
	b     *renderBlame
}

func (g *guard) check() {
	p := g.p
	if v := g.victim; v != nil {
		v.slot.mu.Lock()
		over := v.inFlight == 0 || v.state != lifecycle.Active
		v.slot.mu.Unlock()
		if over {
			// Its memory is garbage now: collect it at once.
			g.victim = nil
			g.forceGC()
		}
	}
	live, objects, limit := p.sample()
	now := time.Now()
	rs := g.running(now)
	if g.lastChange.IsZero() {
		g.lastLive, g.lastChange, g.objectsGC = live, now, objects
	}
	if live != g.lastLive {
		g.share(rs, int64(live)-int64(g.lastLive), now)
		g.lastLive, g.lastChange, g.objectsGC = live, now, objects
	}
	if g.pick(rs, limit) {
		return
	}
	if budget := p.opts.RenderMemoryBudget; len(rs) > 0 && int64(objects)-int64(g.objectsGC) > budget/2 && now.Sub(g.lastForced) >= minForcedGC {
		// Half the budget came into the heap since the last GC: is it kept
		// (a render to stop) or garbage? A GC tells, before the next half
		// arrives.
		g.forceGC()
		g.objectsGC = objects // the next GC needs another half budget's worth
	}
}

// running lists the renders in flight, starting a record for new ones and
// dropping the records of those that ended.
func (g *guard) running(now time.Time) []running {
	var rs []running
	seen := map[*worker]bool{}
	for _, s := range g.p.slots {
		s.mu.Lock()
		for _, w := range []*worker{s.cur, s.old} {
			if w == nil || w.inFlight == 0 || w.memInterrupted {
				continue
			}
			seq := w.served + 1
			b := g.blame[w]
			if b == nil || b.seq != seq {
				b = &renderBlame{seq: seq}
				g.blame[w] = b
			}
			seen[w] = true
			rs = append(rs, running{w: w, id: s.id, since: now.Sub(w.renderStart), b: b})
		}
		s.mu.Unlock()
	}
	for w := range g.blame {
		if !seen[w] {
			delete(g.blame, w)
		}
	}
	return rs
}

// share spreads a change of the live heap over the renders in flight, by
// how long each overlapped the interval since the previous change.
func (g *guard) share(rs []running, delta int64, now time.Time) {
	interval := now.Sub(g.lastChange)
	var total float64
	overlap := make([]float64, len(rs))
	for k, r := range rs {
		o := min(r.since, interval)
		overlap[k] = float64(max(o, time.Microsecond))
		total += overlap[k]
	}
	for k, r := range rs {
		r.b.blame += float64(delta) * overlap[k] / total
	}
}

// pick interrupts the render lifecycle.MemoryVictim picks, if any.
func (g *guard) pick(rs []running, limit uint64) bool {
	p := g.p
	mem := make([]lifecycle.RenderMemory, len(rs))
	for k, r := range rs {
		mem[k] = lifecycle.RenderMemory{Worker: k, Running: r.since, Growth: int64(r.b.blame)}
	}
	// Twice the budget: the built-ins that allocate in bulk already stop at
	// the budget (engine), and a share is an estimate — the guard is for
	// what grows the heap in small pieces, and must not stop a render that
	// only ran beside the one that did.
	k, why, ok := lifecycle.MemoryVictim(mem, 2*p.opts.RenderMemoryBudget, g.lastLive, limit)
	if !ok {
		return false
	}
	r := rs[k]
	r.w.slot.mu.Lock()
	r.w.memInterrupted = true
	r.w.slot.mu.Unlock()
	p.metrics.memInterrupts.Inc()
	p.log.Warn("interrupting a render: "+why, "worker", r.id, "generation", r.w.gen, "running", r.since.Round(time.Millisecond))
	r.w.interrupt(fmt.Errorf("%w: %s", ErrRenderMemory, why))
	if g.victim == nil {
		g.victim = r.w
	}
	return true
}

// forceGC starts a GC without waiting for it (a full cycle of a big heap
// takes long, and the guard must keep watching meanwhile); the live figure
// changes when it ends. One at a time.
func (g *guard) forceGC() {
	g.lastForced = time.Now()
	if g.p.opts.heapGC != nil {
		g.p.opts.heapGC()
		return
	}
	if g.gcRunning.CompareAndSwap(false, true) {
		go func() {
			defer g.gcRunning.Store(false)
			runtime.GC()
		}()
	}
}

func (p *Pool) sample() (live, objects, limit uint64) {
	if p.opts.heapSample != nil {
		return p.opts.heapSample()
	}
	return heapSample()
}
