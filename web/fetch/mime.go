package fetch

import (
	"strings"
	"unicode/utf8"
	"unsafe"
)

// mimeType is a parsed MIME type (MIME Sniffing §4): type and subtype
// lower-cased, parameters in order with lower-cased names.
type mimeType struct {
	essence string
	params  [][2]string
}

func (m mimeType) param(name string) (string, bool) {
	for _, p := range m.params {
		if p[0] == name {
			return p[1], true
		}
	}
	return "", false
}

// serialize is the MIME type serializer.
func (m mimeType) serialize() string {
	var b strings.Builder
	b.WriteString(m.essence)
	for _, p := range m.params {
		b.WriteByte(';')
		b.WriteString(p[0])
		b.WriteByte('=')
		if p[1] == "" || !isToken(p[1]) {
			b.WriteByte('"')
			for i := 0; i < len(p[1]); i++ {
				if c := p[1][i]; c == '"' || c == '\\' {
					b.WriteByte('\\')
				}
				b.WriteByte(p[1][i])
			}
			b.WriteByte('"')
		} else {
			b.WriteString(p[1])
		}
	}
	return b.String()
}

// quotedStringChar marks the bytes allowed in a parameter value
// (HTTP quoted-string token code points: tab, 0x20–0x7E, 0x80–0xFF).
func quotedStringChar(c byte) bool { return c == '\t' || (c >= 0x20 && c != 0x7F) }

// parseMIME is the MIME type parser; ok is false on failure.
func parseMIME(s string) (mimeType, bool) {
	s = normalizeValue(s)
	slash := strings.IndexByte(s, '/')
	if slash <= 0 || !isToken(s[:slash]) {
		return mimeType{}, false
	}
	rest := s[slash+1:]
	semi := strings.IndexByte(rest, ';')
	sub := rest
	if semi >= 0 {
		sub, rest = rest[:semi], rest[semi:]
	} else {
		rest = ""
	}
	sub = strings.TrimRight(sub, " \t\n\r")
	if !isToken(sub) {
		return mimeType{}, false
	}
	m := mimeType{essence: lower(s[:slash]) + "/" + lower(sub)}
	for rest != "" {
		rest = strings.TrimLeft(rest[1:], " \t\n\r") // skip ';'
		end := strings.IndexAny(rest, ";=")
		var name string
		if end < 0 {
			name, rest = rest, ""
		} else {
			name, rest = rest[:end], rest[end:]
		}
		name = lower(name)
		if rest == "" {
			break
		}
		if rest[0] == ';' {
			continue
		}
		rest = rest[1:] // skip '='
		var value string
		if rest != "" && rest[0] == '"' {
			value, rest = collectQuoted(rest)
			if i := strings.IndexByte(rest, ';'); i >= 0 {
				rest = rest[i:]
			} else {
				rest = ""
			}
		} else {
			if i := strings.IndexByte(rest, ';'); i >= 0 {
				value, rest = rest[:i], rest[i:]
			} else {
				value, rest = rest, ""
			}
			value = strings.TrimRight(value, " \t\n\r")
			if value == "" {
				continue
			}
		}
		if name == "" || !isToken(name) || !validParamValue(value) {
			continue
		}
		if _, dup := m.param(name); !dup {
			m.params = append(m.params, [2]string{name, value})
		}
	}
	return m, true
}

func validParamValue(v string) bool {
	for i := 0; i < len(v); i++ {
		if !quotedStringChar(v[i]) {
			return false
		}
	}
	return true
}

// collectQuoted collects an HTTP quoted string with extract-value set
// (s starts with '"'), returning the value and what follows it.
func collectQuoted(s string) (string, string) {
	var b strings.Builder
	i := 1
	for i < len(s) {
		c := s[i]
		i++
		switch c {
		case '\\':
			if i >= len(s) {
				b.WriteByte('\\')
				return b.String(), ""
			}
			b.WriteByte(s[i])
			i++
		case '"':
			return b.String(), s[i:]
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), ""
}

// extractMIME is "extract a MIME type" from a header list's Content-Type
// values (Fetch §3.1.7), simplified to the combined value's last valid
// type; ok is false when there is none.
func extractMIME(l *headerList) (mimeType, bool) {
	v, ok := l.get("content-type")
	if !ok {
		return mimeType{}, false
	}
	var out mimeType
	found := false
	for _, part := range splitHeaderValues(v) {
		m, ok := parseMIME(part)
		if !ok || m.essence == "*/*" {
			continue
		}
		if !found || m.essence != out.essence {
			out, found = m, true
			continue
		}
		// same essence: keep the earlier charset unless this one has one
		if _, has := m.param("charset"); has {
			out = m
		}
	}
	return out, found
}

// splitHeaderValues splits a combined value at commas outside quotes.
func splitHeaderValues(v string) []string {
	var out []string
	start, inQ := 0, false
	for i := 0; i < len(v); i++ {
		switch v[i] {
		case '"':
			inQ = !inQ
		case '\\':
			if inQ {
				i++
			}
		case ',':
			if !inQ {
				out = append(out, v[start:i])
				start = i + 1
			}
		}
	}
	return append(out, v[start:])
}

// decodeUTF8 is the Encoding Standard's "UTF-8 decode": a leading BOM is
// dropped and each maximal ill-formed subsequence becomes one U+FFFD.
func decodeUTF8(b []byte) string {
	if len(b) >= 3 && b[0] == 0xEF && b[1] == 0xBB && b[2] == 0xBF {
		b = b[3:]
	}
	if utf8.Valid(b) {
		return string(b)
	}
	return decodeInvalid(b)
}

// textOf is decodeUTF8 for bytes that nothing will change any more (a
// body's own bytes, a Blob's): valid UTF-8 becomes a string without a copy.
func textOf(b []byte) string {
	if len(b) > 0 && b[0] != 0xEF && utf8.Valid(b) {
		return unsafe.String(&b[0], len(b))
	}
	return decodeUTF8(b)
}

func decodeInvalid(b []byte) string {
	var sb strings.Builder
	sb.Grow(len(b) + 8)
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			sb.WriteByte(c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(b[i:])
		if r != utf8.RuneError || n > 1 {
			sb.Write(b[i : i+n])
			i += n
			continue
		}
		// Invalid: skip the maximal subpart of a well-formed sequence.
		i += maximalSubpart(b[i:])
		sb.WriteRune(utf8.RuneError)
	}
	return sb.String()
}

// maximalSubpart returns how many bytes at the start of b (which does not
// begin a valid sequence) form one ill-formed subsequence (at least 1).
func maximalSubpart(b []byte) int {
	c := b[0]
	var need int
	lo, hi := byte(0x80), byte(0xBF)
	switch {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c >= 0xE0 && c <= 0xEF:
		need = 2
		if c == 0xE0 {
			lo = 0xA0
		} else if c == 0xED {
			hi = 0x9F
		}
	case c >= 0xF0 && c <= 0xF4:
		need = 3
		if c == 0xF0 {
			lo = 0x90
		} else if c == 0xF4 {
			hi = 0x8F
		}
	default:
		return 1
	}
	n := 1
	for k := 0; k < need && n < len(b); k++ {
		if b[n] < lo || b[n] > hi {
			break
		}
		lo, hi = 0x80, 0xBF
		n++
	}
	return n
}
