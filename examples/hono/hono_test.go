// Package hono holds the tests of the Hono example app (src/): the same
// bundle served by a real bext on loopback and by Node 20's http module,
// compared response by response. The app itself is JavaScript; this
// package has no Go code besides its tests.
package hono

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"bext/config"
	"bext/internal/app"
	"bext/internal/apptest"
	"bext/internal/nodeparity"
)

// servers is one bext and one Node serving the same bundle with the same
// env.
type servers struct {
	bext, node string // base URLs
	inst       *app.Instance
	api        *apiServer
}

// start builds the example once (app.Build: what `bext serve` builds) and
// serves that bundle with a real bext on loopback and with Node, with
// API_ORIGIN pointing at a fresh apiServer; mod changes bext's config
// further.
func start(t *testing.T, mod func(*config.Config)) *servers {
	t.Helper()
	cfgPath := filepath.Join(nodeparity.AppDir(t, "."), "config.toml")
	api := newAPIServer(t)
	set := func(c *config.Config) {
		c.App.Env["API_ORIGIN"] = api.URL
		if mod != nil {
			mod(c)
		}
	}
	cfg := apptest.Config(t, cfgPath, set)
	b, err := app.Build(cfg, false)
	if err != nil {
		t.Fatal(err)
	}
	inst := apptest.Start(t, cfgPath, set, app.Options{Bundle: b})
	return &servers{
		bext: "http://" + inst.Addr(),
		node: nodeparity.ServeFetch(t, b.ServerCode, inst.Config().App.Env),
		inst: inst,
		api:  api,
	}
}

// bextOnly are headers bext adds that Node's http module does not: they
// are not differences when Node lacks them. Cache-Status (RFC 9211) is on
// every response that passes bext's page cache, cached or not.
var bextOnly = []string{"Cache-Status"}

// host is the Host header of every parity request, so that the absolute
// URL the app sees (request.url) is the same on both servers.
const host = "tea.example"

func TestParityWithNode(t *testing.T) {
	s := start(t, nil)
	c := nodeparity.Client()

	// Values that come from an earlier response: Node's ETag of a page and
	// the cookies /cookies/set hands out.
	etag := nodeparity.Do(t, c, s.node, nodeparity.HTTPRequest{Path: "/teas/longjing", Host: host}).Header.Get("Etag")
	set := nodeparity.Do(t, c, s.node, nodeparity.HTTPRequest{Path: "/cookies/set?visitor=Ada%20L.", Host: host})
	var cookies []string
	for _, sc := range set.Header.Values("Set-Cookie") {
		cookies = append(cookies, strings.SplitN(sc, ";", 2)[0])
	}
	if etag == "" || len(cookies) != 3 {
		t.Fatalf("node: etag %q, cookies %q; want an etag and 3 cookies", etag, cookies)
	}
	tampered := strings.Replace(cookies[2], "s-Ada", "s-Eve", 1)

	form := multipartBody(t)
	seen := map[string]int{} // bext-only headers met, and how often
	json := hdr("Content-Type", "application/json")
	for _, r := range []nodeparity.HTTPRequest{
		{Path: "/"},
		{Path: "/teas"},
		{Path: "/teas?q=matcha&tag=green"},
		{Path: "/teas?q=%3Cscript%3Ealert(1)%3C/script%3E"},
		{Path: "/teas/longjing"},
		{Name: "GET /teas/longjing If-None-Match (304)", Path: "/teas/longjing", Header: hdr("If-None-Match", etag)},
		{Path: "/teas/assam"},
		{Path: "/hello/Zo%C3%AB?lang=ja"},
		{Path: "/form"},
		{Name: "POST /form urlencoded", Method: "POST", Path: "/form",
			Header: hdr("Content-Type", "application/x-www-form-urlencoded"), Body: []byte("name=Ada+Lovelace&qty=3&note=caf%C3%A9+%26+cr%C3%A8me&qty=4")},
		{Name: "POST /form multipart", Method: "POST", Path: "/form", Header: hdr("Content-Type", form.ctype), Body: form.body},
		{Path: "/api/teas"},
		{Path: "/api/teas?tag=green"},
		{Path: "/api/teas/matcha"},
		{Path: "/api/teas/assam"},
		{Name: "POST /api/teas", Method: "POST", Path: "/api/teas", Header: json, Body: []byte(`{"name":"Earl Grey «Supreme»","price":9.5,"tags":["black"]}`)},
		{Name: "POST /api/teas bad JSON", Method: "POST", Path: "/api/teas", Header: json, Body: []byte(`{"name":`)},
		{Name: "POST /api/teas wrong shape", Method: "POST", Path: "/api/teas", Header: json, Body: []byte(`{"name":42}`)},
		{Name: "OPTIONS /api/teas (CORS preflight)", Method: "OPTIONS", Path: "/api/teas",
			Header: hdr("Origin", "https://shop.example", "Access-Control-Request-Method", "POST", "Access-Control-Request-Headers", "content-type")},
		{Name: "GET /api/teas from another origin", Path: "/api/teas", Header: hdr("Origin", "https://shop.example")},
		{Path: "/api/echo?a=1&a=2&b=%C3%A9", Header: hdr("Accept", "application/json")},
		{Name: "PUT /api/echo", Method: "PUT", Path: "/api/echo", Header: hdr("Content-Type", "text/plain; charset=utf-8"), Body: []byte("chá ☕ put")},
		{Name: "PATCH /api/echo", Method: "PATCH", Path: "/api/echo", Header: json, Body: []byte(`{"op":"patch"}`)},
		{Name: "DELETE /api/echo", Method: "DELETE", Path: "/api/echo", Body: []byte("bye")},
		{Name: "POST /api/echo 256 KiB", Method: "POST", Path: "/api/echo", Header: hdr("Content-Type", "text/plain"), Body: bytes.Repeat([]byte("0123456789abcdef"), 16<<10)},
		{Path: "/env"},
		{Path: "/stream"},
		{Path: "/stream/ticks?n=2"},
		{Path: "/stream/bytes"},
		{Path: "/old-teas"},
		{Path: "/go?to=Ada%20Lovelace"},
		{Path: "/cookies"},
		{Path: "/cookies/set?visitor=Ada%20L."},
		{Name: "GET /cookies with cookies", Path: "/cookies", Header: hdr("Cookie", strings.Join(cookies, "; "))},
		{Name: "GET /cookies tampered", Path: "/cookies", Header: hdr("Cookie", cookies[0]+"; "+tampered)},
		{Path: "/cookies/clear"},
		{Path: "/boom"},
		{Path: "/teapot"},
		{Path: "/no/such/page"},
		{Name: "HEAD /", Method: "HEAD", Path: "/"},
		{Name: "HEAD /api/teas", Method: "HEAD", Path: "/api/teas"},
	} {
		r.Host = host
		n := nodeparity.Do(t, c, s.node, r)
		b := nodeparity.Do(t, c, s.bext, r)
		diffs, ignored := nodeparity.DiffHTTP(b, n, bextOnly)
		for _, d := range diffs {
			t.Errorf("%s: %s", r, d)
		}
		for _, h := range ignored {
			seen[h]++
		}
	}
	t.Logf("bext-only headers not compared: %v", seen)
	if got := s.api.hooks(); got != 0 {
		t.Errorf("%d hooks delivered; no request above notifies", got)
	}
}

// TestGzipSameContent: a browser asks for gzip, which bext gives (Node's
// http module compresses nothing); once decoded the body is Node's, and the
// other headers are Node's too.
func TestGzipSameContent(t *testing.T) {
	s := start(t, nil)
	c := nodeparity.Client()
	var gzipped []string
	for _, p := range []string{"/", "/teas?q=a", "/api/teas", "/stream", "/stream/bytes", "/no/such/page"} {
		r := nodeparity.HTTPRequest{Path: p, Host: host, Header: hdr("Accept-Encoding", "gzip, deflate, br")}
		n := nodeparity.Do(t, c, s.node, r)
		b := nodeparity.Do(t, c, s.bext, r)
		if b.Header.Get("Content-Encoding") == "gzip" {
			gzipped = append(gzipped, p)
			zr, err := gzip.NewReader(bytes.NewReader(b.Body))
			if err != nil {
				t.Fatalf("%s: %v", p, err)
			}
			if b.Body, err = io.ReadAll(zr); err != nil {
				t.Fatalf("%s: gunzip: %v", p, err)
			}
		}
		diffs, _ := nodeparity.DiffHTTP(b, n, append([]string{"Content-Encoding", "Vary"}, bextOnly...))
		for _, d := range diffs {
			t.Errorf("%s with gzip: %s", p, d)
		}
	}
	if len(gzipped) == 0 {
		t.Error("bext compressed none of the responses although the client accepts gzip")
	}
	t.Logf("gzipped by bext: %s", strings.Join(gzipped, " "))
}

func hdr(kv ...string) http.Header {
	h := http.Header{}
	for i := 0; i < len(kv); i += 2 {
		h.Add(kv[i], kv[i+1])
	}
	return h
}

type form struct {
	ctype string
	body  []byte
}

// multipartBody is a multipart/form-data body with two fields and two
// files (text and binary), built once so both servers get the same bytes.
func multipartBody(t *testing.T) form {
	var buf bytes.Buffer
	w := multipart.NewWriter(&buf)
	if err := w.SetBoundary("bext-parity-boundary-7f3a"); err != nil {
		t.Fatal(err)
	}
	_ = w.WriteField("name", "Grace Hopper")
	_ = w.WriteField("qty", "2")
	f, _ := w.CreateFormFile("note", "order note.txt")
	_, _ = f.Write([]byte("Please wrap it «nicely».\nThanks — G."))
	h := textproto.MIMEHeader{}
	h.Set("Content-Disposition", `form-data; name="note"; filename="tea.csv"`)
	h.Set("Content-Type", "text/csv")
	f, _ = w.CreatePart(h)
	_, _ = f.Write([]byte("id,qty\nsencha,1\n"))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return form{ctype: w.FormDataContentType(), body: buf.Bytes()}
}

// apiServer is the loopback server the app calls through API_ORIGIN.
// GET /gate/N answers "ok" once gate N is open (all gates are open unless
// a test holds them); POST /hook records a delivery of /api/notify and
// answers once the test releases it.
type apiServer struct {
	*httptest.Server

	mu        sync.Mutex
	held      bool
	gates     map[string]chan struct{}
	delivered int
	hookIn    chan string   // each hook's body as it arrives
	hookOut   chan struct{} // closed: hooks answer (see holdHooks)
}

func newAPIServer(t *testing.T) *apiServer {
	open := make(chan struct{})
	close(open)
	a := &apiServer{gates: map[string]chan struct{}{}, hookIn: make(chan string, 16), hookOut: open}
	a.Server = httptest.NewServer(http.HandlerFunc(a.serve))
	t.Cleanup(func() {
		a.mu.Lock()
		for _, g := range a.gates {
			select {
			case <-g:
			default:
				close(g)
			}
		}
		a.mu.Unlock()
		a.Close()
	})
	return a
}

func (a *apiServer) serve(w http.ResponseWriter, r *http.Request) {
	switch {
	case strings.HasPrefix(r.URL.Path, "/gate/"):
		select {
		case <-a.gate(strings.TrimPrefix(r.URL.Path, "/gate/")):
			fmt.Fprint(w, "ok")
		case <-r.Context().Done():
		}
	case r.URL.Path == "/hook" && r.Method == http.MethodPost:
		body, _ := io.ReadAll(r.Body)
		a.mu.Lock()
		a.delivered++
		a.mu.Unlock()
		a.hookIn <- string(body)
		a.mu.Lock()
		out := a.hookOut
		a.mu.Unlock()
		select {
		case <-out:
			w.WriteHeader(http.StatusNoContent)
		case <-r.Context().Done():
		}
	default:
		http.NotFound(w, r)
	}
}

// gate returns gate name's channel, closed when it is open.
func (a *apiServer) gate(name string) chan struct{} {
	a.mu.Lock()
	defer a.mu.Unlock()
	g, ok := a.gates[name]
	if !ok {
		g = make(chan struct{})
		if !a.held {
			close(g)
		}
		a.gates[name] = g
	}
	return g
}

// hold makes every gate closed until opened with open, and forgets the
// gates of earlier requests; release opens them all again.
func (a *apiServer) hold(on bool) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, g := range a.gates {
		select {
		case <-g:
		default:
			close(g)
		}
	}
	a.gates = map[string]chan struct{}{}
	a.held = on
}

// open opens gate name.
func (a *apiServer) open(name string) {
	g := a.gate(name)
	a.mu.Lock()
	defer a.mu.Unlock()
	select {
	case <-g:
	default:
		close(g)
	}
}

// holdHooks makes hooks wait until the returned release is called.
func (a *apiServer) holdHooks() (release func()) {
	out := make(chan struct{})
	a.mu.Lock()
	a.hookOut = out
	a.mu.Unlock()
	return func() { close(out) }
}

func (a *apiServer) hooks() int {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.delivered
}
