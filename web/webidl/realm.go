package webidl

import (
	"context"
	"log/slog"

	"github.com/dop251/goja"
)

// Host is what an isolate gives the Web platform: its runtime and a way to
// finish asynchronous work on the runtime's goroutine. engine.Isolate
// implements it. Everything here is called on the JS goroutine unless said
// otherwise.
type Host interface {
	// Runtime is the isolate's goja runtime.
	Runtime() *goja.Runtime
	// Begin registers an asynchronous operation (I/O on another goroutine)
	// that the render's event loop waits for. The returned function must be
	// called exactly once, from any goroutine, with the continuation to run
	// on the JS goroutine (a later call is ignored). When the render has
	// ended meanwhile, the continuation is dropped: do the I/O under
	// Context() so it stops too.
	Begin() func(func() error)
	// Context ends when the render (or boot) running now ends: it settled,
	// timed out, or its client went away.
	Context() context.Context
	// Logger logs with the worker id attached.
	Logger() *slog.Logger
}

// Realm is the Web platform's state in one runtime: the host, the classes
// installed so far and whatever each spec package keeps per runtime. It
// belongs to the runtime's goroutine.
type Realm struct {
	Host
	RT *goja.Runtime

	data    map[any]any
	lazy    map[string]bool // globals still waiting for their first access
	promise struct {
		resolve, then goja.Callable
	}
}

// NewRealm makes the realm of h's runtime.
func NewRealm(h Host) *Realm {
	return &Realm{Host: h, RT: h.Runtime(), data: map[any]any{}, lazy: map[string]bool{}}
}

// Value returns the per-runtime value stored under key, making it with mk
// on first use. Spec packages use it for their installed classes:
//
//	type key struct{}
//	st := webidl.Value(r, key{}, func() *state { return install(r) })
func Value[T any](r *Realm, key any, mk func() T) T {
	if v, ok := r.data[key]; ok {
		return v.(T)
	}
	v := mk()
	r.data[key] = v
	return v
}

// Lookup returns the per-runtime value stored under key, if any.
func Lookup[T any](r *Realm, key any) (T, bool) {
	v, ok := r.data[key].(T)
	return v, ok
}

// Lazy defines global name as an accessor that calls install on first
// access. install must call r.Global for name (and may for others); an
// assignment before the first access replaces the global without
// installing anything, as it would replace a real global.
func (r *Realm) Lazy(name string, install func()) {
	rt := r.RT
	r.lazy[name] = true
	get := rt.ToValue(func(goja.FunctionCall) goja.Value {
		if r.lazy[name] {
			install()
		}
		if r.lazy[name] { // install forgot it: fail loudly, not silently undefined
			panic(rt.NewTypeError("bext: installing global " + name + " failed"))
		}
		return rt.GlobalObject().Get(name)
	})
	set := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		delete(r.lazy, name)
		_ = rt.GlobalObject().DefineDataProperty(name, c.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return goja.Undefined()
	})
	_ = rt.GlobalObject().DefineAccessorProperty(name, get, set, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// Global defines global name = v as WebIDL defines interface objects and
// functions on the global (writable, configurable, not enumerable), unless
// the app already replaced a lazy global of that name.
func (r *Realm) Global(name string, v any) {
	if !r.lazy[name] && r.RT.GlobalObject().Get(name) != nil {
		return // the app (or the host) defined it already
	}
	delete(r.lazy, name)
	_ = r.RT.GlobalObject().DefineDataProperty(name, r.RT.ToValue(v), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// Go runs work on a goroutine of its own with the render's context and
// then runs the continuation it returns on the JS goroutine (dropped if the
// render ended first). It is the one way spec packages do blocking I/O.
func (r *Realm) Go(work func(ctx context.Context) func() error) {
	done := r.Begin()
	ctx := r.Context()
	go func() { done(work(ctx)) }()
}

// NewPromise returns a pending promise and its resolving functions.
// Call them on the JS goroutine only. Called from Go with no JS on the
// stack (a completion of Go), they run the promise jobs that follow, the
// app's continuations; what stops those — an interrupt, a stack overflow —
// is thrown on as a Go panic so that the render ends with it, instead of
// being lost and leaving the continuation half run.
func (r *Realm) NewPromise() (*goja.Promise, func(any), func(any)) {
	p, resolve, reject := r.RT.NewPromise()
	return p, func(v any) { mustRun(resolve(v)) }, func(v any) { mustRun(reject(v)) }
}

// mustRun panics with err, if any: resolving a promise fails only when
// its jobs were stopped (JS exceptions in them reject promises instead).
func mustRun(err error) {
	if err != nil {
		panic(err)
	}
}

// Resolved is Promise.resolve(v).
func (r *Realm) Resolved(v any) goja.Value {
	p, resolve, _ := r.NewPromise()
	resolve(v)
	return r.RT.ToValue(p)
}

// Rejected is Promise.reject(v) (v is usually an error object).
func (r *Realm) Rejected(v any) goja.Value {
	p, _, reject := r.NewPromise()
	reject(v)
	return r.RT.ToValue(p)
}

// Then calls onFulfilled or onRejected when p (any value; non-thenables are
// resolved at once) settles, as a microtask, and returns the derived promise.
func (r *Realm) Then(p goja.Value, onFulfilled, onRejected func(goja.Value) goja.Value) goja.Value {
	if r.promise.then == nil {
		proto := r.RT.Get("Promise").ToObject(r.RT)
		r.promise.resolve, _ = goja.AssertFunction(proto.Get("resolve"))
		then := proto.Get("prototype").ToObject(r.RT).Get("then")
		r.promise.then, _ = goja.AssertFunction(then)
	}
	ctor := r.RT.Get("Promise")
	pp, err := r.promise.resolve(ctor, p)
	if err != nil {
		panic(err)
	}
	wrap := func(f func(goja.Value) goja.Value) goja.Value {
		if f == nil {
			return goja.Undefined()
		}
		return r.RT.ToValue(func(c goja.FunctionCall) goja.Value { return f(c.Argument(0)) })
	}
	out, err := r.promise.then(pp, wrap(onFulfilled), wrap(onRejected))
	if err != nil {
		panic(err)
	}
	return out
}

// QueueMicrotask runs f as a promise job (after the current JS returns).
func (r *Realm) QueueMicrotask(f func()) {
	r.Then(goja.Undefined(), func(goja.Value) goja.Value { f(); return goja.Undefined() }, nil)
}
