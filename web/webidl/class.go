package webidl

import (
	"github.com/dop251/goja"
)

// Class is one WebIDL interface in one runtime: its interface object (the
// constructor function) and its prototype. Build it once per runtime, on
// first use (see Value), then add members.
type Class struct {
	Name  string
	Ctor  *goja.Object
	Proto *goja.Object
	r     *Realm
}

// NewClass makes interface name, inheriting from parent (nil for none).
// construct is called only for `new Name(...)` (a plain call throws the
// TypeError browsers throw, see below); c.This already has the prototype new.target
// asks for, so subclasses work. It returns nil to keep c.This, or another
// object to use instead. A nil construct makes an interface whose
// constructor throws "Illegal constructor" (instances come from Go, see
// New).
func (r *Realm) NewClass(name string, length int, parent *Class, construct func(c goja.ConstructorCall) *goja.Object) *Class {
	rt := r.RT
	cls := &Class{Name: name, r: r}
	ctor := rt.ToValue(func(c goja.ConstructorCall) *goja.Object {
		// goja passes no NewTarget for a plain `new X()` either; a call
		// without new shows as a receiver that is no instance of X. (A
		// strict-mode call with no receiver cannot be told from new.)
		if c.NewTarget == nil && !cls.Is(c.This) {
			panic(rt.NewTypeError("Failed to construct '" + name + "': Please use the 'new' operator, this object constructor cannot be called as a function."))
		}
		if construct == nil {
			panic(rt.NewTypeError("Illegal constructor"))
		}
		return construct(c)
	}).(*goja.Object)
	setNameLength(ctor, rt, name, length)
	proto := ctor.Get("prototype").(*goja.Object)
	_ = ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	_ = proto.DefineDataProperty("constructor", ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = proto.DefineDataPropertySymbol(goja.SymToStringTag, rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	if parent != nil {
		_ = ctor.SetPrototype(parent.Ctor)
		_ = proto.SetPrototype(parent.Proto)
	}
	cls.Ctor, cls.Proto = ctor, proto
	return cls
}

func setNameLength(fn *goja.Object, rt *goja.Runtime, name string, length int) {
	_ = fn.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	_ = fn.DefineDataProperty("length", rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// Func makes a native function with the given name and length.
func (r *Realm) Func(name string, length int, fn func(goja.FunctionCall) goja.Value) *goja.Object {
	f := r.RT.ToValue(fn).(*goja.Object)
	setNameLength(f, r.RT, name, length)
	return f
}

// New makes an instance of c from Go, with slot attached (see SetSlot),
// for interfaces whose objects come from the platform (AbortSignal from an
// AbortController, a Response from fetch).
func (c *Class) New(slot any) *goja.Object {
	o := c.r.RT.CreateObject(c.Proto)
	if slot != nil {
		c.r.SetSlot(o, slot)
	}
	return o
}

// Method adds a regular operation (enumerable, writable, configurable).
func (c *Class) Method(name string, length int, fn func(goja.FunctionCall) goja.Value) *Class {
	_ = c.Proto.DefineDataProperty(name, c.r.Func(name, length, fn), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return c
}

// Static adds an operation on the interface object (Response.json).
func (c *Class) Static(name string, length int, fn func(goja.FunctionCall) goja.Value) *Class {
	_ = c.Ctor.DefineDataProperty(name, c.r.Func(name, length, fn), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return c
}

// Getter adds a read-only attribute.
func (c *Class) Getter(name string, get func(this goja.Value) goja.Value) *Class {
	return c.Accessor(name, get, nil)
}

// Accessor adds an attribute with a getter and, when set is non-nil, a
// setter.
func (c *Class) Accessor(name string, get func(this goja.Value) goja.Value, set func(this, v goja.Value)) *Class {
	g := c.r.Func("get "+name, 0, func(call goja.FunctionCall) goja.Value { return get(call.This) })
	var s goja.Value
	if set != nil {
		s = c.r.Func("set "+name, 1, func(call goja.FunctionCall) goja.Value {
			set(call.This, call.Argument(0))
			return goja.Undefined()
		})
	}
	_ = c.Proto.DefineAccessorProperty(name, g, s, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return c
}

// StaticGetter adds a read-only attribute to the interface object.
func (c *Class) StaticGetter(name string, get func() goja.Value) *Class {
	g := c.r.Func("get "+name, 0, func(goja.FunctionCall) goja.Value { return get() })
	_ = c.Ctor.DefineAccessorProperty(name, g, nil, goja.FLAG_TRUE, goja.FLAG_TRUE)
	return c
}

// Const adds a constant to both the interface object and the prototype.
func (c *Class) Const(name string, v any) *Class {
	val := c.r.RT.ToValue(v)
	_ = c.Ctor.DefineDataProperty(name, val, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	_ = c.Proto.DefineDataProperty(name, val, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	return c
}

// Is reports whether v is an object whose prototype chain contains c's
// prototype (instanceof without calling Symbol.hasInstance).
func (c *Class) Is(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	for p := o.Prototype(); p != nil; p = p.Prototype() {
		if p == c.Proto {
			return true
		}
	}
	return false
}
