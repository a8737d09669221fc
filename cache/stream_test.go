package cache

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
)

// lockedRecorder is a ResponseRecorder the test may read while the
// handler still writes.
type lockedRecorder struct {
	mu sync.Mutex
	*httptest.ResponseRecorder
	flushes int
}

func newLocked() *lockedRecorder { return &lockedRecorder{ResponseRecorder: httptest.NewRecorder()} }

func (l *lockedRecorder) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.ResponseRecorder.Write(p)
}

func (l *lockedRecorder) WriteHeader(code int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.ResponseRecorder.WriteHeader(code)
}

func (l *lockedRecorder) Flush() {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.flushes++
	l.ResponseRecorder.Flush()
}

func (l *lockedRecorder) body() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.Body.String()
}

// streamApp writes a shell, flushes, waits for next, writes the rest.
func streamApp(next chan struct{}, fail func() bool) *testApp {
	return &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Cache-Control", "s-maxage=60")
		w.Write([]byte("<html><body>shell"))
		w.(http.Flusher).Flush()
		select {
		case <-next:
		case <-r.Context().Done():
			return // a cut stream that "ends normally"
		}
		if fail != nil && fail() {
			panic(http.ErrAbortHandler)
		}
		w.Write([]byte(" content</body></html>"))
	}}
}

func TestStreamedResponseStoredOnceComplete(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		next := make(chan struct{})
		app := streamApp(next, nil)
		h := newCache(t, Options{}).Middleware(app)
		w := newLocked()
		done := make(chan struct{})
		go func() {
			h.ServeHTTP(w, httptest.NewRequest("GET", "/s", nil))
			close(done)
		}()
		synctest.Wait()
		if got := w.body(); got != "<html><body>shell" {
			t.Fatalf("the first client has %q before the stream ends: not streamed", got)
		}
		if w.Header().Get("Cache-Status") != "bext; fwd=miss" || w.Header().Get("Etag") != "" {
			t.Fatalf("streamed headers %v", w.Header())
		}
		// A second client waits for the stream and shares it complete.
		w2 := make(chan *httptest.ResponseRecorder)
		go func() { w2 <- get(h, "GET", "/s") }()
		synctest.Wait()
		close(next)
		<-done
		second := <-w2
		want := "<html><body>shell content</body></html>"
		if w.body() != want || second.Body.String() != want {
			t.Fatalf("bodies %q and %q", w.body(), second.Body.String())
		}
		wantStatus(t, second, "bext; fwd=miss; collapsed")
		third := get(h, "GET", "/s")
		wantStatus(t, third, "bext; hit; ttl=60")
		if third.Body.String() != want || app.calls.Load() != 1 {
			t.Fatalf("hit %q after %d renders", third.Body.String(), app.calls.Load())
		}
	})
}

func TestFailedStreamNotStored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		next := make(chan struct{})
		fail := true
		app := streamApp(next, func() bool { return fail })
		h := newCache(t, Options{}).Middleware(app)
		close(next)
		func() {
			defer func() {
				if v := recover(); v != http.ErrAbortHandler {
					t.Fatalf("recovered %v, want http.ErrAbortHandler to reach net/http", v)
				}
			}()
			get(h, "GET", "/s")
		}()
		fail = false
		wantStatus(t, get(h, "GET", "/s"), "bext; fwd=miss")
		if app.calls.Load() != 2 {
			t.Fatalf("%d calls: the failed stream was stored", app.calls.Load())
		}
	})
}

func TestStreamCutByClientNotStored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		next := make(chan struct{})
		app := streamApp(next, nil)
		h := newCache(t, Options{}).Middleware(app)
		ctx, cancel := contextWithCancel()
		done := make(chan struct{})
		go func() {
			h.ServeHTTP(newLocked(), httptest.NewRequest("GET", "/s", nil).WithContext(ctx))
			close(done)
		}()
		synctest.Wait()
		cancel() // the only client leaves mid-stream; the app returns normally
		<-done
		close(next)
		w := get(h, "GET", "/s")
		if cacheStatus(w) != "bext; fwd=miss" || !strings.HasSuffix(w.Body.String(), "</html>") {
			t.Fatalf("after a cut stream: %q %q", cacheStatus(w), w.Body.String())
		}
		wantStatus(t, get(h, "GET", "/s"), "bext; hit; ttl=60")
	})
}

func TestStreamingUncachedWrittenThrough(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		next := make(chan struct{})
		app := streamApp(next, nil)
		h := newCache(t, Options{}).Middleware(app)
		w := newLocked()
		done := make(chan struct{})
		go func() {
			r := httptest.NewRequest("GET", "/s", nil)
			r.Header.Set("Cookie", "sid=1") // bypass
			h.ServeHTTP(w, r)
			close(done)
		}()
		synctest.Wait()
		if w.body() != "<html><body>shell" || w.Header().Get("Etag") != "" {
			t.Fatalf("bypassed stream not written through: %q %v", w.body(), w.Header())
		}
		close(next)
		<-done
		if w.flushes == 0 {
			t.Fatal("Flush did not reach the client")
		}
	})
}
