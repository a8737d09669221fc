package app

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"os"
	"path"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"time"

	"bext/config"
	"bext/devserver"
	"bext/engine"
	"bext/lifecycle"
	"bext/pool"
	"bext/render"
)

// devApp is the watch of a running instance (bext dev, or serve with
// watch_dirs): it implements devserver.Builder over the engine's
// incremental builders and devserver.Target over the instance. Only the
// dev loop's goroutine calls it once the watch has started.
type devApp struct {
	s      *site
	in     *Instance
	cfg    *config.Config
	server *engine.Builder
	client *engine.Builder // nil without client_entry

	initial      *Bundle // the first build, for start
	clientInputs map[string]bool
	prog         *engine.Program
	js, css      []string       // asset URLs the running workers render
	assets       *render.Assets // served now
	stopped      chan struct{}  // closed when the dev loop has returned
}

// newDevApp makes the builders and builds once.
func newDevApp(s *site, cfg *config.Config) (*devApp, error) {
	in := s.in
	d := &devApp{s: s, in: in, cfg: cfg, stopped: make(chan struct{})}
	var err error
	d.server, d.client, err = newBuilders(cfg, in.o.Dev)
	if err != nil {
		return nil, err
	}
	b, err := d.Build(context.Background(), true)
	if err != nil {
		d.close()
		return nil, err
	}
	d.initial = &Bundle{ServerCode: b.Server, Name: rel(cfg.Dir, cfg.App.ServerEntry), Inputs: slices.Sorted(maps.Keys(b.Inputs.Server)),
		Assets: d.assetsFor(b.Client)}
	if b.Client != nil {
		d.initial.JS, d.initial.CSS = b.Client.JS, b.Client.CSS
	}
	d.js, d.css, d.assets = d.initial.JS, d.initial.CSS, d.initial.Assets
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

// watchDirs is watch_dirs, or in dev by default the folders of the entries
// and public_dir; in dev the config file is watched too.
func (d *devApp) watchDirs() []string {
	cfg := d.cfg
	dirs := cfg.Render.Lifecycle.WatchDirs
	if len(dirs) == 0 && d.in.o.Dev {
		dirs = []string{filepath.Dir(cfg.App.ServerEntry)}
		if cfg.App.ClientEntry != "" {
			dirs = append(dirs, filepath.Dir(cfg.App.ClientEntry))
		}
		if fi, err := os.Stat(cfg.App.PublicDir); err == nil && fi.IsDir() {
			dirs = append(dirs, cfg.App.PublicDir)
		}
	}
	dirs = outermost(dirs)
	if d.watchesConfig() {
		dirs = append(dirs, cfg.Path)
	}
	return dirs
}

// watchesConfig: bext dev re-applies the config file of a single [app];
// with [[apps]] a config change needs a restart.
func (d *devApp) watchesConfig() bool {
	return d.in.o.Dev && d.cfg.Path != "" && d.s.name == ""
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

// start runs the dev loop until the returned func is called (it waits for
// the loop to return). A watcher that cannot start is logged and the
// instance serves without it.
func (d *devApp) start(cfg *config.Config) (stop func()) {
	w, err := devserver.NewWatcher(d.watchDirs(), devserver.IgnoreUnder(cfg.App.OutDir))
	if err != nil {
		d.in.log.Error("file watch could not start; serving without it", "err", err)
		close(d.stopped)
		return func() {}
	}
	in := devserver.Inputs{Server: set(d.initial.Inputs), Client: d.clientInputs, PublicDir: cfg.App.PublicDir}
	if d.watchesConfig() {
		in.ConfigFile = cfg.Path
	}
	var hub devserver.Browsers
	if d.in.hub != nil {
		hub = d.in.hub
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		defer close(d.stopped)
		devserver.Run(ctx, w, d, d, devserver.Options{
			Dir: cfg.Dir, Debounce: cfg.Render.Lifecycle.WatchDebounce(), Inputs: in, Hub: hub, Trace: d.in.o.Trace,
			Logf: d.logf,
		})
	}()
	return func() { cancel(); <-d.stopped }
}

// logf prints a line of the dev loop, naming the app when there are many.
func (d *devApp) logf(format string, args ...any) {
	if d.s.name != "" {
		format = strings.Replace(format, "[bext]", "[bext] app "+d.s.name+":", 1)
	}
	fmt.Fprintf(d.in.o.Out, format+"\n", args...)
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
	if d.in.o.Dev {
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
	a := &render.Assets{Files: map[string][]byte{}, Hashed: !d.in.o.Dev, ModTime: time.Now()}
	if c != nil {
		a.Files = c.Files
	}
	return a
}

// ServeClient implements devserver.Target.
func (d *devApp) ServeClient(c *devserver.Client) bool {
	a := d.assetsFor(c)
	if !d.in.o.Dev && d.assets != nil {
		// Hashed names: pages of the old workers reference the old files
		// until the rolling restart is over, so keep serving them.
		files := maps.Clone(d.assets.Files)
		maps.Copy(files, c.Files)
		a.Files = files
	}
	d.assets = a
	if g := d.s.current(); g != nil {
		g.srv.SetAssets(a)
	}
	return slices.Equal(c.JS, d.js) && slices.Equal(c.CSS, d.css)
}

// Boot implements devserver.Target: compile, then boot one isolate — the
// deploy's only boot check.
func (d *devApp) Boot(ctx context.Context, b *devserver.Build) (devserver.Deployment, error) {
	dep := &deployment{d: d, prog: d.prog, js: d.js, css: d.css}
	if b.Server != nil || dep.prog == nil {
		code := b.Server
		if code == nil {
			code = d.initial.ServerCode
		}
		dep.code = code
		prog, err := engine.Compile(rel(d.cfg.Dir, d.cfg.App.ServerEntry), code)
		if err != nil {
			return nil, err
		}
		dep.prog = prog
	}
	if b.Client != nil {
		dep.js, dep.css = b.Client.JS, b.Client.CSS
	}
	dep.f = factory(dep.prog, IsolateOptions(d.cfg, d.in.o.Dev, d.in.log), dep.js, dep.css)
	if err := checkBoot(dep.f); err != nil {
		return nil, err
	}
	return dep, nil
}

type deployment struct {
	d       *devApp
	code    []byte // the new server bundle; nil when it did not change
	prog    *engine.Program
	js, css []string
	f       pool.Factory
}

// Roll implements devserver.Deployment: every worker restarts on the new
// factory, surge-first, one at a time.
func (dep *deployment) Roll(ctx context.Context) error {
	g := dep.d.s.current()
	if g == nil {
		return errors.New("the app stopped")
	}
	if err := g.pool.DeployBooted(ctx, dep.f, lifecycle.ReasonFileChange); err != nil {
		return err
	}
	dep.d.s.purgeCache("new code deployed")
	if dep.code != nil {
		dep.d.s.setBundle(dep.code)
	}
	dep.d.prog, dep.d.js, dep.d.css = dep.prog, dep.js, dep.css
	return nil
}

// Reconfigure implements devserver.Target: it loads the config file again,
// builds the app it describes and starts a generation for it with the same
// constructor as Start; if all of that works, the new generation takes new
// requests and the old one is retired once its requests are done. Settings
// the listeners were made with need a restart of bext dev; that is logged.
func (d *devApp) Reconfigure(ctx context.Context) (devserver.Inputs, error) {
	cfg, err := config.Load(d.cfg.Path)
	if err != nil {
		return devserver.Inputs{}, err
	}
	cfg.ApplyEnv(os.Getenv)
	cfg.Server.Addr, cfg.Admin.Addr = d.cfg.Server.Addr, d.cfg.Admin.Addr // the listeners stay
	nd, err := newDevApp(d.s, cfg)
	if err != nil {
		return devserver.Inputs{}, err
	}
	g, err := d.in.newGeneration(d.s, cfg, nd.initial)
	if err == nil {
		if err = g.waitReady(30 * time.Second); err != nil {
			g.pool.Close()
		}
	}
	if err != nil {
		nd.close()
		return devserver.Inputs{}, err
	}
	oldCfg := d.s.cfg
	d.s.cfg = cfg
	if old := d.s.gen.Swap(g); old != nil {
		old.retire()
	}
	d.s.purgeCache("config re-applied")
	d.s.setBundle(nd.initial.ServerCode)
	if msg := needsRestart(oldCfg, cfg); msg != "" {
		fmt.Fprintf(d.in.o.Out, "[bext] %s changed in %s: restart bext dev to apply it\n", msg, filepath.Base(cfg.Path))
	}
	ApplyRuntime(cfg, d.in.log)
	d.close()
	d.cfg, d.server, d.client, d.clientInputs = cfg, nd.server, nd.client, nd.clientInputs
	d.initial, d.prog, d.js, d.css, d.assets = nd.initial, nil, nd.js, nd.css, nd.assets
	in := devserver.Inputs{Server: set(nd.initial.Inputs), Client: nd.clientInputs, PublicDir: cfg.App.PublicDir, ConfigFile: cfg.Path}
	return in, nil
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
	if !reflect.DeepEqual(old.Fleet, cfg.Fleet) || old.Cache.Redis != cfg.Cache.Redis {
		s = append(s, "[fleet]")
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
