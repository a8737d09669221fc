package url

import (
	wurl "github.com/nlnwa/whatwg-url/url"
)

// component names a settable URL attribute.
type component int

const (
	cProtocol component = iota
	cUsername
	cPassword
	cHost
	cHostname
	cPort
	cPathname
	cSearch
	cHash
)

// with returns the record after setting component c to v as the URL
// Standard's attribute setters do (a value the setter rejects leaves the
// URL as it was).
func (r *record) with(c component, v string) record {
	u, err := parser.Parse(r.href)
	if err != nil {
		return *r // cannot happen: href is a serialized URL
	}
	set := map[component]func(*wurl.Url, string){
		cProtocol: (*wurl.Url).SetProtocol,
		cUsername: (*wurl.Url).SetUsername,
		cPassword: (*wurl.Url).SetPassword,
		cHost:     (*wurl.Url).SetHost,
		cHostname: (*wurl.Url).SetHostname,
		cPort:     (*wurl.Url).SetPort,
		cPathname: (*wurl.Url).SetPathname,
		cSearch:   (*wurl.Url).SetSearch,
		cHash:     (*wurl.Url).SetHash,
	}[c]
	set(u, v)
	return split(u.Href(false))
}
