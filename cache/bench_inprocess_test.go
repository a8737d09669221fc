package cache

import (
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
)

// BenchmarkMissInProcess is the miss path alone (no network): a cacheable
// 19 KB page under a new URL each time, stored and evicted.
func BenchmarkMissInProcess(b *testing.B) {
	app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Cache-Control", "public, s-maxage=3600")
		w.Write(page19k)
	})
	c := newCache(b, Options{MaxBytes: 32 << 20})
	for name, h := range map[string]http.Handler{"bare": app, "cache": c.Middleware(app)} {
		b.Run(name, func(b *testing.B) {
			w := &discardWriter{h: http.Header{}}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				i++
				clear(w.h)
				h.ServeHTTP(w, httptest.NewRequest("GET", "/p?n="+strconv.Itoa(i), nil))
			}
		})
	}
}
