package cache

import (
	"bytes"
	"compress/gzip"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
)

func TestETagAnd304Cached(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("s-maxage=60")}
		h := newCache(t, Options{}).Middleware(app)
		w := get(h, "GET", "/")
		etag := w.Header().Get("Etag")
		if !strings.HasPrefix(etag, `"`) || strings.HasPrefix(etag, "W/") {
			t.Fatalf("ETag %q is not strong", etag)
		}
		w = get(h, "GET", "/", "If-None-Match: "+etag)
		if w.Code != 304 || w.Body.Len() != 0 {
			t.Fatalf("If-None-Match: %d %q", w.Code, w.Body.String())
		}
		wantStatus(t, w, "bext; hit; ttl=60")
		if w.Header().Get("Etag") != etag || w.Header().Get("Cache-Control") == "" || w.Header().Get("Content-Length") != "" {
			t.Fatalf("304 headers %v", w.Header())
		}
		for _, inm := range []string{`"other", ` + etag, "W/" + etag, "*"} {
			if w := get(h, "GET", "/", "If-None-Match: "+inm); w.Code != 304 {
				t.Fatalf("If-None-Match %s: %d", inm, w.Code)
			}
		}
		if w := get(h, "GET", "/", `If-None-Match: "other"`); w.Code != 200 {
			t.Fatalf("mismatch: %d", w.Code)
		}
		// The gzip variant's ETag validates too, and the other way round.
		w = get(h, "GET", "/", "Accept-Encoding: gzip")
		gzTag := w.Header().Get("Etag")
		if gzTag == etag || !strings.HasSuffix(gzTag, `-gz"`) {
			t.Fatalf("gzip ETag %q vs %q", gzTag, etag)
		}
		if w := get(h, "GET", "/", "If-None-Match: "+gzTag); w.Code != 304 {
			t.Fatalf("gzip ETag on identity request: %d", w.Code)
		}
		if app.calls.Load() != 1 {
			t.Fatalf("%d calls", app.calls.Load())
		}
		// A conditional request that misses still renders a full page.
		if w := get(h, "GET", "/other", "If-None-Match: *"); w.Code != 304 {
			t.Fatalf("miss with If-None-Match *: %d", w.Code)
		}
	})
}

func TestETagAnd304Uncached(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Cache-Control", "no-cache")
			w.Write([]byte("<p>same every time</p>"))
		}}
		h := newCache(t, Options{}).Middleware(app)
		w := get(h, "GET", "/")
		etag := w.Header().Get("Etag")
		if etag == "" || w.Header().Get("Content-Length") != "22" {
			t.Fatalf("uncached answer: ETag %q, Content-Length %q", etag, w.Header().Get("Content-Length"))
		}
		w = get(h, "GET", "/", "If-None-Match: "+etag)
		if w.Code != 304 || w.Body.Len() != 0 {
			t.Fatalf("uncached If-None-Match: %d", w.Code)
		}
		wantStatus(t, w, "bext; fwd=miss")
		// Bypassed requests get it too.
		if w := get(h, "GET", "/", "Cookie: a=b", "If-None-Match: "+etag); w.Code != 304 {
			t.Fatalf("bypass If-None-Match: %d", w.Code)
		}
		// The app's own ETag is kept and honoured.
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Etag", `"v7"`)
			w.Write([]byte("x"))
		}
		if w := get(h, "GET", "/", `If-None-Match: "v7"`); w.Code != 304 || w.Header().Get("Etag") != `"v7"` {
			t.Fatalf("app ETag: %d %q", w.Code, w.Header().Get("Etag"))
		}
	})
}

func TestHead(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var methods []string
		inner := page("s-maxage=60")
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			methods = append(methods, r.Method)
			if r.Method == "HEAD" { // as render does: headers only
				w.Header().Set("Content-Type", "text/html")
				w.Header().Set("Cache-Control", "s-maxage=60")
				return
			}
			inner(w, r)
		}}
		h := newCache(t, Options{}).Middleware(app)
		w := get(h, "HEAD", "/")
		wantStatus(t, w, "bext; fwd=miss; stored")
		if w.Body.Len() != 0 || w.Header().Get("Content-Length") == "0" || w.Header().Get("Content-Length") == "" {
			t.Fatalf("HEAD miss: body %d bytes, Content-Length %q", w.Body.Len(), w.Header().Get("Content-Length"))
		}
		g := get(h, "GET", "/")
		wantStatus(t, g, "bext; hit; ttl=60")
		if g.Body.Len() == 0 || g.Header().Get("Content-Length") != w.Header().Get("Content-Length") {
			t.Fatal("GET after HEAD has no body: the HEAD fill stored an empty page")
		}
		w = get(h, "HEAD", "/")
		wantStatus(t, w, "bext; hit; ttl=60")
		if w.Body.Len() != 0 {
			t.Fatal("HEAD hit has a body")
		}
		if strings.Join(methods, ",") != "GET" {
			t.Fatalf("next saw %v, want one GET", methods)
		}
	})
}

func gunzip(t testing.TB, b []byte) string {
	t.Helper()
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func TestGzipStoredOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("s-maxage=60")}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		plain := get(h, "GET", "/", "Accept-Encoding: gzip")
		if plain.Header().Get("Content-Encoding") != "" {
			t.Fatal("the miss was compressed: gzip is for hits (render's gzip does misses)")
		}
		c.store.CleanUp()
		synctest.Wait()
		before := c.Stats().Bytes
		w := get(h, "GET", "/", "Accept-Encoding: gzip, deflate, br")
		if w.Header().Get("Content-Encoding") != "gzip" || w.Header().Get("Vary") != "Accept-Encoding" {
			t.Fatalf("headers %v", w.Header())
		}
		if got := gunzip(t, w.Body.Bytes()); got != plain.Body.String() {
			t.Fatal("gzip body differs")
		}
		if w.Header().Get("Content-Length") != itoa(int64(w.Body.Len())) {
			t.Fatal("Content-Length of gzip body wrong")
		}
		e := c.get("http://example.com/")
		g1 := e.gz.Load()
		get(h, "GET", "/", "Accept-Encoding: gzip")
		if e.gz.Load() != g1 {
			t.Fatal("compressed twice")
		}
		c.store.CleanUp()
		synctest.Wait()
		if after := c.Stats().Bytes; after <= before {
			t.Fatalf("gzip body not weighed: %d → %d", before, after)
		}
		for _, ae := range []string{"", "identity", "gzip;q=0", "br", "*;q=0", "gzip;q=0, *"} {
			var hs []string
			if ae != "" {
				hs = []string{"Accept-Encoding: " + ae}
			}
			if w := get(h, "GET", "/", hs...); w.Header().Get("Content-Encoding") != "" || w.Body.String() != plain.Body.String() {
				t.Fatalf("Accept-Encoding %q got gzip", ae)
			}
		}
		if w := get(h, "GET", "/", "Accept-Encoding: *"); w.Header().Get("Content-Encoding") != "gzip" {
			t.Fatal("* should allow gzip")
		}
		if w := get(h, "HEAD", "/", "Accept-Encoding: gzip"); w.Header().Get("Content-Encoding") != "gzip" || w.Body.Len() != 0 {
			t.Fatal("HEAD gzip")
		}
	})
}

func TestAppEncodedBodyKeptAsIs(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "s-maxage=60")
			w.Header().Set("Content-Type", "text/html")
			w.Header().Set("Vary", "Accept-Encoding")
			if strings.Contains(r.Header.Get("Accept-Encoding"), "br") {
				w.Header().Set("Content-Encoding", "br")
				w.Write([]byte("BROTLI"))
				return
			}
			w.Write([]byte("plain"))
		}}
		h := newCache(t, Options{}).Middleware(app)
		get(h, "GET", "/", "Accept-Encoding: br")
		get(h, "GET", "/")
		if w := get(h, "GET", "/", "Accept-Encoding: br"); w.Body.String() != "BROTLI" || cacheStatus(w) != "bext; hit; ttl=60" {
			t.Fatalf("br: %q %q", w.Body.String(), cacheStatus(w))
		}
		if w := get(h, "GET", "/"); w.Body.String() != "plain" {
			t.Fatalf("identity: %q", w.Body.String())
		}
		// Spellings of the same codings share a key.
		if w := get(h, "GET", "/", "Accept-Encoding: BR"); w.Body.String() != "BROTLI" || cacheStatus(w) != "bext; hit; ttl=60" {
			t.Fatalf("BR: %q %q", w.Body.String(), cacheStatus(w))
		}
		if app.calls.Load() != 2 {
			t.Fatalf("%d calls", app.calls.Load())
		}
	})
}

func TestHeadersStored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			h := w.Header()
			h.Set("Cache-Control", "s-maxage=60")
			h.Set("Date", "Mon, 01 Jan 2001 00:00:00 GMT")
			h.Set("Connection", "X-Hop")
			h.Set("X-Hop", "1")
			h.Set("Keep-Alive", "timeout=5")
			h.Set("X-App", "yes")
			h.Set("Age", "100")
			w.Write([]byte("x"))
		}}
		h := newCache(t, Options{}).Middleware(app)
		get(h, "GET", "/")
		w := get(h, "GET", "/")
		hd := w.Header()
		if hd.Get("X-App") != "yes" || hd.Get("Date") != "" || hd.Get("X-Hop") != "" || hd.Get("Keep-Alive") != "" || hd.Get("Connection") != "" || hd.Get("Age") != "0" {
			t.Fatalf("stored headers: %v", hd)
		}
	})
}

func TestHeadersAfterWriteHeaderIgnored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "s-maxage=60")
			w.WriteHeader(200)
			w.Header().Set("Set-Cookie", "late=1") // too late: net/http would not send it
			w.Header().Set("X-Late", "1")
			w.Write([]byte("x"))
		}}
		h := newCache(t, Options{}).Middleware(app)
		wantStatus(t, get(h, "GET", "/"), "bext; fwd=miss; stored")
		if w := get(h, "GET", "/"); w.Header().Get("X-Late") != "" {
			t.Fatal("a header set after WriteHeader was stored")
		}
	})
}
