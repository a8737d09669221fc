// Command leaky-demo shows max_memory_mb at work on examples/leaky, whose
// every render keeps ~100 KB in a closure. It renders the app -n times
// through a bext worker pool twice — with max_memory_mb = -max-memory-mb,
// then with it 0 (rotation off) — and prints the process's live heap (after
// a full GC) every -every requests. Run from the repository root:
//
//	scripts/leaky-demo.sh                # 20,000 requests per run
//	go run ./examples/leaky/cmd/leaky-demo -n 5000 -max-memory-mb 16
//
// With rotation the live heap stays near workers × max_memory_mb; without
// it grows by ~100 KB per request (about 2 GB over 20,000 requests).
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"bext/engine"
	"bext/lifecycle"
	"bext/pool"
)

func main() {
	n := flag.Int("n", 20000, "requests per run")
	every := flag.Int("every", 2000, "print the live heap every N requests")
	workers := flag.Int("workers", 2, "jsc_workers")
	maxMB := flag.Int64("max-memory-mb", 32, "max_memory_mb of the run with rotation")
	check := flag.Duration("check", 25*time.Millisecond, "memory_check_ms (short, because renders here take microseconds)")
	dir := flag.String("app", "examples/leaky", "folder of the leaky app")
	flag.Parse()
	if err := run(*dir, *n, *every, *workers, *maxMB, *check); err != nil {
		fmt.Fprintln(os.Stderr, "leaky-demo:", err)
		os.Exit(1)
	}
}

func run(dir string, n, every, workers int, maxMB int64, check time.Duration) error {
	dir, err := filepath.Abs(dir)
	if err != nil {
		return err
	}
	b, err := engine.BuildServer(engine.BuildOptions{Dir: dir, Entry: "server.js"})
	if err != nil {
		return fmt.Errorf("build %s: %w", filepath.Join(dir, "server.js"), err)
	}
	prog, err := engine.Compile("server.js", b.Code)
	if err != nil {
		return err
	}
	fmt.Printf("examples/leaky: %d requests per run, %d workers, memory check every %v\n", n, workers, check)
	fmt.Printf("%10s  %28s  %22s\n", "requests", fmt.Sprintf("max_memory_mb=%d: live heap", maxMB), "max_memory_mb=0: live heap")
	on, err := measure(prog, n, every, workers, maxMB, check)
	if err != nil {
		return err
	}
	off, err := measure(prog, n, every, workers, 0, check)
	if err != nil {
		return err
	}
	for i := range on {
		fmt.Printf("%10d  %14.1f MB (%4d rotations)  %19.1f MB\n", (i+1)*every, on[i].mb, on[i].rotations, off[i].mb)
	}
	return nil
}

type sample struct {
	mb        float64
	rotations int
}

// measure renders n requests on a fresh pool and samples the live heap
// every `every` requests.
func measure(prog *engine.Program, n, every, workers int, maxMB int64, check time.Duration) ([]sample, error) {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	pol := lifecycle.DefaultPolicy()
	pol.Workers, pol.MaxRequests, pol.MaxUptime, pol.MaxMemoryBytes = workers, 0, 0, maxMB<<20
	p := pool.New(func(id int) (pool.Isolate, error) {
		return engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: quiet})
	}, pool.Options{Policy: pol, MemoryCheck: check, QueueTimeout: time.Minute, Log: quiet})
	defer p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.WaitActive(ctx, workers); err != nil {
		return nil, err
	}
	base := liveHeap()
	var out []sample
	for done := 0; done < n; done += every {
		end := min(done+every, n)
		var wg sync.WaitGroup
		var failed atomic.Value
		for g := range 4 {
			wg.Go(func() {
				for k := done + g; k < end; k += 4 {
					path := fmt.Sprintf("/page/%d", k)
					if _, _, err := p.Render(context.Background(), engine.NewRequest("GET", path)); err != nil {
						failed.Store(err)
						return
					}
				}
			})
		}
		wg.Wait()
		if err, _ := failed.Load().(error); err != nil {
			return nil, err
		}
		rot := 0
		for _, st := range p.Snapshot() {
			rot += st.Restarts
		}
		out = append(out, sample{mb: float64(liveHeap()-base) / (1 << 20), rotations: rot})
	}
	return out, nil
}

func liveHeap() int64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}
