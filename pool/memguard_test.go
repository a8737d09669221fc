package pool

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"bext/engine"
)

// fakeHeap is the heap the memory guard sees in a test.
type fakeHeap struct{ live, objects, limit atomic.Uint64 }

func (h *fakeHeap) sample() (uint64, uint64, uint64) {
	return h.live.Load(), h.objects.Load(), h.limit.Load()
}

// The live heap grows by more than the budget while a long render runs
// beside others: the guard interrupts the longest-running render (500:
// ErrRenderMemory, isolate replaced); once its memory is collected the
// others — one that overlapped the growth, one that started after — finish.
// Fake time, fake heap.
func TestMemoryGuardInterruptsTheOffender(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const mb = 1 << 20
		h := &fakeHeap{}
		h.live.Store(100 * mb)
		h.objects.Store(150 * mb)
		h.limit.Store(4096 * mb)
		gcs := 0
		p := newPool(t, factoryOf(t, slowJS), Options{Policy: testPolicy(3), RenderTimeout: time.Hour, QueueTimeout: time.Hour,
			RenderMemoryBudget: 64 * mb, heapSample: h.sample, heapGC: func() { gcs++; h.live.Store(100 * mb) }})
		if err := p.WaitActive(context.Background(), 3); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		errs := make([]error, 3)
		start := func(k int, ms string) {
			wg.Go(func() { _, _, errs[k] = get(p, "/", map[string]string{"ms": ms}) })
		}
		start(0, "60000") // the offender: starts first, runs longest
		time.Sleep(4 * time.Second)
		start(1, "20000") // overlaps the growth
		time.Sleep(time.Second)
		h.live.Store(300 * mb) // +200 MB: the offender's share (5/6) is over twice the 64 MB budget
		time.Sleep(time.Second)
		start(2, "1000") // starts after the growth
		wg.Wait()
		var re *engine.RenderError
		if !errors.As(errs[0], &re) || !errors.Is(errs[0], ErrRenderMemory) {
			t.Fatalf("the longest render: %v, want interrupted by the memory guard", errs[0])
		}
		if errs[1] != nil || errs[2] != nil {
			t.Fatalf("the other renders: %v, %v; want both to finish", errs[1], errs[2])
		}
		if gcs != 1 {
			t.Fatalf("%d GCs forced, want one after the interrupted render ended", gcs)
		}
		var replaced int
		for _, w := range p.Snapshot() {
			replaced += w.Restarts
		}
		if replaced != 1 {
			t.Fatalf("%d isolates replaced, want the interrupted one", replaced)
		}
	})
}

// When the live heap nears the soft memory limit the guard interrupts the
// render with the largest share of its growth even when none is over the
// budget.
func TestMemoryGuardAtTheSoftLimit(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const mb = 1 << 20
		h := &fakeHeap{}
		h.live.Store(100 * mb)
		h.objects.Store(100 * mb)
		h.limit.Store(1000 * mb)
		p := newPool(t, factoryOf(t, slowJS), Options{Policy: testPolicy(2), RenderTimeout: time.Hour, QueueTimeout: time.Hour,
			RenderMemoryBudget: 512 * mb, heapSample: h.sample, heapGC: func() { h.live.Store(100 * mb) }})
		if err := p.WaitActive(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		var long, short error
		wg.Go(func() { _, _, long = get(p, "/", map[string]string{"ms": "60000"}) })
		time.Sleep(time.Second)
		wg.Go(func() { _, _, short = get(p, "/", map[string]string{"ms": "5000"}) })
		time.Sleep(time.Second)
		h.live.Store(950 * mb) // a GC found this much live
		wg.Wait()
		if !errors.Is(long, ErrRenderMemory) || short != nil {
			t.Fatalf("long %v, short %v; want the long one interrupted, the short one done", long, short)
		}
	})
}
