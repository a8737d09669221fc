package streams

import (
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// TextEncoderStream and TextDecoderStream (WHATWG Encoding §7): transform
// streams over Go algorithms. The decoder here is UTF-8 only (the only
// encoding TextEncoderStream produces and what servers stream); it moves
// to the encoding package's streaming decoder when that lands.

type encoderStream struct {
	ts      *tstream
	pending uint16 // a high surrogate left over from the previous chunk
}

type decoderStream struct {
	ts        *tstream
	d         utf8Decoder
	fatal     bool
	ignoreBOM bool
}

// genericTransform adds the GenericTransformStream mixin's readable and
// writable attributes to c.
func genericTransform(s *state, c *webidl.Class, ts func(goja.Value) *tstream) {
	c.Getter("readable", func(v goja.Value) goja.Value { return ts(v).readable.obj })
	c.Getter("writable", func(v goja.Value) goja.Value { return ts(v).writable.obj })
}

func (s *state) installTextStreams() {
	r, rt := s.r, s.rt
	enc := r.NewClass("TextEncoderStream", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		es := &encoderStream{}
		es.ts = s.newTransform(nil, func(c *tcontroller) transformAlgos {
			return transformAlgos{
				transform: func(chunk goja.Value) goja.Value {
					var out []byte
					if ex, ok := try(func() { out = es.encode(chunk) }); !ok {
						return s.rejectedWith(ex)
					}
					if len(out) > 0 {
						if e := c.enqueue(s.newUint8(rt.NewArrayBuffer(out), 0, len(out))); e != nil {
							return s.rejectedWith(e)
						}
					}
					return s.resolvedUndefined()
				},
				flush: func() goja.Value {
					if es.pending != 0 {
						if e := c.enqueue(s.newUint8(rt.NewArrayBuffer([]byte{0xEF, 0xBF, 0xBD}), 0, 3)); e != nil {
							return s.rejectedWith(e)
						}
					}
					return s.resolvedUndefined()
				},
				cancel: func(goja.Value) goja.Value { return s.resolvedUndefined() },
			}
		}, 1, nil, 0, nil)
		r.SetSlot(call.This, es)
		return nil
	})
	encThis := func(v goja.Value) *encoderStream { return webidl.This[*encoderStream](r, v) }
	enc.Getter("encoding", func(v goja.Value) goja.Value { encThis(v); return rt.ToValue("utf-8") })
	genericTransform(s, enc, func(v goja.Value) *tstream { return encThis(v).ts })
	r.Global("TextEncoderStream", enc.Ctor)

	dec := r.NewClass("TextDecoderStream", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		label := "utf-8"
		if a := call.Argument(0); !goja.IsUndefined(a) {
			label = s.r.String(a)
		}
		ds := &decoderStream{}
		if o := s.r.Dict(call.Argument(1), "Failed to construct 'TextDecoderStream'"); o != nil {
			ds.fatal = webidl.Bool(webidl.Member(o, "fatal"))
			ds.ignoreBOM = webidl.Bool(webidl.Member(o, "ignoreBOM"))
		}
		if !isUTF8Label(label) {
			panic(s.rangeError("Failed to construct 'TextDecoderStream': The encoding label provided ('" + label + "') is invalid."))
		}
		ds.d.ignoreBOM = ds.ignoreBOM
		ds.ts = s.newTransform(nil, func(c *tcontroller) transformAlgos {
			emit := func(out string, bad bool) goja.Value {
				if bad && ds.fatal {
					return s.rejectedWith(s.typeError("The encoded data was not valid for encoding utf-8"))
				}
				if out != "" {
					if e := c.enqueue(rt.ToValue(out)); e != nil {
						return s.rejectedWith(e)
					}
				}
				return s.resolvedUndefined()
			}
			return transformAlgos{
				transform: func(chunk goja.Value) goja.Value {
					b, ok := webidl.Bytes(chunk)
					if !ok {
						return s.rejectedWith(s.typeError("Failed to execute 'decode' on 'TextDecoder': The provided value is not of type '(ArrayBuffer or ArrayBufferView)'"))
					}
					out, bad := ds.d.decode(b, false)
					return emit(out, bad)
				},
				flush: func() goja.Value {
					out, bad := ds.d.decode(nil, true)
					return emit(out, bad)
				},
				cancel: func(goja.Value) goja.Value { return s.resolvedUndefined() },
			}
		}, 1, nil, 0, nil)
		r.SetSlot(call.This, ds)
		return nil
	})
	decThis := func(v goja.Value) *decoderStream { return webidl.This[*decoderStream](r, v) }
	dec.Getter("encoding", func(v goja.Value) goja.Value { decThis(v); return rt.ToValue("utf-8") })
	dec.Getter("fatal", func(v goja.Value) goja.Value { return rt.ToValue(decThis(v).fatal) })
	dec.Getter("ignoreBOM", func(v goja.Value) goja.Value { return rt.ToValue(decThis(v).ignoreBOM) })
	genericTransform(s, dec, func(v goja.Value) *tstream { return decThis(v).ts })
	r.Global("TextDecoderStream", dec.Ctor)
}

// encode is "encode and enqueue a chunk": UTF-16 code units to UTF-8,
// pairing a surrogate split across chunks, U+FFFD for lone ones.
func (es *encoderStream) encode(chunk goja.Value) []byte {
	sv := chunk.ToString()
	str, ok := sv.(goja.String)
	if !ok { // not a JS string value (a number's digits): valid UTF-8 already
		str = goja.StringFromUTF16(utf16.Encode([]rune(sv.String())))
	}
	n := str.Length()
	out := make([]byte, 0, n+3)
	for i := 0; i < n; i++ {
		u := str.CharAt(i)
		if es.pending != 0 {
			hi := es.pending
			es.pending = 0
			if u >= 0xDC00 && u <= 0xDFFF {
				out = utf8.AppendRune(out, 0x10000+(rune(hi)-0xD800)<<10+(rune(u)-0xDC00))
				continue
			}
			out = append(out, 0xEF, 0xBF, 0xBD)
		}
		switch {
		case u >= 0xD800 && u <= 0xDBFF:
			es.pending = u
		case u >= 0xDC00 && u <= 0xDFFF:
			out = append(out, 0xEF, 0xBF, 0xBD)
		case u < 0x80:
			out = append(out, byte(u))
		default:
			out = utf8.AppendRune(out, rune(u))
		}
	}
	return out
}

func isUTF8Label(label string) bool {
	switch strings.ToLower(strings.Trim(label, "\t\n\f\r ")) {
	case "unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8":
		return true
	}
	return false
}

// utf8Decoder is the WHATWG UTF-8 decoder with streaming state; errors
// become U+FFFD (bad reports that one occurred, for fatal mode).
type utf8Decoder struct {
	cp                 rune
	seen, needed       int
	lower, upper       byte
	ignoreBOM, bomSeen bool
	started            bool
}

func (d *utf8Decoder) decode(b []byte, end bool) (string, bool) {
	if !d.started {
		d.lower, d.upper, d.started = 0x80, 0xBF, true
	}
	var sb strings.Builder
	sb.Grow(len(b))
	bad := false
	emit := func(r rune) {
		if !d.ignoreBOM && !d.bomSeen {
			d.bomSeen = true
			if r == 0xFEFF {
				return
			}
		}
		sb.WriteRune(r)
	}
	for i := 0; i < len(b); i++ {
		c := b[i]
		if d.needed == 0 {
			switch {
			case c <= 0x7F:
				if d.bomSeen || d.ignoreBOM {
					sb.WriteByte(c)
				} else {
					emit(rune(c))
				}
			case c >= 0xC2 && c <= 0xDF:
				d.needed, d.cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					d.lower = 0xA0
				} else if c == 0xED {
					d.upper = 0x9F
				}
				d.needed, d.cp = 2, rune(c&0xF)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					d.lower = 0x90
				} else if c == 0xF4 {
					d.upper = 0x8F
				}
				d.needed, d.cp = 3, rune(c&7)
			default:
				bad = true
				emit(0xFFFD)
			}
			continue
		}
		if c < d.lower || c > d.upper {
			d.cp, d.needed, d.seen, d.lower, d.upper = 0, 0, 0, 0x80, 0xBF
			bad = true
			emit(0xFFFD)
			i-- // reprocess c
			continue
		}
		d.lower, d.upper = 0x80, 0xBF
		d.cp = d.cp<<6 | rune(c&0x3F)
		d.seen++
		if d.seen == d.needed {
			r := d.cp
			d.cp, d.needed, d.seen = 0, 0, 0
			emit(r)
		}
	}
	if end {
		if d.needed != 0 {
			d.cp, d.needed, d.seen, d.lower, d.upper = 0, 0, 0, 0x80, 0xBF
			bad = true
			emit(0xFFFD)
		}
		d.bomSeen = false
	}
	return sb.String(), bad
}
