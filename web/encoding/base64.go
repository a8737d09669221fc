package encoding

import (
	"encoding/base64"
	"unicode/utf8"
	"unsafe"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// DecodeBase64 is the HTML standard's forgiving-base64 decode: ASCII
// whitespace anywhere is ignored, the padding is optional but, when
// present, must make the length a multiple of four, and nonzero bits after
// the last full byte are dropped. ok is false where the standard says
// failure. fetch uses it for data: URLs.
func DecodeBase64(s string) (b []byte, ok bool) {
	for i := 0; i < len(s); i++ {
		if isASCIIWhitespace(s[i]) {
			s = stripWhitespace(s)
			break
		}
	}
	if len(s)%4 == 0 && len(s) > 0 && s[len(s)-1] == '=' {
		s = s[:len(s)-1]
		if s[len(s)-1] == '=' {
			s = s[:len(s)-1]
		}
	}
	if len(s)%4 == 1 {
		return nil, false
	}
	b = make([]byte, base64.RawStdEncoding.DecodedLen(len(s)))
	// RawStdEncoding rejects '=' and every byte outside the alphabet; it
	// skips \r and \n, which are gone already.
	n, err := base64.RawStdEncoding.Decode(b, unsafe.Slice(unsafe.StringData(s), len(s)))
	if err != nil {
		return nil, false
	}
	return b[:n], true
}

func isASCIIWhitespace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

func stripWhitespace(s string) string {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if !isASCIIWhitespace(s[i]) {
			out = append(out, s[i])
		}
	}
	return string(out)
}

func (st *state) atob(call goja.FunctionCall) goja.Value {
	r := st.r
	if len(call.Arguments) < 1 {
		r.TypeError("Failed to execute 'atob': 1 argument required, but only 0 present.")
	}
	text, units := webidl.StringData(call.Argument(0).ToString())
	if units != nil {
		// a string goja keeps as UTF-16 has non-ASCII characters, which
		// base64 never has
		st.invalidBase64()
	}
	b, ok := DecodeBase64(text)
	if !ok {
		st.invalidBase64()
	}
	return st.latin1(b)
}

func (st *state) invalidBase64() {
	st.r.ThrowDOMException("The string to be decoded is not correctly encoded.", "InvalidCharacterError")
}

// latin1 is the JS string with one code unit per byte of b (which it
// takes over).
func (st *state) latin1(b []byte) goja.Value {
	for _, c := range b {
		if c >= utf8.RuneSelf {
			u := make([]uint16, len(b))
			for i, c := range b {
				u[i] = uint16(c)
			}
			return goja.StringFromUTF16(u)
		}
	}
	return st.r.RT.ToValue(unsafe.String(unsafe.SliceData(b), len(b)))
}

func (st *state) btoa(call goja.FunctionCall) goja.Value {
	r := st.r
	if len(call.Arguments) < 1 {
		r.TypeError("Failed to execute 'btoa': 1 argument required, but only 0 present.")
	}
	text, units := webidl.StringData(call.Argument(0).ToString())
	var src []byte
	if units != nil {
		src = make([]byte, len(units))
		for i, u := range units {
			if u > 0xFF {
				st.notLatin1()
			}
			src[i] = byte(u)
		}
	} else {
		src = unsafe.Slice(unsafe.StringData(text), len(text))
		for i := 0; i < len(text); i++ {
			if text[i] >= utf8.RuneSelf { // a string from Go: decode it
				src = make([]byte, 0, len(text))
				for _, c := range text {
					if c > 0xFF {
						st.notLatin1()
					}
					src = append(src, byte(c))
				}
				break
			}
		}
	}
	out := make([]byte, base64.StdEncoding.EncodedLen(len(src)))
	base64.StdEncoding.Encode(out, src)
	return st.r.RT.ToValue(unsafe.String(unsafe.SliceData(out), len(out)))
}

func (st *state) notLatin1() {
	st.r.ThrowDOMException("Invalid character", "InvalidCharacterError")
}
