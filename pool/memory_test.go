package pool

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"bext/engine"
	"bext/lifecycle"
)

// Both programs allocate a fresh ~100 KB string per render and then wait
// ?ms= milliseconds (a timer, so fake time under synctest). leakJS keeps the
// string in a closure of an IIFE (like an esbuild bundle's module scope);
// holdJS drops it when the render ends.
const (
	leakJS = `(() => {
		const kept = [];
		globalThis.render = async (req) => {
			kept.push("x".repeat(100 * 1024) + req.url);
			await new Promise(r => setTimeout(r, Number(req.query.ms || 0)));
			return "<p>kept " + kept.length + "</p>";
		};
	})();`
	holdJS = `(() => {
		globalThis.render = async (req) => {
			const s = "x".repeat(100 * 1024) + req.url;
			await new Promise(r => setTimeout(r, Number(req.query.ms || 0)));
			return "<p>held " + s.length + "</p>";
		};
	})();`
)

// watched wraps a real isolate and records a memory walk that runs while a
// render is in progress on it: the pool promises that never happens.
type watched struct {
	Isolate
	rendering atomic.Bool
	walks     *atomic.Int64
	overlaps  *atomic.Int64
}

func (w *watched) Render(ctx context.Context, req *engine.Request) (*engine.Response, error) {
	w.rendering.Store(true)
	defer w.rendering.Store(false)
	return w.Isolate.Render(ctx, req)
}

func (w *watched) HeapBytes() int64 {
	if w.rendering.Load() {
		w.overlaps.Add(1)
	}
	w.walks.Add(1)
	return w.Isolate.HeapBytes()
}

// TestMaxMemoryRotation: slots 0 and 1 run a leaking program, slot 2 a
// clean one, all under the same traffic (every round sends one request to
// each worker). The leaking workers rotate for max_memory, surge-first and
// one at a time; the clean one never rotates; Snapshot reports current and
// peak memory; and no walk ever runs during a render, even when a render
// spans the monitor's tick.
func TestMaxMemoryRotation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		leak, hold := factoryOf(t, leakJS), factoryOf(t, holdJS)
		var walks, overlaps atomic.Int64
		f := func(id int) (Isolate, error) {
			g := hold
			if id < 2 {
				g = leak
			}
			iso, err := g(id)
			if err != nil {
				return nil, err
			}
			return &watched{Isolate: iso, walks: &walks, overlaps: &overlaps}, nil
		}
		base, err := hold(0)
		if err != nil {
			t.Fatal(err)
		}
		baseBytes := base.HeapBytes() // a fresh isolate, before any render
		base.Close()

		const check, step = 100 * time.Millisecond, 7 * time.Millisecond
		pol := testPolicy(3)
		pol.MaxMemoryBytes = baseBytes + 2<<20 // crossed after ~20 leaking renders
		rec := &recorder{}
		p := newPool(t, f, Options{Policy: pol, MemoryCheck: check, Observe: rec.observe})
		if err := p.WaitActive(context.Background(), 3); err != nil {
			t.Fatal(err)
		}
		// WaitActive can return before the last boot's event is recorded
		// (a worker is ACTIVE before its observer runs): let it land first.
		synctest.Wait()
		start, booted := time.Now(), len(rec.list())

		// round sends one request per worker: each render takes step of fake
		// time, so three concurrent requests occupy three distinct workers.
		var failed atomic.Int64
		round := func(ms time.Duration) {
			var wg sync.WaitGroup
			for k := range 3 {
				wg.Go(func() {
					q := map[string]string{"ms": fmt.Sprint(ms.Milliseconds())}
					if _, _, err := get(p, fmt.Sprintf("/r/%d", k), q); err != nil {
						failed.Add(1)
						t.Errorf("request failed: %v", err)
					}
				})
			}
			wg.Wait()
		}

		// Rounds 0..14 cover [0, 105ms): the first tick (100ms) falls inside
		// round 14, so the monitor must wait for those renders to end.
		for range 15 {
			round(step)
		}
		synctest.Wait()
		st := p.Snapshot()
		for _, s := range st {
			if s.Generation != 1 || s.CurrentMemoryBytes <= 0 || s.PeakMemoryBytes < s.CurrentMemoryBytes {
				t.Fatalf("after the first check: worker %d %+v, want generation 1 with current and peak memory", s.ID, s)
			}
		}
		for _, id := range []int{0, 1} {
			grown := st[id].CurrentMemoryBytes - st[2].CurrentMemoryBytes
			if grown < 14*100<<10 || grown > 17*120<<10 {
				t.Errorf("worker %d holds %d B more than the clean worker after 15 leaking renders, want ~1.5 MB", id, grown)
			}
		}
		if walks.Load() < 3 {
			t.Fatalf("%d walks after the first tick, want one per worker", walks.Load())
		}

		// A render that spans two ticks: the walk waits for it.
		round(2*check + step)
		for time.Since(start) < 1200*time.Millisecond {
			round(step)
		}
		synctest.Wait()

		if n := overlaps.Load(); n != 0 {
			t.Errorf("%d memory walks ran during a render", n)
		}
		if n := failed.Load(); n != 0 {
			t.Errorf("%d requests failed during memory rotations", n)
		}
		st = p.Snapshot()
		for _, id := range []int{0, 1} {
			if st[id].Restarts < 3 || st[id].LastRotationReason != "max_memory" {
				t.Errorf("leaking worker %d: %d restarts, last reason %q; want several max_memory rotations in 1.2s",
					id, st[id].Restarts, st[id].LastRotationReason)
			}
			if st[id].PeakMemoryGenerationBytes > pol.MaxMemoryBytes+1<<20 {
				t.Errorf("leaking worker %d peaked at %d B, limit %d: the check should catch it within ~1 MB of growth",
					id, st[id].PeakMemoryGenerationBytes, pol.MaxMemoryBytes)
			}
		}
		if s := st[2]; s.Restarts != 0 || s.Generation != 1 || s.CurrentMemoryBytes <= 0 || s.CurrentMemoryBytes > baseBytes+1<<20 {
			t.Errorf("clean worker: %+v; want never rotated, memory measured and near a fresh isolate's %d B", s, baseBytes)
		}

		// Surge-first and one at a time, from the recorded transitions.
		draining, rotations := 0, 0
		for _, e := range rec.list()[booted:] {
			if e.To == lifecycle.Draining {
				draining++
				rotations++
				if e.Reason != lifecycle.ReasonMaxMemory || e.Worker == 2 {
					t.Errorf("worker %d drained for %q, want only workers 0 and 1 for max_memory", e.Worker, e.Reason)
				}
			}
			if e.From == lifecycle.Draining {
				draining--
			}
			if draining > 1 {
				t.Errorf("two workers draining at once at %v", e.At)
			}
			if e.ActiveWorkers < 3 {
				t.Errorf("only %d ACTIVE workers after %s→%s of worker %d: rotation is not surge-first", e.ActiveWorkers, e.From, e.To, e.Worker)
			}
		}
		if rotations != st[0].Restarts+st[1].Restarts {
			t.Errorf("%d drains recorded, %d restarts reported", rotations, st[0].Restarts+st[1].Restarts)
		}
		t.Logf("fresh isolate %d B; limit %d B; restarts %d/%d/%d; %d walks", baseBytes, pol.MaxMemoryBytes,
			st[0].Restarts, st[1].Restarts, st[2].Restarts, walks.Load())
	})
}
