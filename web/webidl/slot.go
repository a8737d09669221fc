package webidl

import (
	"github.com/dop251/goja"
)

// Internal slots: a platform object keeps its Go state under one symbol
// that JS code cannot name (it is created here and never exposed), in a
// non-enumerable, non-writable property. The holder is a dynamic object
// with no properties, so nothing but Slot can read the state back.

var slotSym = goja.NewSymbol("[[bext internal]]")

type holder struct{ v any }

func (holder) Get(string) goja.Value       { return nil }
func (holder) Set(string, goja.Value) bool { return false }
func (holder) Has(string) bool             { return false }
func (holder) Delete(string) bool          { return true }
func (holder) Keys() []string              { return nil }

// SetSlot attaches the Go state v to o (once: a second call is ignored,
// so a subclass cannot swap its base's state).
func (r *Realm) SetSlot(o *goja.Object, v any) {
	_ = o.DefineDataPropertySymbol(slotSym, r.RT.NewDynamicObject(&holder{v}), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
}

// Slot returns the Go state of type T attached to v, if v is an object
// that has one.
func Slot[T any](v goja.Value) (T, bool) {
	var zero T
	o, ok := v.(*goja.Object)
	if !ok {
		return zero, false
	}
	h, ok := o.GetSymbol(slotSym).(*goja.Object)
	if !ok {
		return zero, false
	}
	hd, ok := h.Export().(*holder)
	if !ok {
		return zero, false
	}
	t, ok := hd.v.(T)
	return t, ok
}

// This returns the Go state of type T of a method's receiver, or throws the
// TypeError browsers throw for a method called on the wrong object
// ("Illegal invocation").
func This[T any](r *Realm, this goja.Value) T {
	t, ok := Slot[T](this)
	if !ok {
		panic(r.RT.NewTypeError("Illegal invocation"))
	}
	return t
}
