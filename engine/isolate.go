package engine

import (
	"bext/intl"
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"github.com/dop251/goja"

	"bext/engine/fastpath"
	"bext/engine/node"
	"bext/web"
	"bext/web/webidl"
)

// Isolate is one goja runtime running one Program, plus its host APIs.
// It is owned by one goroutine: NewIsolate, Render, SetAssets and Close must
// not be called concurrently. Console may be called from anywhere.
type Isolate struct {
	rt        *goja.Runtime
	prog      *Program
	opts      Options
	log       *slog.Logger
	console   *consoleRing
	logBucket logBucket // rate of console lines into the log
	// renderAlloc is what the render running now allocated through the
	// checked built-ins (see account).
	renderAlloc int64
	start       time.Time

	render       goja.Callable
	handler      *goja.Object  // the entry's default export, for the fetch-handler contract
	handlerFn    goja.Callable // its fetch method (render is nil then)
	env          *goja.Object  // the env argument of the handler
	stringify    goja.Callable
	uint8Ctor    goja.Value
	promiseProto *goja.Object
	bext         *goja.Object // globalThis.__bext
	loop         eventLoop
	web          *webidl.Realm
	ctx          context.Context // of the render (or boot) running now; see Context
	wlog         *slog.Logger    // log with worker=id, for the Web platform

	dead   *RenderError // first fatal error; every later Render returns it
	closed bool

	// interrupt bookkeeping shared with context.AfterFunc (see runJS)
	imu     sync.Mutex
	running bool
	runs    uint64 // calls of runJS so far
}

// Default limits.
const (
	defaultInterruptGrace = time.Second
	defaultBootTimeout    = 10 * time.Second
	defaultMaxCallStack   = 4000
)

// ErrIsolateDead is the Cause of renders refused by an isolate that has
// already had a fatal error or was closed: replace the isolate.
var ErrIsolateDead = errors.New("engine: isolate is dead after a fatal error or Close; make a new one")

// NewIsolate makes a runtime, installs the host APIs, runs the program and
// finds the render function: globalThis.render if the bundle sets it, else
// the entry's default export, else its named export `render`. Errors are
// *BootError. Timers the bundle schedules while loading are dropped.
func NewIsolate(p *Program, o Options) (*Isolate, error) {
	if o.InterruptGrace <= 0 {
		o.InterruptGrace = defaultInterruptGrace
	}
	if o.MaxCallStackSize <= 0 {
		o.MaxCallStackSize = defaultMaxCallStack
	}
	i := &Isolate{rt: goja.New(), prog: p, opts: o, log: o.Log, console: newConsoleRing(o.ConsoleLines), start: time.Now()}
	if i.log == nil {
		i.log = slog.Default()
	}
	i.rt.SetMaxCallStackSize(o.MaxCallStackSize)
	if err := i.installHost(); err != nil {
		return nil, &BootError{Message: "engine: setting up the host APIs failed: " + err.Error()}
	}
	if err := i.boot(); err != nil {
		return nil, err
	}
	return i, nil
}

func (i *Isolate) boot() error {
	limit := i.opts.bootTimeout
	if limit <= 0 {
		limit = defaultBootTimeout
	}
	ctx, cancel := context.WithTimeout(context.Background(), limit)
	defer cancel()
	var fn goja.Callable
	_, rerr := i.runJS(ctx, func() (*Response, error) {
		defer i.loop.reset() // on the JS goroutine: an abandoned boot still owns the loop
		if _, err := i.rt.RunProgram(i.prog.prog); err != nil {
			return nil, err
		}
		fn = i.findRender()
		if fn == nil {
			i.handler, i.handlerFn = i.findHandler()
		}
		return nil, nil
	})
	if rerr != nil {
		msg := "the server bundle " + i.prog.Name + " threw while loading: " + rerr.Message
		switch rerr.Kind {
		case KindTimeout, KindAbandoned:
			msg = "the server bundle " + i.prog.Name + " did not finish loading within " + limit.String() + " (an endless loop at module level?)"
		}
		return &BootError{Message: msg + "; fix the error and rebuild", Stack: rerr.Stack}
	}
	if fn == nil && i.handler == nil {
		return &BootError{Message: "the server bundle " + i.prog.Name + " defines no render function: set globalThis.render = (req) => html, `export default function render(req) {...}`, or export a fetch handler, `export default { fetch(request, env, ctx) {...} }`, in the server entry"}
	}
	i.render = fn
	return nil
}

func (i *Isolate) findRender() goja.Callable {
	g := i.rt.GlobalObject()
	if fn, ok := goja.AssertFunction(g.Get("render")); ok {
		return fn
	}
	if entry, ok := g.Get(entryGlobal).(*goja.Object); ok {
		for _, name := range []string{"default", "render"} {
			if fn, ok := goja.AssertFunction(entry.Get(name)); ok {
				return fn
			}
		}
	}
	return nil
}

func (i *Isolate) installHost() error {
	rt := i.rt
	g := rt.GlobalObject()
	for _, alias := range []string{"self", "global"} {
		if err := g.Set(alias, g); err != nil {
			return err
		}
	}
	i.uint8Ctor = g.Get("Uint8Array")
	i.promiseProto = g.Get("Promise").ToObject(rt).Get("prototype").(*goja.Object)
	if fn, ok := goja.AssertFunction(rt.Get("JSON").ToObject(rt).Get("stringify")); ok {
		i.stringify = fn
	}
	i.installConsole()
	i.installTimers()
	i.installMessageChannel()
	i.installAllocationChecks()
	i.wlog = i.log.With("worker", i.opts.WorkerID)
	i.web = web.Install(i, web.Options{UserAgent: UserAgent, Fetch: i.opts.Fetch})
	perf := rt.NewObject()
	_ = perf.Set("now", func() float64 { return float64(time.Since(i.start).Nanoseconds()) / 1e6 })
	_ = perf.Set("timeOrigin", float64(i.start.UnixNano())/1e6)
	_ = g.Set("performance", perf)

	env := rt.NewObject()
	for k, v := range i.opts.Env {
		_ = env.Set(k, v)
	}
	nodeEnvValue := "production"
	if i.opts.NodeEnv != "" {
		nodeEnvValue = i.opts.NodeEnv
	}
	if v, ok := i.opts.Env["NODE_ENV"]; ok && v != "" {
		nodeEnvValue = v
	}
	_ = env.Set("NODE_ENV", nodeEnvValue)
	proc := rt.NewObject()
	_ = proc.Set("env", env)
	_ = proc.Set("argv", rt.NewArray())
	_ = g.Set("process", proc)

	if err := fastpath.Install(rt); err != nil {
		return err
	}
	i.bext = rt.NewObject()
	_ = g.Set("__bext", i.bext)
	i.SetAssets(nil, nil)
	if i.opts.testHooks {
		_ = g.Set("__bext_test_panic", func(msg string) { panic(msg) })
	}
	if _, err := rt.RunProgram(prelude()); err != nil {
		return err
	}
	node.Install(i.web) // Node globals (Buffer, process, built-in modules), lazily
	// Intl and the locale-aware prototype methods; locale data loads on first use.
	return intl.Install(rt, intl.Options{})
}

// UserAgent is navigator.userAgent and the User-Agent of fetch.
var UserAgent = "bext"

// Runtime implements webidl.Host.
func (i *Isolate) Runtime() *goja.Runtime { return i.rt }

// Begin implements webidl.Host: an asynchronous operation of the render
// running now, completed on the event loop.
func (i *Isolate) Begin() func(func() error) { return i.loop.begin() }

// Context implements webidl.Host: the context of the render (or boot)
// running now.
func (i *Isolate) Context() context.Context {
	if i.ctx == nil {
		return context.Background()
	}
	return i.ctx
}

// Logger implements webidl.Host.
func (i *Isolate) Logger() *slog.Logger { return i.wlog }

// SetAssets publishes the client bundle's URLs to the app as
// globalThis.__bext.assets = {js: [...], css: [...]}, so a layout can emit
// <script type="module" src> and <link rel="stylesheet"> tags. Call it
// between renders (never concurrently with Render).
func (i *Isolate) SetAssets(js, css []string) {
	if i.closed || i.dead != nil {
		return
	}
	a := i.rt.NewObject()
	_ = a.Set("js", i.strArray(js))
	_ = a.Set("css", i.strArray(css))
	_ = i.bext.Set("assets", a)
}

func (i *Isolate) strArray(s []string) *goja.Object {
	vals := make([]any, len(s))
	for k, v := range s {
		vals[k] = v
	}
	return i.rt.NewArray(vals...)
}

// Console returns the newest captured console lines, oldest first. Safe to
// call concurrently with Render.
func (i *Isolate) Console() []ConsoleLine { return i.console.tail() }

// Program returns the program this isolate runs.
func (i *Isolate) Program() *Program { return i.prog }

// Close drops pending timers and the runtime. An isolate whose render was
// abandoned is left to its goroutine and only marked closed.
func (i *Isolate) Close() {
	if i.closed {
		return
	}
	i.closed = true
	if i.dead != nil && i.dead.Kind == KindAbandoned {
		return
	}
	i.loop.reset()
	i.render = nil
}
