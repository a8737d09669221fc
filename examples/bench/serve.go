package main

import (
	"bext/internal/loadgen"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"bext/config"
	"bext/engine"
	"bext/lifecycle"
	"bext/pool"
	"bext/render"
)

// startServe serves the bundle the way `bext serve` does: a worker pool with
// the default lifecycle policy (rotation, memory monitor) and workers slots,
// render.Server's handler with the default [server] settings (access log,
// gzip for clients that ask, static files from public/), and an http.Server
// with the default timeouts on a free loopback port. The load generator then
// requests pages over keep-alive connections.
//
// Two settings differ from the defaults, because the load generator bounds
// the queue, not the server: queue_timeout is a minute, not a second (the
// stock sink renders the large page in about a second per request, so a
// one-second queue would turn waiting into 503s), and render_timeout is 30 s.
// Logs (the access log included) are written, to io.Discard.
func startServe(name, dir string, b *engine.Bundle, workers, conns int) (*target, error) {
	prog, err := engine.Compile("server.js", b.Code)
	if err != nil {
		return nil, err
	}
	factory := func(id int) (pool.Isolate, error) {
		return engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: quiet})
	}
	pol := lifecycle.DefaultPolicy()
	pol.Workers = workers
	def := config.Default()
	p := pool.New(factory, pool.Options{
		Policy:        pol,
		RenderTimeout: 30 * time.Second,
		QueueTimeout:  time.Minute,
		Log:           quiet,
	})
	wctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.WaitActive(wctx, workers); err != nil {
		p.Close()
		return nil, fmt.Errorf("workers did not boot: %w", err)
	}
	srv, err := render.New(p, render.Options{
		PublicDir:    filepath.Join(dir, def.App.PublicDir),
		Gzip:         def.Server.Gzip,
		MaxBodyBytes: def.Server.MaxBodyBytes,
		QueueTimeout: time.Minute,
		AccessLog:    def.Server.AccessLog,
		Log:          quiet,
	})
	if err != nil {
		p.Close()
		return nil, err
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		p.Close()
		return nil, err
	}
	ms := func(n int) time.Duration { return time.Duration(n) * time.Millisecond }
	hs := &http.Server{
		Handler:           srv.Handler(),
		ReadHeaderTimeout: ms(def.Server.ReadHeaderTimeoutMS),
		ReadTimeout:       ms(def.Server.ReadTimeoutMS),
		WriteTimeout:      ms(def.Server.WriteTimeoutMS),
		IdleTimeout:       ms(def.Server.IdleTimeoutMS),
		MaxHeaderBytes:    def.Server.MaxHeaderBytes,
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	stop := func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		_ = hs.Shutdown(ctx)
		if err := <-served; err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(os.Stderr, "bench: %s: serve: %v\n", name, err)
		}
		p.Close()
	}
	base := "http://" + ln.Addr().String()
	page := func(path string) (loadgen.Loops, error) {
		do, err := loadgen.HTTPGet(base+path, conns)
		if err != nil {
			return nil, err
		}
		return loadgen.Same(do), nil
	}
	return &target{name: name, conns: conns, page: page, stop: stop}, nil
}
