package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/oklog/run"

	"bext/config"
	"bext/devserver"
	"bext/lifecycle"
	"bext/pool"
)

// Options are what a start needs besides the config.
type Options struct {
	// Dev is `bext dev`: development builds, error stacks in pages, live
	// reload, and the config file watched too.
	Dev bool
	// Version is reported by bext_build_info.
	Version string
	// Out receives the lines a person reads while it runs ("[bext] Workers
	// restarted (file change: …)"); nil = os.Stderr.
	Out io.Writer
	// Log is the structured log; nil = NewLogger(cfg).
	Log *slog.Logger
	// Signals makes SIGTERM/SIGINT stop the instance and SIGHUP restart its
	// workers on a rolling basis (the CLI; tests leave it off).
	Signals bool
	// Trace, if set, receives the duration of each phase of a reload
	// (benchmarks and tests wait on it).
	Trace func(devserver.Phase, time.Duration)
	// Bundle, if set, is served instead of building the app (a benchmark
	// serving the bundle it measures elsewhere); no watch then.
	Bundle *Bundle
}

// Instance is a running bext: the current generation (pool, metrics,
// handlers) behind the HTTP listeners, and the actors that serve it.
type Instance struct {
	o         Options
	log       *slog.Logger
	gen       atomic.Pointer[generation]
	addr      string
	adminAddr string
	watch     *devApp        // nil without dev or watch_dirs
	hub       *devserver.Hub // dev: live-reload event streams
	stopOnce  sync.Once
	stopCh    chan struct{}
	done      chan struct{}
	err       error
	From      string // how the app was obtained ("built src/server.jsx in 40ms")
	listeners []*listener
	sig       chan os.Signal // with Options.Signals
}

// Start builds (or loads) the app, boots its workers, listens, and serves
// until ctx ends, Stop is called, a listener fails or (with
// Options.Signals) SIGTERM/SIGINT arrives. It returns once the first worker
// is ACTIVE. On error nothing is left running.
func Start(ctx context.Context, cfg *config.Config, o Options) (*Instance, error) {
	if o.Out == nil {
		o.Out = os.Stderr
	}
	if o.Log == nil {
		o.Log = NewLogger(cfg)
	}
	in := &Instance{o: o, log: o.Log, stopCh: make(chan struct{}), done: make(chan struct{})}
	if o.Signals {
		// Before anything can report readiness: a SIGHUP that arrives
		// early must restart workers, not kill the process.
		in.sig = make(chan os.Signal, 4)
		signal.Notify(in.sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	}
	ApplyRuntime(cfg, in.log)
	for _, w := range cfg.Warnings() {
		in.log.Warn("config: " + w)
	}
	started := time.Now()
	b, err := in.bundle(cfg)
	if err != nil {
		in.teardown()
		return nil, err
	}
	for _, w := range b.Warnings {
		in.log.Warn("build warning", "msg", w)
	}
	g, err := in.newGeneration(cfg, b)
	if err != nil {
		in.teardown()
		return nil, err
	}
	in.gen.Store(g)
	if err := in.listen(cfg); err != nil {
		in.teardown()
		return nil, err
	}
	if err := g.waitReady(30 * time.Second); err != nil {
		in.teardown()
		return nil, err
	}
	if in.From == "" {
		in.From = fmt.Sprintf("built %s in %s", b.Name, time.Since(started).Round(time.Millisecond))
	}
	in.run(ctx, cfg)
	return in, nil
}

// bundle builds the app: through the incremental builders of a watch when
// there is one (dev, or serve with watch_dirs), else from out_dir or a
// one-shot build.
func (in *Instance) bundle(cfg *config.Config) (*Bundle, error) {
	if b := in.o.Bundle; b != nil {
		in.From = b.From
		return b, nil
	}
	if in.o.Dev || len(cfg.Render.Lifecycle.WatchDirs) > 0 {
		d, err := newDevApp(in, cfg)
		if err != nil {
			return nil, err
		}
		in.watch = d
		if in.o.Dev {
			in.hub = devserver.NewHub()
		}
		return d.initial, nil
	}
	b, err := Load(cfg)
	if err != nil {
		return nil, err
	}
	in.From = b.From
	return b, nil
}

// Addr is the bound address of the main listener.
func (in *Instance) Addr() string { return in.addr }

// AdminAddr is the bound address of the admin listener, "" when admin
// routes share the main one.
func (in *Instance) AdminAddr() string { return in.adminAddr }

// Pool is the pool serving now.
func (in *Instance) Pool() *pool.Pool { return in.gen.Load().pool }

// Config is the configuration serving now.
func (in *Instance) Config() *config.Config { return in.gen.Load().cfg }

// Stop stops the instance (as SIGTERM does) and waits until it has.
func (in *Instance) Stop() error {
	in.stopOnce.Do(func() { close(in.stopCh) })
	return in.Wait()
}

// Wait blocks until the instance has stopped and returns why: nil for a
// requested stop, else the listener error that stopped it.
func (in *Instance) Wait() error {
	<-in.done
	return in.err
}

// listener is one http.Server on a bound socket.
type listener struct {
	ln net.Listener
	hs *http.Server
}

func (in *Instance) listen(cfg *config.Config) error {
	main, err := in.newListener(cfg, cfg.Server.Addr, in.handler(false))
	if err != nil {
		return err
	}
	in.addr = main.ln.Addr().String()
	if cfg.Admin.Addr != "" {
		admin, err := in.newListener(cfg, cfg.Admin.Addr, in.handler(true))
		if err != nil {
			return err
		}
		in.adminAddr = admin.ln.Addr().String()
		if admin.ln.Addr().Network() == "unix" {
			in.adminAddr = "unix:" + in.adminAddr
		}
	}
	return nil
}

// newListener binds addr and makes its server, with the timeouts that keep
// slow clients from pinning connections.
func (in *Instance) newListener(cfg *config.Config, addr string, h http.Handler) (*listener, error) {
	ln, err := listenOn(addr)
	if err != nil {
		return nil, err
	}
	l := &listener{ln: ln, hs: HTTPServer(cfg, h, in.log)}
	in.listeners = append(in.listeners, l)
	return l, nil
}

// listenOn binds host:port, or a unix socket for "unix:PATH" (a stale
// socket file is replaced; the new one is private to this user).
func listenOn(addr string) (net.Listener, error) {
	if path, ok := strings.CutPrefix(addr, "unix:"); ok {
		if fi, err := os.Lstat(path); err == nil && fi.Mode()&os.ModeSocket != 0 {
			if c, err := net.Dial("unix", path); err == nil {
				c.Close()
				return nil, fmt.Errorf("listen on %s: another server answers on that socket", addr)
			}
			os.Remove(path)
		}
		ln, err := net.Listen("unix", path)
		if err != nil {
			return nil, fmt.Errorf("listen on %s: %w", addr, err)
		}
		if err := os.Chmod(path, 0o600); err != nil {
			ln.Close()
			return nil, fmt.Errorf("listen on %s: %w", addr, err)
		}
		return ln, nil
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		hint := "is another server running? pick another address"
		var ae *net.AddrError
		if errors.As(err, &ae) || strings.Contains(err.Error(), "no such host") {
			hint = "check the address"
		}
		return nil, fmt.Errorf("listen on %s: %w (%s)", addr, err, hint)
	}
	return ln, nil
}

// HTTPServer is the http.Server bext serves h with: [server] timeouts and
// header limit, errors logged at warn.
func HTTPServer(cfg *config.Config, h http.Handler, log *slog.Logger) *http.Server {
	s := cfg.Server
	return &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ms(s.ReadHeaderTimeoutMS),
		ReadTimeout:       ms(s.ReadTimeoutMS),
		WriteTimeout:      ms(s.WriteTimeoutMS),
		IdleTimeout:       ms(s.IdleTimeoutMS),
		MaxHeaderBytes:    s.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
}

// handler serves each request with the generation current when it
// arrives; live-reload streams bypass generations (they outlive them).
func (in *Instance) handler(admin bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !admin && in.hub != nil && r.URL.Path == devserver.LiveReloadPath {
			in.hub.ServeHTTP(w, r)
			return
		}
		for {
			g := in.gen.Load()
			if g.acquire() {
				defer g.release()
				if admin {
					g.admin.ServeHTTP(w, r)
				} else {
					g.main.ServeHTTP(w, r)
				}
				return
			}
		}
	})
}

// run starts the actors. Their order is the teardown order: the watcher
// stops first (no deploy during shutdown), then readiness turns false and
// the listeners drain in-flight requests; the workers stop last.
func (in *Instance) run(ctx context.Context, cfg *config.Config) {
	var g run.Group
	g.Add(func() error {
		select {
		case <-ctx.Done():
		case <-in.stopCh:
		}
		return nil
	}, func(error) { in.stopOnce.Do(func() { close(in.stopCh) }) })
	if in.o.Signals {
		in.addSignals(&g)
	}
	if in.watch != nil {
		stop := in.watch.start(cfg)
		g.Add(func() error { <-in.watch.stopped; return nil }, func(error) {
			stop()
			if in.hub != nil {
				in.hub.Close() // end the event streams, or the listeners wait for them
			}
		})
	}
	for _, l := range in.listeners {
		g.Add(func() error {
			if err := l.hs.Serve(l.ln); !errors.Is(err, http.ErrServerClosed) {
				return err
			}
			return nil
		}, func(error) { in.shutdownListener(l) })
	}
	go func() {
		in.err = g.Run()
		in.closePool()
		close(in.done)
	}()
}

// addSignals: SIGTERM/SIGINT stop the instance; SIGHUP restarts every
// worker on a rolling basis.
func (in *Instance) addSignals(g *run.Group) {
	sig := in.sig
	quit := make(chan struct{})
	g.Add(func() error {
		for {
			select {
			case s := <-sig:
				if s == syscall.SIGHUP {
					in.log.Info("SIGHUP: rolling restart of all workers")
					in.Pool().Restart(-1, lifecycle.ReasonManual)
					continue
				}
				in.log.Info("shutting down: finishing in-flight requests", "signal", s.String())
				return nil
			case <-quit:
				return nil
			}
		}
	}, func(error) {
		signal.Stop(sig)
		close(quit)
	})
}

// shutdownListener stops accepting and lets in-flight requests finish, for
// at most drain_timeout_ms plus a second.
func (in *Instance) shutdownListener(l *listener) {
	g := in.gen.Load()
	g.srv.ShuttingDown()
	ctx, cancel := context.WithTimeout(context.Background(), ms(g.cfg.Render.Lifecycle.DrainTimeoutMS)+time.Second)
	defer cancel()
	_ = l.hs.Shutdown(ctx)
}

// closePool stops the workers of the current generation.
func (in *Instance) closePool() {
	in.closeWatch()
	if g := in.gen.Load(); g != nil {
		g.pool.Close()
		in.log.Info("stopped")
	}
}

func (in *Instance) closeWatch() {
	if in.watch != nil {
		in.watch.close()
	}
}

// teardown undoes a start that failed before the actors ran.
func (in *Instance) teardown() {
	if in.sig != nil {
		signal.Stop(in.sig)
	}
	for _, l := range in.listeners {
		l.ln.Close()
	}
	if in.hub != nil {
		in.hub.Close()
	}
	in.closePool()
}
