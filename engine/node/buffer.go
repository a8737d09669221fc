package node

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"strings"
	"unicode/utf8"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// The native half of node:buffer: string codecs and the byte loops.
// Encodings reach Go already normalised by buffer.js ("utf8", "utf16le",
// "latin1", "ascii", "base64", "base64url", "hex").

func bufferNative(s *state, n *goja.Object) {
	rt := s.r.RT
	_ = n.Set("encode", func(c goja.FunctionCall) goja.Value {
		return rt.ToValue(rt.NewArrayBuffer(encodeString(c.Argument(0), c.Argument(1).String())))
	})
	_ = n.Set("byteLength", ret(rt, func(c goja.FunctionCall) int {
		str, enc := c.Argument(0), c.Argument(1).String()
		switch enc {
		case "utf8":
			return utf8Len(str)
		case "utf16le":
			return 2 * strLen(str)
		case "latin1", "ascii":
			return strLen(str)
		case "hex":
			return strLen(str) >> 1
		case "base64", "base64url":
			return base64Len(str)
		}
		return len(encodeString(str, enc))
	}))
	_ = n.Set("decode", func(c goja.FunctionCall) goja.Value {
		b := viewBytes(rt, c.Argument(0))
		start, end := int(c.Argument(2).ToInteger()), int(c.Argument(3).ToInteger())
		start, end = max(0, min(start, len(b))), max(0, min(end, len(b)))
		if end <= start {
			return rt.ToValue("")
		}
		return decodeBytes(rt, b[start:end], c.Argument(1).String())
	})
	// write(buf, string, offset, length, encoding) -> bytes written; only
	// whole characters are written, as Node does.
	_ = n.Set("write", ret(rt, func(c goja.FunctionCall) int {
		b := viewBytes(rt, c.Argument(0))
		off, length := int(c.Argument(2).ToInteger()), int(c.Argument(3).ToInteger())
		if off < 0 || off > len(b) {
			return 0
		}
		dst := b[off:]
		if length < len(dst) {
			dst = dst[:max(0, length)]
		}
		enc := c.Argument(4).String()
		if enc == "utf8" {
			return writeUTF8(dst, c.Argument(1))
		}
		src := encodeString(c.Argument(1), enc)
		if enc == "utf16le" && len(src) > len(dst) {
			return copy(dst, src[:len(dst)&^1])
		}
		return copy(dst, src)
	}))
	_ = n.Set("compare", ret(rt, func(c goja.FunctionCall) int {
		return bytes.Compare(viewBytes(rt, c.Argument(0)), viewBytes(rt, c.Argument(1)))
	}))
	_ = n.Set("equals", ret(rt, func(c goja.FunctionCall) bool {
		return bytes.Equal(viewBytes(rt, c.Argument(0)), viewBytes(rt, c.Argument(1)))
	}))
	// indexOf(buf, needle bytes, byteOffset, last) -> index or -1
	_ = n.Set("indexOf", ret(rt, func(c goja.FunctionCall) int {
		b, needle := viewBytes(rt, c.Argument(0)), viewBytes(rt, c.Argument(1))
		off := int(c.Argument(2).ToInteger())
		if c.Argument(3).ToBoolean() {
			if off < 0 {
				off += len(b)
			}
			if off < 0 {
				return -1
			}
			end := min(len(b), off+len(needle))
			return bytes.LastIndex(b[:end], needle)
		}
		if off < 0 {
			off = max(0, off+len(b))
		}
		if off > len(b) || (len(needle) == 0 && off == len(b)) {
			if len(needle) == 0 {
				return len(b)
			}
			return -1
		}
		i := bytes.Index(b[off:], needle)
		if i < 0 {
			return -1
		}
		return i + off
	}))
	// fill(buf, pattern bytes, start, end)
	_ = n.Set("fill", func(c goja.FunctionCall) goja.Value {
		b, pat := viewBytes(rt, c.Argument(0)), viewBytes(rt, c.Argument(1))
		start, end := int(c.Argument(2).ToInteger()), int(c.Argument(3).ToInteger())
		if len(pat) == 0 || start >= end {
			return goja.Undefined()
		}
		dst := b[start:end]
		n := copy(dst, pat)
		for n < len(dst) {
			n += copy(dst[n:], dst[:n])
		}
		return goja.Undefined()
	})
	_ = n.Set("isUtf8", ret(rt, func(c goja.FunctionCall) bool { return utf8.Valid(viewBytes(rt, c.Argument(0))) }))
	_ = n.Set("isAscii", ret(rt, func(c goja.FunctionCall) bool {
		for _, x := range viewBytes(rt, c.Argument(0)) {
			if x >= 0x80 {
				return false
			}
		}
		return true
	}))
}

// viewBytes returns the bytes of a typed array, DataView or ArrayBuffer.
func viewBytes(rt *goja.Runtime, v goja.Value) []byte {
	if b, ok := v.Export().([]byte); ok {
		return b
	}
	b, ok := webidl.Bytes(v)
	if !ok {
		panic(rt.NewTypeError("argument must be a Buffer, TypedArray, DataView or ArrayBuffer"))
	}
	return b
}

func strLen(v goja.Value) int {
	if s, ok := v.(goja.String); ok {
		return s.Length()
	}
	return len(v.String())
}

// utf16 returns the UTF-16 code units of a JS string.
func utf16Units(v goja.Value) []uint16 {
	s, ok := v.(goja.String)
	if !ok {
		s = v.ToString().(goja.String)
	}
	n := s.Length()
	out := make([]uint16, n)
	for i := range n {
		out[i] = s.CharAt(i)
	}
	return out
}

// utf8Len is the UTF-8 length of a JS string, lone surrogates counting as
// U+FFFD (3 bytes), as Node encodes them.
func utf8Len(v goja.Value) int {
	s, ok := v.(goja.String)
	if !ok {
		return len(v.String())
	}
	n, l := 0, s.Length()
	for i := 0; i < l; i++ {
		c := s.CharAt(i)
		switch {
		case c < 0x80:
			n++
		case c < 0x800:
			n += 2
		case c >= 0xD800 && c <= 0xDBFF && i+1 < l && s.CharAt(i+1) >= 0xDC00 && s.CharAt(i+1) <= 0xDFFF:
			n += 4
			i++
		default:
			n += 3
		}
	}
	return n
}

// writeUTF8 writes the whole characters of str that fit into dst.
func writeUTF8(dst []byte, str goja.Value) int {
	s := str.String() // goja gives lone surrogates as U+FFFD
	if len(s) <= len(dst) {
		return copy(dst, s)
	}
	n := 0
	for _, r := range s {
		l := utf8.RuneLen(r)
		if l < 0 {
			l = 3
			r = utf8.RuneError
		}
		if n+l > len(dst) {
			break
		}
		utf8.EncodeRune(dst[n:], r)
		n += l
	}
	return n
}

func encodeString(v goja.Value, enc string) []byte {
	switch enc {
	case "utf8":
		return []byte(v.String())
	case "utf16le":
		u := utf16Units(v)
		out := make([]byte, 2*len(u))
		for i, c := range u {
			out[2*i], out[2*i+1] = byte(c), byte(c>>8)
		}
		return out
	case "latin1", "ascii":
		u := utf16Units(v)
		out := make([]byte, len(u))
		for i, c := range u {
			out[i] = byte(c)
		}
		return out
	case "hex":
		s := v.String()
		out := make([]byte, 0, len(s)/2)
		for i := 0; i+1 < len(s); i += 2 {
			hi, ok1 := unhex(s[i])
			lo, ok2 := unhex(s[i+1])
			if !ok1 || !ok2 {
				break
			}
			out = append(out, hi<<4|lo)
		}
		return out
	case "base64", "base64url":
		return decodeBase64Loose(v.String())
	}
	return []byte(v.String())
}

func unhex(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// decodeBase64Loose decodes base64 and base64url alike, as Node does:
// characters outside both alphabets are skipped, decoding stops at '='.
func decodeBase64Loose(s string) []byte {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '+', c == '/':
			b.WriteByte(c)
		case c == '-':
			b.WriteByte('+')
		case c == '_':
			b.WriteByte('/')
		case c == '=':
			i = len(s)
		}
	}
	clean := b.String()
	if len(clean)%4 == 1 {
		clean = clean[:len(clean)-1]
	}
	out, err := base64.RawStdEncoding.DecodeString(clean)
	if err != nil {
		return nil
	}
	return out
}

// base64Len is Node's estimate of the bytes a base64 string decodes to:
// from its length in UTF-16 units, less up to two '=' of padding.
func base64Len(v goja.Value) int {
	u := utf16Units(v)
	n := len(u)
	if n > 0 && u[n-1] == '=' {
		n--
	}
	if n > 1 && u[n-1] == '=' {
		n--
	}
	return n * 3 >> 2
}

func decodeBytes(rt *goja.Runtime, b []byte, enc string) goja.Value {
	switch enc {
	case "utf8":
		if utf8.Valid(b) {
			return rt.ToValue(string(b))
		}
		return goja.StringFromUTF16(decodeUTF8(b))
	case "utf16le":
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return goja.StringFromUTF16(u)
	case "latin1":
		u := make([]uint16, len(b))
		for i, c := range b {
			u[i] = uint16(c)
		}
		return goja.StringFromUTF16(u)
	case "ascii":
		u := make([]uint16, len(b))
		for i, c := range b {
			u[i] = uint16(c & 0x7f)
		}
		return goja.StringFromUTF16(u)
	case "hex":
		return asciiValue(hex.EncodeToString(b))
	case "base64":
		return asciiValue(base64.StdEncoding.EncodeToString(b))
	case "base64url":
		return asciiValue(base64.RawURLEncoding.EncodeToString(b))
	}
	return goja.StringFromUTF16(decodeUTF8(b))
}

func asciiValue(s string) goja.Value {
	u := make([]uint16, len(s))
	for i := 0; i < len(s); i++ {
		u[i] = uint16(s[i])
	}
	return goja.StringFromUTF16(u)
}

// decodeUTF8 decodes b as the WHATWG UTF-8 decoder does: each maximal
// invalid subsequence becomes one U+FFFD.
func decodeUTF8(b []byte) []uint16 {
	out := make([]uint16, 0, len(b))
	for i := 0; i < len(b); {
		c := b[i]
		if c < 0x80 {
			out = append(out, uint16(c))
			i++
			continue
		}
		var need int
		var cp rune
		lower, upper := byte(0x80), byte(0xBF)
		switch {
		case c >= 0xC2 && c <= 0xDF:
			need, cp = 1, rune(c&0x1F)
		case c >= 0xE0 && c <= 0xEF:
			need, cp = 2, rune(c&0x0F)
			if c == 0xE0 {
				lower = 0xA0
			} else if c == 0xED {
				upper = 0x9F
			}
		case c >= 0xF0 && c <= 0xF4:
			need, cp = 3, rune(c&0x07)
			if c == 0xF0 {
				lower = 0x90
			} else if c == 0xF4 {
				upper = 0x8F
			}
		default:
			out = append(out, 0xFFFD)
			i++
			continue
		}
		j := i + 1
		ok := true
		for k := 0; k < need; k++ {
			if j >= len(b) || b[j] < lower || b[j] > upper {
				ok = false
				break
			}
			cp = cp<<6 | rune(b[j]&0x3F)
			lower, upper = 0x80, 0xBF
			j++
		}
		if !ok {
			out = append(out, 0xFFFD)
			i = j
			continue
		}
		if cp >= 0x10000 {
			cp -= 0x10000
			out = append(out, uint16(0xD800+(cp>>10)), uint16(0xDC00+(cp&0x3FF)))
		} else {
			out = append(out, uint16(cp))
		}
		i = j
	}
	return out
}
