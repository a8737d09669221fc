package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"os"
	"os/signal"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"syscall"
	"time"

	"github.com/go-chi/chi/v5"

	"bext/config"
	"bext/devserver"
	"bext/engine"
	"bext/lifecycle"
	"bext/pool"
	"bext/render"
)

func init() {
	register(command{Name: "dev", Usage: "dev [-config FILE] [-addr HOST:PORT]",
		Short: "Serve the app in dev mode: rebuild and restart on file changes, live-reload the browser.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			cfgPath := fs.String("config", "", "config file (default ./config.toml, else the embedded example app)")
			addr := fs.String("addr", "", "listen address (overrides [server] addr and BEXT_ADDR)")
			return func(out io.Writer) (int, error) {
				return dev(context.Background(), devOptions{cfgPath: *cfgPath, addr: *addr, out: os.Stderr})
			}
		}})
}

// devOptions are dev's inputs; tests set ready and trace.
type devOptions struct {
	cfgPath, addr string
	out           io.Writer
	ready         func(addr string)                    // called once serving
	trace         func(devserver.Phase, time.Duration) // reload latency phases
}

// dev runs `bext dev` until SIGTERM/SIGINT (or ctx ends), then drains.
func dev(ctx context.Context, o devOptions) (int, error) {
	sig := make(chan os.Signal, 4)
	signal.Notify(sig, syscall.SIGTERM, syscall.SIGINT, syscall.SIGHUP)
	defer signal.Stop(sig)
	cfg, err := loadConfig(o.cfgPath, func(s string) { fmt.Fprintln(o.out, "bext:", s) })
	if err != nil {
		return 1, err
	}
	if o.addr != "" {
		cfg.Server.Addr = o.addr
	}
	log := newLogger(cfg)
	slog.SetDefault(log)
	applyRuntime(cfg, log)

	start0 := time.Now()
	d, a, err := newDevApp(cfg, true, log, o.addr, o.out)
	if err != nil {
		return 1, err
	}
	defer d.close()
	hub := devserver.NewHub()
	defer hub.Close()
	inst, err := start(cfg, a, true, log, func(ro *render.Options) {
		ro.TransformHTML = devserver.InjectHTML
		ro.Mount = func(r chi.Router) { r.Handle(devserver.LiveReloadPath, hub) }
	})
	if err != nil {
		return 1, err
	}
	d.inst = inst
	stopWatch, err := d.watch(devWatchDirs(cfg), hub, o.trace)
	if err != nil {
		inst.shutdown()
		return 1, err
	}
	fmt.Fprintf(o.out, "bext: serving http://%s in dev mode (%d workers; built %s in %s; watching for changes)\n",
		inst.Addr, cfg.Render.JSCWorkers, a.Name, time.Since(start0).Round(time.Millisecond))
	if o.ready != nil {
		o.ready(inst.Addr)
	}
	for {
		select {
		case s := <-sig:
			if s == syscall.SIGHUP {
				inst.log.Info("SIGHUP: rolling restart of all workers")
				inst.Server.Pool().Restart(-1, lifecycle.ReasonManual)
				continue
			}
			inst.log.Info("shutting down: finishing in-flight requests", "signal", s.String())
		case <-ctx.Done():
		case err := <-inst.errs:
			stopWatch()
			hub.Close()
			inst.shutdown()
			return 1, err
		}
		// The loop owns inst.Pool while it runs (config reloads swap it).
		stopWatch()
		hub.Close() // end the event streams, or Shutdown waits for them
		inst.shutdown()
		return 0, nil
	}
}

// startWatch is serve's hot deploy ([render.lifecycle] watch_dirs): the same
// rebuild → boot check → rolling restart as dev, without a browser to
// reload; build and boot errors are logged and the old workers keep serving.
// Config changes are not re-applied by serve. The returned func stops it.
func startWatch(cfg *config.Config, inst *instance, out io.Writer) (func(), error) {
	if out == nil {
		out = os.Stderr
	}
	// The watch builds the sources once more for its incremental builders.
	// With unchanged sources its hashed asset names are those the workers
	// already render; otherwise the first client change restarts them.
	d, _, err := newDevApp(cfg, false, inst.log, "", out)
	if err != nil {
		return nil, err
	}
	d.inst = inst
	stop, err := d.watch(cfg.Render.Lifecycle.WatchDirs, nil, nil)
	if err != nil {
		d.close()
		return nil, err
	}
	return func() { stop(); d.close() }, nil
}

// devWatchDirs is watch_dirs, or by default the folders of the entries and
// public_dir; the config file is always watched.
func devWatchDirs(cfg *config.Config) []string {
	dirs := cfg.Render.Lifecycle.WatchDirs
	if len(dirs) == 0 {
		dirs = []string{filepath.Dir(cfg.App.ServerEntry)}
		if cfg.App.ClientEntry != "" {
			dirs = append(dirs, filepath.Dir(cfg.App.ClientEntry))
		}
		if fi, err := os.Stat(cfg.App.PublicDir); err == nil && fi.IsDir() {
			dirs = append(dirs, cfg.App.PublicDir)
		}
	}
	dirs = outermost(dirs)
	if cfg.Path != "" {
		dirs = append(dirs, cfg.Path)
	}
	return dirs
}

// outermost drops duplicates and folders inside another listed folder.
func outermost(dirs []string) []string {
	var out []string
	for i, d := range dirs {
		d = filepath.Clean(d)
		nested := false
		for j, o := range dirs {
			o = filepath.Clean(o)
			if i != j && (strings.HasPrefix(d, o+string(filepath.Separator)) || (d == o && j < i)) {
				nested = true
			}
		}
		if !nested {
			out = append(out, d)
		}
	}
	return out
}

// devApp implements devserver.Builder and devserver.Target over the engine's
// incremental builders and the running instance. Only the dev loop's
// goroutine calls it once the watch has started.
type devApp struct {
	cfg    *config.Config
	dev    bool
	log    *slog.Logger
	addr   string // -addr override, kept across config reloads
	out    io.Writer
	server *engine.Builder
	client *engine.Builder // nil without client_entry
	inst   *instance

	initial      *app // the first build, for start
	clientInputs map[string]bool
	prog         *engine.Program
	js, css      []string       // asset URLs the running workers render
	assets       *render.Assets // served now
}

// newDevApp makes the builders, builds once and returns the app to start.
func newDevApp(cfg *config.Config, dev bool, log *slog.Logger, addr string, out io.Writer) (*devApp, *app, error) {
	d, err := newDevAppFor(cfg, dev, log, addr, out)
	if err != nil {
		return nil, nil, err
	}
	prog, err := engine.Compile(d.initial.Name, d.initial.ServerCode)
	if err != nil {
		d.close()
		return nil, nil, err
	}
	d.prog, d.js, d.css = prog, d.initial.JS, d.initial.CSS
	return d, d.initial, nil
}

func newDevAppFor(cfg *config.Config, dev bool, log *slog.Logger, addr string, out io.Writer) (*devApp, error) {
	d := &devApp{cfg: cfg, dev: dev, log: log, addr: addr, out: out}
	var err error
	d.server, d.client, err = newBuilders(cfg, dev)
	if err != nil {
		return nil, err
	}
	b, err := d.Build(context.Background(), true)
	if err != nil {
		d.close()
		return nil, err
	}
	d.initial = &app{ServerCode: b.Server, Name: rel(cfg.Dir, cfg.App.ServerEntry), Inputs: slices.Sorted(maps.Keys(b.Inputs.Server)),
		Assets: d.assetsFor(b.Client)}
	if b.Client != nil {
		d.initial.JS, d.initial.CSS = b.Client.JS, b.Client.CSS
	}
	d.assets = d.initial.Assets
	return d, nil
}

func newBuilders(cfg *config.Config, dev bool) (server, client *engine.Builder, err error) {
	server, err = engine.NewServerBuilder(buildOptions(cfg, cfg.App.ServerEntry, dev))
	if err != nil {
		return nil, nil, err
	}
	if cfg.App.ClientEntry != "" {
		if client, err = engine.NewClientBuilder(buildOptions(cfg, cfg.App.ClientEntry, dev)); err != nil {
			server.Close()
			return nil, nil, err
		}
	}
	return server, client, nil
}

func (d *devApp) close() {
	d.server.Close()
	if d.client != nil {
		d.client.Close()
	}
}

// watch starts the dev loop on dirs; the returned func stops it and waits.
func (d *devApp) watch(dirs []string, hub devserver.Browsers, trace func(devserver.Phase, time.Duration)) (func(), error) {
	w, err := devserver.NewWatcher(dirs, devserver.IgnoreUnder(d.cfg.App.OutDir))
	if err != nil {
		return nil, err
	}
	in := devserver.Inputs{Server: set(d.initial.Inputs), PublicDir: d.cfg.App.PublicDir}
	if d.dev {
		in.ConfigFile = d.cfg.Path
	}
	if d.client != nil { // inputs of the client build newDevAppFor made
		in.Client = d.clientInputs
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		devserver.Run(ctx, w, d, d, devserver.Options{
			Dir: d.cfg.Dir, Debounce: d.cfg.Render.Lifecycle.WatchDebounce(), Inputs: in, Hub: hub, Trace: trace,
			Logf: func(format string, args ...any) { fmt.Fprintf(d.out, format+"\n", args...) },
		})
	}()
	return func() { cancel(); <-done }, nil
}

// Build implements devserver.Builder.
func (d *devApp) Build(ctx context.Context, server bool) (*devserver.Build, error) {
	b := &devserver.Build{}
	if server {
		sb, err := d.server.Build()
		if err != nil {
			return nil, err
		}
		b.Server, b.Inputs.Server = sb.Code, set(sb.Inputs)
	}
	if d.client != nil {
		cb, err := d.client.Build()
		if err != nil {
			return nil, err
		}
		b.Client, b.Inputs.Client = d.clientOf(cb), set(cb.Inputs)
		d.clientInputs = b.Inputs.Client
	}
	return b, nil
}

// clientOf turns a client bundle into served files and page URLs. In dev the
// entry and its stylesheet get stable names ("client.js", not
// "client-3F2A1B.js"), served with Cache-Control: no-cache, so a client-only
// rebuild never changes the URLs the workers put in the page.
func (d *devApp) clientOf(cb *engine.Bundle) *devserver.Client {
	c := &devserver.Client{Files: cb.Files}
	if d.dev {
		c.Files = maps.Clone(cb.Files)
		for _, n := range append([]string{cb.Entry}, cb.CSS...) {
			if n == "" {
				continue
			}
			body := c.Files[n]
			delete(c.Files, n)
			c.Files[unhashed(n)] = body
		}
	}
	c.JS, c.CSS = assetURLs(c.Files)
	return c
}

// unhashed drops esbuild's "-HASH" from an output name ("[name]-[hash]").
func unhashed(name string) string {
	dir, base := path.Split(name)
	ext := path.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	if i := strings.LastIndexByte(stem, '-'); i > 0 {
		stem = stem[:i]
	}
	return dir + stem + ext
}

func (d *devApp) assetsFor(c *devserver.Client) *render.Assets {
	a := &render.Assets{Files: map[string][]byte{}, Hashed: !d.dev, ModTime: time.Now()}
	if c != nil {
		a.Files = c.Files
	}
	return a
}

// ServeClient implements devserver.Target.
func (d *devApp) ServeClient(c *devserver.Client) bool {
	a := d.assetsFor(c)
	if !d.dev && d.assets != nil {
		// Hashed names: pages of the old workers reference the old files
		// until the rolling restart is over, so keep serving them.
		files := maps.Clone(d.assets.Files)
		maps.Copy(files, c.Files)
		a.Files = files
	}
	d.assets = a
	d.inst.Server.SetAssets(a)
	return slices.Equal(c.JS, d.js) && slices.Equal(c.CSS, d.css)
}

// Boot implements devserver.Target.
func (d *devApp) Boot(ctx context.Context, b *devserver.Build) (devserver.Deployment, error) {
	dep := &deployment{d: d, prog: d.prog, js: d.js, css: d.css}
	if b.Server != nil {
		prog, err := engine.Compile(rel(d.cfg.Dir, d.cfg.App.ServerEntry), b.Server)
		if err != nil {
			return nil, err
		}
		dep.prog = prog
	}
	if b.Client != nil {
		dep.js, dep.css = b.Client.JS, b.Client.CSS
	}
	dep.f = factory(dep.prog, isolateOptions(d.cfg, d.dev, d.log), dep.js, dep.css)
	if err := checkBoot(dep.f); err != nil {
		return nil, err
	}
	return dep, nil
}

type deployment struct {
	d       *devApp
	prog    *engine.Program
	js, css []string
	f       pool.Factory
}

// Roll implements devserver.Deployment: the pool boots the factory once
// more as its own check, then restarts every worker surge-first.
func (dep *deployment) Roll(ctx context.Context) error {
	if err := dep.d.inst.Server.Pool().Deploy(ctx, dep.f, lifecycle.ReasonFileChange); err != nil {
		return err
	}
	dep.d.prog, dep.d.js, dep.d.css = dep.prog, dep.js, dep.css
	return nil
}

// Reconfigure implements devserver.Target: it loads the config file again,
// builds and boots the app it describes and, if all of that works, starts a
// new pool with the new settings and retires the old one (its in-flight
// requests finish). Settings the listeners were made with need a restart of
// bext dev; that is logged.
func (d *devApp) Reconfigure(ctx context.Context) (devserver.Inputs, error) {
	cfg, err := config.Load(d.cfg.Path)
	if err != nil {
		return devserver.Inputs{}, err
	}
	cfg.ApplyEnv(os.Getenv)
	if d.addr != "" {
		cfg.Server.Addr = d.addr
	}
	nd, err := newDevAppFor(cfg, d.dev, d.log, d.addr, d.out)
	if err != nil {
		return devserver.Inputs{}, err
	}
	nd.inst = d.inst
	dep, err := nd.Boot(ctx, &devserver.Build{Server: nd.initial.ServerCode, Client: nd.clientOrNil()})
	if err != nil {
		nd.close()
		return devserver.Inputs{}, err
	}
	f := dep.(*deployment).f
	np := pool.New(f, poolOptions(cfg, d.log))
	if err := waitReady(np, 30*time.Second); err != nil {
		np.Close()
		nd.close()
		return devserver.Inputs{}, err
	}
	inst := d.inst
	old := inst.Server.Pool()
	inst.Server.SetAssets(nd.assets)
	inst.Server.SetPool(np)
	inst.Registry.Unregister(old)
	inst.Registry.MustRegister(np)
	inst.Pool = np
	old.Close()
	if msg := needsRestart(d.cfg, cfg); msg != "" {
		fmt.Fprintf(d.out, "[bext] %s changed in %s: restart bext dev to apply it\n", msg, filepath.Base(cfg.Path))
	}
	applyRuntime(cfg, d.log)
	inst.cfg = cfg
	d.server.Close()
	if d.client != nil {
		d.client.Close()
	}
	d.cfg, d.server, d.client, d.clientInputs = cfg, nd.server, nd.client, nd.clientInputs
	d.prog, d.js, d.css, d.assets = dep.(*deployment).prog, dep.(*deployment).js, dep.(*deployment).css, nd.assets
	in := devserver.Inputs{Server: set(nd.initial.Inputs), Client: nd.clientInputs, PublicDir: cfg.App.PublicDir, ConfigFile: cfg.Path}
	return in, nil
}

// clientOrNil is the client of the initial build, as the dev loop sees it.
func (d *devApp) clientOrNil() *devserver.Client {
	if d.client == nil {
		return nil
	}
	return &devserver.Client{Files: d.initial.Assets.Files, JS: d.initial.JS, CSS: d.initial.CSS}
}

// needsRestart names the changed settings a running server cannot re-apply.
func needsRestart(old, cfg *config.Config) string {
	var s []string
	if !reflect.DeepEqual(old.Server, cfg.Server) {
		s = append(s, "[server]")
	}
	if !reflect.DeepEqual(old.Admin, cfg.Admin) {
		s = append(s, "[admin]")
	}
	if old.App.PublicDir != cfg.App.PublicDir {
		s = append(s, "[app] public_dir")
	}
	ol, nl := old.Render.Lifecycle, cfg.Render.Lifecycle
	if !slices.Equal(ol.WatchDirs, nl.WatchDirs) || ol.WatchDebounceMS != nl.WatchDebounceMS {
		s = append(s, "watch_dirs/watch_debounce_ms")
	}
	return strings.Join(s, ", ")
}

func set(paths []string) map[string]bool {
	m := make(map[string]bool, len(paths))
	for _, p := range paths {
		m[p] = true
	}
	return m
}
