package main

import (
	"bext/internal/loadgen"
	"context"
	"fmt"
	"io"
	"log/slog"
	"time"

	"bext/engine"
	"bext/lifecycle"
	"bext/pool"
)

// startPool boots a bext worker pool on the bundle and renders through
// pool.Render: dispatch and isolates, no HTTP. Rotation is off so the run
// measures rendering and dispatch only.
func startPool(ctx context.Context, name string, b *engine.Bundle, workers, conns int) (*target, error) {
	prog, err := engine.Compile("server.js", b.Code)
	if err != nil {
		return nil, err
	}
	factory := func(id int) (pool.Isolate, error) {
		return engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: quiet})
	}
	p := pool.New(factory, pool.Options{
		Policy:        lifecycle.Policy{Workers: workers, DrainTimeout: 5 * time.Second, Recovery: lifecycle.DefaultPolicy().Recovery},
		RenderTimeout: 30 * time.Second,
		QueueTimeout:  time.Minute, // the load generator bounds the queue, not the pool
		MemoryCheck:   -1,
		Log:           quiet,
	})
	wctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := p.WaitActive(wctx, workers); err != nil {
		p.Close()
		return nil, fmt.Errorf("workers did not boot: %w", err)
	}
	page := func(path string) (loadgen.Loops, error) {
		req := pageRequest(path)
		return loadgen.Same(func(ctx context.Context) (int, error) {
			resp, _, err := p.Render(ctx, req)
			if err != nil {
				return 0, err
			}
			if resp.Status != 200 {
				return 0, fmt.Errorf("render %s: status %d", path, resp.Status)
			}
			return len(resp.HTML), nil
		}), nil
	}
	return &target{name: name, conns: conns, page: page, stop: p.Close}, nil
}

// quiet drops the pool's transition logs and the app's console output,
// which would interleave with the report.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// pageRequest is the request bext's HTTP layer would pass for page.
func pageRequest(page string) *engine.Request {
	r := engine.NewRequest("GET", page)
	r.Headers["accept"], r.Headers["host"] = "text/html", "127.0.0.1"
	return r
}
