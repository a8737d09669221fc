package main

import (
	"bext/internal/loadgen"
	"context"
	"fmt"

	"bext/engine"
)

// startDirect boots workers isolates from the bundle and gives each closed
// loop its own: one goroutine per isolate rendering in a tight loop, with no
// pool, dispatch or HTTP in between. This is the limit bext's serving path
// is measured against (b/a).
func startDirect(name string, b *engine.Bundle, workers int) (*target, error) {
	prog, err := engine.Compile("server.js", b.Code)
	if err != nil {
		return nil, err
	}
	isos := make([]*engine.Isolate, 0, workers)
	stop := func() {
		for _, iso := range isos {
			iso.Close()
		}
	}
	for id := range workers {
		iso, err := engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: quiet})
		if err != nil {
			stop()
			return nil, fmt.Errorf("boot isolate %d: %w", id, err)
		}
		isos = append(isos, iso)
	}
	page := func(path string) (loadgen.Loops, error) {
		req := pageRequest(path)
		return func(i int) loadgen.Do {
			iso := isos[i%len(isos)] // conns = workers, so one loop per isolate
			return func(ctx context.Context) (int, error) {
				resp, err := iso.Render(ctx, req)
				if err != nil {
					return 0, err
				}
				if resp.Status != 200 {
					return 0, fmt.Errorf("render %s: status %d", path, resp.Status)
				}
				return len(resp.HTML), nil
			}
		}, nil
	}
	return &target{name: name, conns: workers, page: page, stop: stop}, nil
}
