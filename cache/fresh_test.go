package cache

import (
	"context"
	"log/slog"
	"net/http"
	"testing"
	"testing/synctest"
	"time"
)

func TestFreshHitThenStaleThenMiss(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("public, s-maxage=60, max-age=5, stale-while-revalidate=30")}
		c := newCache(t, Options{})
		h := c.Middleware(app)

		w := get(h, "GET", "/a")
		wantStatus(t, w, "bext; fwd=miss; stored")
		first := w.Body.String()
		if w.Header().Get("Etag") == "" || w.Header().Get("Age") != "" {
			t.Fatalf("miss: ETag %q Age %q", w.Header().Get("Etag"), w.Header().Get("Age"))
		}

		time.Sleep(10 * time.Second)
		w = get(h, "GET", "/a")
		wantStatus(t, w, "bext; hit; ttl=50")
		if w.Body.String() != first || w.Header().Get("Age") != "10" || app.calls.Load() != 1 {
			t.Fatalf("hit: body changed or next called (%d calls), Age %q", app.calls.Load(), w.Header().Get("Age"))
		}
		if w.Header().Get("Cache-Control") != "public, s-maxage=60, max-age=5, stale-while-revalidate=30" {
			t.Fatalf("stored Cache-Control %q", w.Header().Get("Cache-Control"))
		}

		// s-maxage wins over max-age: still fresh at 59 s, 1 s left.
		time.Sleep(49 * time.Second)
		wantStatus(t, get(h, "GET", "/a"), "bext; hit; ttl=1")

		// Stale within SWR: the old page at once, one refresh behind it.
		time.Sleep(5 * time.Second)
		w = get(h, "GET", "/a")
		wantStatus(t, w, "bext; fwd=stale; ttl=-4")
		if w.Body.String() != first {
			t.Fatal("stale answer is not the stored page")
		}
		synctest.Wait()
		if app.calls.Load() != 2 {
			t.Fatalf("calls after SWR = %d, want 2 (one background refresh)", app.calls.Load())
		}
		w = get(h, "GET", "/a")
		wantStatus(t, w, "bext; hit; ttl=60")
		if w.Body.String() == first {
			t.Fatal("refresh did not replace the entry")
		}

		// Past fresh+SWR: a plain miss.
		time.Sleep(91 * time.Second)
		wantStatus(t, get(h, "GET", "/a"), "bext; fwd=miss; stored")
		if app.calls.Load() != 3 {
			t.Fatalf("calls = %d, want 3", app.calls.Load())
		}
		s := c.Stats()
		if s.Hits != 3 || s.Stale != 1 || s.Misses != 2 || s.Revalidations != 1 || s.Entries != 1 {
			t.Fatalf("stats %+v", s)
		}
	})
}

func TestMaxAgeWhenNoSMaxage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("max-age=10")}
		h := newCache(t, Options{}).Middleware(app)
		get(h, "GET", "/")
		time.Sleep(9 * time.Second)
		wantStatus(t, get(h, "GET", "/"), "bext; hit; ttl=1")
		time.Sleep(time.Second)
		wantStatus(t, get(h, "GET", "/"), "bext; fwd=miss; stored")
	})
}

func TestSWRRefreshesOnceAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		app := &testApp{}
		inner := page("s-maxage=1, stale-while-revalidate=100")
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			if app.calls.Load() > 1 {
				<-release
			}
			inner(w, r)
		}
		h := newCache(t, Options{}).Middleware(app)
		get(h, "GET", "/p")
		time.Sleep(2 * time.Second)
		for range 20 {
			wantStatus(t, get(h, "GET", "/p"), "bext; fwd=stale; ttl=-1")
		}
		synctest.Wait()
		if app.calls.Load() != 2 {
			t.Fatalf("calls = %d, want 2: one render, one background refresh for 20 stale hits", app.calls.Load())
		}
		close(release)
		synctest.Wait()
		wantStatus(t, get(h, "GET", "/p"), "bext; hit; ttl=1")
	})
}

func TestSWRRefreshFailureKeepsStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fail := false
		app := &testApp{}
		inner := page("s-maxage=10, stale-while-revalidate=100")
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			if fail {
				http.Error(w, "busy", http.StatusServiceUnavailable)
				return
			}
			inner(w, r)
		}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		first := get(h, "GET", "/p").Body.String()
		fail = true
		time.Sleep(20 * time.Second)
		wantStatus(t, get(h, "GET", "/p"), "bext; fwd=stale; ttl=-10")
		synctest.Wait()
		w := get(h, "GET", "/p")
		wantStatus(t, w, "bext; fwd=stale; ttl=-10")
		if w.Body.String() != first {
			t.Fatal("a failed refresh replaced the stale entry")
		}
		synctest.Wait()
		if s := c.Stats(); s.RevalidationsFailed != 2 || s.Revalidations != 2 {
			t.Fatalf("stats %+v", s)
		}
	})
}

func TestSWRRefreshPanicKeepsStale(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{}
		inner := page("s-maxage=10, stale-while-revalidate=100")
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			if app.calls.Load() > 1 {
				panic("render blew up")
			}
			inner(w, r)
		}
		h := newCache(t, Options{}).Middleware(app)
		get(h, "GET", "/p")
		time.Sleep(20 * time.Second)
		wantStatus(t, get(h, "GET", "/p"), "bext; fwd=stale; ttl=-10")
		synctest.Wait()
		wantStatus(t, get(h, "GET", "/p"), "bext; fwd=stale; ttl=-10")
	})
}

func TestSWRRefreshNoLongerCacheableDrops(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cc := "s-maxage=10, stale-while-revalidate=100"
		app := &testApp{}
		app.fn = func(w http.ResponseWriter, r *http.Request) { page(cc)(w, r) }
		c := newCache(t, Options{})
		h := c.Middleware(app)
		get(h, "GET", "/p")
		cc = "no-store"
		time.Sleep(20 * time.Second)
		wantStatus(t, get(h, "GET", "/p"), "bext; fwd=stale; ttl=-10")
		synctest.Wait()
		wantStatus(t, get(h, "GET", "/p"), "bext; fwd=miss")
		if c.Stats().Entries != 0 {
			t.Fatal("entry kept after the app said no-store")
		}
	})
}

func TestStaleIfError(t *testing.T) {
	for _, status := range []int{500, 502, 503, 504} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				fail := false
				app := &testApp{}
				inner := page("s-maxage=10, stale-while-revalidate=5, stale-if-error=100")
				app.fn = func(w http.ResponseWriter, r *http.Request) {
					if fail {
						http.Error(w, "failed", status)
						return
					}
					inner(w, r)
				}
				c := newCache(t, Options{})
				h := c.Middleware(app)
				first := get(h, "GET", "/p").Body.String()
				fail = true
				time.Sleep(30 * time.Second) // past SWR, within SIE
				w := get(h, "GET", "/p")
				wantStatus(t, w, "bext; hit; ttl=-20; detail=stale-if-error")
				if w.Code != 200 || w.Body.String() != first {
					t.Fatalf("got %d %q, want the stale page", w.Code, w.Body.String())
				}
				// Within SIE a success replaces it.
				fail = false
				wantStatus(t, get(h, "GET", "/p"), "bext; fwd=miss; stored")
				wantStatus(t, get(h, "GET", "/p"), "bext; hit; ttl=10")
				// Past SIE the error goes through.
				fail = true
				time.Sleep(111 * time.Second)
				w = get(h, "GET", "/p")
				if w.Code != status {
					t.Fatalf("past stale-if-error: %d, want %d", w.Code, status)
				}
				wantStatus(t, w, "bext; fwd=miss")
				if s := c.Stats(); s.ErrorStale != 1 {
					t.Fatalf("stats %+v", s)
				}
			})
		})
	}
}

func TestStaleIfErrorNotForOtherStatuses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fail := false
		app := &testApp{}
		inner := page("s-maxage=10, stale-if-error=100")
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			if fail {
				http.Error(w, "gone", http.StatusForbidden)
				return
			}
			inner(w, r)
		}
		h := newCache(t, Options{}).Middleware(app)
		get(h, "GET", "/p")
		fail = true
		time.Sleep(20 * time.Second)
		if w := get(h, "GET", "/p"); w.Code != http.StatusForbidden {
			t.Fatalf("403 replaced by stale copy: %d", w.Code)
		}
	})
}

type logKey struct{}

// The background refresh runs after the request that triggered it has
// ended: it must not carry that request's context values (render's access
// log keeps a per-request struct there, which its handler writes).
func TestRefreshCarriesNoRequestValues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		type reqLog struct{ worker int }
		inner := page("s-maxage=1, stale-while-revalidate=60")
		var sawValue bool
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			if l, ok := r.Context().Value(logKey{}).(*reqLog); ok {
				l.worker = 7
				sawValue = sawValue || r.Header.Get("X-Refresh") == "1"
			}
			inner(w, r)
		}}
		h := newCache(t, Options{}).Middleware(app)
		withLog := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			l := &reqLog{worker: -1}
			h.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), logKey{}, l)))
			_ = l.worker // the access log reads it after the handler
		})
		get(withLog, "GET", "/p")
		time.Sleep(2 * time.Second)
		wantStatus(t, get(withLog, "GET", "/p", "X-Refresh: 1"), "bext; fwd=stale; ttl=-1")
		synctest.Wait()
		if sawValue {
			t.Fatal("the background refresh saw the triggering request's context values")
		}
	})
}

func TestCloseWaitsForRefresh(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		inner := page("s-maxage=1, stale-while-revalidate=60")
		var refreshCancelled bool
		app := &testApp{}
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			if app.calls.Load() > 1 {
				<-r.Context().Done()
				refreshCancelled = true
				return
			}
			inner(w, r)
		}
		c, err := New(Options{MaxBytes: 1 << 20, Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		h := c.Middleware(app)
		get(h, "GET", "/p")
		time.Sleep(2 * time.Second)
		get(h, "GET", "/p")
		synctest.Wait()
		c.Close()
		if !refreshCancelled {
			t.Fatal("Close returned before the refresh ended")
		}
		// After Close hits still work; nothing is refreshed.
		wantStatus(t, get(h, "GET", "/p"), "bext; fwd=stale; ttl=-1")
	})
}
