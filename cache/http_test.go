package cache

import (
	"bufio"
	"compress/gzip"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/go-chi/chi/v5/middleware"
)

// server mounts the cache as render does: chi router, gzip (Compress)
// outside the cache, the app inside.
func server(t *testing.T, c *Cache, app http.Handler) *httptest.Server {
	r := chi.NewRouter()
	r.Use(middleware.Compress(5, "text/html", "text/css", "text/plain", "text/javascript",
		"application/javascript", "application/json", "image/svg+xml"))
	r.Use(c.Middleware)
	// As in render: with no route at all chi skips its middlewares.
	r.Get("/healthz", func(w http.ResponseWriter, r *http.Request) {})
	r.NotFound(app.ServeHTTP)
	srv := httptest.NewServer(r)
	t.Cleanup(srv.Close)
	return srv
}

func fetch(t *testing.T, method, url string, hdr ...string) (*http.Response, string) {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	for _, kv := range hdr {
		k, v, _ := strings.Cut(kv, ":")
		req.Header.Set(k, strings.TrimSpace(v))
	}
	resp, err := (&http.Transport{DisableCompression: true}).RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.Header.Get("Content-Encoding") == "gzip" && len(b) > 0 {
		zr, err := gzip.NewReader(strings.NewReader(string(b)))
		if err != nil {
			t.Fatal(err)
		}
		if b, err = io.ReadAll(zr); err != nil {
			t.Fatal(err)
		}
	}
	return resp, string(b)
}

func TestHTTPHitGzipThroughChiCompress(t *testing.T) {
	app := &testApp{fn: page("s-maxage=600")}
	c := newCache(t, Options{})
	srv := server(t, c, app)

	resp, missBody := fetch(t, "GET", srv.URL+"/home", "Accept-Encoding: gzip")
	if resp.Header.Get("Cache-Status") != "bext; fwd=miss; stored" || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("miss: %v (render's gzip should compress the miss as without cache)", resp.Header)
	}
	resp, hitBody := fetch(t, "GET", srv.URL+"/home", "Accept-Encoding: gzip")
	if !strings.HasPrefix(resp.Header.Get("Cache-Status"), "bext; hit; ttl=") || resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("hit: %v", resp.Header)
	}
	if hitBody != missBody {
		t.Fatalf("hit body (decoded once) %q != miss body %q: compressed twice?", hitBody, missBody)
	}
	if v := resp.Header.Values("Vary"); len(v) != 1 || v[0] != "Accept-Encoding" {
		t.Fatalf("Vary %q", v)
	}
	if resp.Header.Get("Date") == "" || resp.Header.Get("Age") == "" || resp.Header.Get("Etag") == "" {
		t.Fatalf("hit headers %v", resp.Header)
	}
	resp, body := fetch(t, "GET", srv.URL+"/home")
	if resp.Header.Get("Content-Encoding") != "" || body != missBody || resp.ContentLength != int64(len(body)) {
		t.Fatalf("identity hit: %v", resp.Header)
	}
	resp, body = fetch(t, "GET", srv.URL+"/home", "Accept-Encoding: gzip", "If-None-Match: "+resp.Header.Get("Etag"))
	if resp.StatusCode != 304 || body != "" || resp.Header.Get("Content-Encoding") != "" {
		t.Fatalf("304 through Compress: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	resp, body = fetch(t, "HEAD", srv.URL+"/home", "Accept-Encoding: gzip")
	if resp.StatusCode != 200 || body != "" || !strings.HasPrefix(resp.Header.Get("Cache-Status"), "bext; hit; ttl=") {
		t.Fatalf("HEAD: %d %v", resp.StatusCode, resp.Header)
	}
	if app.calls.Load() != 1 {
		t.Fatalf("%d renders", app.calls.Load())
	}
}

func TestHTTPSingleFlight(t *testing.T) {
	const n = 100
	release := make(chan struct{})
	var joins atomic.Int64
	inner := page("s-maxage=600")
	app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) { <-release; inner(w, r) }}
	c := newCache(t, Options{})
	var once sync.Once
	c.flights.joined = func(bool) {
		if joins.Add(1) == n {
			once.Do(func() { close(release) })
		}
	}
	// Only a request that never reaches the cache could leave the render
	// waiting; fail then rather than hang.
	valve := time.AfterFunc(2*time.Minute, func() {
		t.Errorf("only %d of %d requests joined", joins.Load(), n)
		once.Do(func() { close(release) })
	})
	defer valve.Stop()
	srv := server(t, c, app)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: n}}
	var wg sync.WaitGroup
	bodies := make([]string, n)
	for i := range n {
		wg.Go(func() {
			resp, err := client.Get(srv.URL + "/hot")
			if err != nil {
				t.Error(err)
				return
			}
			b, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			bodies[i] = string(b)
		})
	}
	wg.Wait()
	if app.calls.Load() != 1 {
		t.Fatalf("%d concurrent misses made %d renders, want 1", n, app.calls.Load())
	}
	for _, b := range bodies {
		if b != bodies[0] || b == "" {
			t.Fatal("answers differ")
		}
	}
}

func TestHTTPStreaming(t *testing.T) {
	gotShell := make(chan struct{})
	app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Cache-Control", "s-maxage=600")
		io.WriteString(w, "<html>shell\n")
		w.(http.Flusher).Flush()
		<-gotShell // the client has read the shell: it was streamed
		io.WriteString(w, "rest</html>\n")
	}}
	c := newCache(t, Options{})
	srv := server(t, c, app)
	resp, err := http.Get(srv.URL + "/s")
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(resp.Body)
	line, err := br.ReadString('\n')
	if err != nil || line != "<html>shell\n" {
		t.Fatalf("%q %v", line, err)
	}
	close(gotShell)
	rest, _ := io.ReadAll(br)
	resp.Body.Close()
	if string(rest) != "rest</html>\n" {
		t.Fatalf("rest %q", rest)
	}
	resp2, body := fetch(t, "GET", srv.URL+"/s")
	if !strings.HasPrefix(resp2.Header.Get("Cache-Status"), "bext; hit; ttl=") || body != "<html>shell\nrest</html>\n" {
		t.Fatalf("after the stream: %q %q", resp2.Header.Get("Cache-Status"), body)
	}
}

func TestHTTPBypassAndUncached(t *testing.T) {
	app := &testApp{fn: page("")}
	c := newCache(t, Options{})
	srv := server(t, c, app)
	resp, _ := fetch(t, "GET", srv.URL+"/", "Cookie: sid=1")
	if resp.Header.Get("Cache-Status") != "bext; fwd=bypass" || resp.Header.Get("Etag") == "" {
		t.Fatalf("%v", resp.Header)
	}
	resp, _ = fetch(t, "POST", srv.URL+"/")
	if resp.Header.Get("Cache-Status") != "bext; fwd=bypass" {
		t.Fatalf("%v", resp.Header)
	}
	resp, _ = fetch(t, "GET", srv.URL+"/")
	if resp.Header.Get("Cache-Status") != "bext; fwd=miss" {
		t.Fatalf("%v", resp.Header)
	}
}
