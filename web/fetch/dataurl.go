package fetch

import (
	"errors"
	"strings"

	"bext/web/encoding"
)

// data: URLs (Fetch §4.2 "scheme fetch", the data: URL processor), which
// Node's fetch serves too.

var errDataURL = errors.New("failed to fetch the data URL")

// processDataURL returns the MIME type and body of a data: URL (href
// without its fragment).
func processDataURL(href string) (string, []byte, error) {
	input := strings.TrimPrefix(href, "data:")
	comma := strings.IndexByte(input, ',')
	if comma < 0 {
		return "", nil, errDataURL
	}
	mt := strings.Trim(input[:comma], " \t\n\r\f")
	body := percentDecode(input[comma+1:])
	if i := len(mt) - 6; i >= 0 && strings.EqualFold(mt[i:], "base64") {
		rest := strings.TrimRight(mt[:i], " ")
		if strings.HasSuffix(rest, ";") {
			b, ok := encoding.DecodeBase64(string(body))
			if !ok {
				return "", nil, errDataURL
			}
			body, mt = b, rest[:len(rest)-1]
		}
	}
	if strings.HasPrefix(mt, ";") {
		mt = "text/plain" + mt
	}
	m, ok := parseMIME(mt)
	if !ok {
		return "text/plain;charset=US-ASCII", body, nil
	}
	return m.serialize(), body, nil
}

func percentDecode(s string) []byte {
	out := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		if s[i] == '%' && i+2 < len(s) {
			h, ok1 := unhex(s[i+1])
			l, ok2 := unhex(s[i+2])
			if ok1 && ok2 {
				out = append(out, h<<4|l)
				i += 2
				continue
			}
		}
		out = append(out, s[i])
	}
	return out
}
