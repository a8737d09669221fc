package cache

import (
	"bytes"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/cespare/xxhash/v2"
	"github.com/klauspost/compress/gzip"
)

// hdr is one header field of a stored response, ready to be assigned to a
// response's header map. Its value slice is shared by every hit and has no
// spare capacity, so a later Add by an outer middleware copies it.
type hdr struct {
	k string
	v []string
}

// entry is an immutable stored response, or a vary record: the request
// headers the responses under a base key vary on. Only gz and
// revalidating change after it is built.
type entry struct {
	key    string
	path   string // request path (decoded) for purges by path and prefix
	tags   []string
	vary   []string // request headers that key it (a record: the names to key on)
	record bool

	status          int
	base            []hdr // the app's headers as stored (for the second level)
	body            []byte
	etag            string
	storedAt        time.Time
	fresh, swr, sie time.Duration
	expires         time.Time // after this it is useless: fresh + max(swr, sie)

	plain        *variant
	compressible bool
	gz           atomic.Pointer[variant]
	gzOnce       sync.Once

	revalidating atomic.Bool
	hitVals      atomic.Pointer[secondValues]
}

// variant is one encoding of an entry's body with its pre-built headers.
type variant struct {
	body   []byte
	full   []hdr // for a full answer: the app's headers, ETag, Content-Length, Content-Encoding, Vary
	notMod []hdr // for a 304
	etag   string
}

// hopByHop are never stored (RFC 9110 §7.6.1), with the headers a cache
// regenerates per answer.
var notStored = map[string]bool{
	"Connection": true, "Keep-Alive": true, "Proxy-Connection": true, "Transfer-Encoding": true,
	"Te": true, "Trailer": true, "Upgrade": true, "Proxy-Authenticate": true, "Proxy-Authorization": true,
	"Date": true, "Content-Length": true, "Age": true, "Cache-Status": true, "Set-Cookie": true, "Etag": true,
}

// storedHeaders copies the headers an entry keeps, in a stable order.
func storedHeaders(h http.Header) []hdr {
	var conn []string
	for _, v := range h["Connection"] {
		for f := range strings.SplitSeq(v, ",") {
			conn = append(conn, http.CanonicalHeaderKey(strings.TrimSpace(f)))
		}
	}
	out := make([]hdr, 0, len(h))
outer:
	for k, vs := range h {
		if notStored[k] || len(vs) == 0 {
			continue
		}
		for _, c := range conn {
			if c == k {
				continue outer
			}
		}
		out = append(out, hdr{k, clip(vs)})
	}
	return out
}

func clip(vs []string) []string {
	c := make([]string, len(vs))
	copy(c, vs)
	return c
}

func (c *Cache) newEntry(key, path string, status int, h http.Header, body []byte, p policy, now time.Time) *entry {
	e := &entry{
		key: key, path: path, tags: p.tags, vary: p.vary,
		status: status, base: storedHeaders(h), body: body, storedAt: now,
		fresh: p.fresh, swr: p.swr, sie: p.sie,
	}
	e.expires = now.Add(e.fresh + max(e.swr, e.sie))
	e.etag = h.Get("Etag")
	if e.etag == "" && status == http.StatusOK {
		e.etag = `"` + strconv.FormatUint(xxhash.Sum64(body), 36) + strconv.FormatInt(int64(len(body)), 36) + `"`
	}
	e.compressible = compressible(h, status, body)
	e.plain = e.buildVariant(body, "", e.etag)
	return e
}

func newRecord(key, path string, vary []string, expires time.Time) *entry {
	return &entry{key: key, path: path, vary: vary, record: true, expires: expires}
}

// buildVariant pre-builds the headers of one encoding.
func (e *entry) buildVariant(body []byte, encoding, etag string) *variant {
	v := &variant{body: body, etag: etag}
	full := make([]hdr, 0, len(e.base)+4)
	vary := ""
	for _, x := range e.base {
		if x.k == "Vary" {
			vary = strings.Join(x.v, ", ")
			continue
		}
		full = append(full, x)
	}
	if e.compressible && !containsToken(vary, "accept-encoding") {
		if vary != "" {
			vary += ", "
		}
		vary += "Accept-Encoding"
	}
	if vary != "" {
		full = append(full, hdr{"Vary", []string{vary}})
	}
	if etag != "" {
		full = append(full, hdr{"Etag", []string{etag}})
	}
	v.notMod = make([]hdr, 0, len(full))
	for _, x := range full {
		switch x.k {
		case "Content-Type", "Content-Encoding", "Content-Language", "Content-Range":
		default:
			v.notMod = append(v.notMod, x)
		}
	}
	if encoding != "" {
		full = append(full, hdr{"Content-Encoding", []string{encoding}})
	}
	if bodyAllowed(e.status) {
		full = append(full, hdr{"Content-Length", []string{strconv.Itoa(len(body))}})
	}
	v.full = full
	return v
}

// gzipped returns the gzip variant, compressing the body on first use: a
// miss costs no compression, and an entry no client asks gzip for never
// pays for one. The entry is then weighed again.
func (c *Cache) gzipped(e *entry) *variant {
	if v := e.gz.Load(); v != nil || !e.compressible {
		return v
	}
	e.gzOnce.Do(func() {
		var b bytes.Buffer
		b.Grow(len(e.body)/3 + 64)
		zw := gzipPool.Get().(*gzip.Writer)
		zw.Reset(&b)
		zw.Write(e.body)
		zw.Close()
		gzipPool.Put(zw)
		etag := ""
		if e.etag != "" {
			etag = strings.TrimSuffix(e.etag, `"`) + `-gz"`
		}
		e.gz.Store(e.buildVariant(bytes.Clone(b.Bytes()), "gzip", etag))
		c.reweigh(e)
	})
	return e.gz.Load()
}

var gzipPool = sync.Pool{New: func() any {
	w, _ := gzip.NewWriterLevel(nil, gzip.DefaultCompression)
	return w
}}

// weight is the entry's real size in memory, near enough: bodies, header
// strings and slices, key, path, tags and the structs.
func (e *entry) weight() uint32 {
	n := 320 + len(e.key) + len(e.path) + len(e.etag)
	for _, t := range e.tags {
		n += len(t) + 16
	}
	for _, v := range e.vary {
		n += len(v) + 16
	}
	n += hdrsSize(e.base)
	if e.plain != nil {
		n += cap(e.body) + variantSize(e.plain)
	}
	if g := e.gz.Load(); g != nil {
		n += len(g.body) + variantSize(g)
	}
	return uint32(min(n, 1<<32-1))
}

func variantSize(v *variant) int {
	// Values of full and notMod are shared with base except the few built here.
	return 96 + 24*(len(v.full)+len(v.notMod)) + 128 + len(v.etag)
}

func hdrsSize(hs []hdr) int {
	n := 24 * cap(hs)
	for _, x := range hs {
		n += len(x.k) + 16*len(x.v) + 24
		for _, s := range x.v {
			n += len(s)
		}
	}
	return n
}

func bodyAllowed(status int) bool {
	return status >= 200 && status != 204 && status != 304
}

// compressible: a text-like body the app has not encoded itself. The list
// covers every type render's gzip middleware compresses, so that middleware
// never has to compress a hit.
func compressible(h http.Header, status int, body []byte) bool {
	if len(body) == 0 || !bodyAllowed(status) || h.Get("Content-Encoding") != "" || h.Get("Content-Range") != "" {
		return false
	}
	ct := h.Get("Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	ct = strings.ToLower(strings.TrimSpace(ct))
	switch {
	case strings.HasPrefix(ct, "text/"),
		strings.HasSuffix(ct, "+json"), strings.HasSuffix(ct, "+xml"),
		ct == "application/json", ct == "application/javascript", ct == "application/xml",
		ct == "image/svg+xml", ct == "application/wasm":
		return true
	}
	return false
}

// containsToken reports whether a comma-separated list holds tok (ASCII
// case-insensitively).
func containsToken(list, tok string) bool {
	for f := range strings.SplitSeq(list, ",") {
		if strings.EqualFold(strings.TrimSpace(f), tok) {
			return true
		}
	}
	return false
}
