package url

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

func (c *classes) thisParams(v goja.Value) *paramsState {
	p, ok := webidl.Slot[*paramsState](v)
	if !ok {
		c.throw(`Value of "this" must be of type URLSearchParams`, "code", "ERR_INVALID_THIS")
	}
	return p
}

// optional returns argument i as a USVString, and whether it was given
// (undefined counts as not given, as WebIDL says for optional arguments).
func (c *classes) optional(args []goja.Value, i int) (string, bool) {
	if i >= len(args) || goja.IsUndefined(args[i]) {
		return "", false
	}
	return c.r.String(args[i]), true
}

func (c *classes) installParams() {
	r, rt := c.r, c.rt
	c.params = r.NewClass("URLSearchParams", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		p := &paramsState{}
		// Node treats null as no argument (WebIDL would make it "null=").
		if init := call.Argument(0); !webidl.IsNullish(init) {
			p.list = c.initList(init)
		}
		r.SetSlot(call.This, p)
		return nil
	})
	cls := c.params
	cls.Getter("size", func(this goja.Value) goja.Value { return rt.ToValue(len(c.thisParams(this).list)) })
	cls.Method("append", 2, func(call goja.FunctionCall) goja.Value {
		p := c.thisParams(call.This)
		c.missing(len(call.Arguments), 2, `"name" and "value"`)
		p.append(r.String(call.Arguments[0]), r.String(call.Arguments[1]))
		return goja.Undefined()
	})
	cls.Method("delete", 1, func(call goja.FunctionCall) goja.Value {
		p := c.thisParams(call.This)
		c.missing(len(call.Arguments), 1, `"name"`)
		name := r.String(call.Arguments[0])
		value, withValue := c.optional(call.Arguments, 1)
		p.remove(name, value, withValue)
		return goja.Undefined()
	})
	cls.Method("get", 1, func(call goja.FunctionCall) goja.Value {
		p := c.thisParams(call.This)
		c.missing(len(call.Arguments), 1, `"name"`)
		if v, ok := p.get(r.String(call.Arguments[0])); ok {
			return rt.ToValue(v)
		}
		return goja.Null()
	})
	cls.Method("getAll", 1, func(call goja.FunctionCall) goja.Value {
		p := c.thisParams(call.This)
		c.missing(len(call.Arguments), 1, `"name"`)
		name := r.String(call.Arguments[0])
		var vs []any
		for _, q := range p.list {
			if q.name == name {
				vs = append(vs, q.value)
			}
		}
		return rt.NewArray(vs...)
	})
	cls.Method("has", 1, func(call goja.FunctionCall) goja.Value {
		p := c.thisParams(call.This)
		c.missing(len(call.Arguments), 1, `"name"`)
		name := r.String(call.Arguments[0])
		value, withValue := c.optional(call.Arguments, 1)
		return rt.ToValue(p.has(name, value, withValue))
	})
	cls.Method("set", 2, func(call goja.FunctionCall) goja.Value {
		p := c.thisParams(call.This)
		c.missing(len(call.Arguments), 2, `"name" and "value"`)
		p.set(r.String(call.Arguments[0]), r.String(call.Arguments[1]))
		return goja.Undefined()
	})
	cls.Method("sort", 0, func(call goja.FunctionCall) goja.Value {
		c.thisParams(call.This).sort()
		return goja.Undefined()
	})
	cls.PairIterable(func(this goja.Value) func(i int) (k, v goja.Value, ok bool) {
		p := c.thisParams(this)
		return func(i int) (k, v goja.Value, ok bool) {
			if i >= len(p.list) {
				return nil, nil, false
			}
			q := p.list[i]
			return rt.ToValue(q.name), rt.ToValue(q.value), true
		}
	})
	c.entries = cls.Proto.Get("entries")
	cls.Method("toString", 0, func(call goja.FunctionCall) goja.Value {
		return rt.ToValue(c.thisParams(call.This).String())
	})
}

// initList converts the constructor's init argument: a sequence of
// name-value pairs, a record, or a query string (a leading '?' dropped).
func (c *classes) initList(init goja.Value) []pair {
	r := c.r
	o, isObj := init.(*goja.Object)
	if !isObj {
		s := r.String(init)
		if len(s) > 0 && s[0] == '?' {
			s = s[1:]
		}
		return parseQuery(s, nil)
	}
	iter := o.GetSymbol(goja.SymIterator)
	if webidl.IsNullish(iter) {
		return c.recordList(o)
	}
	if p, ok := webidl.Slot[*paramsState](o); ok && iter == c.entries {
		return append([]pair(nil), p.list...) // a URLSearchParams, not customised
	}
	var list []pair
	r.Iterate(o, func(item goja.Value) {
		if _, ok := item.(*goja.Object); !ok || !webidl.Iterable(item) {
			c.throw("Each query pair must be an iterable [name, value] tuple", "code", "ERR_INVALID_TUPLE")
		}
		var kv []string
		r.Iterate(item, func(s goja.Value) { kv = append(kv, r.String(s)) })
		if len(kv) != 2 {
			c.throw("Each query pair must be an iterable [name, value] tuple", "code", "ERR_INVALID_TUPLE")
		}
		list = append(list, pair{kv[0], kv[1]})
	})
	return list
}

// recordList converts a record<USVString, USVString> as WebIDL does:
// for each own property key in order, an enumerable one gives a pair
// (a symbol key throws); keys equal after conversion (lone surrogates
// become U+FFFD) keep the first position and the last value. Keys are
// read as JS values (Reflect.ownKeys, Reflect.get), so a key with a lone
// surrogate still finds its value.
func (c *classes) recordList(o *goja.Object) []pair {
	r, rt := c.r, c.rt
	if c.reflect.ownKeys == nil {
		refl := rt.Get("Reflect").ToObject(rt)
		c.reflect.ownKeys = webidl.Callable(refl.Get("ownKeys"))
		c.reflect.get = webidl.Callable(refl.Get("get"))
		c.reflect.isEnum = webidl.Callable(rt.Get("Object").ToObject(rt).Get("prototype").ToObject(rt).Get("propertyIsEnumerable"))
	}
	call := func(fn goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
		v, err := fn(this, args...)
		if err != nil {
			panic(err)
		}
		return v
	}
	var list []pair
	r.Iterate(call(c.reflect.ownKeys, goja.Undefined(), o), func(k goja.Value) {
		if !call(c.reflect.isEnum, o, k).ToBoolean() {
			return
		}
		name := r.String(k) // a Symbol throws the TypeError WebIDL wants
		value := r.String(call(c.reflect.get, goja.Undefined(), o, k))
		for i := range list {
			if list[i].name == name {
				list[i].value = value
				return
			}
		}
		list = append(list, pair{name, value})
	})
	return list
}
