package app

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"

	"github.com/oklog/run"

	"bext/config"
	"bext/devserver"
	"bext/fleet"
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
	// workers on a rolling basis (the CLI; tests leave it off). A second
	// SIGTERM/SIGINT during the drain exits the process at once.
	Signals bool
	// Trace, if set, receives the duration of each phase of a reload
	// (benchmarks and tests wait on it).
	Trace func(devserver.Phase, time.Duration)
	// Bundle, if set, is served instead of building the app (a benchmark
	// serving the bundle it measures elsewhere); no watch then.
	Bundle *Bundle
}

// Instance is a running bext: its app (a site: the current generation of
// pool, metrics and handlers, and the watch that redeploys it) behind the
// HTTP listeners, and the actors that serve it.
type Instance struct {
	o         Options
	log       *slog.Logger
	cfg       *config.Config // as loaded
	main      *site          // the single [app]; nil with [[apps]]
	apps      *apps          // with [[apps]]
	addr      string
	adminAddr string
	hub       *devserver.Hub // dev: live-reload event streams
	fleet     *fleet.Agent   // with [fleet] redis_url
	shared    *fleet.Shared  // with [cache] redis: the page cache's level in the fleet's Redis
	stopOnce  sync.Once
	drainOnce sync.Once
	drainBy   time.Time // when in-flight requests' time to finish runs out
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
	in.cfg = cfg
	ApplyRuntime(cfg, in.log)
	for _, w := range cfg.Warnings() {
		in.log.Warn("config: " + w)
	}
	if o.Dev {
		in.hub = devserver.NewHub()
	}
	// The fleet first: the generations' page caches sit on its level.
	if err := in.openFleet(cfg); err != nil {
		in.teardown()
		return nil, err
	}
	if err := in.startApps(cfg); err != nil {
		in.teardown()
		return nil, err
	}
	if err := in.listen(cfg); err != nil {
		in.teardown()
		return nil, err
	}
	in.nameFleet(cfg)
	in.run(ctx, cfg)
	return in, nil
}

// startApps starts the single [app] (and waits for its first worker), or
// sets up the [[apps]] to start on demand (booting those with preload).
func (in *Instance) startApps(cfg *config.Config) error {
	if len(cfg.Apps) > 0 {
		a, err := newApps(in, cfg)
		if err != nil {
			return err
		}
		in.apps = a
		a.preload()
		in.From = a.summary()
		return nil
	}
	s := &site{in: in, cfg: cfg}
	if err := s.start(); err != nil {
		return err
	}
	in.main, in.From = s, s.from
	return nil
}

// Addr is the bound address of the main listener.
func (in *Instance) Addr() string { return in.addr }

// AdminAddr is the bound address of the admin listener, "" when admin
// routes share the main one.
func (in *Instance) AdminAddr() string { return in.adminAddr }

// Pool is the pool of the single [app] serving now (nil with [[apps]]: see
// AppPool).
func (in *Instance) Pool() *pool.Pool {
	if in.main == nil {
		return nil
	}
	return in.main.current().pool
}

// Config is the configuration serving now.
func (in *Instance) Config() *config.Config {
	if in.main != nil {
		return in.main.current().cfg
	}
	return in.cfg
}

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

// handler serves each request with the generation of its app current when
// it arrives; live-reload streams bypass generations (they outlive them).
func (in *Instance) handler(admin bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !admin && in.hub != nil && r.URL.Path == devserver.LiveReloadPath {
			in.hub.ServeHTTP(w, r)
			return
		}
		if in.apps != nil {
			in.apps.serve(w, r, admin)
			return
		}
		g := in.main.acquire()
		defer g.release()
		if admin {
			g.admin.ServeHTTP(w, r)
		} else {
			g.main.ServeHTTP(w, r)
		}
	})
}

// run starts the actors. Their order is the teardown order: the watcher
// stops first (no deploy during shutdown), then the fleet agent removes
// the instance from the registry, then readiness turns false and the
// listeners drain in-flight requests; the workers stop last.
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
		go in.watchSignals()
	}
	// Watches (and, with [[apps]], the idle eviction) stop first: no
	// deploy or cold start during shutdown.
	quitWatch := make(chan struct{})
	g.Add(func() error {
		in.forSites(func(s *site) { s.startWatch() })
		if in.apps != nil {
			in.apps.janitor(quitWatch)
		} else {
			<-quitWatch
		}
		return nil
	}, func(error) {
		close(quitWatch)
		in.forSites(func(s *site) { s.closeWatch() })
		if in.apps != nil {
			in.apps.stopping()
		}
		if in.hub != nil {
			in.hub.Close() // end the event streams, or the listeners wait for them
		}
	})
	in.addFleet(&g)
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
		in.closeFleet()
		close(in.done)
	}()
}

// watchSignals, until the instance is done: SIGTERM/SIGINT stop it (a
// second one exits the process at once, as Node and gunicorn do); SIGHUP
// restarts every worker on a rolling basis.
func (in *Instance) watchSignals() {
	defer signal.Stop(in.sig)
	stopping := false
	for {
		select {
		case s := <-in.sig:
			switch {
			case s == syscall.SIGHUP:
				in.log.Info("SIGHUP: rolling restart of all workers")
				in.forSites(func(s *site) {
					if g := s.current(); g != nil {
						g.pool.Restart(-1, lifecycle.ReasonManual)
					}
					s.purgeCache("SIGHUP")
				})
			case !stopping:
				stopping = true
				in.log.Info("shutting down: finishing in-flight requests (a second signal exits at once)", "signal", s.String())
				in.stopOnce.Do(func() { close(in.stopCh) })
			default:
				in.log.Warn("second signal: exiting without waiting for in-flight requests", "signal", s.String())
				os.Exit(1)
			}
		case <-in.done:
			return
		}
	}
}

// beginDrain marks every app as shutting down (readiness 503) the first
// time it is called and returns when the drain ends: drain_timeout_ms (the
// largest of the apps') after that.
func (in *Instance) beginDrain() time.Time {
	in.drainOnce.Do(func() {
		drain := ms(in.cfg.Render.Lifecycle.DrainTimeoutMS)
		in.forSites(func(s *site) {
			if g := s.current(); g != nil {
				g.srv.ShuttingDown()
				drain = max(drain, ms(g.cfg.Render.Lifecycle.DrainTimeoutMS))
			}
		})
		if in.apps != nil {
			in.apps.shuttingDown.Store(true)
		}
		in.drainBy = time.Now().Add(drain)
	})
	return in.drainBy
}

// shutdownListener stops accepting and lets in-flight requests finish until
// the drain deadline (shared by every listener). Renders still running then
// are interrupted and answer 503; a second later any connection left is
// closed, so a shutdown takes drain_timeout_ms plus at most a second.
func (in *Instance) shutdownListener(l *listener) {
	ctx, cancel := context.WithDeadline(context.Background(), in.beginDrain())
	defer cancel()
	if l.hs.Shutdown(ctx) == nil || ctx.Err() == nil {
		return
	}
	in.log.Warn("drain timeout: interrupting the renders still in flight (503)")
	in.forSites(func(s *site) {
		if g := s.current(); g != nil {
			g.pool.Interrupt(pool.ErrDrainTimeout)
		}
	})
	grace, cancel2 := context.WithTimeout(context.Background(), time.Second)
	defer cancel2()
	if l.hs.Shutdown(grace) != nil && grace.Err() != nil {
		l.hs.Close()
	}
}

// forSites calls f for the single app or every one of [[apps]].
func (in *Instance) forSites(f func(*site)) {
	if in.main != nil {
		f(in.main)
	}
	if in.apps != nil {
		for _, s := range in.apps.sites {
			f(s.site)
		}
	}
}

// closePool stops the workers of every app.
func (in *Instance) closePool() {
	in.forSites(func(s *site) {
		s.closeWatch()
		if g := s.current(); g != nil {
			g.pool.Close()
		}
		s.closeCache()
	})
	in.log.Info("stopped")
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
	in.closeFleet()
}
