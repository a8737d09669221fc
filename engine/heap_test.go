package engine

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// heapLeakApp keeps what each render asks for in a closure of the module
// scope (esbuild's IIFE), not on globalThis: ?n=N adds N strings of ~10 KB.
const heapLeakApp = `
const keep = (() => {
  const kept = [];
  return (n) => {
    for (let i = 0; i < n; i++) kept.push("x".repeat(10000) + i);
    return kept.length;
  };
})();
export default function render(req) {
  return "<p>" + keep(Number(req.query.n || 0)) + "</p>";
}
`

func heapLeakProgram(t *testing.T) *Program {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "server.js"), []byte(heapLeakApp), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := BuildServer(BuildOptions{Dir: dir, Entry: "server.js"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile("server.js", b.Code)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// leakIsolate boots an isolate of p and renders ?n=n once.
func leakIsolate(t *testing.T, p *Program, n int) *Isolate {
	t.Helper()
	iso, err := NewIsolate(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(iso.Close)
	q := map[string]string{"n": fmt.Sprint(n)}
	resp, err := iso.Render(context.Background(), &Request{Method: "GET", URL: "/?n=" + q["n"], Path: "/", Query: q, Headers: map[string]string{}})
	if err != nil {
		t.Fatal(err)
	}
	if want := fmt.Sprintf("<p>%d</p>", n); !strings.Contains(resp.HTML, want) {
		t.Fatalf("render returned %q, want %q", resp.HTML, want)
	}
	return iso
}

func heapNear(got, want int64, frac float64) bool {
	d := float64(got - want)
	return d <= frac*float64(want) && -d <= frac*float64(want)
}

func TestHeapBytesAttributesClosureLeak(t *testing.T) {
	p := heapLeakProgram(t)
	fresh := leakIsolate(t, p, 0).HeapBytes()
	leaky := leakIsolate(t, p, 800).HeapBytes()
	const want = 8_000_000
	t.Logf("fresh isolate %d B, after retaining 800×10 KB %d B: +%d B (%+.1f%%)",
		fresh, leaky, leaky-fresh, 100*float64(leaky-fresh-want)/want)
	if fresh <= 0 {
		t.Fatalf("fresh isolate HeapBytes = %d, want > 0", fresh)
	}
	if !heapNear(leaky-fresh, want, 0.20) {
		t.Errorf("attributed growth %d B, want 8 MB ±20%%", leaky-fresh)
	}
}

// TestHeapBytesSumMatchesProcessHeap boots several isolates, each retaining
// ~4 MB, and compares the sum of their HeapBytes with the growth of the
// process heap over the same period. The signal is large because the heap
// also moves for reasons outside the isolates (esbuild's goroutines release
// memory for a while after a build returns).
func TestHeapBytesSumMatchesProcessHeap(t *testing.T) {
	p := heapLeakProgram(t)
	warm := leakIsolate(t, p, 400)
	warm.HeapBytes() // build the shared walker and size its tables before measuring
	m0 := heapAllocAfterGC()
	isos := make([]*Isolate, 4)
	for k := range isos {
		isos[k] = leakIsolate(t, p, 400)
	}
	m1 := heapAllocAfterGC()
	var sum int64
	for _, iso := range isos {
		sum += iso.HeapBytes()
	}
	heap := m1 - m0
	t.Logf("%d isolates: HeapBytes sum %d B, HeapAlloc grew %d B (%+.1f%%)", len(isos), sum, heap, 100*float64(sum-heap)/float64(heap))
	if !heapNear(sum, heap, 0.25) {
		t.Errorf("HeapBytes sum %d B not within 25%% of heap growth %d B", sum, heap)
	}
	runtime.KeepAlive(warm)
}

// heapAllocAfterGC returns HeapAlloc after two collections (the second
// frees what sync.Pool victim caches kept through the first).
func heapAllocAfterGC() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func TestHeapBytesOfClosedIsolateIsZero(t *testing.T) {
	iso := leakIsolate(t, heapLeakProgram(t), 1)
	if iso.HeapBytes() <= 0 {
		t.Fatal("live isolate reports no heap")
	}
	iso.Close()
	if got := iso.HeapBytes(); got != 0 {
		t.Fatalf("closed isolate HeapBytes = %d, want 0", got)
	}
}
