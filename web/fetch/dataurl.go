package fetch

import (
	"encoding/base64"
	"errors"
	"strings"
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
			b, ok := forgivingBase64(body)
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

// forgivingBase64 is the Infra Standard's forgiving-base64 decode.
func forgivingBase64(b []byte) ([]byte, bool) {
	s := strings.Map(func(r rune) rune {
		if r == ' ' || r == '\t' || r == '\n' || r == '\f' || r == '\r' {
			return -1
		}
		return r
	}, string(b))
	if len(s)%4 == 0 {
		s = strings.TrimSuffix(s, "=")
		s = strings.TrimSuffix(s, "=")
	}
	if len(s)%4 == 1 || strings.ContainsRune(s, '=') {
		return nil, false
	}
	out, err := base64.RawStdEncoding.DecodeString(s)
	if err != nil {
		return nil, false
	}
	return out, true
}
