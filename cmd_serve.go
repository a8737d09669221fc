package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"bext/config"
	"bext/engine"
	"bext/lifecycle"
	"bext/pool"
	"bext/render"
)

func init() {
	register(command{Name: "serve", Usage: "serve [-config FILE] [-addr HOST:PORT]",
		Short: "Bundle the app and serve it through a pool of isolates.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			cfgPath := fs.String("config", "", "config file (default ./config.toml, else the embedded example app)")
			addr := fs.String("addr", "", "listen address (overrides [server] addr and BEXT_ADDR)")
			return func(out io.Writer) (int, error) {
				return serve(context.Background(), *cfgPath, *addr, os.Stderr)
			}
		}})
}

// serve runs the server until SIGTERM/SIGINT (or ctx ends), then drains.
func serve(ctx context.Context, cfgPath, addr string, out io.Writer) (int, error) {
	// Listen for signals before anything can report readiness: a SIGHUP
	// that arrives early must restart workers, not kill the process.
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sig)
	cfg, err := loadConfig(cfgPath, func(s string) { fmt.Fprintln(out, "bext:", s) })
	if err != nil {
		return 1, err
	}
	if addr != "" {
		cfg.Server.Addr = addr
	}
	log := newLogger(cfg)
	slog.SetDefault(log)
	applyRuntime(cfg, log)

	a, err := loadApp(cfg)
	if err != nil {
		return 1, err
	}
	for _, w := range a.Warnings {
		log.Warn("build warning", "msg", w)
	}
	inst, err := start(cfg, a, false, log, nil)
	if err != nil {
		return 1, err
	}
	if len(cfg.Render.Lifecycle.WatchDirs) > 0 { // hot deploy (cmd_dev.go)
		stopWatch, err := startWatch(cfg, inst, out)
		if err != nil {
			inst.shutdown()
			return 1, err
		}
		defer stopWatch()
	}
	fmt.Fprintf(out, "bext: serving http://%s (%d workers; %s)\n", inst.Addr, cfg.Render.JSCWorkers, a.From)
	if inst.AdminAddr != "" {
		fmt.Fprintf(out, "bext: admin API on http://%s\n", inst.AdminAddr)
	}
	return inst.waitForSignals(ctx, sig)
}

// instance is a running server: pool, HTTP listeners, metrics.
type instance struct {
	cfg       *config.Config
	log       *slog.Logger
	Pool      *pool.Pool
	Server    *render.Server
	Registry  *prometheus.Registry
	HTTP      []*http.Server
	Addr      string
	AdminAddr string
	errs      chan error
}

// start compiles a, checks that it boots, starts the pool and the listeners.
// hooks, if set, adjust the render options (bext dev).
func start(cfg *config.Config, a *app, dev bool, log *slog.Logger, hooks func(*render.Options)) (*instance, error) {
	prog, err := engine.Compile(a.Name, a.ServerCode)
	if err != nil {
		return nil, err
	}
	f := factory(prog, isolateOptions(cfg, dev, log), a.JS, a.CSS)
	if err := checkBoot(f); err != nil {
		return nil, err
	}
	p := pool.New(f, poolOptions(cfg, log))
	reg := prometheus.NewRegistry()
	reg.MustRegister(p, collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		buildInfo(), abandonedRenders())
	ro := render.Options{
		PublicDir: cfg.App.PublicDir, Gzip: cfg.Server.Gzip, MaxBodyBytes: cfg.Server.MaxBodyBytes,
		QueueTimeout: ms(cfg.Render.QueueTimeoutMS), AccessLog: cfg.Server.AccessLog, Dev: dev,
		AdminToken: cfg.Admin.Token, AdminPublicRead: cfg.Admin.PublicRead, AdminSeparate: cfg.Admin.Addr != "",
		Registry: reg, Log: log,
	}
	if hooks != nil {
		hooks(&ro)
	}
	srv, err := render.New(p, ro)
	if err != nil {
		p.Close()
		return nil, err
	}
	srv.SetAssets(a.Assets)
	inst := &instance{cfg: cfg, log: log, Pool: p, Server: srv, Registry: reg, errs: make(chan error, 2)}
	inst.Addr, err = inst.listen(cfg.Server.Addr, srv.Handler())
	if err == nil && cfg.Admin.Addr != "" {
		inst.AdminAddr, err = inst.listen(cfg.Admin.Addr, srv.AdminHandler())
	}
	if err != nil {
		inst.shutdown()
		return nil, err
	}
	if err := waitReady(p, 30*time.Second); err != nil {
		inst.shutdown()
		return nil, err
	}
	return inst, nil
}

// listen starts an http.Server on addr with timeouts that keep slow clients
// from pinning connections, and returns the bound address.
func (inst *instance) listen(addr string, h http.Handler) (string, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return "", fmt.Errorf("listen on %s: %w (is another server running? pick another with -addr)", addr, err)
	}
	s := inst.cfg.Server
	hs := &http.Server{
		Handler:           h,
		ReadHeaderTimeout: ms(s.ReadHeaderTimeoutMS),
		ReadTimeout:       ms(s.ReadTimeoutMS),
		WriteTimeout:      ms(s.WriteTimeoutMS),
		IdleTimeout:       ms(s.IdleTimeoutMS),
		MaxHeaderBytes:    s.MaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(inst.log.Handler(), slog.LevelWarn),
	}
	inst.HTTP = append(inst.HTTP, hs)
	go func() {
		if err := hs.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			inst.errs <- err
		}
	}()
	return ln.Addr().String(), nil
}

// waitForSignals serves until SIGTERM/SIGINT or ctx ends (drain, exit 0);
// SIGHUP restarts all workers gracefully.
func (inst *instance) waitForSignals(ctx context.Context, sig <-chan os.Signal) (int, error) {
	for {
		select {
		case s := <-sig:
			if s == syscall.SIGHUP {
				inst.log.Info("SIGHUP: rolling restart of all workers")
				inst.Pool.Restart(-1, lifecycle.ReasonManual)
				continue
			}
			inst.log.Info("shutting down: finishing in-flight requests", "signal", s.String())
			inst.shutdown()
			return 0, nil
		case <-ctx.Done():
			inst.shutdown()
			return 0, nil
		case err := <-inst.errs:
			inst.shutdown()
			return 1, err
		}
	}
}

// shutdown stops accepting, lets in-flight requests finish (up to
// drain_timeout_ms), then stops the workers.
func (inst *instance) shutdown() {
	inst.Server.ShuttingDown()
	ctx, cancel := context.WithTimeout(context.Background(), ms(inst.cfg.Render.Lifecycle.DrainTimeoutMS)+time.Second)
	defer cancel()
	for _, hs := range inst.HTTP {
		hs.Shutdown(ctx)
	}
	inst.Pool.Close()
	inst.log.Info("stopped")
}

func buildInfo() prometheus.Collector {
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
