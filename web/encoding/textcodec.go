package encoding

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// EncodeUTF8 returns the UTF-8 bytes of the JS string v (TextEncoder's
// encode): lone surrogates become U+FFFD, as a USVString conversion makes
// them.
func EncodeUTF8(v goja.Value) []byte {
	text, units := webidl.StringData(v)
	if units == nil {
		return []byte(text)
	}
	n := 0
	for i := 0; i < len(units); i++ {
		switch u := units[i]; {
		case u < 0x80:
			n++
		case u < 0x800:
			n += 2
		case u >= 0xD800 && u <= 0xDBFF && i+1 < len(units) && units[i+1] >= 0xDC00 && units[i+1] <= 0xDFFF:
			n += 4
			i++
		default:
			n += 3
		}
	}
	out := make([]byte, 0, n)
	for i := 0; i < len(units); i++ {
		u := units[i]
		if u < 0x80 {
			out = append(out, byte(u))
			continue
		}
		out = utf8.AppendRune(out, codePoint(units, &i))
	}
	return out
}

// codePoint returns the code point at units[*i] (advancing *i past a
// surrogate pair), U+FFFD for a lone surrogate.
func codePoint(units []uint16, i *int) rune {
	u := rune(units[*i])
	if u >= 0xD800 && u <= 0xDFFF {
		if u <= 0xDBFF && *i+1 < len(units) {
			if t := rune(units[*i+1]); t >= 0xDC00 && t <= 0xDFFF {
				*i++
				return utf16.DecodeRune(u, t)
			}
		}
		return utf8.RuneError
	}
	return u
}

// encodeInto writes the longest prefix of whole characters of v that fits
// into dst as UTF-8 and returns how many UTF-16 code units it read and how
// many bytes it wrote.
func encodeInto(v goja.Value, dst []byte) (read, written int) {
	text, units := webidl.StringData(v)
	if units == nil {
		for _, c := range text {
			if c < utf8.RuneSelf {
				if written == len(dst) {
					break
				}
				dst[written] = byte(c)
				written++
				read++
				continue
			}
			n := utf8.RuneLen(c)
			if written+n > len(dst) {
				break
			}
			utf8.EncodeRune(dst[written:], c)
			written += n
			read += utf16.RuneLen(c)
		}
		return read, written
	}
	for i := 0; i < len(units); i++ {
		if u := units[i]; u < 0x80 {
			if written == len(dst) {
				break
			}
			dst[written] = byte(u)
			written++
			read++
			continue
		}
		start := i
		c := codePoint(units, &i)
		n := utf8.RuneLen(c)
		if written+n > len(dst) {
			break
		}
		utf8.EncodeRune(dst[written:], c)
		written += n
		read += i - start + 1
	}
	return read, written
}

func (st *state) installTextEncoder() {
	r, rt := st.r, st.r.RT
	type encoder struct{}
	c := r.NewClass("TextEncoder", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		r.SetSlot(call.This, &encoder{})
		return nil
	})
	c.Getter("encoding", func(this goja.Value) goja.Value {
		webidl.This[*encoder](r, this)
		return rt.ToValue("utf-8")
	})
	c.Method("encode", 0, func(call goja.FunctionCall) goja.Value {
		webidl.This[*encoder](r, call.This)
		in := call.Argument(0)
		if goja.IsUndefined(in) {
			return r.Uint8Array(nil)
		}
		return r.Uint8Array(EncodeUTF8(st.usv(in)))
	})
	c.Method("encodeInto", 2, func(call goja.FunctionCall) goja.Value {
		webidl.This[*encoder](r, call.This)
		if len(call.Arguments) < 2 {
			r.TypeError("Failed to execute 'encodeInto' on 'TextEncoder': 2 arguments required, but only %d present.", len(call.Arguments))
		}
		src := st.usv(call.Argument(0))
		dst, ok := st.uint8Array(call.Argument(1))
		if !ok {
			r.TypeError("Failed to execute 'encodeInto' on 'TextEncoder': parameter 2 is not of type 'Uint8Array'.")
		}
		read, written := encodeInto(src, dst)
		o := rt.NewObject()
		_ = o.Set("read", read)
		_ = o.Set("written", written)
		return o
	})
	r.Global("TextEncoder", c.Ctor)
}

// usv converts v to a string value (ToString; a Symbol throws the
// TypeError).
func (st *state) usv(v goja.Value) goja.Value {
	if _, ok := v.(*goja.Symbol); ok {
		st.r.TypeError("Cannot convert a Symbol value to a string")
	}
	return v.ToString()
}

// uint8Array returns the bytes of v if it is a Uint8Array.
func (st *state) uint8Array(v goja.Value) ([]byte, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil, false
	}
	if st.u8proto == nil {
		st.u8proto = st.r.RT.Get("Uint8Array").ToObject(st.r.RT).Get("prototype").(*goja.Object)
	}
	for p := o.Prototype(); ; p = p.Prototype() {
		if p == nil {
			return nil, false
		}
		if p == st.u8proto {
			break
		}
	}
	if _, ok := o.Export().([]byte); !ok { // a plain object inheriting from the prototype
		return nil, false
	}
	return webidl.Bytes(v)
}

type textDecoder struct{ d *Decoder }

func (st *state) installTextDecoder() {
	r, rt := st.r, st.r.RT
	c := r.NewClass("TextDecoder", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		label := "utf-8"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			label = r.String(a)
		}
		opts := r.Dict(call.Argument(1), "Failed to construct 'TextDecoder'")
		fatal := webidl.Bool(webidl.Member(opts, "fatal"))
		ignoreBOM := webidl.Bool(webidl.Member(opts, "ignoreBOM"))
		d, err := NewDecoder(label, fatal, ignoreBOM)
		if err != nil {
			r.RangeError("The %q encoding is not supported", label)
		}
		r.SetSlot(call.This, &textDecoder{d})
		return nil
	})
	this := func(v goja.Value) *Decoder { return webidl.This[*textDecoder](r, v).d }
	c.Getter("encoding", func(v goja.Value) goja.Value { return rt.ToValue(this(v).Encoding()) })
	c.Getter("fatal", func(v goja.Value) goja.Value { return rt.ToValue(this(v).fatal) })
	c.Getter("ignoreBOM", func(v goja.Value) goja.Value { return rt.ToValue(this(v).ignoreBOM) })
	c.Method("decode", 0, func(call goja.FunctionCall) goja.Value {
		d := this(call.This)
		var in []byte
		if a := call.Argument(0); !goja.IsUndefined(a) {
			b, ok := bytesOf(a)
			if !ok {
				r.TypeError("Failed to execute 'decode' on 'TextDecoder': parameter 1 is not of type '(ArrayBuffer or ArrayBufferView)'.")
			}
			in = b
		}
		opts := r.Dict(call.Argument(1), "Failed to execute 'decode' on 'TextDecoder'")
		s, err := d.Decode(in, webidl.Bool(webidl.Member(opts, "stream")))
		if err != nil {
			r.TypeError("The encoded data was not valid for encoding %s", d.Encoding())
		}
		return rt.ToValue(s)
	})
	r.Global("TextDecoder", c.Ctor)
}
