package events

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// target is the state of an EventTarget (DOM §2.7): its listener list.
// A target here never has a parent, so an event's path is the target
// alone.
type target struct {
	obj       *goja.Object
	listeners []*listener
	// onListeners, when set, is told how many listeners the target has
	// after each change (AbortSignal keeps dependents alive with it).
	onListeners func(n int)
}

type listener struct {
	typ                    string
	callback               *goja.Object
	capture, passive, once bool
	removed                bool
	removeAbort            func() // the signal option's abort algorithm
	handler                *handler
	nativeFn               func(*event) // a listener added from Go
}

// targeter is the slot of every EventTarget object, whatever its
// interface (AbortSignal's state embeds a target).
type targeter interface{ et() *target }

func (t *target) et() *target { return t }

func (st *state) thisTarget(v goja.Value) *target { return webidl.This[targeter](st.r, v).et() }

func (st *state) installEventTarget() {
	r := st.r
	c := r.NewClass("EventTarget", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		r.SetSlot(call.This, &target{obj: call.This})
		return nil
	})
	st.eventTarget = c
	c.Method("addEventListener", 2, func(call goja.FunctionCall) goja.Value {
		t := st.thisTarget(call.This)
		if len(call.Arguments) < 2 {
			r.TypeError("Failed to execute 'addEventListener' on 'EventTarget': 2 arguments required, but only %d present.", len(call.Arguments))
		}
		typ := r.String(call.Argument(0))
		cb := st.callback(call.Argument(1), "addEventListener")
		l := &listener{typ: typ, callback: cb}
		var sig *Signal
		switch o := call.Argument(2).(type) {
		case *goja.Object:
			l.capture = webidl.Bool(o.Get("capture"))
			l.once = webidl.Bool(o.Get("once"))
			l.passive = webidl.Bool(o.Get("passive"))
			if v := webidl.Member(o, "signal"); v != nil {
				s, ok := SignalOf(v)
				if !ok {
					r.TypeError("Failed to execute 'addEventListener' on 'EventTarget': member signal is not of type 'AbortSignal'.")
				}
				sig = s
			}
		default:
			l.capture = webidl.Bool(o)
		}
		if cb == nil {
			return goja.Undefined()
		}
		if sig != nil && sig.aborted {
			return goja.Undefined()
		}
		if !t.add(l) {
			return goja.Undefined()
		}
		if sig != nil {
			l.removeAbort = sig.OnAbort(func(goja.Value) { t.remove(l) })
		}
		return goja.Undefined()
	})
	c.Method("removeEventListener", 2, func(call goja.FunctionCall) goja.Value {
		t := st.thisTarget(call.This)
		if len(call.Arguments) < 2 {
			r.TypeError("Failed to execute 'removeEventListener' on 'EventTarget': 2 arguments required, but only %d present.", len(call.Arguments))
		}
		typ := r.String(call.Argument(0))
		cb := st.callback(call.Argument(1), "removeEventListener")
		var capture bool
		switch o := call.Argument(2).(type) {
		case *goja.Object:
			capture = webidl.Bool(o.Get("capture"))
		default:
			capture = webidl.Bool(o)
		}
		if cb == nil {
			return goja.Undefined()
		}
		for _, l := range t.listeners {
			if l.typ == typ && l.callback == cb && l.capture == capture && l.handler == nil {
				t.remove(l)
				break
			}
		}
		return goja.Undefined()
	})
	c.Method("dispatchEvent", 1, func(call goja.FunctionCall) goja.Value {
		t := st.thisTarget(call.This)
		if len(call.Arguments) < 1 {
			r.TypeError("Failed to execute 'dispatchEvent' on 'EventTarget': 1 argument required, but only 0 present.")
		}
		e, ok := eventOf(call.Argument(0))
		if !ok {
			r.TypeError("Failed to execute 'dispatchEvent' on 'EventTarget': parameter 1 is not of type 'Event'.")
		}
		if e.dispatching || !e.initialized {
			r.ThrowDOMException("Failed to execute 'dispatchEvent' on 'EventTarget': The event is already being dispatched.", "InvalidStateError")
		}
		e.trusted = false
		return st.r.RT.ToValue(st.dispatch(t, e))
	})
	r.Global("EventTarget", c.Ctor)
}

// callback converts an EventListener? argument: null for null and
// undefined, the object otherwise (a function, or an object whose
// handleEvent is looked up at each call).
func (st *state) callback(v goja.Value, method string) *goja.Object {
	if webidl.IsNullish(v) {
		return nil
	}
	o, ok := v.(*goja.Object)
	if !ok {
		st.r.TypeError("Failed to execute '%s' on 'EventTarget': parameter 2 is not of type 'Object'.", method)
	}
	return o
}

// add appends l unless an equal listener is there (DOM's "add an event
// listener"); it reports whether it did.
func (t *target) add(l *listener) bool {
	if l.handler == nil && l.nativeFn == nil {
		for _, x := range t.listeners {
			if x.typ == l.typ && x.callback == l.callback && x.capture == l.capture && x.handler == nil && x.nativeFn == nil {
				return false
			}
		}
	}
	t.listeners = append(t.listeners, l)
	if t.onListeners != nil {
		t.onListeners(len(t.listeners))
	}
	return true
}

// remove takes l out of the list (and marks it removed, so a dispatch
// under way skips it).
func (t *target) remove(l *listener) {
	l.removed = true
	if l.removeAbort != nil {
		l.removeAbort()
		l.removeAbort = nil
	}
	for i, x := range t.listeners {
		if x == l {
			// copy, never shift in place: a dispatch may hold the old slice
			n := make([]*listener, 0, len(t.listeners)-1)
			n = append(n, t.listeners[:i]...)
			t.listeners = append(n, t.listeners[i+1:]...)
			if t.onListeners != nil {
				t.onListeners(len(t.listeners))
			}
			return
		}
	}
}

// dispatch is the DOM's dispatch algorithm for a target without a parent:
// capture listeners, then the others, all in the AT_TARGET phase. It
// reports whether the event was not canceled.
func (st *state) dispatch(t *target, e *event) bool {
	e.dispatching = true
	e.target = t.obj
	e.phase = phaseAtTarget
	st.invoke(t, e, true)
	st.invoke(t, e, false)
	e.phase = phaseNone
	e.currentTarget = nil
	e.dispatching = false
	e.stopPropagation, e.stopImmediate = false, false
	return !e.canceled
}

// invoke runs t's listeners for one phase (capture or not). The list is
// the one at the start: listeners added meanwhile do not run, removed
// ones do not either (remove copies the list, marking them removed).
func (st *state) invoke(t *target, e *event, capture bool) {
	if e.stopPropagation {
		return
	}
	e.currentTarget = t.obj
	list := t.listeners
	for _, l := range list {
		if l.removed || l.typ != e.typ || l.capture != capture {
			continue
		}
		if l.once {
			t.remove(l)
		}
		if l.passive {
			e.inPassive = true
		}
		st.call(l, e)
		e.inPassive = false
		if e.stopImmediate {
			break
		}
	}
}

// call runs one listener, reporting what it throws (a listener's
// exception never stops the dispatch). Uncatchable errors (interrupts,
// stack overflow) go on up.
func (st *state) call(l *listener, e *event) {
	if l.nativeFn != nil {
		l.nativeFn(e)
		return
	}
	if l.handler != nil {
		st.callHandler(l.handler, e)
		return
	}
	var err error
	if fn, ok := goja.AssertFunction(l.callback); ok {
		_, err = fn(e.currentTarget, e.obj)
	} else {
		err = st.try(func() {
			h := l.callback.Get("handleEvent")
			fn, ok := goja.AssertFunction(h)
			if !ok {
				st.r.TypeError("The 'handleEvent' property of the event listener is not callable.")
			}
			if _, err := fn(l.callback, e.obj); err != nil {
				panic(err)
			}
		})
	}
	st.reportErr(err)
}

// try runs f, returning a JS exception it throws as an error.
func (st *state) try(f func()) (err error) {
	defer func() {
		if x := recover(); x != nil {
			switch x := x.(type) {
			case *goja.Exception:
				err = x
			case *goja.Object:
				err = &thrown{x}
			default:
				panic(x)
			}
		}
	}()
	f()
	return nil
}

// thrown is a JS value thrown from Go (panic(obj)), caught by try.
type thrown struct{ v goja.Value }

func (t *thrown) Error() string { return t.v.String() }

// reportErr reports err if it is a JS exception and re-panics anything
// else (goja's uncatchable errors must reach the engine).
func (st *state) reportErr(err error) {
	switch err := err.(type) {
	case nil:
	case *goja.Exception:
		st.report(err.Value())
	case *thrown:
		st.report(err.v)
	default:
		panic(err)
	}
}

// handler is an event handler IDL attribute (onabort): one listener, added
// when the attribute is first set to a callable, that calls whatever the
// attribute holds then.
type handler struct {
	value    *goja.Object
	listener *listener
}

// eventHandler gives c the attribute name ("onabort") for events of type
// typ.
func (st *state) eventHandler(c *webidl.Class, name, typ string, handlers func(t *target) map[string]*handler) {
	c.Accessor(name, func(this goja.Value) goja.Value {
		h := handlers(st.thisTarget(this))[typ]
		if h == nil || h.value == nil {
			return goja.Null()
		}
		return h.value
	}, func(this, v goja.Value) {
		t := st.thisTarget(this)
		hs := handlers(t)
		h := hs[typ]
		if h == nil {
			h = &handler{}
			hs[typ] = h
		}
		o, ok := v.(*goja.Object) // [LegacyTreatNonObjectAsNull]: any object is kept
		if !ok {
			h.value = nil
			if h.listener != nil {
				t.remove(h.listener)
				h.listener = nil
			}
			return
		}
		h.value = o
		if h.listener == nil {
			h.listener = &listener{typ: typ, handler: h}
			t.add(h.listener)
		}
	})
}

// callHandler runs an event handler: a false return value cancels the
// event.
func (st *state) callHandler(h *handler, e *event) {
	fn, ok := goja.AssertFunction(h.value)
	if !ok {
		return
	}
	ret, err := fn(e.currentTarget, e.obj)
	if err != nil {
		st.reportErr(err)
		return
	}
	if b, isBool := ret.Export().(bool); isBool && !b {
		e.cancel()
	}
}

// report is the HTML standard's "report an exception" for a server: the
// exception is logged at error level with its stack, and nothing else
// happens (Node would call process's uncaughtException and, by default,
// exit; a render goes on).
func (st *state) report(v goja.Value) {
	msg := "Uncaught " + st.describe(v)
	st.r.Logger().Error(msg)
}

// describe is the stack of an Error, or the value as a string.
func (st *state) describe(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		if s := o.Get("stack"); s != nil && !goja.IsUndefined(s) {
			var out string
			if st.try(func() { out = s.String() }) == nil && out != "" {
				return out
			}
		}
	}
	var out string
	if st.try(func() { out = v.String() }) != nil {
		return "exception"
	}
	return out
}

// ListenFunc adds fn, called from Go when events of type typ are
// dispatched at the EventTarget t, after the listeners already there. It
// returns a function that removes it.
func ListenFunc(t goja.Value, typ string, fn func(event goja.Value)) (remove func(), ok bool) {
	tg, ok := webidl.Slot[targeter](t)
	if !ok {
		return nil, false
	}
	et := tg.et()
	l := &listener{typ: typ, nativeFn: func(e *event) { fn(e.obj) }}
	et.add(l)
	return func() { et.remove(l) }, true
}
