package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"bext/config"
	"bext/engine"
	"bext/internal/app"
	"bext/internal/loadgen"
)

// startServe serves the bundle the way `bext serve` does, through the same
// assembly (app.Start): the app's config.toml with its lifecycle policy and
// [server] settings (access log, gzip for clients that ask, static files,
// http.Server timeouts) on a free loopback port, with workers slots. The
// load generator then requests pages over keep-alive connections.
//
// Two settings differ from the config, because the load generator bounds
// the queue, not the server: queue_timeout is a minute, not a second (the
// stock sink renders the large page in about a second per request, so a
// one-second queue would turn waiting into 503s), and render_timeout is 30 s.
// Logs (the access log included) are written, to io.Discard.
func startServe(name, dir string, b *engine.Bundle, workers, conns int) (*target, error) {
	cfg, err := config.Load(filepath.Join(dir, "config.toml"))
	if err != nil {
		return nil, err
	}
	cfg.Server.Addr, cfg.Admin.Addr = "127.0.0.1:0", "127.0.0.1:0"
	cfg.Render.JSCWorkers = workers
	cfg.Render.QueueTimeoutMS = 60_000
	cfg.Render.RenderTimeoutMS = 30_000
	inst, err := app.Start(context.Background(), cfg, app.Options{Log: quiet, Out: io.Discard, Bundle: app.ServerBundle("server.js", b.Code)})
	if err != nil {
		return nil, err
	}
	stop := func() {
		if err := inst.Stop(); err != nil {
			fmt.Fprintf(os.Stderr, "bench: %s: serve: %v\n", name, err)
		}
	}
	base := "http://" + inst.Addr()
	page := func(path string) (loadgen.Loops, error) {
		do, err := loadgen.HTTPGet(base+path, conns)
		if err != nil {
			return nil, err
		}
		return loadgen.Same(do), nil
	}
	return &target{name: name, conns: conns, page: page, stop: stop}, nil
}
