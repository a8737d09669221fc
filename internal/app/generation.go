package app

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"bext/config"
	"bext/devserver"
	"bext/engine"
	"bext/pool"
	"bext/render"
)

// generation is what one configuration serves: its pool, metrics registry
// and HTTP handlers. Start makes the first; a config change makes the next
// with the same constructor and retires the old one once its requests are
// done. The pool of a generation never changes.
type generation struct {
	cfg         *config.Config
	pool        *pool.Pool
	srv         *render.Server
	main, admin http.Handler
	unregister  func() // takes the pool's metrics out of a shared registry

	mu      sync.Mutex
	idle    *sync.Cond // signalled when n drops to 0
	n       int        // requests being served
	retired bool
}

// newGeneration compiles b, checks that it boots, and starts a pool and the
// HTTP handlers for site s with cfg.
func (in *Instance) newGeneration(s *site, cfg *config.Config, b *Bundle) (*generation, error) {
	f, err := NewFactory(cfg, b, in.o.Dev, in.log)
	if err != nil {
		return nil, err
	}
	if err := checkBoot(f); err != nil {
		return nil, err
	}
	return in.startGeneration(s, cfg, f, b.Assets)
}

// startGeneration starts the pool (booting from f) and the handlers of a
// generation of site s.
func (in *Instance) startGeneration(s *site, cfg *config.Config, f pool.Factory, assets *render.Assets) (*generation, error) {
	log := in.log
	po := PoolOptions(cfg, log)
	if s.name != "" {
		log = log.With("app", s.name)
		po.Log = log
		po.Observe = in.apps.observer(s.name)
	}
	p := pool.New(f, po)
	ro := RenderOptions(cfg, in.o.Dev, log)
	pc, err := s.cache()
	if err != nil {
		p.Close()
		return nil, err
	}
	ro.PageCache = pc
	collectors := []prometheus.Collector{p}
	if pc != nil {
		collectors = append(collectors, pc)
	}
	unregister := func() {}
	if s.name == "" {
		reg := prometheus.NewRegistry()
		reg.MustRegister(append(append(collectors, processCollectors(in.o.Version)...), in.fleetCollectors()...)...)
		ro.Registry = reg
	} else {
		r := prometheus.WrapRegistererWith(prometheus.Labels{"app": s.name}, in.apps.registry)
		r.MustRegister(collectors...)
		unregister = func() {
			for _, c := range collectors {
				r.Unregister(c)
			}
		}
	}
	if in.o.Dev {
		ro.TransformHTML = devserver.InjectHTML
	}
	srv, err := render.New(p, ro)
	if err != nil {
		unregister()
		p.Close()
		return nil, err
	}
	srv.SetAssets(assets)
	g := &generation{cfg: cfg, pool: p, srv: srv, main: srv.Handler(), admin: srv.AdminHandler(), unregister: unregister}
	g.idle = sync.NewCond(&g.mu)
	return g, nil
}

// NewFactory compiles b once and returns the factory its workers boot from
// (the benchmarks boot isolates with it too).
func NewFactory(cfg *config.Config, b *Bundle, dev bool, log *slog.Logger) (pool.Factory, error) {
	prog, err := engine.Compile(b.Name, b.ServerCode)
	if err != nil {
		return nil, err
	}
	return factory(prog, IsolateOptions(cfg, dev, log), b.JS, b.CSS), nil
}

// factory boots isolates from prog with the client asset URLs set.
func factory(prog *engine.Program, o engine.Options, js, css []string) pool.Factory {
	return func(id int) (pool.Isolate, error) {
		oo := o
		oo.WorkerID = id
		iso, err := engine.NewIsolate(prog, oo)
		if err != nil {
			return nil, err
		}
		iso.SetAssets(js, css)
		return iso, nil
	}
}

// checkBoot boots one isolate from f and closes it: a bundle that throws at
// load is reported before it serves anything. It is the only boot check of
// a start or a deploy.
func checkBoot(f pool.Factory) error {
	iso, err := f(0)
	if err != nil {
		return fmt.Errorf("the server bundle does not boot: %w", err)
	}
	iso.Close()
	return nil
}

// waitReady waits for the generation's first ACTIVE worker.
func (g *generation) waitReady(d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return g.pool.WaitReady(ctx)
}

// acquire counts a request in, unless the generation is retired (the
// caller then takes the current one).
func (g *generation) acquire() bool {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.retired {
		return false
	}
	g.n++
	return true
}

func (g *generation) release() {
	g.mu.Lock()
	g.n--
	if g.n == 0 {
		g.idle.Broadcast()
	}
	g.mu.Unlock()
}

// retire takes no more requests, waits for those it is serving (at most
// drain_timeout_ms), then stops its pool.
func (g *generation) retire() {
	g.mu.Lock()
	g.retired = true
	deadline := time.AfterFunc(ms(g.cfg.Render.Lifecycle.DrainTimeoutMS), func() {
		g.mu.Lock()
		g.idle.Broadcast()
		g.mu.Unlock()
	})
	start := time.Now()
	for g.n > 0 && time.Since(start) < ms(g.cfg.Render.Lifecycle.DrainTimeoutMS) {
		g.idle.Wait()
	}
	g.mu.Unlock()
	deadline.Stop()
	g.pool.Close()
	g.unregister()
}

// processCollectors are the series of the whole process: Go runtime,
// process, build info, abandoned renders.
func processCollectors(version string) []prometheus.Collector {
	return []prometheus.Collector{collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		buildInfo(version), abandonedRenders(), abandonedRunning()}
}

func buildInfo(version string) prometheus.Collector {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: "bext_build_info", Help: "Always 1; labels say the bext version.",
		ConstLabels: prometheus.Labels{"version": version}})
	g.Set(1)
	return g
}

func abandonedRenders() prometheus.Collector {
	return prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "bext_render_abandoned_total",
		Help: "Renders that ignored their interrupt (e.g. a catastrophic regexp) and whose goroutine was left running."},
		func() float64 { return float64(engine.AbandonedRenders()) })
}

func abandonedRunning() prometheus.Collector {
	return prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: "bext_render_abandoned_running",
		Help: "Abandoned render goroutines still running (each ends within the regexp match timeout)."},
		func() float64 { return float64(engine.AbandonedRunning()) })
}
