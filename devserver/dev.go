package devserver

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// Build is the output of a rebuild, as plain data: the dev loop does not
// look inside the bundles, it hands them from the Builder to the Target.
type Build struct {
	// Server is the server bundle, ready to compile; nil after a client-only
	// rebuild (the Target keeps the bundle it runs).
	Server []byte
	// Client is the browser bundle; nil when the app has none.
	Client *Client
	// Inputs holds the metafile inputs of the bundles rebuilt (Server nil
	// after a client-only rebuild). PublicDir and ConfigFile are not used.
	Inputs Inputs
}

// Client is a built browser bundle.
type Client struct {
	Files   map[string][]byte // served under /_bext/, by name
	JS, CSS []string          // URLs the page references
}

// Builder wraps the incremental esbuild builds of the app.
type Builder interface {
	// Build rebuilds the client bundle and, when server is true, the server
	// bundle too. A failure is an *engine.BuildError (esbuild's messages).
	Build(ctx context.Context, server bool) (*Build, error)
}

// Target is the running server: its worker pool and its client assets.
type Target interface {
	// Boot compiles b.Server (or, when nil, reuses the running server
	// bundle) and boots one isolate from it with b.Client's asset URLs, as
	// a check. Nothing changes for the running workers. A failure is shown
	// with TitleBootFailed and the old workers keep serving.
	Boot(ctx context.Context, b *Build) (Deployment, error)
	// ServeClient makes c the client assets served from now on. It returns
	// false when the pages the workers render reference other asset URLs
	// than c (a stylesheet appeared, or names are hashed): the workers
	// must then be restarted with c.
	ServeClient(c *Client) bool
	// Reconfigure reloads the config file and re-applies it (rebuild, new
	// pool with the new settings). It changes nothing when it fails: a
	// *config.Error, an *engine.BuildError or a boot error. It returns the
	// inputs of the builds it made.
	Reconfigure(ctx context.Context) (Inputs, error)
}

// Deployment is a booted bundle, ready to replace the running workers.
type Deployment interface {
	// Roll restarts every worker on the new bundle (surge-first, one at a
	// time) and returns once every slot runs it, so a browser reload sent
	// afterwards cannot see the old code.
	Roll(ctx context.Context) error
}

// Browsers is where the dev loop sends live-reload events; *Hub implements
// it.
type Browsers interface {
	Reload()
	Error(ErrorOverlay)
	Clear()
}

var _ Browsers = (*Hub)(nil)

// Phase names a step of a reload, for Options.Trace.
type Phase int

const (
	// PhaseDebounce: from the last file event of a batch to the batch.
	PhaseDebounce Phase = iota
	// PhaseRebuild: the esbuild rebuild(s).
	PhaseRebuild
	// PhaseBoot: compiling the bundle and booting one isolate as a check.
	PhaseBoot
	// PhaseRestart: the rolling restart of every worker.
	PhaseRestart
	// PhaseReconfigure: a config change, end to end.
	PhaseReconfigure
)

func (p Phase) String() string {
	return [...]string{"debounce", "rebuild", "boot", "restart", "reconfigure"}[p]
}

// Options configure Run.
type Options struct {
	// Dir is the app root; log lines show paths relative to it.
	Dir string
	// Debounce is the trailing batch window (watch_debounce_ms).
	Debounce time.Duration
	// Inputs are those of the initial build (with PublicDir and, in dev,
	// ConfigFile), for classifying the first batch.
	Inputs Inputs
	// Hub receives reload, error and ok events (a *Hub); nil when no
	// browser listens (serve with watch_dirs).
	Hub Browsers
	// Logf prints one line such as
	// "[bext] Workers restarted (file change: src/components/Header.tsx)".
	Logf func(format string, args ...any)
	// Trace, if set, is called with the duration of each phase of a reload
	// (the latency benchmark).
	Trace func(Phase, time.Duration)
}

// Run is the dev loop. It reads w until ctx ends, batches the events,
// classifies each batch against the inputs of the last successful builds,
// and rebuilds, restarts and reloads accordingly (see Change). Batches are
// handled one at a time; events that arrive meanwhile form the next batch.
// Run closes w before it returns.
func Run(ctx context.Context, w FileWatcher, b Builder, t Target, o Options) {
	if o.Logf == nil {
		o.Logf = func(string, ...any) {}
	}
	l := &loop{o: o, b: b, t: t, inputs: o.Inputs}
	in := make(chan string)
	var wg sync.WaitGroup
	wg.Go(func() {
		defer close(in)
		for p := range w.Events() {
			l.lastEvent.Store(time.Now().UnixNano())
			in <- p
		}
	})
	wg.Go(func() {
		for err := range w.Errors() {
			o.Logf("[bext] watch: %v", err)
		}
	})
	batches := NewBatcher(in, o.Debounce).Batches()
	stop := context.AfterFunc(ctx, func() { w.Close() })
	defer stop()
	for batch := range batches {
		if ctx.Err() != nil {
			continue // closing: drain what the batcher flushes
		}
		if last := l.lastEvent.Load(); last != 0 {
			l.trace(PhaseDebounce, time.Since(time.Unix(0, last)))
		}
		l.handle(ctx, batch)
	}
	w.Close()
	wg.Wait()
}

type loop struct {
	o         Options
	b         Builder
	t         Target
	inputs    Inputs
	broken    Change // scope of the error the overlay shows; ChangeNone if none
	lastEvent atomic.Int64
}

func (l *loop) trace(p Phase, d time.Duration) {
	if l.o.Trace != nil {
		l.o.Trace(p, d)
	}
}

// timed runs f and traces its duration as p.
func timed[T any](l *loop, p Phase, f func() (T, error)) (T, error) {
	start := time.Now()
	v, err := f()
	l.trace(p, time.Since(start))
	return v, err
}

func (l *loop) handle(ctx context.Context, batch []string) {
	change, cause := Classify(batch, l.inputs)
	rel := RelPath(l.o.Dir, cause)
	switch change {
	case ChangeClient:
		l.client(ctx, rel)
	case ChangeServer:
		l.server(ctx, rel)
	case ChangeConfig:
		l.config(ctx, rel)
	}
}

// client rebuilds the browser bundle and reloads the browsers; the workers
// keep running unless the page must reference other asset URLs.
func (l *loop) client(ctx context.Context, rel string) {
	b, err := timed(l, PhaseRebuild, func() (*Build, error) { return l.b.Build(ctx, false) })
	if err != nil {
		l.fail(ChangeClient, TitleBuildFailed, rel, err)
		return
	}
	if b.Client != nil && !l.t.ServeClient(b.Client) {
		// The assets are already swapped; the pages must follow.
		if !l.deploy(ctx, ChangeClient, rel, &Build{Client: b.Client}) {
			return
		}
	} else {
		l.o.Logf("[bext] Client rebuilt (file change: %s)", rel)
	}
	l.inputs.Client = b.Inputs.Client
	l.ok(ChangeClient)
}

// server rebuilds both bundles, boots the new server bundle and, only if it
// boots, rolls the workers over to it.
func (l *loop) server(ctx context.Context, rel string) {
	b, err := timed(l, PhaseRebuild, func() (*Build, error) { return l.b.Build(ctx, true) })
	if err != nil {
		l.fail(ChangeServer, TitleBuildFailed, rel, err)
		return
	}
	if !l.deploy(ctx, ChangeServer, rel, b) {
		return
	}
	l.inputs.Server = b.Inputs.Server
	if b.Client != nil {
		l.inputs.Client = b.Inputs.Client
	}
	l.ok(ChangeServer)
}

// deploy boots b and rolls the workers over to it; it reports success.
func (l *loop) deploy(ctx context.Context, scope Change, rel string, b *Build) bool {
	d, err := timed(l, PhaseBoot, func() (Deployment, error) { return l.t.Boot(ctx, b) })
	if err != nil {
		l.fail(scope, TitleBootFailed, rel, err)
		return false
	}
	if b.Server != nil && b.Client != nil {
		// Only now that the bundle boots: the pages of a bundle that
		// failed must keep the client they were built with.
		l.t.ServeClient(b.Client)
	}
	_, err = timed(l, PhaseRestart, func() (struct{}, error) { return struct{}{}, d.Roll(ctx) })
	if err != nil {
		if ctx.Err() == nil {
			l.o.Logf("[bext] Restart failed (file change: %s): %v", rel, err)
		}
		return false
	}
	l.o.Logf("[bext] Workers restarted (file change: %s)", rel)
	return true
}

func (l *loop) config(ctx context.Context, rel string) {
	in, err := timed(l, PhaseReconfigure, func() (Inputs, error) { return l.t.Reconfigure(ctx) })
	if err != nil {
		l.fail(ChangeConfig, TitleConfigFailed, rel, err)
		return
	}
	l.inputs = in
	l.o.Logf("[bext] Config re-applied, workers restarted (config change: %s)", rel)
	l.ok(ChangeConfig)
}

// fail shows err in the overlay; the old workers keep serving.
func (l *loop) fail(scope Change, title, rel string, err error) {
	e := OverlayFor(title, err)
	l.o.Logf("[bext] %s (file change: %s); the old workers keep serving:\n%s", e.Title, rel, e.Text)
	l.broken = max(l.broken, scope)
	if l.o.Hub != nil {
		l.o.Hub.Error(e)
	}
}

// ok reloads the browsers after a successful change of the given scope. A
// rebuild of a wider scope also fixes the narrower ones (a server rebuild
// rebuilds the client), so the overlay is cleared when scope covers what was
// broken; a client rebuild does not clear a server error still pending.
func (l *loop) ok(scope Change) {
	clear := l.broken != ChangeNone && scope >= l.broken
	if clear {
		l.broken = ChangeNone
	}
	if l.o.Hub == nil {
		return
	}
	if clear {
		l.o.Hub.Clear()
	} else {
		l.o.Hub.Reload()
	}
}
