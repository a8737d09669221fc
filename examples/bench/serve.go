package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"

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
// Logs (the access log included) are written, to io.Discard. The cached
// target adds a [[cache.rule]] caching every page.
func startServe(name, dir string, b *engine.Bundle, workers, conns int) (*target, error) {
	cfg, err := config.Load(filepath.Join(dir, "config.toml"))
	if err != nil {
		return nil, err
	}
	cfg.Server.Addr, cfg.Admin.Addr = "127.0.0.1:0", "127.0.0.1:0"
	cfg.Render.JSCWorkers = workers
	cfg.Render.QueueTimeoutMS = 60_000
	cfg.Render.RenderTimeoutMS = 30_000
	if name == "cached" {
		// The React example sends no caching headers; a rule caches every
		// page for an hour, so the load measures fresh hits.
		cfg.Cache.Enabled = true
		cfg.Cache.Rules = []config.CacheRule{{Path: "/**", MaxAge: 3600}}
	}
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

// startBare serves each page's bytes, rendered once, from a plain
// net/http handler on a loopback port: what serving a page from memory
// costs with nothing of bext in the way (the limit of the cached target).
func startBare(name string, b *engine.Bundle, conns int) (*target, error) {
	prog, err := engine.Compile("server.js", b.Code)
	if err != nil {
		return nil, err
	}
	iso, err := engine.NewIsolate(prog, engine.Options{Log: quiet})
	if err != nil {
		return nil, err
	}
	pages := map[string][]byte{}
	var mu sync.Mutex
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		iso.Close()
		return nil, err
	}
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		body, ok := pages[r.URL.Path]
		mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(body)
	})}
	go hs.Serve(ln)
	page := func(path string) (loadgen.Loops, error) {
		resp, err := iso.Render(context.Background(), pageRequest(path))
		if err != nil {
			return nil, err
		}
		mu.Lock()
		pages[path] = []byte(resp.HTML)
		mu.Unlock()
		do, err := loadgen.HTTPGet("http://"+ln.Addr().String()+path, conns)
		if err != nil {
			return nil, err
		}
		return loadgen.Same(do), nil
	}
	return &target{name: name, conns: conns, page: page, stop: func() { hs.Close(); iso.Close() }}, nil
}
