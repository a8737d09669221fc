package webidl

import (
	"github.com/dop251/goja"
)

type iterProtoKey struct{ name string }

type iterState struct {
	next func() (goja.Value, bool)
}

// iteratorPrototype returns %IteratorPrototype% of r's runtime.
func (r *Realm) iteratorPrototype() *goja.Object {
	return Value(r, iterProtoKey{"%IteratorPrototype%"}, func() *goja.Object {
		arr := r.RT.NewArray()
		mk := Callable(arr.GetSymbol(goja.SymIterator))
		it, err := mk(arr)
		if err != nil {
			panic(err)
		}
		return it.(*goja.Object).Prototype().Prototype()
	})
}

// Iterator makes an iterator object whose next() returns
// {value, done} from next; its prototype inherits %IteratorPrototype% and
// has Symbol.toStringTag tag ("Headers Iterator").
func (r *Realm) Iterator(tag string, next func() (goja.Value, bool)) *goja.Object {
	proto := Value(r, iterProtoKey{tag}, func() *goja.Object {
		p := r.RT.CreateObject(r.iteratorPrototype())
		_ = p.DefineDataProperty("next", r.Func("next", 0, func(call goja.FunctionCall) goja.Value {
			st := This[*iterState](r, call.This)
			res := r.RT.NewObject()
			v, ok := st.next()
			if !ok {
				_ = res.Set("value", goja.Undefined())
				_ = res.Set("done", true)
				st.next = func() (goja.Value, bool) { return nil, false }
				return res
			}
			_ = res.Set("value", v)
			_ = res.Set("done", false)
			return res
		}), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
		_ = p.DefineDataPropertySymbol(goja.SymToStringTag, r.RT.ToValue(tag), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return p
	})
	it := r.RT.CreateObject(proto)
	r.SetSlot(it, &iterState{next: next})
	return it
}

// PairIterable gives c the members of a WebIDL pair iterable
// (iterable<K, V>): entries, keys, values, forEach and Symbol.iterator
// (= entries). pairs returns, for a receiver, a function that yields its
// i-th pair and whether there is one; it is called again at every step,
// so iteration sees changes made meanwhile, as the spec says.
func (c *Class) PairIterable(pairs func(this goja.Value) func(i int) (k, v goja.Value, ok bool)) *Class {
	r := c.r
	tag := c.Name + " Iterator"
	mk := func(kind int) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			at := pairs(call.This)
			i := 0
			return r.Iterator(tag, func() (goja.Value, bool) {
				k, v, ok := at(i)
				if !ok {
					return nil, false
				}
				i++
				switch kind {
				case 0:
					return r.RT.NewArray(k, v), true
				case 1:
					return k, true
				}
				return v, true
			})
		}
	}
	entries := r.Func("entries", 0, mk(0))
	_ = c.Proto.DefineDataProperty("entries", entries, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	c.Method("keys", 0, mk(1))
	c.Method("values", 0, mk(2))
	_ = c.Proto.DefineDataPropertySymbol(goja.SymIterator, entries, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	c.Method("forEach", 1, func(call goja.FunctionCall) goja.Value {
		fn := Callable(call.Argument(0))
		if fn == nil {
			r.TypeError("%s.forEach: the callback is not a function", c.Name)
		}
		at := pairs(call.This)
		for i := 0; ; i++ {
			k, v, ok := at(i)
			if !ok {
				break
			}
			if _, err := fn(call.Argument(1), v, k, call.This); err != nil {
				panic(err)
			}
		}
		return goja.Undefined()
	})
	return c
}
