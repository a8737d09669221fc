package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// signalOf reads v as an AbortSignal through its JS surface (aborted,
// reason, addEventListener/removeEventListener), so pipeTo works with
// the events package's AbortSignal.
func (s *state) signalOf(v goja.Value) (abortSignal, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	add := webidl.Callable(o.Get("addEventListener"))
	remove := webidl.Callable(o.Get("removeEventListener"))
	if add == nil || remove == nil || o.Get("aborted") == nil {
		return nil, false
	}
	return &jsSignal{s: s, o: o, add: add, remove: remove}, true
}

type jsSignal struct {
	s           *state
	o           *goja.Object
	add, remove goja.Callable
}

func (j *jsSignal) Aborted() bool      { return webidl.Bool(j.o.Get("aborted")) }
func (j *jsSignal) Reason() goja.Value { return j.o.Get("reason") }
func (j *jsSignal) OnAbort(fn func()) func() {
	l := j.s.rt.ToValue(func(goja.FunctionCall) goja.Value { fn(); return goja.Undefined() })
	typ := j.s.rt.ToValue("abort")
	if _, err := j.add(j.o, typ, l); err != nil {
		panic(err)
	}
	return func() { _, _ = j.remove(j.o, typ, l) }
}
