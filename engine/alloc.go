package engine

import (
	"fmt"

	"github.com/dop251/goja"
)

// Allocation checks. goja has no per-runtime memory limit, and some of its
// built-ins allocate all they need in one native call that no interrupt can
// stop: `new Uint8Array(4e9)`, `"x".repeat(2 ** 30)`, `Array(1e9).fill(0)`.
// installAllocationChecks wraps those entry points so that a single call
// asking for more than Options.MaxAllocation bytes throws a RangeError
// before anything is allocated — a failed request, the isolate kept.
// Allocation spread over many calls (a string doubling in a loop) is the
// pool's memory guard's job.

// typedArrays are the constructors whose instances own a buffer, with the
// bytes of one element.
var typedArrays = []struct {
	name string
	size int64
}{
	{"Int8Array", 1}, {"Uint8Array", 1}, {"Uint8ClampedArray", 1}, {"Int16Array", 2}, {"Uint16Array", 2},
	{"Int32Array", 4}, {"Uint32Array", 4}, {"Float32Array", 4}, {"Float64Array", 8}, {"BigInt64Array", 8},
	{"BigUint64Array", 8}, {"Float16Array", 2},
}

const valueBytes = 16 // one element of a goja array (an interface value)

func (i *Isolate) installAllocationChecks() {
	if i.opts.MaxAllocation <= 0 {
		return
	}
	rt := i.rt
	g := rt.GlobalObject()
	proto := func(ctor string) *goja.Object {
		return g.Get(ctor).ToObject(rt).Get("prototype").(*goja.Object)
	}
	// Strings count 2 bytes a character (goja keeps non-ASCII strings in
	// UTF-16), an upper bound that needs no look at the characters.
	const charBytes = 2
	i.checkMethod(proto("String"), "repeat", func(this goja.Value, args []goja.Value) int64 {
		return jsLength(this) * charBytes * toCount(args, 0)
	})
	for _, pad := range []string{"padStart", "padEnd"} {
		i.checkMethod(proto("String"), pad, func(this goja.Value, args []goja.Value) int64 {
			return charBytes * toCount(args, 0)
		})
	}
	i.checkMethod(proto("Array"), "fill", func(this goja.Value, args []goja.Value) int64 {
		if o, ok := this.(*goja.Object); ok {
			return o.Get("length").ToInteger() * valueBytes
		}
		return 0
	})
	json := g.Get("JSON").ToObject(rt)
	i.checkMethod(json, "parse", func(this goja.Value, args []goja.Value) int64 {
		if len(args) == 0 {
			return 0
		}
		return jsLength(args[0]) * 2 // what the parsed values take, roughly
	})
	i.checkConstructor("ArrayBuffer", func(args []goja.Value) int64 { return toCount(args, 0) })
	for _, ta := range typedArrays {
		size := ta.size
		i.checkConstructor(ta.name, func(args []goja.Value) int64 {
			if len(args) == 0 {
				return 0
			}
			switch a := args[0].(type) {
			case *goja.Object:
				// A typed array or array-like is copied; an ArrayBuffer (no
				// length) is viewed, not copied.
				l := a.Get("length")
				if l == nil || goja.IsUndefined(l) {
					return 0
				}
				return l.ToInteger() * size
			default:
				return toCount(args, 0) * size
			}
		})
	}
}

// checkMethod replaces obj[name] with a function that throws when size
// (of the call) exceeds the allocation limit, else calls the original.
func (i *Isolate) checkMethod(obj *goja.Object, name string, size func(this goja.Value, args []goja.Value) int64) {
	orig, ok := goja.AssertFunction(obj.Get(name))
	if !ok {
		return
	}
	length := obj.Get(name).ToObject(i.rt).Get("length")
	f := i.rt.ToValue(func(call goja.FunctionCall) goja.Value {
		i.account(size(call.This, call.Arguments), name)
		v, err := orig(call.This, call.Arguments...)
		if err != nil {
			panic(err)
		}
		return v
	}).(*goja.Object)
	_ = f.DefineDataProperty("name", i.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = f.DefineDataProperty("length", length, goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = obj.DefineDataProperty(name, f, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// checkConstructor replaces global ctor with a constructor that checks the
// size first and then constructs the original.
func (i *Isolate) checkConstructor(ctor string, size func(args []goja.Value) int64) {
	g := i.rt.GlobalObject()
	if orig, ok := g.Get(ctor).(*goja.Object); ok {
		_ = g.DefineDataProperty(ctor, i.wrapConstructor(ctor, orig, size), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
}

// wrapConstructor makes the checking constructor.
func (i *Isolate) wrapConstructor(ctor string, orig *goja.Object, size func(args []goja.Value) int64) *goja.Object {
	rt := i.rt
	construct, _ := goja.AssertFunction(rt.Get("Reflect").ToObject(rt).Get("construct"))
	var wrapper *goja.Object
	wrapper = rt.ToValue(func(c goja.ConstructorCall) *goja.Object {
		i.account(size(c.Arguments), "new "+ctor)
		nt := goja.Value(wrapper)
		if c.NewTarget != nil {
			nt = c.NewTarget
		}
		v, err := construct(goja.Undefined(), orig, rt.NewArray(valuesAny(c.Arguments)...), nt)
		if err != nil {
			panic(err)
		}
		return v.(*goja.Object)
	}).(*goja.Object)
	proto := orig.Get("prototype").(*goja.Object)
	_ = wrapper.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = wrapper.DefineDataProperty("name", rt.ToValue(ctor), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = wrapper.DefineDataProperty("length", orig.Get("length"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = wrapper.SetPrototype(orig)
	_ = proto.DefineDataProperty("constructor", wrapper, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return wrapper
}

// account adds n bytes to what the render allocated through these entry
// points, throwing the RangeError first when one call, or the render so
// far, would go over the limit (a loop of `new ArrayBuffer(1 << 20)` stops
// at the budget, whether or not it keeps them).
func (i *Isolate) account(n int64, what string) {
	if n > i.opts.MaxAllocation {
		panic(i.allocationError(fmt.Sprintf("%s would allocate %s at once", what, mib(n))))
	}
	if i.renderAlloc+n > i.opts.MaxAllocation {
		panic(i.allocationError(fmt.Sprintf("%s would bring what this render allocated in typed arrays, buffers and big strings to %s", what, mib(i.renderAlloc+n))))
	}
	i.renderAlloc += n
}

func (i *Isolate) allocationError(what string) *goja.Object {
	msg := fmt.Sprintf("%s, more than [render] max_render_memory_mb allows (%s)", what, mib(i.opts.MaxAllocation))
	e, err := i.rt.New(i.rt.Get("RangeError"), i.rt.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return e
}

func mib(n int64) string {
	if n >= 1<<30 {
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	}
	return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
}

// toCount is args[k] as a non-negative count (what the built-in would use).
func toCount(args []goja.Value, k int) int64 {
	if k >= len(args) {
		return 0
	}
	f := args[k].ToFloat()
	if f != f || f < 0 {
		return 0
	}
	if f > 1<<53 {
		return 1 << 53
	}
	return int64(f)
}

func valuesAny(vs []goja.Value) []any {
	out := make([]any, len(vs))
	for k, v := range vs {
		out[k] = v
	}
	return out
}

// jsLength is the length of v as a JS string, without converting it to Go.
func jsLength(v goja.Value) int64 {
	if s, ok := v.ToString().(goja.String); ok {
		return int64(s.Length())
	}
	return int64(len(v.String()))
}
