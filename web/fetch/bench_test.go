package fetch_test

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

// Each benchmark runs b.N operations in one JS loop inside one render, so
// the figures are per operation, without the render's own cost.

func benchJS(b *testing.B, o fetch.Options, setup, op string) {
	w := webtest.New(b, "", o)
	w.Must(setup + `; globalThis.__op = async () => { ` + op + ` }; return "ok"`)
	b.ReportAllocs()
	b.ResetTimer()
	w.Must(`for (let i = 0; i < ` + strconv.Itoa(b.N) + `; i++) await __op(); return "ok"`)
}

func BenchmarkHeadersFromObject(b *testing.B) {
	benchJS(b, fetch.Options{}, `globalThis.init = {"Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-cache", "X-Request-Id": "abc123", "Vary": "Accept-Encoding"}`,
		`const h = new Headers(init); if (h.get("content-type") === null) throw new Error("missing")`)
}

func BenchmarkResponseText(b *testing.B) {
	benchJS(b, fetch.Options{}, `globalThis.html = "<!doctype html><html><body>" + "<p>hello world</p>".repeat(500) + "</body></html>"`,
		`const t = await new Response(html).text(); if (t.length !== html.length) throw new Error("short")`)
}

func BenchmarkResponseSyncText(b *testing.B) {
	// The same without awaiting: what the allocation count of one Response
	// + text() is, promise included.
	benchJS(b, fetch.Options{}, `globalThis.html = "<p>hello</p>".repeat(100)`, `new Response(html).text()`)
}

func loopback(b *testing.B, body string, ctype string) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", ctype)
		w.Write([]byte(body))
	}))
	b.Cleanup(srv.Close)
	return srv.URL + "/data"
}

func BenchmarkFetch10KB(b *testing.B) {
	u := loopback(b, strings.Repeat("0123456789", 1024), "text/plain")
	benchJS(b, fetch.Options{}, `globalThis.u = "`+u+`"`,
		`const t = await (await fetch(u)).text(); if (t.length !== 10240) throw new Error("short")`)
}

func BenchmarkFetch10KBStream(b *testing.B) {
	u := loopback(b, strings.Repeat("0123456789", 1024), "text/plain")
	benchJS(b, fetch.Options{}, `globalThis.u = "`+u+`"`,
		`const r = (await fetch(u)).body.getReader(); let n = 0; for (;;) { const {value, done} = await r.read(); if (done) break; n += value.length } if (n !== 10240) throw new Error("short")`)
}

func BenchmarkFetchJSON(b *testing.B) {
	u := loopback(b, `{"items":[`+strings.TrimSuffix(strings.Repeat(`{"id":1,"name":"item","tags":["a","b"]},`, 50), ",")+`]}`, "application/json")
	benchJS(b, fetch.Options{}, `globalThis.u = "`+u+`"`,
		`const j = await (await fetch(u)).json(); if (j.items.length !== 50) throw new Error("short")`)
}

// BenchmarkLoopBaseline is the cost of the benchmark loop itself (an
// async call and its await), to subtract from the others.
func BenchmarkLoopBaseline(b *testing.B) {
	benchJS(b, fetch.Options{}, `globalThis.x = 1`, `x++`)
}
