package fetch_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"

	"bext/web"
	"bext/web/fetch"
	"bext/web/streams"
	"bext/web/webidl"
)

// host is a webidl.Host with a minimal event loop: completions posted by
// goroutines (Realm.Go) run when the test waits for a promise.
type host struct {
	rt      *goja.Runtime
	r       *webidl.Realm
	posted  chan func() error
	pending int
}

func (h *host) Runtime() *goja.Runtime { return h.rt }
func (h *host) Begin() func(func() error) {
	h.pending++
	return func(fn func() error) { h.posted <- fn }
}
func (h *host) Context() context.Context { return context.Background() }
func (h *host) Logger() *slog.Logger     { return slog.New(slog.DiscardHandler) }

func newRealm(t testing.TB) (*host, *webidl.Realm) {
	h := &host{rt: goja.New(), posted: make(chan func() error, 16)}
	h.r = web.Install(h, web.Options{})
	return h, h.r
}

// await runs the loop until the promise p settles and returns its value.
func (h *host) await(t testing.TB, p goja.Value) goja.Value {
	t.Helper()
	pr, ok := p.Export().(*goja.Promise)
	if !ok {
		return p
	}
	for pr.State() == goja.PromiseStatePending {
		if h.pending == 0 {
			t.Fatal("the promise never settles")
		}
		select {
		case fn := <-h.posted:
			h.pending--
			if err := fn(); err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no completion in 10 s")
		}
	}
	if pr.State() == goja.PromiseStateRejected {
		t.Fatalf("rejected: %v", pr.Result())
	}
	return pr.Result()
}

func (h *host) eval(t testing.TB, src string) goja.Value {
	t.Helper()
	v, err := h.rt.RunString(src)
	if err != nil {
		t.Fatal(err)
	}
	return h.await(t, v)
}

func TestResponseOf(t *testing.T) {
	h, _ := newRealm(t)
	if _, ok := fetch.ResponseOf(h.rt.ToValue("html")); ok {
		t.Fatal("a string is no Response")
	}
	v := h.eval(t, `globalThis.res = new Response("<p>hi</p>", {status: 201, statusText: "Made", headers: [["x-a", "1"], ["set-cookie", "a=1"], ["set-cookie", "b=2"]]}); res`)
	d, ok := fetch.ResponseOf(v)
	if !ok {
		t.Fatal("not a Response")
	}
	if d.Status != 201 || d.StatusText != "Made" || d.Type != "default" || string(d.Body) != "<p>hi</p>" || d.Stream != nil || d.Used {
		t.Fatalf("got %+v", d)
	}
	want := http.Header{"X-A": {"1"}, "Set-Cookie": {"a=1", "b=2"}, "Content-Type": {"text/plain;charset=UTF-8"}}
	if len(d.Header) != len(want) || d.Header.Get("X-A") != "1" || strings.Join(d.Header["Set-Cookie"], "|") != "a=1|b=2" || d.Header.Get("Content-Type") != want.Get("Content-Type") {
		t.Fatalf("headers %v", d.Header)
	}
	if h.eval(t, `res.bodyUsed`).ToBoolean() != true {
		t.Fatal("ResponseOf takes the body")
	}

	d, _ = fetch.ResponseOf(h.eval(t, `new Response(null, {status: 204})`))
	if d.Body != nil || d.Stream != nil || d.Status != 204 {
		t.Fatalf("a null body: %+v", d)
	}
	d, _ = fetch.ResponseOf(h.eval(t, `new Response("")`))
	if d.Body == nil || len(d.Body) != 0 {
		t.Fatalf("an empty body is not a null body: %+v", d)
	}
	d, _ = fetch.ResponseOf(h.eval(t, `Response.error()`))
	if d.Type != "error" || d.Status != 0 {
		t.Fatalf("Response.error(): %+v", d)
	}
	d, _ = fetch.ResponseOf(h.eval(t, `(async () => { const r = new Response("x"); await r.text(); return r })()`))
	if !d.Used {
		t.Fatalf("a used body: %+v", d)
	}

	// A stream body comes back as the stream, to be read from Go.
	d, _ = fetch.ResponseOf(h.eval(t, `new Response(new ReadableStream({ pull(c) { c.enqueue(new Uint8Array([...("streamed")].map(ch => ch.charCodeAt(0)))); c.close() } }))`))
	if d.Stream == nil || d.Body != nil {
		t.Fatalf("a stream body: %+v", d)
	}
	rd, err := streams.NewReader(h.r, d.Stream)
	if err != nil {
		t.Fatal(err)
	}
	var got []byte
	done := false
	for !done {
		rd.Read(func(chunk goja.Value, end bool, e goja.Value) {
			if e != nil {
				t.Fatal(e)
			}
			if end {
				done = true
				return
			}
			b, _ := webidl.Bytes(chunk)
			got = append(got, b...)
		})
		h.eval(t, `0`) // run the reads' microtasks
	}
	if string(got) != "streamed" {
		t.Fatalf("streamed %q", got)
	}
}

// source is a streams.Source that hands out its chunks one per pull.
type source struct{ chunks []string }

func (s *source) Pull(c *streams.Controller) {
	if len(s.chunks) == 0 {
		c.Close()
		return
	}
	c.Enqueue([]byte(s.chunks[0]))
	s.chunks = s.chunks[1:]
}
func (s *source) Cancel(goja.Value) {}

func TestNewRequest(t *testing.T) {
	h, r := newRealm(t)
	hdr := http.Header{"Content-Type": {"application/json"}, "X-Forwarded-For": {"1.2.3.4", "5.6.7.8"}}
	body := io.NopCloser(strings.NewReader(`{"a":[1,2]}`))
	req := fetch.NewRequest(r, "POST", "https://example.com/api?x=1", hdr, fetch.ReaderSource(r, body, 11), nil)
	_ = h.rt.Set("req", req)
	got := h.eval(t, `(async () => {
		let immutable = false; try { req.headers.set("a", "b") } catch (e) { immutable = e instanceof TypeError }
		const j = await req.json();
		return JSON.stringify([req instanceof Request, req.method, req.url, req.headers.get("x-forwarded-for"), req.headers.get("content-type"), immutable, j, req.bodyUsed]);
	})()`).String()
	want := `[true,"POST","https://example.com/api?x=1","1.2.3.4, 5.6.7.8","application/json",true,{"a":[1,2]},true]`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}

	// A ReaderSource read as a stream; any other Source.
	req = fetch.NewRequest(r, "PUT", "https://example.com/", nil, fetch.ReaderSource(r, io.NopCloser(strings.NewReader("chunked body")), -1), nil)
	_ = h.rt.Set("req", req)
	if got := h.eval(t, `(async () => { let s = ""; const rd = req.body.getReader(); for (;;) { const {value, done} = await rd.read(); if (done) return s; s += String.fromCharCode(...value) } })()`).String(); got != "chunked body" {
		t.Fatalf("streamed: %q", got)
	}
	req = fetch.NewRequest(r, "POST", "https://example.com/", nil, &source{chunks: []string{"a", "b", "c"}}, nil)
	_ = h.rt.Set("req", req)
	if got := h.eval(t, `req.text()`).String(); got != "abc" {
		t.Fatalf("a Source: %q", got)
	}
	req = fetch.NewRequest(r, "GET", "https://example.com/", nil, nil, nil)
	_ = h.rt.Set("req", req)
	if got := h.eval(t, `req.body === null && new Request(req).url`).String(); got != "https://example.com/" {
		t.Fatalf("no body: %q", got)
	}
}
