package engine

import (
	"context"
	"testing"
)

// BenchmarkRenderOverhead measures the engine's fixed cost per render (req
// object, goroutine, interrupt hook, response) on a render that does nothing.
func BenchmarkRenderOverhead(b *testing.B) {
	iso := newTestIsolate(b, "hello", "server.js", Options{})
	req := get("/x")
	req.Headers = map[string]string{"accept": "text/html", "user-agent": "bench", "accept-encoding": "gzip", "host": "localhost"}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := iso.Render(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
}
