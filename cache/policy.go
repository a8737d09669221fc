package cache

import (
	"net/http"
	"net/textproto"
	"slices"
	"strings"
	"time"

	"github.com/pquerna/cachecontrol/cacheobject"
)

// policy is what a response says about its own caching.
type policy struct {
	ok     bool   // the response may be stored and shared
	reason string // why not, for tests and logs
	// malformed: the targeted caching header did not parse.
	malformed bool

	fresh, swr, sie time.Duration
	vary            []string // canonical request header names that key the response
	tags            []string
}

// cacheableStatus are the statuses RFC 9110 calls heuristically cacheable
// (less 405, 414 and 501, which a page cache has no use for).
func cacheableStatus(s int) bool {
	switch s {
	case 200, 203, 204, 206, 300, 301, 308, 404, 410:
		return true
	}
	return false
}

// errorStatus are the answers of a failed render that stale-if-error
// hides: the pool answers 503 for a full queue, 504 for a timeout and 500
// for a crash; 502 comes from a proxying app.
func errorStatus(s int) bool {
	return s == 500 || s == 502 || s == 503 || s == 504
}

const (
	maxTags   = 64
	maxTagLen = 256
)

// decide reads a complete response's status and headers. The freshness
// comes from the first present of CDN-Cache-Control (RFC 9213),
// Surrogate-Control and Cache-Control — the targeted field; when the app
// gives no max-age or s-maxage there, a matching rule's durations apply.
func (c *Cache) decide(status int, h http.Header, r *rule) policy {
	if !cacheableStatus(status) {
		return policy{reason: "status"}
	}
	if len(h["Set-Cookie"]) > 0 {
		return policy{reason: "set-cookie"}
	}
	vary, ok := c.varyNames(h)
	if !ok {
		return policy{reason: "vary"}
	}
	field, value := targetedField(h)
	var cd *cacheobject.ResponseCacheDirectives
	if field != "" {
		var err error
		cd, err = cacheobject.ParseResponseCacheControl(value)
		if err != nil {
			return policy{reason: "malformed " + field + ": " + err.Error(), malformed: true}
		}
		if cd.NoStore || cd.PrivatePresent {
			return policy{reason: "no-store or private"}
		}
	}
	p := policy{vary: vary}
	switch {
	case cd != nil && (cd.SMaxAge >= 0 || cd.MaxAge >= 0):
		if cd.NoCachePresent {
			return policy{reason: "no-cache"}
		}
		p.fresh = seconds(cd.MaxAge)
		if cd.SMaxAge >= 0 {
			p.fresh = seconds(cd.SMaxAge)
		}
		if !cd.MustRevalidate && !cd.ProxyRevalidate {
			p.swr = seconds(cd.StaleWhileRevalidate)
			p.sie = seconds(cd.StaleIfError)
		}
	case r != nil:
		// A rule caches pages whose app says nothing about freshness; the
		// "no-cache" bext's SSR handler adds to such pages is for browsers.
		p.fresh, p.swr, p.sie = r.MaxAge, r.StaleWhileRevalidate, r.StaleIfError
	default:
		return policy{reason: "not opted in"}
	}
	if p.fresh+max(p.swr, p.sie) <= 0 {
		return policy{reason: "zero lifetime"}
	}
	p.tags = cacheTags(h["Cache-Tag"])
	p.ok = true
	return p
}

func seconds(d cacheobject.DeltaSeconds) time.Duration {
	if d <= 0 {
		return 0
	}
	return time.Duration(d) * time.Second
}

// targetedField picks the caching header this cache obeys (RFC 9213: a
// targeted field, when present, replaces Cache-Control for that cache).
func targetedField(h http.Header) (name, value string) {
	for _, n := range [...]string{"Cdn-Cache-Control", "Surrogate-Control", "Cache-Control"} {
		if vs := h[n]; len(vs) > 0 {
			return n, strings.Join(vs, ", ")
		}
	}
	return "", ""
}

// varyNames returns the request headers the response varies on, sorted and
// canonical. ok is false for "Vary: *" and for more than MaxVary names.
// (Accept-Encoding keys by the set of codings accepted: see variantKey.)
func (c *Cache) varyNames(h http.Header) (names []string, ok bool) {
	vs := h["Vary"]
	if len(vs) == 0 {
		return nil, true
	}
	for _, v := range vs {
		for f := range strings.SplitSeq(v, ",") {
			f = textproto.TrimString(f)
			switch {
			case f == "":
				continue
			case f == "*":
				return nil, false
			}
			f = textproto.CanonicalMIMEHeaderKey(f)
			if !slices.Contains(names, f) {
				names = append(names, f)
			}
		}
	}
	if len(names) > c.maxVary {
		return nil, false
	}
	slices.Sort(names)
	return names, true
}

// cacheTags splits Cache-Tag values (comma-separated, like surrogate keys).
func cacheTags(vs []string) []string {
	var tags []string
	for _, v := range vs {
		for t := range strings.SplitSeq(v, ",") {
			t = strings.TrimSpace(t)
			if t == "" || len(t) > maxTagLen || slices.Contains(tags, t) {
				continue
			}
			if len(tags) == maxTags {
				return tags
			}
			tags = append(tags, t)
		}
	}
	return tags
}
