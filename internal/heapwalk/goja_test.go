package heapwalk

import (
	"fmt"
	"runtime"
	"testing"

	"github.com/dop251/goja"
)

// These tests measure the walker on real goja runtimes, the way bext uses
// it: the compiled program is excluded as shared, and what one runtime
// retains in a closure (not on globalThis) must be attributed to it.

// leakyRuntime runs src (which defines a global function leak) in a fresh
// runtime and returns it with a walker that excludes the compiled program.
func leakyRuntime(t testing.TB, src string) (*goja.Runtime, goja.Callable, *Walker) {
	t.Helper()
	prog, err := goja.Compile("leak.js", src, false)
	if err != nil {
		t.Fatal(err)
	}
	rt := goja.New()
	if _, err := rt.RunProgram(prog); err != nil {
		t.Fatal(err)
	}
	leak, ok := goja.AssertFunction(rt.Get("leak"))
	if !ok {
		t.Fatal("leak is not a function")
	}
	w := New()
	w.Exclude(prog)
	return rt, leak, w
}

const closureLeak = `
var leak = (function () {
	var kept = [];
	return function (n, chunk) {
		for (let i = 0; i < n; i++) kept.push(chunk.repeat(%d) + i);
		return kept.length;
	};
})();`

func TestClosureRetainedStringsAreAttributed(t *testing.T) {
	for _, c := range []struct {
		name  string
		chunk string
		rep   int // 800 strings of about 10 KB each: 8 MB either way
	}{
		{"ascii", "x", 10000},
		{"unicode", "é", 5000}, // goja stores it as []uint16
	} {
		t.Run(c.name, func(t *testing.T) {
			fresh := goja.New()
			base, _ := New().Size(fresh)

			rt, leak, w := leakyRuntime(t, fmt.Sprintf(closureLeak, c.rep))
			if _, err := leak(goja.Undefined(), rt.ToValue(800), rt.ToValue(c.chunk)); err != nil {
				t.Fatal(err)
			}
			got, objs := w.Size(rt)
			attributed := got - base
			const want = 8_000_000
			t.Logf("fresh runtime %d B; leaky runtime %d B in %d objects; attributed %d B for %d B retained (%+.1f%%)",
				base, got, objs, attributed, want, 100*float64(attributed-want)/want)
			if !within(attributed, want, 0.20) {
				t.Errorf("attributed %d B, want 8 MB ±20%%", attributed)
			}
		})
	}
}

// TestGrowthMatchesHeapAlloc leaks about 1 KB per call for 2000 calls (the
// DESIGN's 2 MB per 2000 renders) and compares the walker's growth with the
// process heap's.
func TestGrowthMatchesHeapAlloc(t *testing.T) {
	rt, leak, w := leakyRuntime(t, fmt.Sprintf(closureLeak, 1000))
	call := func() {
		if _, err := leak(goja.Undefined(), rt.ToValue(1), rt.ToValue("y")); err != nil {
			t.Fatal(err)
		}
	}
	for range 50 { // grow goja's stacks and caches before measuring
		call()
	}
	w.Size(rt) // size the walker's own tables before the first heap reading
	m0 := heapAlloc()
	s0, _ := w.Size(rt)
	for range 2000 {
		call()
	}
	m1 := heapAlloc()
	s1, _ := w.Size(rt)

	walked, heap := s1-s0, m1-m0
	t.Logf("2000 calls: walker grew %d B, HeapAlloc grew %d B (%+.1f%%)", walked, heap, 100*float64(walked-heap)/float64(heap))
	if !within(walked, heap, 0.10) {
		t.Errorf("walker growth %d B not within 10%% of heap growth %d B", walked, heap)
	}
	runtime.KeepAlive(rt)
}

// BenchmarkSize reports the walk's cost per MB attributed, for a heap of
// big strings and for a heap of many small JS objects (the expensive case).
func BenchmarkSize(b *testing.B) {
	for _, c := range []struct{ name, src string }{
		{"strings8MB", fmt.Sprintf(closureLeak, 10000) + `leak(800, "x");`},
		{"objects", `var leak = (function () {
			var kept = [];
			for (let i = 0; i < 50000; i++) kept.push({id: i, name: "n" + i, tags: [i, i + 1]});
			return function () { return kept.length };
		})();`},
	} {
		b.Run(c.name, func(b *testing.B) {
			rt, _, w := leakyRuntime(b, c.src)
			bytes, objs := w.Size(rt)
			for b.Loop() {
				w.Size(rt)
			}
			mb := float64(bytes) / (1 << 20)
			b.ReportMetric(mb, "MB")
			b.ReportMetric(float64(objs), "objects")
			b.ReportMetric(b.Elapsed().Seconds()*1000/float64(b.N)/mb, "ms/MB")
		})
	}
}
