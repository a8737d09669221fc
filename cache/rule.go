package cache

import (
	"fmt"
	"net/textproto"
	"strings"
	"time"
)

// Rule caches the pages whose path matches Pattern even when the app sends
// no freshness of its own. Pattern segments: "*" matches one non-empty path
// segment, "**" any number of segments (none too: "/docs/**" matches
// "/docs"); any other pattern matches its path exactly. The first matching
// rule of Options.Rules applies.
type Rule struct {
	Pattern              string
	MaxAge               time.Duration // fresh for this long
	StaleWhileRevalidate time.Duration // then served stale while one background render refreshes it
	StaleIfError         time.Duration // a failed render serves the stale copy this long after MaxAge
	// Headers are request headers that key the page, beyond the response's Vary.
	Headers []string
	// Cookies key the page; a request that carries cookies is cacheable on
	// a matching path only when the rule names some (and only the named
	// ones key it; the others reach the app but must not change the page).
	Cookies []string
}

type rule struct {
	Rule
	segs  []string // nil: exact match of Pattern
	exact string
}

func compileRules(rs []Rule) ([]*rule, error) {
	out := make([]*rule, 0, len(rs))
	for i, r := range rs {
		cr, err := compileRule(r)
		if err != nil {
			return nil, fmt.Errorf("cache: rule %d (%q): %w", i+1, r.Pattern, err)
		}
		out = append(out, cr)
	}
	return out, nil
}

func compileRule(r Rule) (*rule, error) {
	if !strings.HasPrefix(r.Pattern, "/") {
		return nil, fmt.Errorf("the path pattern must start with /")
	}
	if r.MaxAge < 0 || r.StaleWhileRevalidate < 0 || r.StaleIfError < 0 {
		return nil, fmt.Errorf("durations must not be negative")
	}
	if r.MaxAge+max(r.StaleWhileRevalidate, r.StaleIfError) <= 0 {
		return nil, fmt.Errorf("max_age, stale_while_revalidate and stale_if_error are all 0: the rule would cache nothing")
	}
	cr := &rule{Rule: r}
	cr.Headers = make([]string, len(r.Headers))
	for i, h := range r.Headers {
		if !validToken(h) {
			return nil, fmt.Errorf("header %q is not a valid header name", h)
		}
		cr.Headers[i] = textproto.CanonicalMIMEHeaderKey(h)
	}
	for _, c := range r.Cookies {
		if !validToken(c) {
			return nil, fmt.Errorf("cookie %q is not a valid cookie name", c)
		}
	}
	if !strings.Contains(r.Pattern, "*") {
		cr.exact = r.Pattern
		return cr, nil
	}
	cr.segs = strings.Split(r.Pattern[1:], "/")
	for _, s := range cr.segs {
		if strings.Contains(s, "*") && s != "*" && s != "**" {
			return nil, fmt.Errorf("segment %q: * and ** must be a whole path segment", s)
		}
	}
	return cr, nil
}

func (r *rule) match(path string) bool {
	if r.segs == nil {
		return path == r.exact
	}
	return len(path) > 0 && path[0] == '/' && matchSegs(r.segs, path[1:], true)
}

// matchSegs matches pattern segments against p, the rest of a path after a
// '/'; more reports whether p still holds a segment (possibly empty).
func matchSegs(pat []string, p string, more bool) bool {
	if len(pat) == 0 {
		return !more
	}
	if pat[0] == "**" {
		for {
			if matchSegs(pat[1:], p, more) {
				return true
			}
			if !more {
				return false
			}
			_, p, more = cutSeg(p)
		}
	}
	if !more {
		return false
	}
	seg, rest, more := cutSeg(p)
	if pat[0] == "*" {
		if seg == "" {
			return false
		}
	} else if seg != pat[0] {
		return false
	}
	return matchSegs(pat[1:], rest, more)
}

func cutSeg(p string) (seg, rest string, more bool) {
	i := strings.IndexByte(p, '/')
	if i < 0 {
		return p, "", false
	}
	return p[:i], p[i+1:], true
}

// validToken reports whether s is an RFC 9110 token (header and cookie names).
func validToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c <= ' ' || c >= 0x7f || strings.IndexByte("\"(),/:;<=>?@[\\]{}", c) >= 0 {
			return false
		}
	}
	return true
}

func (c *Cache) matchRule(path string) *rule {
	for _, r := range c.rules {
		if r.match(path) {
			return r
		}
	}
	return nil
}
