package cache

import (
	"net/http"
	"slices"
	"strings"
)

// baseKey is what a request is known by before any response: scheme,
// host, path and query, plus the values of the matching rule's headers
// and cookies. Fields are separated by NUL, which no header value holds.
func (c *Cache) baseKey(r *http.Request, rl *rule) string {
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	host := strings.ToLower(r.Host)
	path := r.URL.EscapedPath()
	if rl == nil {
		if r.URL.RawQuery == "" && !r.URL.ForceQuery {
			return scheme + host + path
		}
		return scheme + host + path + "?" + r.URL.RawQuery
	}
	var b strings.Builder
	b.Grow(len(scheme) + len(host) + len(path) + 1 + len(r.URL.RawQuery) + 64)
	b.WriteString(scheme)
	b.WriteString(host)
	b.WriteString(path)
	if r.URL.RawQuery != "" || r.URL.ForceQuery {
		b.WriteByte('?')
		b.WriteString(r.URL.RawQuery)
	}
	for _, h := range rl.Headers {
		b.WriteString("\x00h")
		b.WriteString(h)
		b.WriteByte('=')
		writeValues(&b, r.Header[h])
	}
	for _, name := range rl.Cookies {
		b.WriteString("\x00c")
		b.WriteString(name)
		b.WriteByte('=')
		if ck := r.CookiesNamed(name); len(ck) > 0 {
			b.WriteString(ck[0].Value)
		}
	}
	return b.String()
}

// variantKey adds the values of the request headers a response varies on.
func (c *Cache) variantKey(base string, vary []string, r *http.Request) string {
	if len(vary) == 0 {
		return base
	}
	var b strings.Builder
	b.Grow(len(base) + 64)
	b.WriteString(base)
	b.WriteString("\x00v")
	for _, name := range vary {
		b.WriteByte(0)
		b.WriteString(name)
		b.WriteByte('=')
		if name == "Accept-Encoding" {
			writeCodings(&b, r.Header[name])
		} else {
			writeValues(&b, r.Header[name])
		}
	}
	return b.String()
}

// writeCodings writes the content codings a request accepts, sorted: the
// many spellings of Accept-Encoding make a handful of keys.
func writeCodings(b *strings.Builder, vs []string) {
	var cs []string
	for _, v := range vs {
		for f := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(f, ";")
			name = strings.ToLower(strings.TrimSpace(name))
			if name == "" || params != "" && qValue(params) <= 0 || slices.Contains(cs, name) {
				continue
			}
			cs = append(cs, name)
		}
	}
	slices.Sort(cs)
	b.WriteString(strings.Join(cs, ","))
}

func writeValues(b *strings.Builder, vs []string) {
	for i, v := range vs {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strings.TrimSpace(v))
	}
}
