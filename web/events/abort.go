package events

import (
	"context"
	"time"
	"weak"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Signal is an AbortSignal (DOM §3.2) seen from Go. Its methods run on the
// JS goroutine.
type Signal struct {
	target
	st         *state
	aborted    bool
	reason     goja.Value
	algorithms []*algorithm
	handlers   map[string]*handler

	// AbortSignal.any: a dependent signal follows its sources. A source
	// holds its dependents weakly, and strongly (pinned) only while a
	// dependent has abort listeners or algorithms, as the standard's
	// garbage-collection rules say.
	dependent  bool
	sources    []*Signal
	dependents []weak.Pointer[Signal]
	pinned     map[*Signal]struct{}
	listened   bool
}

type algorithm struct {
	fn func(reason goja.Value)
}

// SignalOf returns the Signal of v, if v is an AbortSignal.
func SignalOf(v goja.Value) (*Signal, bool) { return webidl.Slot[*Signal](v) }

// Object is the AbortSignal object.
func (s *Signal) Object() *goja.Object { return s.obj }

// Aborted reports whether the signal is aborted.
func (s *Signal) Aborted() bool { return s.aborted }

// Reason is the abort reason (undefined while not aborted).
func (s *Signal) Reason() goja.Value {
	if s.reason == nil {
		return goja.Undefined()
	}
	return s.reason
}

// OnAbort adds an abort algorithm: fn runs on the JS goroutine when the
// signal is aborted, before the abort event is dispatched to JS listeners
// (the standard's order), with the reason. Nothing happens if the signal
// is already aborted: check Aborted first. remove takes fn out (call it
// when the operation the signal guards is over, so a long-lived signal
// does not keep it).
func (s *Signal) OnAbort(fn func(reason goja.Value)) (remove func()) {
	if s.aborted {
		return func() {}
	}
	a := &algorithm{fn: fn}
	s.algorithms = append(s.algorithms, a)
	s.retain()
	return func() {
		for i, x := range s.algorithms {
			if x == a {
				s.algorithms = append(s.algorithms[:i:i], s.algorithms[i+1:]...)
				s.retain()
				return
			}
		}
	}
}

// NewController makes an AbortSignal whose abort function is Go's, the
// signal of a render's Request: abort(nil) aborts with an AbortError
// DOMException. Call abort on the JS goroutine.
func NewController(r *webidl.Realm) (s *Signal, abort func(reason goja.Value)) {
	st := install(r)
	s = st.newSignal()
	return s, func(reason goja.Value) { s.abort(reason) }
}

func (st *state) newSignal() *Signal {
	o := st.signal.New(nil)
	s := &Signal{st: st, handlers: map[string]*handler{}}
	s.obj = o
	s.onListeners = func(int) { s.retain() }
	st.r.SetSlot(o, s)
	return s
}

// retain pins a dependent signal in its sources while it has abort
// listeners or algorithms, and unpins it when it has none.
func (s *Signal) retain() {
	if !s.dependent {
		return
	}
	want := len(s.algorithms) > 0
	for _, l := range s.listeners {
		if l.typ == "abort" {
			want = true
			break
		}
	}
	if want == s.listened {
		return
	}
	s.listened = want
	for _, src := range s.sources {
		if want {
			if src.pinned == nil {
				src.pinned = map[*Signal]struct{}{}
			}
			src.pinned[s] = struct{}{}
		} else {
			delete(src.pinned, s)
		}
	}
}

// abort is the standard's "signal abort".
func (s *Signal) abort(reason goja.Value) {
	if s.aborted {
		return
	}
	if reason == nil || goja.IsUndefined(reason) {
		reason = s.st.r.DOMException("This operation was aborted", "AbortError")
	}
	s.aborted, s.reason = true, reason
	var deps []*Signal
	for _, w := range s.dependents {
		if d := w.Value(); d != nil && !d.aborted {
			d.aborted, d.reason = true, reason
			deps = append(deps, d)
		}
	}
	s.dependents, s.pinned = nil, nil
	s.runAbortSteps()
	for _, d := range deps {
		d.runAbortSteps()
	}
}

func (s *Signal) runAbortSteps() {
	algos := s.algorithms
	s.algorithms = nil
	for _, a := range algos {
		a.fn(s.reason)
	}
	s.st.dispatch(&s.target, s.st.newTrusted("abort"))
}

// maxTimeout is the longest AbortSignal.timeout that is scheduled at all
// (about 35 years; a Duration of much more would overflow).
const maxTimeout = 1 << 40

// timeout aborts s with a TimeoutError after ms milliseconds, on the
// render's event loop (see the package comment).
func (st *state) timeout(s *Signal, ms int64) {
	if ms >= maxTimeout {
		return // decades: it can never fire within a render
	}
	fire := func() {
		s.abort(st.r.DOMException("The operation was aborted due to timeout", "TimeoutError"))
	}
	if st.setTimeout != nil {
		cb := st.r.RT.ToValue(func(goja.FunctionCall) goja.Value { fire(); return goja.Undefined() })
		if _, err := st.setTimeout(goja.Undefined(), cb, st.r.RT.ToValue(ms)); err != nil {
			panic(err)
		}
		return
	}
	st.r.Go(func(ctx context.Context) func() error {
		t := time.NewTimer(time.Duration(ms) * time.Millisecond)
		defer t.Stop()
		select {
		case <-t.C:
			return func() error { fire(); return nil }
		case <-ctx.Done():
			return nil
		}
	})
}

func (st *state) installAbort() {
	r, rt := st.r, st.r.RT
	sc := r.NewClass("AbortSignal", 0, st.eventTarget, nil)
	st.signal = sc
	this := func(v goja.Value) *Signal { return webidl.This[*Signal](r, v) }
	sc.Getter("aborted", func(v goja.Value) goja.Value { return rt.ToValue(this(v).aborted) })
	sc.Getter("reason", func(v goja.Value) goja.Value { return this(v).Reason() })
	sc.Method("throwIfAborted", 0, func(call goja.FunctionCall) goja.Value {
		if s := this(call.This); s.aborted {
			panic(s.reason)
		}
		return goja.Undefined()
	})
	st.eventHandler(sc, "onabort", "abort", func(t *target) map[string]*handler {
		s, ok := webidl.Slot[*Signal](t.obj)
		if !ok {
			r.TypeError("Illegal invocation")
		}
		return s.handlers
	})
	sc.Static("abort", 0, func(call goja.FunctionCall) goja.Value {
		s := st.newSignal()
		s.abort(call.Argument(0))
		return s.obj
	})
	sc.Static("timeout", 1, func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) < 1 {
			r.TypeError("Failed to execute 'timeout' on 'AbortSignal': 1 argument required, but only 0 present.")
		}
		ms := r.Integer(call.Argument(0), 64, false, webidl.EnforceRange)
		s := st.newSignal()
		st.timeout(s, ms)
		return s.obj
	})
	sc.Static("any", 1, func(call goja.FunctionCall) goja.Value {
		if len(call.Arguments) < 1 {
			r.TypeError("Failed to execute 'any' on 'AbortSignal': 1 argument required, but only 0 present.")
		}
		var signals []*Signal
		r.Iterate(call.Argument(0), func(v goja.Value) {
			s, ok := SignalOf(v)
			if !ok {
				r.TypeError("Failed to execute 'any' on 'AbortSignal': Failed to convert value to 'AbortSignal'.")
			}
			signals = append(signals, s)
		})
		return st.any(signals).obj
	})
	r.Global("AbortSignal", sc.Ctor)

	cc := r.NewClass("AbortController", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		r.SetSlot(call.This, &controller{st.newSignal()})
		return nil
	})
	cthis := func(v goja.Value) *controller { return webidl.This[*controller](r, v) }
	cc.Getter("signal", func(v goja.Value) goja.Value { return cthis(v).signal.obj })
	cc.Method("abort", 0, func(call goja.FunctionCall) goja.Value {
		cthis(call.This).signal.abort(call.Argument(0))
		return goja.Undefined()
	})
	r.Global("AbortController", cc.Ctor)
}

type controller struct{ signal *Signal }

// any is the standard's "create a dependent abort signal".
func (st *state) any(signals []*Signal) *Signal {
	res := st.newSignal()
	for _, s := range signals {
		if s.aborted {
			res.aborted, res.reason = true, s.reason
			return res
		}
	}
	res.dependent = true
	add := func(src *Signal) {
		for _, x := range res.sources {
			if x == src {
				return
			}
		}
		res.sources = append(res.sources, src)
		// drop dependents that are gone or aborted while adding one
		live := src.dependents[:0]
		for _, w := range src.dependents {
			if d := w.Value(); d != nil && !d.aborted {
				live = append(live, w)
			}
		}
		src.dependents = append(live, weak.Make(res))
	}
	for _, s := range signals {
		if !s.dependent {
			add(s)
			continue
		}
		for _, src := range s.sources {
			add(src)
		}
	}
	return res
}
