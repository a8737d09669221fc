package node

import (
	"github.com/dop251/goja"
)

// utilNative gives util.inspect and util.types what JS cannot see.
func utilNative(s *state, n *goja.Object) {
	rt := s.r.RT
	_ = n.Set("className", ret(rt, func(c goja.FunctionCall) string {
		if o, ok := c.Argument(0).(*goja.Object); ok {
			return o.ClassName()
		}
		return ""
	}))
	_ = n.Set("proxyTarget", func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		if !ok {
			return goja.Undefined()
		}
		p, ok := o.Export().(goja.Proxy)
		if !ok {
			return goja.Undefined()
		}
		var target, handler goja.Value = goja.Null(), goja.Null()
		if t := p.Target(); t != nil {
			target = t
		}
		if h := p.Handler(); h != nil {
			handler = h
		}
		return rt.NewArray(target, handler)
	})
	_ = n.Set("isPromise", ret(rt, func(c goja.FunctionCall) bool {
		o, ok := c.Argument(0).(*goja.Object)
		if !ok {
			return false
		}
		_, ok = o.Export().(*goja.Promise)
		return ok
	}))
	_ = n.Set("promiseState", func(c goja.FunctionCall) goja.Value {
		o, ok := c.Argument(0).(*goja.Object)
		if ok {
			if p, ok := o.Export().(*goja.Promise); ok {
				switch p.State() {
				case goja.PromiseStatePending:
					return rt.NewArray("pending")
				case goja.PromiseStateFulfilled:
					return rt.NewArray("fulfilled", p.Result())
				default:
					return rt.NewArray("rejected", p.Result())
				}
			}
		}
		return rt.NewArray("pending")
	})
	protoName := func(v goja.Value) string {
		o, ok := v.(*goja.Object)
		if !ok {
			return ""
		}
		if _, ok := goja.AssertFunction(o); !ok {
			return ""
		}
		p := o.Prototype()
		if p == nil {
			return ""
		}
		tag, _ := p.GetSymbol(goja.SymToStringTag).(goja.String)
		if tag == nil {
			return ""
		}
		return tag.String()
	}
	_ = n.Set("functionKind", ret(rt, func(c goja.FunctionCall) string {
		switch protoName(c.Argument(0)) {
		case "AsyncFunction":
			return "async"
		case "GeneratorFunction":
			return "generator"
		case "AsyncGeneratorFunction":
			return "asyncGenerator"
		}
		return "function"
	}))
}

func init() {
	modules["internal/inspect"] = &module{js: "util_inspect.js", native: utilNative}
}
