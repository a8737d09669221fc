package webidl

import (
	"fmt"
	"math"
	"reflect"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// Conversions from JS values to WebIDL types, in one place (as Deno's
// ext/webidl). Each throws the TypeError (or RangeError) the WebIDL spec
// says, as a JS exception: they panic with the error object, which goja
// turns into a throw when they are called from a native function.

// TypeError throws a TypeError with the formatted message.
func (r *Realm) TypeError(format string, args ...any) {
	panic(r.RT.NewTypeError(fmt.Sprintf(format, args...)))
}

// RangeError throws a RangeError with the formatted message.
func (r *Realm) RangeError(format string, args ...any) {
	panic(r.NewError("RangeError", fmt.Sprintf(format, args...)))
}

// NewError makes an instance of the global error constructor ctor
// ("Error", "TypeError", "RangeError", …) with msg.
func (r *Realm) NewError(ctor, msg string) *goja.Object {
	o, err := r.RT.New(r.RT.Get(ctor), r.RT.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return o
}

// IsNullish reports undefined and null (and a missing argument).
func IsNullish(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }

// String converts v to a DOMString (ToString; a Symbol throws). Lone
// surrogates come back as U+FFFD, so the result is also a USVString.
func (r *Realm) String(v goja.Value) string {
	if v == nil {
		return "undefined"
	}
	if _, ok := v.(*goja.Symbol); ok {
		r.TypeError("Cannot convert a Symbol value to a string")
	}
	return v.String()
}

// ByteString converts v to a ByteString: every UTF-16 code unit must be at
// most 0xFF, and the result holds one byte per code unit (Latin-1), as
// header names and values travel on the wire.
func (r *Realm) ByteString(v goja.Value) string {
	s := r.String(v)
	ascii := true
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			ascii = false
			break
		}
	}
	if ascii {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range s {
		if c > 0xFF {
			r.TypeError("Cannot convert argument to a ByteString because the character at index %d has a value of %d which is greater than 255.", strings.Index(s, string(c)), c)
		}
		b.WriteByte(byte(c))
	}
	return b.String()
}

// FromByteString is the JS string for the Latin-1 bytes s (the inverse of
// ByteString).
func FromByteString(s string) string {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			rs := make([]rune, len(s))
			for k := 0; k < len(s); k++ {
				rs[k] = rune(s[k])
			}
			return string(rs)
		}
	}
	return s
}

// Bool converts v with ToBoolean.
func Bool(v goja.Value) bool { return v != nil && v.ToBoolean() }

// IntMode is how an integer conversion treats out-of-range values.
type IntMode int

const (
	// Wrap is the default WebIDL conversion: modulo 2^bits.
	Wrap IntMode = iota
	// EnforceRange throws a TypeError for values out of range or not finite.
	EnforceRange
	// Clamp clamps to the range, rounding half to even.
	Clamp
)

// Integer converts v to a WebIDL integer type of the given size
// ("unsigned long" is Integer(v, 32, false, Wrap)).
func (r *Realm) Integer(v goja.Value, bits int, signed bool, mode IntMode) int64 {
	x := 0.0
	if v != nil {
		x = v.ToFloat()
	}
	var lo, hi float64
	if signed {
		lo, hi = -math.Pow(2, float64(bits-1)), math.Pow(2, float64(bits-1))-1
	} else {
		lo, hi = 0, math.Pow(2, float64(bits))-1
	}
	if bits == 64 { // safe integers, as WebIDL says for long long
		lo, hi = -(1<<53 - 1), 1<<53-1
		if !signed {
			lo = 0
		}
	}
	switch mode {
	case EnforceRange:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			r.TypeError("Value is not a finite number")
		}
		x = math.Trunc(x)
		if x < lo || x > hi {
			r.TypeError("Value is outside the accepted range of %v to %v", lo, hi)
		}
		return int64(x)
	case Clamp:
		if math.IsNaN(x) {
			return 0
		}
		return int64(math.RoundToEven(math.Min(math.Max(x, lo), hi)))
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || x == 0 {
		return 0
	}
	x = math.Trunc(x)
	if bits == 64 {
		return int64(x)
	}
	m := math.Pow(2, float64(bits))
	x = math.Mod(x, m)
	if x < 0 {
		x += m
	}
	if signed && x >= m/2 {
		x -= m
	}
	return int64(x)
}

// Dict returns v as a dictionary object: nil for undefined or null, a
// TypeError for other non-objects.
func (r *Realm) Dict(v goja.Value, what string) *goja.Object {
	if IsNullish(v) {
		return nil
	}
	o, ok := v.(*goja.Object)
	if !ok {
		r.TypeError("%s: the options argument must be an object", what)
	}
	return o
}

// Member returns dictionary member name of d, or nil when d is nil or the
// member is undefined.
func Member(d *goja.Object, name string) goja.Value {
	if d == nil {
		return nil
	}
	v := d.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	return v
}

// Callable returns v as a function, or nil when it is not one.
func Callable(v goja.Value) goja.Callable {
	if v == nil {
		return nil
	}
	fn, _ := goja.AssertFunction(v)
	return fn
}

// Iterable reports whether v is an object with a Symbol.iterator method.
func Iterable(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	return ok && Callable(o.GetSymbol(goja.SymIterator)) != nil
}

// Iterate runs fn on each value v yields through its Symbol.iterator
// (a WebIDL sequence<T> conversion), closing the iterator if fn panics.
func (r *Realm) Iterate(v goja.Value, fn func(goja.Value)) {
	o, ok := v.(*goja.Object)
	var method goja.Callable
	if ok {
		method = Callable(o.GetSymbol(goja.SymIterator))
	}
	if method == nil {
		r.TypeError("The provided value is not iterable")
	}
	itv, err := method(o)
	if err != nil {
		panic(err)
	}
	it, ok := itv.(*goja.Object)
	if !ok {
		r.TypeError("Result of the Symbol.iterator method is not an object")
	}
	next := Callable(it.Get("next"))
	if next == nil {
		r.TypeError("The iterator's next is not a function")
	}
	done := false
	defer func() {
		if !done {
			if ret := Callable(it.Get("return")); ret != nil {
				_, _ = ret(it)
			}
		}
	}()
	for {
		res, err := next(it)
		if err != nil {
			done = true
			panic(err)
		}
		ro, ok := res.(*goja.Object)
		if !ok {
			done = true
			r.TypeError("Iterator result %s is not an object", res.String())
		}
		if Bool(ro.Get("done")) {
			done = true
			return
		}
		fn(ro.Get("value"))
	}
}

// Bytes returns the bytes an ArrayBuffer, typed array or DataView views,
// sharing memory with it; ok is false for any other value.
func Bytes(v goja.Value) (b []byte, ok bool) {
	if v == nil {
		return nil, false
	}
	if ab, isAB := v.Export().(goja.ArrayBuffer); isAB {
		return ab.Bytes(), true
	}
	o, isObj := v.(*goja.Object)
	if !isObj {
		return nil, false
	}
	buf := o.Get("buffer")
	if buf == nil {
		return nil, false
	}
	ab, isAB := buf.Export().(goja.ArrayBuffer)
	if !isAB || !isView(o) {
		return nil, false
	}
	off, n := o.Get("byteOffset").ToInteger(), o.Get("byteLength").ToInteger()
	all := ab.Bytes()
	if off < 0 || n < 0 || off+n > int64(len(all)) {
		return nil, false
	}
	return all[off : off+n], true
}

// isView reports whether o is a typed array or DataView (ArrayBuffer.isView)
// rather than an object that merely has a buffer property. goja reports
// the class "Object" for both, so typed arrays are told by the Go slice
// they export to, and a DataView by its prototype's Symbol.toStringTag.
func isView(o *goja.Object) bool {
	if t := o.ExportType(); t != nil && t.Kind() == reflect.Slice {
		switch t.Elem().Kind() {
		case reflect.Int8, reflect.Uint8, reflect.Int16, reflect.Uint16, reflect.Int32, reflect.Uint32,
			reflect.Int64, reflect.Uint64, reflect.Float32, reflect.Float64:
			return true
		}
	}
	tag, ok := o.GetSymbol(goja.SymToStringTag).(goja.String)
	return ok && tag.String() == "DataView"
}

// Uint8Array makes a new Uint8Array over a copy-free ArrayBuffer holding b
// (b must not be used by Go afterwards).
func (r *Realm) Uint8Array(b []byte) *goja.Object {
	ab := r.RT.NewArrayBuffer(b)
	o, err := r.RT.New(r.RT.Get("Uint8Array"), r.RT.ToValue(ab))
	if err != nil {
		panic(err)
	}
	return o
}

// ArrayBuffer makes a new ArrayBuffer holding b (not copied).
func (r *Realm) ArrayBuffer(b []byte) goja.Value {
	return r.RT.ToValue(r.RT.NewArrayBuffer(b))
}
