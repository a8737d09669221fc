package events

import (
	"time"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Globals are the global names Install defines.
var Globals = []string{
	"Event", "EventTarget", "CustomEvent", "ErrorEvent", "PromiseRejectionEvent",
	"AbortController", "AbortSignal", "reportError",
}

type key struct{}

type state struct {
	r                          *webidl.Realm
	event, eventTarget, signal *webidl.Class
	isTrusted                  *goja.Object
	setTimeout                 goja.Callable // the engine's, as it was at install
	perfNow                    goja.Callable
	origin                     time.Time
}

// Install defines Globals in r (once per realm).
func Install(r *webidl.Realm) { install(r) }

func install(r *webidl.Realm) *state {
	return webidl.Value(r, key{}, func() *state {
		st := &state{r: r, origin: time.Now()}
		st.setTimeout = webidl.Callable(r.RT.Get("setTimeout"))
		if p, ok := r.RT.Get("performance").(*goja.Object); ok {
			st.perfNow = webidl.Callable(p.Get("now"))
		}
		st.installEvent()
		st.installCustomEvent()
		st.installErrorEvents()
		st.installEventTarget()
		st.installAbort()
		r.Global("reportError", r.Func("reportError", 1, func(call goja.FunctionCall) goja.Value {
			if len(call.Arguments) < 1 {
				r.TypeError("Failed to execute 'reportError': 1 argument required, but only 0 present.")
			}
			st.report(call.Argument(0))
			return goja.Undefined()
		}))
		return st
	})
}

// now is an event's timeStamp: performance.now() (milliseconds since the
// isolate's time origin).
func (st *state) now() float64 {
	if st.perfNow != nil {
		if v, err := st.perfNow(goja.Undefined()); err == nil {
			return v.ToFloat()
		}
	}
	return float64(time.Since(st.origin).Nanoseconds()) / 1e6
}
