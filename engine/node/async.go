package node

import (
	"context"

	"github.com/dop251/goja"
)

// This file holds what needs goja's async context tracker: the
// process.nextTick queue and AsyncLocalStorage.
//
// goja runs promise jobs itself when the outermost call into JS returns,
// and offers one hook, AsyncContextTracker: Grab when a reaction is
// registered, Resumed just before its handler runs, Exited after. bext
// installs one tracker per runtime, the first time a bundle uses
// nextTick or AsyncLocalStorage, and uses it for both:
//
//   - Node runs the nextTick queue before promise jobs: a tick queued by
//     synchronous code (a render, a timer, an I/O completion) runs before
//     any promise reaction that is already queued. Resumed drains such
//     ticks before the first handler runs; a promise job queued along
//     with the first tick drains them when no reaction runs at all. A
//     tick queued from inside a promise job runs, as in Node, after the
//     jobs queued so far (Node waits for the whole microtask queue; bext
//     for the jobs queued before the tick — the one ordering that differs).
//   - AsyncLocalStorage: the current context (a small immutable map from
//     storage to store) is captured by Grab and restored by Resumed, so a
//     store survives awaits and then callbacks; nextTick callbacks and
//     timers capture it too. A context belongs to the render it was made
//     in: a store left by enterWith in one render is never seen by the
//     next.

type tick struct {
	fn   goja.Callable
	args []goja.Value
	ctx  *frame
}

type ticker struct {
	s        *state
	queue    []tick
	syncMark bool          // ticks queued outside a promise job wait for Resumed
	inJob    bool          // a promise reaction handler is running
	schedule goja.Callable // queues a promise job that drains the queue
	draining bool
}

// frame is one async context: store values by storage, immutable.
type frame struct {
	keys   []*goja.Object
	values []goja.Value
	render context.Context // the render (or boot) it was made in
}

func (f *frame) get(k *goja.Object) (goja.Value, bool) {
	if f == nil {
		return nil, false
	}
	for i, key := range f.keys {
		if key == k {
			return f.values[i], true
		}
	}
	return nil, false
}

func (f *frame) with(k *goja.Object, v goja.Value, render context.Context) *frame {
	n := &frame{render: render}
	if f != nil {
		for i, key := range f.keys {
			if key != k {
				n.keys = append(n.keys, key)
				n.values = append(n.values, f.values[i])
			}
		}
	}
	if v != nil {
		n.keys = append(n.keys, k)
		n.values = append(n.values, v)
	}
	return n
}

type asyncContext struct {
	cur *frame
}

// tracker implements goja.AsyncContextTracker for one runtime.
type tracker struct{ s *state }

func (t tracker) Grab() any { return t.s.current() }

func (t tracker) Resumed(o any) {
	s := t.s
	f, _ := o.(*frame)
	if tk := s.ticks; tk != nil {
		if tk.syncMark && !tk.draining {
			tk.syncMark = false
			tk.drain()
		}
		tk.inJob = true
	}
	if s.als != nil {
		s.als.cur = f
	}
}

func (t tracker) Exited() {
	if t.s.ticks != nil {
		t.s.ticks.inJob = false
	}
	if t.s.als != nil {
		t.s.als.cur = nil
	}
}

func (s *state) track() {
	if s.als == nil {
		s.als = &asyncContext{}
	}
	if s.ticks == nil {
		s.ticks = &ticker{s: s}
		fn, err := s.r.RT.RunString(`(function (drain) { var p = Promise.resolve(); return function () { p.then(drain); }; })`)
		if err != nil {
			panic(err)
		}
		f, _ := goja.AssertFunction(fn)
		sched, err := f(goja.Undefined(), s.r.RT.ToValue(func(goja.FunctionCall) goja.Value {
			s.ticks.drain()
			return goja.Undefined()
		}))
		if err != nil {
			panic(err)
		}
		s.ticks.schedule, _ = goja.AssertFunction(sched)
		s.r.RT.SetAsyncContextTracker(tracker{s})
	}
}

// current is the async context of the code running now (nil: none, or
// one left over from an earlier render).
func (s *state) current() *frame {
	if s.als == nil || s.als.cur == nil {
		return nil
	}
	if s.als.cur.render != s.r.Context() {
		s.als.cur = nil
	}
	return s.als.cur
}

// runIn runs fn with the async context f, restoring the previous one.
func (s *state) runIn(f *frame, fn func() goja.Value) goja.Value {
	s.track()
	prev := s.als.cur
	s.als.cur = f
	defer func() { s.als.cur = prev }()
	return fn()
}

func (s *state) nextTick(call goja.FunctionCall) goja.Value {
	fn, ok := goja.AssertFunction(call.Argument(0))
	if !ok {
		panic(s.typeError("ERR_INVALID_ARG_TYPE", "The \"callback\" argument must be of type function. Received "+describe(call.Argument(0))))
	}
	s.track()
	tk := s.ticks
	var args []goja.Value
	if len(call.Arguments) > 1 {
		args = append(args, call.Arguments[1:]...)
	}
	first := len(tk.queue) == 0
	tk.queue = append(tk.queue, tick{fn: fn, args: args, ctx: s.current()})
	if first && !tk.draining {
		if !tk.inJob {
			tk.syncMark = true
		}
		if _, err := tk.schedule(goja.Undefined()); err != nil {
			panic(err)
		}
	}
	return goja.Undefined()
}

// drain runs queued ticks, including ticks they queue. An exception in a
// tick is rethrown from a timer (Node would make it an uncaught
// exception), so the render fails with it; the remaining ticks still run.
func (tk *ticker) drain() {
	if tk.draining {
		return
	}
	tk.draining = true
	defer func() { tk.draining = false }()
	s := tk.s
	for len(tk.queue) > 0 {
		t := tk.queue[0]
		tk.queue[0] = tick{}
		tk.queue = tk.queue[1:]
		var err error
		s.runIn(t.ctx, func() goja.Value {
			_, err = t.fn(goja.Undefined(), t.args...)
			return nil
		})
		if err != nil {
			s.rethrowLater(err)
		}
	}
	tk.queue = nil
	tk.syncMark = false
}

func (s *state) rethrowLater(err error) {
	rt := s.r.RT
	var v goja.Value
	if ex, ok := err.(*goja.Exception); ok {
		v = ex.Value()
	} else {
		v = rt.NewGoError(err)
	}
	st, ok := goja.AssertFunction(rt.Get("setTimeout"))
	if !ok {
		return
	}
	_, _ = st(goja.Undefined(), rt.ToValue(func(goja.FunctionCall) goja.Value { panic(v) }), rt.ToValue(0))
}

// asyncHooksNative is the Go half of node:async_hooks.
func asyncHooksNative(s *state, n *goja.Object) {
	rt := s.r.RT
	s.track()
	key := func(v goja.Value) *goja.Object {
		o, ok := v.(*goja.Object)
		if !ok {
			panic(rt.NewTypeError("AsyncLocalStorage: bad receiver"))
		}
		return o
	}
	_ = n.Set("get", func(c goja.FunctionCall) goja.Value {
		if v, ok := s.current().get(key(c.Argument(0))); ok {
			return v
		}
		return goja.Undefined()
	})
	// run(als, store, fn, thisArg, args)
	_ = n.Set("run", func(c goja.FunctionCall) goja.Value {
		f := s.current().with(key(c.Argument(0)), c.Argument(1), s.r.Context())
		return s.runIn(f, func() goja.Value { return s.apply(c.Argument(2), c.Argument(3), c.Argument(4)) })
	})
	// exit(als, fn, thisArg, args)
	_ = n.Set("exit", func(c goja.FunctionCall) goja.Value {
		f := s.current().with(key(c.Argument(0)), nil, s.r.Context())
		return s.runIn(f, func() goja.Value { return s.apply(c.Argument(1), c.Argument(2), c.Argument(3)) })
	})
	_ = n.Set("enter", func(c goja.FunctionCall) goja.Value {
		s.als.cur = s.current().with(key(c.Argument(0)), c.Argument(1), s.r.Context())
		return goja.Undefined()
	})
	_ = n.Set("snapshot", func(goja.FunctionCall) goja.Value {
		return rt.ToValue(&snapshot{s.current()})
	})
	// runSnapshot(snap, fn, thisArg, args)
	_ = n.Set("runSnapshot", func(c goja.FunctionCall) goja.Value {
		sn, _ := c.Argument(0).Export().(*snapshot)
		var f *frame
		if sn != nil && sn.f != nil && sn.f.render == s.r.Context() {
			f = sn.f
		}
		return s.runIn(f, func() goja.Value { return s.apply(c.Argument(1), c.Argument(2), c.Argument(3)) })
	})
}

type snapshot struct{ f *frame }

// apply calls fn with this and the elements of the array args.
func (s *state) apply(fn, this, args goja.Value) goja.Value {
	var list []goja.Value
	if o, ok := args.(*goja.Object); ok {
		n := int(o.Get("length").ToInteger())
		for i := 0; i < n; i++ {
			list = append(list, o.Get(itoa(i)))
		}
	}
	return s.call(fn, this, list...)
}
