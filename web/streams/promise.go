package streams

import (
	"github.com/dop251/goja"
)

// Promises as the Streams spec uses them ("a new promise", "resolve",
// "upon fulfillment of", "mark as handled"). Reactions go through the
// realm's original Promise.resolve and Promise.prototype.then, captured at
// install, so an app that patches them does not change how streams behave.

// promise is a promise the platform created and may resolve.
type promise struct {
	v        goja.Value
	p        *goja.Promise
	res, rej func(any) error
}

func (s *state) newPromise() *promise {
	p, res, rej := s.rt.NewPromise()
	return &promise{v: s.rt.ToValue(p), p: p, res: res, rej: rej}
}

func (p *promise) resolve(v goja.Value) {
	if v == nil {
		v = goja.Undefined()
	}
	if err := p.res(v); err != nil {
		panic(err)
	}
}

func (p *promise) reject(v goja.Value) {
	if v == nil {
		v = goja.Undefined()
	}
	if err := p.rej(v); err != nil {
		panic(err)
	}
}

func (p *promise) pending() bool { return p.p.State() == goja.PromiseStatePending }

// resolvedWith is "a promise resolved with v" (PromiseResolve(%Promise%, v)):
// v itself when it is a native promise.
func (s *state) resolvedWith(v goja.Value) goja.Value {
	if v == nil || goja.IsUndefined(v) {
		return s.resolvedUndefined()
	}
	out, err := s.promiseResolve(s.promiseCtor, v)
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			return s.rejectedWith(ex.Value())
		}
		panic(err)
	}
	return out
}

func (s *state) resolvedUndefined() goja.Value {
	p := s.newPromise()
	p.resolve(goja.Undefined())
	return p.v
}

// rejectedWith is "a promise rejected with e".
func (s *state) rejectedWith(e goja.Value) goja.Value {
	p := s.newPromise()
	p.reject(e)
	return p.v
}

// newPromiseResolved and newPromiseRejected are the same as *promise values.
func (s *state) newPromiseResolved() *promise {
	p := s.newPromise()
	p.resolve(goja.Undefined())
	return p
}

func (s *state) newPromiseRejected(e goja.Value) *promise {
	p := s.newPromise()
	p.reject(e)
	p.handled(s)
	return p
}

func (p *promise) handled(s *state) { s.setHandled(p.v) }

// fn wraps a Go reaction as a JS function. goja runs a native reaction
// with no JS frame beneath it, and then every call from Go into JS (a
// resolve function, a user's callback) drains the job queue on return,
// running later jobs before earlier ones. A JS closure around the native
// keeps a frame on the stack while the reaction's steps run.
func (s *state) fn(f func(goja.Value) goja.Value) goja.Value {
	native := s.rt.ToValue(func(c goja.FunctionCall) goja.Value {
		v := f(c.Argument(0))
		if v == nil {
			return goja.Undefined()
		}
		return v
	})
	v, err := s.tramp(goja.Undefined(), native)
	if err != nil {
		panic(err)
	}
	return v
}

// then is PerformPromiseThen(p, onFulfilled, onRejected) and returns the
// derived promise; a nil handler passes the value (or the reason) through.
func (s *state) then(p goja.Value, onF, onR func(goja.Value) goja.Value) goja.Value {
	f, r := goja.Undefined(), goja.Undefined()
	if onF != nil {
		f = s.fn(onF)
	}
	if onR != nil {
		r = s.fn(onR)
	}
	out, err := s.thenFn(p, f, r)
	if err != nil {
		panic(err)
	}
	return out
}

// upon reacts to p and drops the result; a rejection with no onR handler
// is ignored (the derived promise is marked handled).
func (s *state) upon(p goja.Value, onF, onR func(goja.Value)) {
	f, r := goja.Undefined(), s.noop
	if onF != nil {
		f = s.fn(func(v goja.Value) goja.Value { onF(v); return nil })
	}
	if onR != nil {
		r = s.fn(func(v goja.Value) goja.Value { onR(v); return nil })
	}
	if _, err := s.thenFn(p, f, r); err != nil {
		panic(err)
	}
}

// setHandled marks p as handled ([[PromiseIsHandled]] = true).
func (s *state) setHandled(p goja.Value) {
	if _, err := s.thenFn(p, goja.Undefined(), s.noop); err != nil {
		panic(err)
	}
}

// microtask queues f as a promise job, as "queue a microtask" does:
// each call queues one job (a reaction to an already fulfilled promise,
// so jobs and calls keep the same order) and every job runs the oldest
// waiting f, so no function object is made per call.
func (s *state) microtask(f func()) {
	s.fifo = append(s.fifo, f)
	if _, err := s.thenFn(s.resolved, s.fifoRun, s.noop); err != nil {
		panic(err)
	}
}

func (s *state) runFIFO() {
	f := s.fifo[s.fifoHead]
	s.fifo[s.fifoHead] = nil
	s.fifoHead++
	if s.fifoHead == len(s.fifo) {
		s.fifo, s.fifoHead = s.fifo[:0], 0
	}
	f()
}

// uponValue reacts to "a promise resolved with v": a non-object settles
// in a microtask without making a promise.
func (s *state) uponValue(v goja.Value, onF, onR func(goja.Value)) {
	if _, isObj := v.(*goja.Object); isObj {
		s.upon(s.resolvedWith(v), onF, onR)
		return
	}
	if v == nil {
		v = goja.Undefined()
	}
	s.microtask(func() { onF(v) })
}

// inJS reports whether JS is on the stack (so calls into JS will not run
// promise jobs when they return).
func (s *state) inJS() bool {
	s.stack = s.rt.CaptureCallStack(0, s.stack[:0])
	return len(s.stack) > 0
}

// goTask runs f in a microtask shared with every other goTask queued
// before it runs: the cheap way to settle reads and pulls that only Go
// observes (a Go Reader, a Go Source), one promise job per batch.
func (s *state) goTask(f func()) {
	s.tasks = append(s.tasks, f)
	if s.tasksQueued {
		return
	}
	s.tasksQueued = true
	if _, err := s.thenFn(s.resolved, s.drain, s.noop); err != nil {
		panic(err)
	}
}

func (s *state) drainTasks() {
	for i := 0; i < len(s.tasks); i++ {
		f := s.tasks[i]
		s.tasks[i] = nil
		f()
	}
	s.tasks = s.tasks[:0]
	s.tasksQueued = false
}

// enter runs f inside a JS call frame, so that promise jobs its steps
// queue run when it returns rather than in the middle of its steps (goja
// runs jobs whenever a call from Go into JS returns at the top level, as
// it does in completions of Go I/O). It returns a JS exception f threw.
func (s *state) enter(f func()) goja.Value {
	if s.inJS() {
		if ex, ok := try(f); !ok {
			return ex
		}
		return nil
	}
	_, err := s.enterFn(goja.Undefined(), s.rt.ToValue(func(goja.FunctionCall) goja.Value { f(); return goja.Undefined() }))
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			return ex.Value()
		}
		panic(err)
	}
	return nil
}

// call invokes fn and reports a JS exception as (nil, thrown, false);
// uncatchable errors (interrupts) keep unwinding.
func (s *state) call(fn goja.Callable, this goja.Value, args ...goja.Value) (goja.Value, goja.Value, bool) {
	v, err := fn(this, args...)
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			return nil, ex.Value(), false
		}
		panic(err)
	}
	return v, nil, true
}

// promiseCall invokes a WebIDL callback that returns a promise: a throw
// becomes a rejected promise, a value a promise resolved with it.
func (s *state) promiseCall(fn goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, thrown, ok := s.call(fn, this, args...)
	if !ok {
		return s.rejectedWith(thrown)
	}
	return s.resolvedWith(v)
}

// thrown extracts the JS value of a panic raised by a conversion or a
// spec step, or reports false for Go panics.
func thrown(x any) (goja.Value, bool) {
	switch e := x.(type) {
	case *goja.Exception:
		return e.Value(), true
	case goja.Value:
		return e, true
	}
	return nil, false
}

// try runs f and returns what it threw.
func try(f func()) (v goja.Value, ok bool) {
	defer func() {
		if x := recover(); x != nil {
			t, isJS := thrown(x)
			if !isJS {
				panic(x)
			}
			v, ok = t, false
		}
	}()
	f()
	return nil, true
}

// promiseMethod makes a promise-returning operation: as WebIDL says, an
// exception (a failed conversion, a brand check) becomes a rejected
// promise.
func (s *state) promiseMethod(f func(c goja.FunctionCall) goja.Value) func(goja.FunctionCall) goja.Value {
	return func(c goja.FunctionCall) (ret goja.Value) {
		defer func() {
			if x := recover(); x != nil {
				t, ok := thrown(x)
				if !ok {
					panic(x)
				}
				ret = s.rejectedWith(t)
			}
		}()
		return f(c)
	}
}
