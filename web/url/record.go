package url

import "strings"

// record is a parsed URL held as its serialization (href) plus the
// offsets of each component in it, as ada's url_aggregator does: every
// getter is a substring, so reading a component allocates nothing.
//
// A serialized URL can be split unambiguously because the parser
// percent-encodes the delimiters inside each component: userinfo encodes
// '/', ':', '@', '?', '#'; a host cannot hold '/', '?', '#', '@'; a path
// encodes '?' and '#'; a query encodes '#'. So the first ':' ends the
// scheme, the first '?' or '#' after the authority ends the path, and the
// first '#' starts the fragment (see split).
type record struct {
	href string
	// protoEnd is just past the scheme's ':' (href[:protoEnd] is the
	// protocol).
	protoEnd int
	// hasHost reports a non-null host ("//" follows the scheme).
	hasHost bool
	// userStart..userEnd, passStart..passEnd (password without its ':'),
	// hostStart..hostEnd (the hostname), portStart..portEnd (digits
	// without ':'; empty when the port is null). All equal protoEnd when
	// the URL has no host.
	userStart, userEnd int
	passStart, passEnd int
	hostStart, hostEnd int
	portStart, portEnd int
	// pathStart is where the path begins (after the "/." that keeps a
	// host-less path starting with "//" from reading as an authority).
	pathStart int
	// query is the index of '?' and fragment the index of '#', or -1
	// when the component is null.
	query, fragment int
}

// split computes the offsets of an href produced by the URL serializer.
func split(href string) record {
	r := record{href: href, query: -1, fragment: -1}
	r.protoEnd = strings.IndexByte(href, ':') + 1
	i := r.protoEnd
	r.userStart, r.userEnd, r.passStart, r.passEnd = i, i, i, i
	r.hostStart, r.hostEnd, r.portStart, r.portEnd = i, i, i, i
	if strings.HasPrefix(href[i:], "//") {
		r.hasHost = true
		i += 2
		end := i
		for end < len(href) && href[end] != '/' && href[end] != '?' && href[end] != '#' {
			end++
		}
		auth := href[i:end]
		hs := i
		r.userStart, r.userEnd, r.passStart, r.passEnd = i, i, i, i
		if at := strings.LastIndexByte(auth, '@'); at >= 0 {
			cred := auth[:at]
			if c := strings.IndexByte(cred, ':'); c >= 0 {
				r.userEnd = i + c
				r.passStart, r.passEnd = i+c+1, i+at
			} else {
				r.userEnd = i + at
				r.passStart, r.passEnd = i+at, i+at
			}
			hs = i + at + 1
		}
		r.hostStart = hs
		he := end
		host := href[hs:end]
		if c := strings.LastIndexByte(host, ':'); c >= 0 && !strings.Contains(host[c:], "]") {
			he = hs + c
			r.portStart, r.portEnd = he+1, end
		} else {
			r.portStart, r.portEnd = end, end
		}
		r.hostEnd = he
		i = end
	} else if strings.HasPrefix(href[i:], "/.//") {
		i += 2
	}
	r.pathStart = i
	if f := strings.IndexByte(href[i:], '#'); f >= 0 {
		r.fragment = i + f
	}
	end := len(href)
	if r.fragment >= 0 {
		end = r.fragment
	}
	if q := strings.IndexByte(href[i:end], '?'); q >= 0 {
		r.query = i + q
	}
	return r
}

func (r *record) scheme() string   { return r.href[:r.protoEnd-1] }
func (r *record) protocol() string { return r.href[:r.protoEnd] }
func (r *record) username() string { return r.href[r.userStart:r.userEnd] }
func (r *record) password() string { return r.href[r.passStart:r.passEnd] }
func (r *record) hostname() string { return r.href[r.hostStart:r.hostEnd] }
func (r *record) port() string     { return r.href[r.portStart:r.portEnd] }

// host is hostname[:port].
func (r *record) host() string { return r.href[r.hostStart:r.portEnd] }

// pathEnd is where the path ends (at the query, the fragment or the end).
func (r *record) pathEnd() int {
	switch {
	case r.query >= 0:
		return r.query
	case r.fragment >= 0:
		return r.fragment
	}
	return len(r.href)
}

func (r *record) pathname() string { return r.href[r.pathStart:r.pathEnd()] }

// opaquePath reports a URL whose path is an opaque string
// ("mailto:x", "data:,…").
func (r *record) opaquePath() bool {
	return !r.hasHost && (r.pathStart == len(r.href) || r.href[r.pathStart] != '/')
}

// queryEnd is where the query ends (at the fragment or the end).
func (r *record) queryEnd() int {
	if r.fragment >= 0 {
		return r.fragment
	}
	return len(r.href)
}

// rawQuery is the query without '?' ("" also when null).
func (r *record) rawQuery() string {
	if r.query < 0 {
		return ""
	}
	return r.href[r.query+1 : r.queryEnd()]
}

// search is the search getter: "" for a null or empty query.
func (r *record) search() string {
	if r.query < 0 || r.query+1 == r.queryEnd() {
		return ""
	}
	return r.href[r.query:r.queryEnd()]
}

// hash is the hash getter: "" for a null or empty fragment.
func (r *record) hash() string {
	if r.fragment < 0 || r.fragment+1 == len(r.href) {
		return ""
	}
	return r.href[r.fragment:]
}

// special reports a special scheme.
func (r *record) special() bool {
	_, ok := defaultPort(r.scheme())
	return ok
}

// defaultPort is the default port of a special scheme ("" for file); ok
// is false for other schemes.
func defaultPort(scheme string) (string, bool) {
	switch scheme {
	case "http", "ws":
		return "80", true
	case "https", "wss":
		return "443", true
	case "ftp":
		return "21", true
	case "file":
		return "", true
	}
	return "", false
}

// origin is the ASCII serialization of the URL's origin.
func (r *record) origin() string {
	switch r.scheme() {
	case "http", "https", "ws", "wss", "ftp":
		if r.userStart == r.hostStart { // no credentials between
			return r.href[:r.portEnd]
		}
		return r.href[:r.protoEnd] + "//" + r.host()
	case "blob":
		u, err := parseRecord(r.pathname(), nil)
		if err == nil && (u.scheme() == "http" || u.scheme() == "https") {
			return u.origin()
		}
	}
	return "null"
}

// withQuery returns the record with query q (without '?'; ASCII, no '#'),
// or a null query when null is set. When both query and fragment end up
// null, trailing spaces of an opaque path go (the URL Standard's "strip
// trailing spaces from an opaque path").
func (r *record) withQuery(q string, null bool) record {
	head := r.href[:r.pathEnd()]
	tail := ""
	if r.fragment >= 0 {
		tail = r.href[r.fragment:]
	}
	if null {
		if r.fragment < 0 && r.opaquePath() {
			head = strings.TrimRight(head, " ")
		}
		return split(head + tail)
	}
	return split(head + "?" + q + tail)
}
