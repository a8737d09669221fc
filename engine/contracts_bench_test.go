package engine

import (
	"context"
	"net/http"
	"testing"
)

// BenchmarkContracts renders one small page (≈600 bytes) through
// render(req) and through a fetch handler returning a Response (whole, and
// streamed in 256-byte chunks read in full): the difference is the fetch
// contract's per-request cost (Request, Headers, URL, Response).
func BenchmarkContracts(b *testing.B) {
	run := func(b *testing.B, entry, target string) {
		iso := newTestIsolate(b, "contracts", entry, Options{})
		req := NewRequest("GET", target)
		req.Origin, req.Header = "http://bench.example", http.Header{"Accept": {"text/html"}}
		ctx := context.Background()
		b.ReportAllocs()
		for b.Loop() {
			if _, err := iso.Render(ctx, req); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.Run("render", func(b *testing.B) { run(b, "render.js", "/page") })
	b.Run("fetch", func(b *testing.B) { run(b, "handler.js", "/page") })
	b.Run("fetch-stream", func(b *testing.B) { run(b, "handler.js", "/page?stream") })
}
