package cache

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
)

// testApp is the handler behind the cache: it counts calls and answers
// with fn.
type testApp struct {
	calls atomic.Int64
	fn    func(w http.ResponseWriter, r *http.Request)
}

func (a *testApp) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	a.calls.Add(1)
	a.fn(w, r)
}

// page answers a cacheable HTML page whose body names the call.
func page(cc string) func(w http.ResponseWriter, r *http.Request) {
	var n atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if cc != "" {
			w.Header().Set("Cache-Control", cc)
		}
		io.WriteString(w, "<html><body>render "+itoa(n.Add(1))+" of "+r.URL.Path+strings.Repeat(" padding", 64)+"</body></html>")
	}
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

func newCache(t testing.TB, o Options) *Cache {
	t.Helper()
	if o.MaxBytes == 0 {
		o.MaxBytes = 64 << 20
	}
	if o.MaxVary == 0 {
		o.MaxVary = 8
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	c, err := New(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// get sends one request through h; hdr is "Name: value" pairs.
func get(h http.Handler, method, target string, hdr ...string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for _, kv := range hdr {
		k, v, _ := strings.Cut(kv, ":")
		r.Header.Add(strings.TrimSpace(k), strings.TrimSpace(v))
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}

func cacheStatus(w *httptest.ResponseRecorder) string { return w.Header().Get("Cache-Status") }

func wantStatus(t testing.TB, w *httptest.ResponseRecorder, want string) {
	t.Helper()
	if got := cacheStatus(w); got != want {
		t.Fatalf("Cache-Status = %q, want %q (status %d, body %.60q)", got, want, w.Code, w.Body.String())
	}
}

func contextWithCancel() (context.Context, context.CancelFunc) {
	return context.WithCancel(context.Background())
}
