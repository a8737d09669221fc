package url

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
	switch c {
	case cProtocol:
		u.SetProtocol(v)
	case cUsername:
		u.SetUsername(v)
	case cPassword:
		u.SetPassword(v)
	case cHost:
		u.SetHost(v)
	case cHostname:
		u.SetHostname(v)
	case cPort:
		u.SetPort(v)
	case cPathname:
		u.SetPathname(v)
	case cSearch:
		u.SetSearch(v)
	case cHash:
		u.SetHash(v)
	}
	return split(u.Href(false))
}
