package engine

import (
	"runtime"
	"sync"
	"weak"

	"bext/internal/heapwalk"
)

// HeapBytes returns the Go heap attributed to this isolate, in bytes: every
// heap allocation reachable from its goja runtime (globals, and the module
// scope and closures of the bundle), rounded the way the Go allocator rounds
// them, minus what all isolates of the Program share: the compiled bundle and
// the compiled prelude, with everything reachable only through them (code,
// string constants, source text). See package heapwalk for what a walk
// counts and what it cannot see: Go func values are opaque, so the host
// functions' Go closures, goja's queue of pending promise jobs, and the
// Go-side console ring and timer queue are not counted. Conversely about
// 11 KB of goja's package-level builtin tables, shared by all runtimes, are
// counted in every isolate: a constant, so growth is unaffected.
//
// Concurrency contract: call it only while no render runs on the isolate, as
// the pool's memory check does by checking the worker out. The walk reads
// the runtime's memory without locks; a concurrent render makes the result
// meaningless and is a data race. Walks of isolates of the same Program are
// serialised (they share one walker), so calling it from several goroutines
// for different idle isolates is safe.
//
// A closed isolate, or one whose abandoned render may still be running,
// reports 0.
func (i *Isolate) HeapBytes() int64 {
	if i.closed || i.rt == nil || (i.dead != nil && i.dead.Kind == KindAbandoned) {
		return 0
	}
	h := heapWalkerFor(i.prog)
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.w == nil {
		h.w = heapwalk.New()
		h.w.Exclude(i.prog.prog, prelude())
	}
	n, _ := h.w.Size(i.rt)
	return n
}

// programWalker is the walker for one Program's isolates. Its excluded set
// (the shared program) is built once; its visited set is reused by every walk.
type programWalker struct {
	mu sync.Mutex
	w  *heapwalk.Walker
}

// heapWalkers maps weak.Pointer[Program] to *programWalker. The key is weak
// and the entry is deleted when the Program is collected, so rebuilt bundles
// do not pile up walkers. The walker holds no pointer into the program (its
// sets are keyed by address), so the entry does not keep the Program alive;
// while any isolate can ask, the isolate keeps the Program, and so the
// addresses in the excluded set, alive.
var heapWalkers sync.Map

func heapWalkerFor(p *Program) *programWalker {
	key := weak.Make(p)
	if h, ok := heapWalkers.Load(key); ok {
		return h.(*programWalker)
	}
	h, loaded := heapWalkers.LoadOrStore(key, &programWalker{})
	if !loaded {
		runtime.AddCleanup(p, func(k weak.Pointer[Program]) { heapWalkers.Delete(k) }, key)
	}
	return h.(*programWalker)
}
