package engine

import (
	"slices"

	"github.com/dop251/goja"
)

// messagePort is one end of a MessageChannel. Its JS object carries its own
// methods (closures over this struct), so nothing in JS can forge a port.
type messagePort struct {
	obj       *goja.Object
	other     *messagePort
	closed    bool
	listeners []goja.Value
}

// installMessageChannel provides MessageChannel and MessagePort natively.
// postMessage queues a macrotask on the render's event loop (ordered with
// timers and setImmediate) that delivers {data, target, type: "message"} to
// the other port's onmessage and "message" listeners. React 19's server
// renderer opens a channel when its bundle loads. As with timers, messages
// posted while the bundle loads or left over after a render never run.
func (i *Isolate) installMessageChannel() {
	rt := i.rt
	proto := rt.NewObject()
	portCtor := rt.ToValue(func(goja.ConstructorCall) *goja.Object {
		panic(rt.NewTypeError("Illegal constructor: MessagePort objects come from new MessageChannel()"))
	}).(*goja.Object)
	_ = portCtor.Set("prototype", proto)
	_ = proto.Set("constructor", portCtor)

	deliver := func(to *messagePort, data goja.Value) goja.Callable {
		return func(goja.Value, ...goja.Value) (goja.Value, error) {
			if to.closed {
				return goja.Undefined(), nil
			}
			ev := rt.NewObject()
			_ = ev.Set("data", data)
			_ = ev.Set("target", to.obj)
			_ = ev.Set("type", "message")
			handlers := append([]goja.Value{to.obj.Get("onmessage")}, slices.Clone(to.listeners)...)
			for _, h := range handlers {
				if fn, ok := goja.AssertFunction(h); ok {
					if _, err := fn(to.obj, ev); err != nil {
						return nil, err
					}
				}
			}
			return goja.Undefined(), nil
		}
	}
	newPort := func() *messagePort {
		p := &messagePort{obj: rt.NewObject()}
		_ = p.obj.SetPrototype(proto)
		_ = p.obj.Set("onmessage", goja.Null())
		_ = p.obj.Set("postMessage", func(call goja.FunctionCall) goja.Value {
			if to := p.other; to != nil && !p.closed {
				i.loop.add(deliver(to, call.Argument(0)), 0, nil, false)
			}
			return goja.Undefined()
		})
		_ = p.obj.Set("addEventListener", func(typ string, fn goja.Value) {
			if typ == "message" {
				p.listeners = append(p.listeners, fn)
			}
		})
		_ = p.obj.Set("removeEventListener", func(typ string, fn goja.Value) {
			if typ != "message" {
				return
			}
			if k := slices.IndexFunc(p.listeners, fn.SameAs); k >= 0 {
				p.listeners = slices.Delete(p.listeners, k, k+1)
			}
		})
		_ = p.obj.Set("start", func() {})
		_ = p.obj.Set("close", func() { p.closed = true })
		return p
	}
	_ = rt.Set("MessagePort", portCtor)
	_ = rt.Set("MessageChannel", func(call goja.ConstructorCall) *goja.Object {
		a, b := newPort(), newPort()
		a.other, b.other = b, a
		_ = call.This.Set("port1", a.obj)
		_ = call.This.Set("port2", b.obj)
		return nil
	})
}
