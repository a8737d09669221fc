package url

import (
	"errors"

	wurl "github.com/nlnwa/whatwg-url/url"
)

// ErrInvalid is the reason every parse failure reports: the URL Standard
// has only "failure", and Node's TypeError says "Invalid URL".
var ErrInvalid = errors.New("Invalid URL")

// parser is the URL Standard's basic URL parser (github.com/nlnwa/whatwg-url,
// which passes the WPT URL data); it is stateless and safe for concurrent
// use.
var parser = wurl.NewParser()

// parseRecord parses input against base (nil for none).
//
// The common shapes — an absolute http(s)/ws(s)/ftp URL of printable
// ASCII with a plain host, and a path-absolute, query or fragment
// reference against such a base — take a fast path that only checks the
// input and, most of the time, returns it as the href without copying.
// Everything else goes to the full parser. FuzzFastPath holds the fast
// path to the full parser's answers.
func parseRecord(input string, base *record) (record, error) {
	if r, ok := fastParse(input, base); ok {
		return r, nil
	}
	return slowParse(input, base)
}

func slowParse(input string, base *record) (record, error) {
	var bu *wurl.Url
	if base != nil {
		var err error
		if bu, err = parser.Parse(base.href); err != nil {
			return record{}, ErrInvalid // cannot happen: base is a serialized URL
		}
	}
	u, err := parser.BasicParser(input, bu, nil, wurl.NoState)
	if err != nil || u == nil {
		return record{}, ErrInvalid
	}
	return split(u.Href(false)), nil
}

// fastParse handles the common shapes (see parseRecord); ok is false when
// the full parser must decide.
func fastParse(input string, base *record) (record, bool) {
	for i := 0; i < len(input); i++ {
		if c := input[i]; c <= ' ' || c >= 0x7f {
			return record{}, false // trimming, tabs and newlines, non-ASCII
		}
	}
	if r, ok := fastAbsolute(input); ok {
		return r, true
	}
	if base == nil || len(input) == 0 || !base.hasHost || !fastScheme(base.scheme()) {
		return record{}, false
	}
	var head string
	switch input[0] {
	case '/':
		if len(input) > 1 && (input[1] == '/' || input[1] == '\\') {
			return record{}, false
		}
		if !fastTail(input, true) {
			return record{}, false
		}
		head = base.href[:base.pathStart]
	case '?':
		if !fastTail(input, false) {
			return record{}, false
		}
		head = base.href[:base.pathEnd()]
	case '#':
		if !fastFragment(input[1:]) {
			return record{}, false
		}
		head = base.href[:base.queryEnd()]
	default:
		return record{}, false
	}
	return split(head + input), true
}

// fastScheme reports the special schemes whose URLs the fast path knows
// (file has drive letters and localhost rules of its own).
func fastScheme(s string) bool {
	switch s {
	case "http", "https", "ws", "wss", "ftp":
		return true
	}
	return false
}

// fastAbsolute handles scheme://host[:port][/path][?query][#fragment]
// with a lowercase special scheme, a lowercase ASCII domain and nothing
// that the parser would rewrite but a missing path.
func fastAbsolute(s string) (record, bool) {
	i := 0
	for i < len(s) && s[i] >= 'a' && s[i] <= 'z' {
		i++
	}
	if i == len(s) || s[i] != ':' || !fastScheme(s[:i]) {
		return record{}, false
	}
	scheme := s[:i]
	i++
	if len(s) < i+3 || s[i] != '/' || s[i+1] != '/' || s[i+2] == '/' || s[i+2] == '\\' {
		return record{}, false
	}
	i += 2
	hostStart := i
	for i < len(s) && s[i] != '/' && s[i] != '?' && s[i] != '#' && s[i] != ':' {
		i++
	}
	if !fastHost(s[hostStart:i]) {
		return record{}, false
	}
	hostEnd := i
	portStart, portEnd := i, i
	if i < len(s) && s[i] == ':' {
		i++
		portStart = i
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			n = n*10 + int(s[i]-'0')
			if n > 65535 {
				return record{}, false
			}
			i++
		}
		portEnd = i
		port := s[portStart:portEnd]
		if dp, _ := defaultPort(scheme); port == "" || port == dp || (port[0] == '0' && len(port) > 1) {
			return record{}, false
		}
		if i < len(s) && s[i] != '/' && s[i] != '?' && s[i] != '#' {
			return record{}, false
		}
	}
	if !fastTail(s[i:], true) {
		return record{}, false
	}
	if i == len(s) || s[i] != '/' {
		s = s[:i] + "/" + s[i:] // a special URL's empty path is "/"
	}
	r := record{href: s, protoEnd: len(scheme) + 1, hasHost: true, query: -1, fragment: -1}
	r.userStart, r.userEnd, r.passStart, r.passEnd = hostStart, hostStart, hostStart, hostStart
	r.hostStart, r.hostEnd, r.portStart, r.portEnd = hostStart, hostEnd, portStart, portEnd
	r.pathStart = i
	for j := i; j < len(s); j++ {
		if s[j] == '?' && r.query < 0 {
			r.query = j
		} else if s[j] == '#' {
			r.fragment = j
			break
		}
	}
	return r, true
}

// fastHost accepts a host the host parser returns unchanged: a domain of
// lowercase ASCII letters, digits, '-' and '.', with no empty label but a
// final one, no punycode label and a last label that cannot be read as an
// IPv4 number; or an IPv4 address in its canonical dotted-decimal form.
func fastHost(h string) bool {
	if h == "" || h[0] == '.' {
		return false
	}
	if h[len(h)-1] >= '0' && h[len(h)-1] <= '9' && canonicalIPv4(h) {
		return true
	}
	last := 0
	for i := 0; i < len(h); i++ {
		c := h[i]
		switch {
		case c >= 'a' && c <= 'z', c == '-':
		case c >= '0' && c <= '9':
		case c == '.':
			if i+1 < len(h) && h[i+1] == '.' {
				return false
			}
			if i+1 < len(h) {
				last = i + 1
			}
		default:
			return false
		}
		if (i == 0 || h[i-1] == '.') && len(h) >= i+4 && h[i:i+4] == "xn--" {
			return false
		}
	}
	return h[last] < '0' || h[last] > '9'
}

// canonicalIPv4 reports four decimal numbers up to 255 joined by dots,
// without leading zeros: the IPv4 parser's own serialization.
func canonicalIPv4(h string) bool {
	parts, n, digits := 0, 0, 0
	for i := 0; i <= len(h); i++ {
		if i == len(h) || h[i] == '.' {
			if digits == 0 || n > 255 {
				return false
			}
			parts++
			n, digits = 0, 0
			continue
		}
		c := h[i]
		if c < '0' || c > '9' || (digits == 1 && n == 0) {
			return false // not a digit, or a leading zero
		}
		n = n*10 + int(c-'0')
		if digits++; digits > 3 {
			return false
		}
	}
	return parts == 4
}

// fastTail checks a path (when path is set), query and fragment that the
// parser of a special URL leaves as they are: no character to
// percent-encode, no '\\' and no dot segment.
func fastTail(s string, path bool) bool {
	i := 0
	if path {
		seg := 0
		for ; i < len(s) && s[i] != '?' && s[i] != '#'; i++ {
			switch s[i] {
			case '"', '<', '>', '`', '{', '}', '\\':
				return false
			case '/':
				if dotSegment(s[seg:i]) {
					return false
				}
				seg = i + 1
			}
		}
		if dotSegment(s[seg:i]) {
			return false
		}
	}
	if i < len(s) && s[i] == '?' {
		for i++; i < len(s) && s[i] != '#'; i++ {
			switch s[i] {
			case '"', '<', '>', '\'':
				return false
			}
		}
	}
	if i < len(s) && s[i] == '#' {
		return fastFragment(s[i+1:])
	}
	return true
}

func fastFragment(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"', '<', '>', '`':
			return false
		}
	}
	return true
}

// dotSegment reports "." and ".." in any of their percent-encoded forms.
func dotSegment(s string) bool {
	if len(s) == 0 || len(s) > 6 || (s[0] != '.' && s[0] != '%') {
		return false
	}
	n := 0
	for i := 0; i < len(s); {
		switch {
		case s[i] == '.':
			i++
		case i+2 < len(s) && s[i] == '%' && s[i+1] == '2' && (s[i+2] == 'e' || s[i+2] == 'E'):
			i += 3
		default:
			return false
		}
		n++
	}
	return n <= 2
}
