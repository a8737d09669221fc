package url

import (
	"slices"
	"strings"
	"unicode/utf8"
)

// pair is one name-value pair of a URLSearchParams list.
type pair struct{ name, value string }

// paramsState is the Go state of a URLSearchParams object: its list and,
// for a URL's searchParams, the URL it updates.
type paramsState struct {
	list []pair
	url  *urlState
}

// update runs the URL Standard's "update steps" after a change of the
// list: the URL's query becomes the list's serialization (null when
// empty).
func (p *paramsState) update() {
	if p.url == nil {
		return
	}
	q := p.String()
	p.url.rec = p.url.rec.withQuery(q, q == "")
}

func (p *paramsState) String() string { return serializeQuery(p.list) }

func (p *paramsState) append(name, value string) {
	p.list = append(p.list, pair{name, value})
	p.update()
}

// remove deletes the pairs named name (whose value is value, when
// withValue).
func (p *paramsState) remove(name, value string, withValue bool) {
	p.list = slices.DeleteFunc(p.list, func(q pair) bool {
		return q.name == name && (!withValue || q.value == value)
	})
	p.update()
}

func (p *paramsState) get(name string) (string, bool) {
	for _, q := range p.list {
		if q.name == name {
			return q.value, true
		}
	}
	return "", false
}

func (p *paramsState) has(name, value string, withValue bool) bool {
	for _, q := range p.list {
		if q.name == name && (!withValue || q.value == value) {
			return true
		}
	}
	return false
}

// set gives the first pair named name the value and removes the others,
// or appends a pair when there is none.
func (p *paramsState) set(name, value string) {
	named := func(q pair) bool { return q.name == name }
	if i := slices.IndexFunc(p.list, named); i < 0 {
		p.list = append(p.list, pair{name, value})
	} else {
		p.list[i].value = value
		rest := slices.DeleteFunc(p.list[i+1:], named)
		p.list = p.list[:i+1+len(rest)]
	}
	p.update()
}

// sort sorts the list by name in UTF-16 code unit order, keeping the
// relative order of equal names.
func (p *paramsState) sort() {
	slices.SortStableFunc(p.list, func(a, b pair) int { return compareUTF16(a.name, b.name) })
	p.update()
}

// compareUTF16 compares two UTF-8 strings as JS compares their UTF-16
// code units: UTF-8 byte order is code point order, which differs from
// code unit order only between a supplementary character (a surrogate
// pair, 0xD800…) and a BMP character from U+E000 up.
func compareUTF16(a, b string) int {
	for len(a) > 0 && len(b) > 0 {
		ra, na := utf8.DecodeRuneInString(a)
		rb, nb := utf8.DecodeRuneInString(b)
		if ra != rb {
			ka, kb := unit(ra), unit(rb)
			if ka != kb {
				return int(ka) - int(kb)
			}
			return int(ra) - int(rb) // same lead surrogate: code point order
		}
		a, b = a[na:], b[nb:]
	}
	return len(a) - len(b)
}

// unit is the first UTF-16 code unit of r.
func unit(r rune) rune {
	if r >= 0x10000 {
		return 0xD800 + (r-0x10000)>>10
	}
	return r
}

// parseQuery is the application/x-www-form-urlencoded parser: it appends
// the pairs of s to list.
func parseQuery(s string, list []pair) []pair {
	if s != "" && cap(list)-len(list) == 0 {
		list = slices.Grow(list, strings.Count(s, "&")+1)
	}
	for len(s) > 0 {
		seq := s
		if i := strings.IndexByte(s, '&'); i >= 0 {
			seq, s = s[:i], s[i+1:]
		} else {
			s = ""
		}
		if seq == "" {
			continue
		}
		name, value := seq, ""
		if i := strings.IndexByte(seq, '='); i >= 0 {
			name, value = seq[:i], seq[i+1:]
		}
		list = append(list, pair{formDecode(name), formDecode(value)})
	}
	return list
}

// formDecode replaces '+' by a space, percent-decodes and decodes the
// bytes as UTF-8 (without BOM handling, errors as U+FFFD).
func formDecode(s string) string {
	if strings.IndexByte(s, '+') < 0 && strings.IndexByte(s, '%') < 0 {
		return s
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '+':
			c = ' '
		case c == '%' && i+2 < len(s) && ishex(s[i+1]) && ishex(s[i+2]):
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		b = append(b, c)
	}
	return decodeUTF8(b)
}

func ishex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}

// decodeUTF8 is the Encoding Standard's UTF-8 decode without BOM: each
// maximal ill-formed subsequence becomes one U+FFFD (Go's utf8 package
// would give one per byte).
func decodeUTF8(b []byte) string {
	if utf8.Valid(b) {
		return string(b)
	}
	var out strings.Builder
	out.Grow(len(b) + 8)
	var cp rune
	need, seen := 0, 0
	lower, upper := byte(0x80), byte(0xBF)
	for i := 0; i < len(b); i++ {
		c := b[i]
		if need == 0 {
			switch {
			case c <= 0x7F:
				out.WriteByte(c)
			case c >= 0xC2 && c <= 0xDF:
				need, cp = 1, rune(c&0x1F)
			case c >= 0xE0 && c <= 0xEF:
				if c == 0xE0 {
					lower = 0xA0
				} else if c == 0xED {
					upper = 0x9F
				}
				need, cp = 2, rune(c&0xF)
			case c >= 0xF0 && c <= 0xF4:
				if c == 0xF0 {
					lower = 0x90
				} else if c == 0xF4 {
					upper = 0x8F
				}
				need, cp = 3, rune(c&0x7)
			default:
				out.WriteRune(utf8.RuneError)
			}
			continue
		}
		if c < lower || c > upper {
			cp, need, seen, lower, upper = 0, 0, 0, 0x80, 0xBF
			out.WriteRune(utf8.RuneError)
			i-- // the byte starts over
			continue
		}
		lower, upper = 0x80, 0xBF
		cp = cp<<6 | rune(c&0x3F)
		if seen++; seen == need {
			out.WriteRune(cp)
			cp, need, seen = 0, 0, 0
		}
	}
	if need != 0 {
		out.WriteRune(utf8.RuneError)
	}
	return out.String()
}

// serializeQuery is the application/x-www-form-urlencoded serializer
// (UTF-8).
func serializeQuery(list []pair) string {
	if len(list) == 0 {
		return ""
	}
	n := 0
	for _, q := range list {
		n += len(q.name) + len(q.value) + 2
	}
	b := make([]byte, 0, n+n/4)
	for i, q := range list {
		if i > 0 {
			b = append(b, '&')
		}
		b = formEncode(b, q.name)
		b = append(b, '=')
		b = formEncode(b, q.value)
	}
	return string(b)
}

const hexDigits = "0123456789ABCDEF"

// formEncode appends s percent-encoded with the
// application/x-www-form-urlencoded percent-encode set, spaces as '+'.
func formEncode(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '*', c == '-', c == '.', c == '_':
			b = append(b, c)
		case c == ' ':
			b = append(b, '+')
		default:
			b = append(b, '%', hexDigits[c>>4], hexDigits[c&15])
		}
	}
	return b
}
