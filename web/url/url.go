package url

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Globals are the global names Install defines.
var Globals = []string{"URL", "URLSearchParams", "URLPattern"}

// Parse parses input against base ("" for none) as the URL Standard does
// and returns the href; err is ErrInvalid ("Invalid URL", the TypeError
// new URL throws) when input, or base, is not a valid URL.
func Parse(input, base string) (href string, err error) {
	u, err := ParseURL(input, base)
	return u.rec.href, err
}

// URL is a parsed URL, an immutable value: its href and the components
// the URL interface's getters return (views into the href: reading one
// allocates nothing).
type URL struct{ rec record }

// ParseURL parses input against base ("" for none) as Parse does.
func ParseURL(input, base string) (URL, error) {
	var b *record
	if base != "" {
		br, err := parseRecord(base, nil)
		if err != nil {
			return URL{}, err
		}
		b = &br
	}
	r, err := parseRecord(input, b)
	return URL{r}, err
}

// Href is the serialized URL.
func (u URL) Href() string { return u.rec.href }

// String is the serialized URL.
func (u URL) String() string { return u.rec.href }

// Protocol is the scheme and ':' ("https:").
func (u URL) Protocol() string { return u.rec.protocol() }

// Scheme is the scheme without ':' ("https").
func (u URL) Scheme() string { return u.rec.scheme() }

// Username is the percent-encoded username ("" for none).
func (u URL) Username() string { return u.rec.username() }

// Password is the percent-encoded password ("" for none).
func (u URL) Password() string { return u.rec.password() }

// Host is the hostname and, when not the scheme's default, ":port".
func (u URL) Host() string { return u.rec.host() }

// Hostname is the serialized host (IPv6 addresses in brackets).
func (u URL) Hostname() string { return u.rec.hostname() }

// Port is the port ("" when null, or the scheme's default).
func (u URL) Port() string { return u.rec.port() }

// Pathname is the serialized path.
func (u URL) Pathname() string { return u.rec.pathname() }

// Search is "?" and the query, or "" when the query is null or empty.
func (u URL) Search() string { return u.rec.search() }

// Hash is "#" and the fragment, or "" when the fragment is null or empty.
func (u URL) Hash() string { return u.rec.hash() }

// Origin is the ASCII serialization of the URL's origin ("null" for an
// opaque origin).
func (u URL) Origin() string { return u.rec.origin() }

// Of returns the href of a JS URL object.
func Of(v goja.Value) (href string, ok bool) {
	st, ok := webidl.Slot[*urlState](v)
	if !ok {
		return "", false
	}
	return st.rec.href, true
}

// SearchParamsOf returns the application/x-www-form-urlencoded
// serialization of a JS URLSearchParams object (a fetch body).
func SearchParamsOf(v goja.Value) (string, bool) {
	p, ok := webidl.Slot[*paramsState](v)
	if !ok {
		return "", false
	}
	return p.String(), true
}

type installed struct{}

// Install defines Globals in r (once per realm).
func Install(r *webidl.Realm) {
	webidl.Value(r, installed{}, func() bool {
		c := &classes{r: r, rt: r.RT}
		c.installURL()
		c.installParams()
		c.installPattern()
		r.Global("URL", c.url.Ctor)
		r.Global("URLSearchParams", c.params.Ctor)
		r.Global("URLPattern", c.pattern.Ctor)
		return true
	})
}

// classes is the package's state in one realm.
type classes struct {
	r                    *webidl.Realm
	rt                   *goja.Runtime
	url, params, pattern *webidl.Class
	entries              goja.Value // URLSearchParams.prototype.entries, as installed
	reflect              struct {   // for records, looked up on first use
		ownKeys, get, isEnum goja.Callable
	}
}
