package engine

import (
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"
)

// installEncoding provides the WHATWG TextEncoder and TextDecoder for UTF-8,
// natively. React's server renderers build their byte chunks with
// TextEncoder (encode and encodeInto).
func (i *Isolate) installEncoding() {
	rt := i.rt
	_ = rt.Set("TextEncoder", func(call goja.ConstructorCall) *goja.Object {
		o := call.This
		_ = o.Set("encoding", "utf-8")
		_ = o.Set("encode", func(c goja.FunctionCall) goja.Value {
			s := ""
			if a := c.Argument(0); !goja.IsUndefined(a) {
				s = a.String()
			}
			return i.newUint8Array([]byte(s))
		})
		_ = o.Set("encodeInto", func(c goja.FunctionCall) goja.Value {
			return i.encodeInto(c.Argument(0).String(), c.Argument(1))
		})
		return nil
	})
	_ = rt.Set("TextDecoder", func(call goja.ConstructorCall) *goja.Object {
		label := "utf-8"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			label = a.String()
		}
		if label != "utf-8" && label != "utf8" && label != "unicode-1-1-utf-8" {
			panic(rt.NewTypeError("TextDecoder: encoding %q is not supported; only utf-8 is", label))
		}
		var fatal, ignoreBOM bool
		if opts, ok := call.Argument(1).(*goja.Object); ok {
			fatal = opts.Get("fatal") != nil && opts.Get("fatal").ToBoolean()
			ignoreBOM = opts.Get("ignoreBOM") != nil && opts.Get("ignoreBOM").ToBoolean()
		}
		d := &utf8Decoder{fatal: fatal, ignoreBOM: ignoreBOM}
		o := call.This
		_ = o.Set("encoding", "utf-8")
		_ = o.Set("fatal", fatal)
		_ = o.Set("ignoreBOM", ignoreBOM)
		_ = o.Set("decode", func(c goja.FunctionCall) goja.Value {
			var in []byte
			if a := c.Argument(0); !goja.IsUndefined(a) {
				in = i.bytesOf(a)
			}
			stream := false
			if opts, ok := c.Argument(1).(*goja.Object); ok {
				if v := opts.Get("stream"); v != nil {
					stream = v.ToBoolean()
				}
			}
			s, ok := d.decode(in, stream)
			if !ok {
				panic(rt.NewTypeError("TextDecoder: the encoded data was not valid utf-8"))
			}
			return rt.ToValue(s)
		})
		return nil
	})
}

func (i *Isolate) newUint8Array(b []byte) goja.Value {
	u8, err := i.rt.New(i.uint8Ctor, i.rt.ToValue(i.rt.NewArrayBuffer(b)))
	if err != nil {
		panic(err)
	}
	return u8
}

// bytesOf returns the bytes viewed by an ArrayBuffer, typed array or
// DataView (sharing memory with it).
func (i *Isolate) bytesOf(v goja.Value) []byte {
	if ab, ok := v.Export().(goja.ArrayBuffer); ok {
		return ab.Bytes()
	}
	obj, ok := v.(*goja.Object)
	if ok {
		if ab, isAB := obj.Get("buffer").Export().(goja.ArrayBuffer); isAB {
			off := obj.Get("byteOffset").ToInteger()
			n := obj.Get("byteLength").ToInteger()
			return ab.Bytes()[off : off+n]
		}
	}
	panic(i.rt.NewTypeError("TextDecoder.decode: expected an ArrayBuffer, a typed array or a DataView"))
}

// encodeInto writes as many whole characters of s as fit into dest and
// reports {read (UTF-16 code units), written (bytes)}.
func (i *Isolate) encodeInto(s string, dest goja.Value) goja.Value {
	buf := i.bytesOf(dest)
	read, written := 0, 0
	for _, r := range s {
		n := utf8.RuneLen(r)
		if n < 0 { // invalid UTF-8 never comes out of a goja string, but be safe
			r, n = utf8.RuneError, 3
		}
		if written+n > len(buf) {
			break
		}
		utf8.EncodeRune(buf[written:], r)
		written += n
		read += utf16.RuneLen(r)
	}
	o := i.rt.NewObject()
	_ = o.Set("read", read)
	_ = o.Set("written", written)
	return o
}

// utf8Decoder is the state of one TextDecoder: the tail of an incomplete
// sequence kept between stream:true calls, and whether the BOM was seen.
type utf8Decoder struct {
	fatal, ignoreBOM bool
	pending          []byte
	started          bool
}

func (d *utf8Decoder) decode(in []byte, stream bool) (string, bool) {
	b := append(d.pending, in...)
	d.pending = nil
	if stream {
		// keep an incomplete trailing sequence for the next call
		for k := 1; k <= 3 && k <= len(b); k++ {
			c := b[len(b)-k]
			if c < 0x80 {
				break
			}
			if c >= 0xC0 {
				if need := seqLen(c); need > k {
					d.pending = append([]byte(nil), b[len(b)-k:]...)
					b = b[:len(b)-k]
				}
				break
			}
		}
	}
	if !d.started && len(b) > 0 {
		d.started = true
		if !d.ignoreBOM && len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
			b = b[3:]
		}
	}
	if !stream {
		d.started = false
	}
	if utf8.Valid(b) {
		return string(b), true
	}
	if d.fatal {
		return "", false
	}
	out := make([]rune, 0, len(b))
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		out = append(out, r)
		b = b[n:]
	}
	return string(out), true
}

func seqLen(c byte) int {
	switch {
	case c >= 0xF0:
		return 4
	case c >= 0xE0:
		return 3
	default:
		return 2
	}
}
