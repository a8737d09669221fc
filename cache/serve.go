package cache

import (
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/cespare/xxhash/v2"
)

// The Cache-Status values (RFC 9211) the cache sends; doc.go lists them.
var (
	statusBypass     = []string{"bext; fwd=bypass"}
	statusMiss       = "bext; fwd=miss"
	statusMissStored = "bext; fwd=miss; stored"
	statusCollapsed  = "bext; fwd=miss; collapsed"
)

// Pre-built per-second values for the hit path: no formatting per hit.
const tableSeconds = 600

var (
	hitTable   [tableSeconds][]string
	staleTable [tableSeconds][]string
	ageTable   [tableSeconds][]string
)

func init() {
	for i := range tableSeconds {
		n := strconv.Itoa(i)
		hitTable[i] = []string{"bext; hit; ttl=" + n}
		staleTable[i] = []string{"bext; fwd=stale; ttl=-" + n}
		ageTable[i] = []string{n}
	}
}

// ttlSeconds is the RFC 9211 ttl: whole seconds of freshness left, rounded
// down (so a response stale by half a second has ttl=-1).
func ttlSeconds(left time.Duration) int64 {
	s := int64(left / time.Second)
	if left < 0 && left%time.Second != 0 {
		s--
	}
	return s
}

func hitValue(left time.Duration) []string {
	if s := ttlSeconds(left); s >= 0 && s < tableSeconds {
		return hitTable[s]
	}
	return []string{"bext; hit; ttl=" + strconv.FormatInt(ttlSeconds(left), 10)}
}

func staleValue(left time.Duration) []string {
	if s := -ttlSeconds(left); s >= 0 && s < tableSeconds {
		return staleTable[s]
	}
	return []string{"bext; fwd=stale; ttl=" + strconv.FormatInt(ttlSeconds(left), 10)}
}

func errorStaleValue(left time.Duration) []string {
	return []string{"bext; hit; ttl=" + strconv.FormatInt(ttlSeconds(left), 10) + "; detail=stale-if-error"}
}

func ageValue(age time.Duration) []string {
	if s := int64(age / time.Second); s < tableSeconds {
		return ageTable[max(s, 0)]
	}
	return []string{strconv.FormatInt(int64(age/time.Second), 10)}
}

// secondValues are an entry's Cache-Status and Age values of one second,
// kept so that hits of long-lived entries format them once a second.
type secondValues struct {
	left, age int64
	status    []string
	ageV      []string
}

// hitValues returns the Cache-Status and Age of a fresh hit.
func (e *entry) hitValues(left, age time.Duration) (status, ageV []string) {
	l, a := ttlSeconds(left), int64(age/time.Second)
	if l < tableSeconds && a < tableSeconds {
		return hitValue(left), ageValue(age)
	}
	if v := e.hitVals.Load(); v != nil && v.left == l && v.age == a {
		return v.status, v.ageV
	}
	v := &secondValues{left: l, age: a, status: hitValue(left), ageV: ageValue(age)}
	e.hitVals.Store(v)
	return v.status, v.ageV
}

// serve answers from an entry: its gzip variant for clients that accept
// gzip (when gzipOK), a 304 when If-None-Match holds its ETag, no body for
// HEAD. age < 0 sends no Age (the entry was just made).
func (c *Cache) serve(w http.ResponseWriter, r *http.Request, e *entry, st []string, gzipOK bool, age time.Duration) {
	c.serveAge(w, r, e, st, gzipOK, age, nil)
}

// serveAge is serve with a pre-built Age value (nil: from age).
func (c *Cache) serveAge(w http.ResponseWriter, r *http.Request, e *entry, st []string, gzipOK bool, age time.Duration, ageV []string) {
	if ageV == nil && age >= 0 {
		ageV = ageValue(age)
	}
	v := e.plain
	if gzipOK && e.compressible && acceptsGzip(r.Header["Accept-Encoding"]) {
		if g := c.gzipped(e); g != nil {
			v = g
		}
	}
	h := w.Header()
	if inm := r.Header["If-None-Match"]; len(inm) > 0 && e.status == http.StatusOK && etagMatch(inm, e.etag) {
		for _, x := range v.notMod {
			h[x.k] = x.v
		}
		if ageV != nil {
			h["Age"] = ageV
		}
		h["Cache-Status"] = st
		w.WriteHeader(http.StatusNotModified)
		return
	}
	for _, x := range v.full {
		h[x.k] = x.v
	}
	if ageV != nil {
		h["Age"] = ageV
	}
	h["Cache-Status"] = st
	w.WriteHeader(e.status)
	if r.Method != http.MethodHead && len(v.body) > 0 {
		w.Write(v.body)
	}
}

// writeBuffered answers with a response next produced for this request
// alone. A 200 with a body gets a strong ETag from its hash (unless it has
// one) and honours If-None-Match. bodyKnown: the recorder holds the body of
// a GET (for HEAD the length is unknown unless a fill rendered a GET).
func writeBuffered(w http.ResponseWriter, r *http.Request, rec *recorder, cacheStatus string, bodyKnown bool) {
	hdr := rec.responseHeader()
	h := w.Header()
	for k, v := range hdr {
		h[k] = v
	}
	h["Cache-Status"] = []string{cacheStatus}
	status := rec.statusCode()
	body := *rec.body
	if status == http.StatusOK && len(body) > 0 && bodyKnown {
		etag := hdr.Get("Etag")
		if etag == "" {
			etag = `"` + strconv.FormatUint(xxhash.Sum64(body), 36) + strconv.FormatInt(int64(len(body)), 36) + `"`
			h["Etag"] = []string{etag}
		}
		if inm := r.Header["If-None-Match"]; len(inm) > 0 && etagMatch(inm, etag) {
			for _, k := range []string{"Content-Type", "Content-Encoding", "Content-Length", "Content-Language"} {
				delete(h, k)
			}
			w.WriteHeader(http.StatusNotModified)
			return
		}
	}
	if bodyKnown && bodyAllowed(status) {
		h["Content-Length"] = []string{strconv.Itoa(len(body))}
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead && len(body) > 0 {
		w.Write(body)
	}
}

// acceptsGzip reads Accept-Encoding: gzip (or x-gzip, or *) with a q
// above 0.
func acceptsGzip(vals []string) bool {
	gz, star := -1.0, -1.0
	for _, v := range vals {
		for f := range strings.SplitSeq(v, ",") {
			name, params, _ := strings.Cut(f, ";")
			name = strings.TrimSpace(name)
			q := 1.0
			if params != "" {
				q = qValue(params)
			}
			switch {
			case strings.EqualFold(name, "gzip"), strings.EqualFold(name, "x-gzip"):
				gz = max(gz, q)
			case name == "*":
				star = q
			}
		}
	}
	if gz >= 0 {
		return gz > 0
	}
	return star > 0
}

func qValue(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, _ := strings.Cut(strings.TrimSpace(p), "=")
		if strings.EqualFold(k, "q") {
			q, err := strconv.ParseFloat(strings.TrimSpace(v), 64)
			if err != nil {
				return 0
			}
			return q
		}
	}
	return 1
}

// etagMatch is If-None-Match's weak comparison against etag and its gzip
// form (etag with -gz before the closing quote).
func etagMatch(inm []string, etag string) bool {
	if etag == "" {
		return false
	}
	want := strings.TrimPrefix(etag, "W/")
	stem := strings.TrimSuffix(want, `"`)
	for _, v := range inm {
		for t := range strings.SplitSeq(v, ",") {
			t = strings.TrimSpace(t)
			if t == "*" {
				return true
			}
			t = strings.TrimPrefix(t, "W/")
			if t == want || len(t) == len(stem)+4 && strings.HasPrefix(t, stem) && strings.HasSuffix(t, `-gz"`) {
				return true
			}
		}
	}
	return false
}
