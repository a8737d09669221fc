package clone

import (
	"math/big"
	"reflect"
	"strconv"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

func (st *state) structuredClone(call goja.FunctionCall) goja.Value {
	r := st.r
	if len(call.Arguments) < 1 {
		r.TypeError("Failed to execute 'structuredClone': 1 argument required, but only 0 present.")
	}
	opts := r.Dict(call.Argument(1), "Failed to execute 'structuredClone'")
	var transfer []*goja.Object
	if t := webidl.Member(opts, "transfer"); t != nil {
		r.Iterate(t, func(v goja.Value) {
			o, ok := v.(*goja.Object)
			if !ok {
				r.TypeError("Failed to execute 'structuredClone': Failed to convert value to 'object'.")
			}
			transfer = append(transfer, o)
		})
	}
	return st.clone(call.Argument(0), transfer)
}

// Clone is structuredClone(v, {transfer}) from Go: the HTML standard's
// StructuredSerializeWithTransfer then StructuredDeserializeWithTransfer
// into the same realm, done in one walk. It throws (panics with) the
// DataCloneError DOMException, or whatever a getter of v throws. The
// ArrayBuffers in transfer are detached once the clone has succeeded.
func Clone(r *webidl.Realm, v goja.Value, transfer []*goja.Object) goja.Value {
	return install(r).clone(v, transfer)
}

type cloner struct {
	st     *state
	rt     *goja.Runtime
	memory map[*goja.Object]*goja.Object
}

func (st *state) clone(v goja.Value, transfer []*goja.Object) goja.Value {
	c := &cloner{st: st, rt: st.r.RT}
	if _, ok := v.(*goja.Object); !ok && len(transfer) == 0 {
		return c.value(v) // a primitive: no memory needed
	}
	c.memory = map[*goja.Object]*goja.Object{}
	var buffers []goja.ArrayBuffer
	for _, t := range transfer {
		if kindOf(t) != kindArrayBuffer {
			c.fail("Value not transferable")
		}
		if _, dup := c.memory[t]; dup {
			c.fail("Transfer list contains duplicate ArrayBuffer")
		}
		ab := t.Export().(goja.ArrayBuffer)
		if ab.Detached() {
			c.fail("An ArrayBuffer is detached and could not be transferred.")
		}
		c.memory[t] = c.rt.ToValue(c.rt.NewArrayBuffer(ab.Bytes())).(*goja.Object)
		buffers = append(buffers, ab)
	}
	out := c.value(v)
	for _, ab := range buffers {
		ab.Detach()
	}
	return out
}

func (c *cloner) fail(msg string) {
	c.st.r.ThrowDOMException(msg, "DataCloneError")
}

func (c *cloner) call(fn goja.Callable, this goja.Value, args ...goja.Value) goja.Value {
	v, err := fn(this, args...)
	if err != nil {
		panic(err)
	}
	return v
}

func (c *cloner) construct(ctor *goja.Object, args ...goja.Value) *goja.Object {
	o, err := c.rt.New(ctor, args...)
	if err != nil {
		panic(err)
	}
	return o
}

func (c *cloner) value(v goja.Value) goja.Value {
	switch v := v.(type) {
	case *goja.Object:
		return c.object(v)
	case *goja.Symbol:
		c.fail(v.String() + " could not be cloned.")
	}
	return v // undefined, null, booleans, numbers, BigInts, strings
}

var (
	typeBigInt  = reflect.TypeOf((*big.Int)(nil))
	typeBool    = reflect.TypeOf(false)
	typeInt64   = reflect.TypeOf(int64(0))
	typeFloat64 = reflect.TypeOf(float64(0))
)

func (c *cloner) object(o *goja.Object) goja.Value {
	if done, ok := c.memory[o]; ok {
		return done
	}
	if _, platform := webidl.Slot[any](o); platform {
		return c.platform(o)
	}
	st, rt := c.st, c.rt
	var out *goja.Object
	switch kindOf(o) {
	case kindOrdinary:
		out = rt.NewObject()
		c.memory[o] = out
		c.properties(o, out)
	case kindArray:
		return c.array(o)
	case kindPrimitive:
		var fn goja.Callable
		switch o.ExportType() {
		case typeInt64, typeFloat64:
			fn = st.numValue
		case typeBool:
			fn = st.boolValue
		case typeBigInt:
			fn = st.bigValue
		default: // a Symbol wrapper
			c.fail(c.describe(o) + " could not be cloned.")
		}
		out = c.call(fn, o).ToObject(rt)
	case kindString:
		out = c.call(st.strValue, o).ToObject(rt)
	case kindDate:
		out = c.construct(st.date, c.call(st.getTime, o))
	case kindRegExp:
		out = c.construct(st.regexp, c.call(st.regSource, o), c.call(st.regFlags, o))
	case kindArrayBuffer:
		ab := o.Export().(goja.ArrayBuffer)
		if ab.Detached() {
			c.fail("An ArrayBuffer is detached and could not be cloned.")
		}
		out = rt.ToValue(rt.NewArrayBuffer(append([]byte(nil), ab.Bytes()...))).(*goja.Object)
	case kindTypedArray:
		name := c.call(st.typedName, o).String()
		buf := c.value(c.call(st.typedBuffer, o))
		out = c.construct(st.typed[name], buf, c.call(st.typedOffset, o), c.call(st.typedLength, o))
	case kindDataView:
		buf := c.value(c.call(st.dvBuffer, o))
		out = c.construct(st.dataView, buf, c.call(st.dvOffset, o), c.call(st.dvLength, o))
	case kindMap, kindSet:
		return c.collection(o)
	case kindError:
		return c.error(o)
	default:
		c.fail(c.describe(o) + " could not be cloned.")
	}
	c.memory[o] = out
	return out
}

// array clones an Array. A dense array (own keys "0" … "n-1", n its
// length) is built in one step; any other keeps its holes, length and
// non-index properties.
func (c *cloner) array(o *goja.Object) goja.Value {
	keys := o.Keys()
	length := o.Get("length").ToInteger()
	dense := int64(len(keys)) == length
	for i := 0; dense && i < len(keys); i++ {
		dense = keys[i] == strconv.Itoa(i)
	}
	if !dense {
		out := c.rt.NewArray()
		_ = out.Set("length", length)
		c.memory[o] = out
		c.copy(o, out, keys)
		return out
	}
	// Primitives go straight into a slice; at the first object the clone
	// is made (it must be in memory before an element that may refer back
	// to the array is cloned) and the rest is copied one by one, each
	// element read once and in order.
	vals := make([]any, 0, len(keys))
	for i, k := range keys {
		v := o.Get(k)
		if _, isObj := v.(*goja.Object); !isObj {
			vals = append(vals, c.value(v))
			continue
		}
		out := c.rt.NewArray(vals...)
		_ = out.Set("length", length)
		c.memory[o] = out
		c.define(out, k, c.value(v))
		c.copy(o, out, keys[i+1:])
		return out
	}
	out := c.rt.NewArray(vals...)
	c.memory[o] = out
	return out
}

// properties copies o's own enumerable string-keyed properties, cloned,
// to out (arrays keep their holes and their non-index properties).
func (c *cloner) properties(o, out *goja.Object) { c.copy(o, out, o.Keys()) }

func (c *cloner) copy(o, out *goja.Object, keys []string) {
	for _, k := range keys {
		c.define(out, k, c.value(o.Get(k)))
	}
}

func (c *cloner) define(o *goja.Object, k string, v goja.Value) {
	if err := o.DefineDataProperty(k, v, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE); err != nil {
		panic(err)
	}
}

// collection clones a Map or a Set: the entries are listed first, then
// cloned, as the standard does (a getter that changes the collection
// does not change what is cloned).
func (c *cloner) collection(o *goja.Object) goja.Value {
	st, rt := c.st, c.rt
	isMap := kindOf(o) == kindMap
	var entries []goja.Value
	collect := rt.ToValue(func(call goja.FunctionCall) goja.Value {
		if isMap {
			entries = append(entries, call.Argument(1), call.Argument(0))
		} else {
			entries = append(entries, call.Argument(0))
		}
		return goja.Undefined()
	})
	ctor, forEach, add := st.setCtor, st.setForEach, "add"
	if isMap {
		ctor, forEach, add = st.mapCtor, st.mapForEach, "set"
	}
	c.call(forEach, o, collect)
	out := c.construct(ctor)
	c.memory[o] = out
	put := webidl.Callable(ctor.Get("prototype").ToObject(rt).Get(add))
	if isMap {
		for i := 0; i < len(entries); i += 2 {
			k := c.value(entries[i])
			c.call(put, out, k, c.value(entries[i+1]))
		}
	} else {
		for _, v := range entries {
			c.call(put, out, c.value(v))
		}
	}
	return out
}

// error clones an Error as the standard says (its name if it is one of the
// standard constructors', else "Error"; its own message) and, as V8 does,
// its own stack and cause.
func (c *cloner) error(o *goja.Object) goja.Value {
	st, rt := c.st, c.rt
	name := "Error"
	if n, ok := o.Get("name").(goja.String); ok {
		if _, std := st.errors[n.String()]; std {
			name = n.String()
		}
	}
	var args []goja.Value
	if d := c.own(o, "message"); d != nil && d.Get("get") == nil && d.Get("set") == nil {
		args = append(args, rt.ToValue(st.r.String(d.Get("value"))))
	}
	out := c.construct(st.errors[name], args...)
	c.memory[o] = out
	if d := c.own(o, "stack"); d != nil {
		if s, ok := d.Get("value").(goja.String); ok {
			_ = out.DefineDataProperty("stack", s, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
	}
	if d := c.own(o, "cause"); d != nil && d.Get("get") == nil && d.Get("set") == nil {
		_ = out.DefineDataProperty("cause", c.value(d.Get("value")), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	return out
}

// own is Object.getOwnPropertyDescriptor(o, name), nil when o has no such
// property.
func (c *cloner) own(o *goja.Object, name string) *goja.Object {
	d := c.call(c.st.getOwnDesc, goja.Undefined(), o, c.rt.ToValue(name))
	if webidl.IsNullish(d) {
		return nil
	}
	return d.(*goja.Object)
}

// platform clones a platform object through the registered serializers;
// DOMException is serializable here (name and message), as WebIDL says.
func (c *cloner) platform(o *goja.Object) goja.Value {
	r := c.st.r
	regMu.RLock()
	list := serializers
	regMu.RUnlock()
	for _, s := range list {
		if out, ok := s(r, o, c.value); ok {
			c.memory[o] = out
			return out
		}
	}
	if r.DOMExceptionClass().Is(o) {
		out := r.DOMException(r.String(o.Get("message")), r.String(o.Get("name")))
		c.memory[o] = out
		return out
	}
	c.fail(c.describe(o) + " could not be cloned.")
	return nil
}

// describe names a value in a DataCloneError message as V8 does:
// a function's source, #<Constructor> for an object.
func (c *cloner) describe(o *goja.Object) string {
	if kindOf(o) == kindFunction {
		return o.String()
	}
	name := "Object"
	if k := kindOf(o); k != kindProxy && k != kindDynamic {
		func() {
			defer func() { _ = recover() }()
			for p := o; p != nil; p = p.Prototype() {
				if ctor, ok := p.Get("constructor").(*goja.Object); ok {
					if n, ok := ctor.Get("name").(goja.String); ok && n.String() != "" {
						name = n.String()
						return
					}
				}
			}
		}()
	}
	return "#<" + name + ">"
}
