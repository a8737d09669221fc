package events

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Event phases (Event.NONE …).
const (
	phaseNone      = 0
	phaseCapturing = 1
	phaseAtTarget  = 2
	phaseBubbling  = 3
)

// event is the state of an Event (DOM §2.2). Subclasses keep theirs
// beside it (see eventer).
type event struct {
	obj                              *goja.Object
	typ                              string
	target, currentTarget            *goja.Object
	phase                            int
	bubbles, cancelable, composed    bool
	stopPropagation, stopImmediate   bool
	canceled, inPassive, dispatching bool
	initialized, trusted             bool
	timeStamp                        float64
	detail                           goja.Value            // CustomEvent
	extra                            map[string]goja.Value // ErrorEvent, PromiseRejectionEvent
}

// eventer is the slot of every Event object, whatever its interface.
type eventer interface{ ev() *event }

func (e *event) ev() *event { return e }

// eventOf returns the Event state of v, if v is an Event.
func eventOf(v goja.Value) (*event, bool) {
	e, ok := webidl.Slot[eventer](v)
	if !ok {
		return nil, false
	}
	return e.ev(), true
}

func (st *state) thisEvent(v goja.Value) *event { return webidl.This[eventer](st.r, v).ev() }

// initEvent reads EventInit's members (in WebIDL's lexicographic order)
// into e.
func (st *state) initEvent(e *event, init *goja.Object) {
	e.bubbles = webidl.Bool(webidl.Member(init, "bubbles"))
	e.cancelable = webidl.Bool(webidl.Member(init, "cancelable"))
	e.composed = webidl.Bool(webidl.Member(init, "composed"))
}

// newEvent is the constructor steps shared by Event and its subclasses:
// it attaches e to the new object.
func (st *state) newEvent(call goja.ConstructorCall, iface string, e *event) (*event, *goja.Object) {
	r := st.r
	if len(call.Arguments) < 1 {
		r.TypeError("Failed to construct '%s': 1 argument required, but only 0 present.", iface)
	}
	e.typ = r.String(call.Argument(0))
	init := r.Dict(call.Argument(1), "Failed to construct '"+iface+"'")
	st.initEvent(e, init)
	e.initialized = true
	e.obj = call.This
	e.timeStamp = st.now()
	r.SetSlot(call.This, e)
	st.unforgeable(call.This)
	return e, init
}

// unforgeable defines isTrusted on the instance, as [LegacyUnforgeable]
// asks.
func (st *state) unforgeable(o *goja.Object) {
	_ = o.DefineAccessorProperty("isTrusted", st.isTrusted, nil, goja.FLAG_FALSE, goja.FLAG_TRUE)
}

// newTrusted makes an Event of type typ that the platform dispatches
// (isTrusted true), such as AbortSignal's abort event.
func (st *state) newTrusted(typ string) *event {
	o := st.event.New(nil)
	e := &event{obj: o, typ: typ, initialized: true, trusted: true, timeStamp: st.now()}
	st.r.SetSlot(o, e)
	st.unforgeable(o)
	return e
}

func (st *state) installEvent() {
	r, rt := st.r, st.r.RT
	st.isTrusted = r.Func("get isTrusted", 0, func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(st.thisEvent(call.This).trusted)
	})
	c := r.NewClass("Event", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		st.newEvent(call, "Event", &event{})
		return nil
	})
	st.event = c
	for _, k := range []struct {
		name string
		v    int
	}{{"NONE", phaseNone}, {"CAPTURING_PHASE", phaseCapturing}, {"AT_TARGET", phaseAtTarget}, {"BUBBLING_PHASE", phaseBubbling}} {
		c.Const(k.name, k.v)
	}
	obj := func(o *goja.Object) goja.Value {
		if o == nil {
			return goja.Null()
		}
		return o
	}
	c.Getter("type", func(v goja.Value) goja.Value { return rt.ToValue(st.thisEvent(v).typ) })
	c.Getter("target", func(v goja.Value) goja.Value { return obj(st.thisEvent(v).target) })
	c.Getter("srcElement", func(v goja.Value) goja.Value { return obj(st.thisEvent(v).target) })
	c.Getter("currentTarget", func(v goja.Value) goja.Value { return obj(st.thisEvent(v).currentTarget) })
	c.Method("composedPath", 0, func(call goja.FunctionCall) goja.Value {
		e := st.thisEvent(call.This)
		if e.currentTarget == nil {
			return rt.NewArray()
		}
		return rt.NewArray(e.currentTarget) // a target here has no parent: the path is itself
	})
	c.Getter("eventPhase", func(v goja.Value) goja.Value { return rt.ToValue(st.thisEvent(v).phase) })
	c.Method("stopPropagation", 0, func(call goja.FunctionCall) goja.Value {
		st.thisEvent(call.This).stopPropagation = true
		return goja.Undefined()
	})
	c.Accessor("cancelBubble", func(v goja.Value) goja.Value {
		return rt.ToValue(st.thisEvent(v).stopPropagation)
	}, func(this, v goja.Value) {
		e := st.thisEvent(this)
		if webidl.Bool(v) {
			e.stopPropagation = true
		}
	})
	c.Method("stopImmediatePropagation", 0, func(call goja.FunctionCall) goja.Value {
		e := st.thisEvent(call.This)
		e.stopPropagation, e.stopImmediate = true, true
		return goja.Undefined()
	})
	c.Getter("bubbles", func(v goja.Value) goja.Value { return rt.ToValue(st.thisEvent(v).bubbles) })
	c.Getter("cancelable", func(v goja.Value) goja.Value { return rt.ToValue(st.thisEvent(v).cancelable) })
	c.Accessor("returnValue", func(v goja.Value) goja.Value {
		return rt.ToValue(!st.thisEvent(v).canceled)
	}, func(this, v goja.Value) {
		e := st.thisEvent(this)
		if !webidl.Bool(v) {
			e.cancel()
		}
	})
	c.Method("preventDefault", 0, func(call goja.FunctionCall) goja.Value {
		st.thisEvent(call.This).cancel()
		return goja.Undefined()
	})
	c.Getter("defaultPrevented", func(v goja.Value) goja.Value { return rt.ToValue(st.thisEvent(v).canceled) })
	c.Getter("composed", func(v goja.Value) goja.Value { return rt.ToValue(st.thisEvent(v).composed) })
	c.Getter("timeStamp", func(v goja.Value) goja.Value { return rt.ToValue(st.thisEvent(v).timeStamp) })
	c.Method("initEvent", 1, func(call goja.FunctionCall) goja.Value {
		e := st.thisEvent(call.This)
		if len(call.Arguments) < 1 {
			r.TypeError("Failed to execute 'initEvent' on 'Event': 1 argument required, but only 0 present.")
		}
		typ := r.String(call.Argument(0))
		bubbles, cancelable := webidl.Bool(call.Argument(1)), webidl.Bool(call.Argument(2))
		e.reinit(typ, bubbles, cancelable)
		return goja.Undefined()
	})
	r.Global("Event", c.Ctor)
}

// cancel is the DOM's "set the canceled flag".
func (e *event) cancel() {
	if e.cancelable && !e.inPassive {
		e.canceled = true
	}
}

// reinit is initEvent's "initialize": nothing happens during dispatch.
func (e *event) reinit(typ string, bubbles, cancelable bool) {
	if e.dispatching {
		return
	}
	e.initialized = true
	e.stopPropagation, e.stopImmediate, e.canceled = false, false, false
	e.trusted = false
	e.target = nil
	e.typ, e.bubbles, e.cancelable = typ, bubbles, cancelable
}

func (st *state) installCustomEvent() {
	r := st.r
	c := r.NewClass("CustomEvent", 1, st.event, func(call goja.ConstructorCall) *goja.Object {
		e, init := st.newEvent(call, "CustomEvent", &event{})
		e.detail = goja.Null()
		if d := webidl.Member(init, "detail"); d != nil {
			e.detail = d
		}
		return nil
	})
	c.Getter("detail", func(v goja.Value) goja.Value {
		e := st.thisEvent(v)
		if e.detail == nil {
			st.r.TypeError("Illegal invocation")
		}
		return e.detail
	})
	c.Method("initCustomEvent", 1, func(call goja.FunctionCall) goja.Value {
		e := st.thisEvent(call.This)
		if e.detail == nil {
			r.TypeError("Illegal invocation")
		}
		if len(call.Arguments) < 1 {
			r.TypeError("Failed to execute 'initCustomEvent' on 'CustomEvent': 1 argument required, but only 0 present.")
		}
		typ := r.String(call.Argument(0))
		bubbles, cancelable := webidl.Bool(call.Argument(1)), webidl.Bool(call.Argument(2))
		if e.dispatching {
			return goja.Undefined()
		}
		e.reinit(typ, bubbles, cancelable)
		e.detail = call.Argument(3)
		if goja.IsUndefined(e.detail) {
			e.detail = goja.Null()
		}
		return goja.Undefined()
	})
	r.Global("CustomEvent", c.Ctor)
}

// installExtraEvent makes an Event subclass whose init dictionary's
// members become read-only attributes (ErrorEvent, PromiseRejectionEvent).
// required names the members the dictionary must have.
func (st *state) installExtraEvent(name string, members []extraMember, required string) {
	r := st.r
	length := 1
	if required != "" {
		length = 2
	}
	c := r.NewClass(name, length, st.event, func(call goja.ConstructorCall) *goja.Object {
		if len(call.Arguments) < 2 && required != "" {
			r.TypeError("Failed to construct '%s': 2 arguments required, but only %d present.", name, len(call.Arguments))
		}
		e, init := st.newEvent(call, name, &event{})
		e.extra = make(map[string]goja.Value, len(members))
		for _, m := range members {
			v := webidl.Member(init, m.name)
			switch {
			case v == nil && m.name == required:
				r.TypeError("Failed to construct '%s': required member %s is undefined.", name, m.name)
			case v == nil:
				v = m.def()
			case m.conv != nil:
				v = m.conv(v)
			}
			e.extra[m.name] = v
		}
		return nil
	})
	for _, m := range members {
		key := m.name
		c.Getter(key, func(v goja.Value) goja.Value {
			e := st.thisEvent(v)
			x, ok := e.extra[key]
			if !ok {
				r.TypeError("Illegal invocation")
			}
			return x
		})
	}
	r.Global(name, c.Ctor)
}

type extraMember struct {
	name string
	def  func() goja.Value
	conv func(goja.Value) goja.Value
}

func (st *state) installErrorEvents() {
	rt := st.r.RT
	str := func(v goja.Value) goja.Value { return rt.ToValue(st.r.String(v)) }
	u32 := func(v goja.Value) goja.Value { return rt.ToValue(st.r.Integer(v, 32, false, webidl.Wrap)) }
	empty := func() goja.Value { return rt.ToValue("") }
	zero := func() goja.Value { return rt.ToValue(0) }
	// members in WebIDL's order (lexicographic)
	st.installExtraEvent("ErrorEvent", []extraMember{
		{"colno", zero, u32},
		{"error", goja.Undefined, nil},
		{"filename", empty, str},
		{"lineno", zero, u32},
		{"message", empty, str},
	}, "")
	st.installExtraEvent("PromiseRejectionEvent", []extraMember{
		{"promise", goja.Undefined, func(v goja.Value) goja.Value {
			if _, ok := v.(*goja.Object); !ok {
				st.r.TypeError("Failed to construct 'PromiseRejectionEvent': member promise is not an object.")
			}
			return v
		}},
		{"reason", goja.Undefined, nil},
	}, "promise")
}
