package cache

import (
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

// concurrent sends n requests at once and returns their answers once all
// are done; hold blocks the app until every request is parked.
func concurrent(t *testing.T, h http.Handler, n int, release chan struct{}, target string, hdr func(i int) []string) []*httptest.ResponseRecorder {
	t.Helper()
	out := make([]*httptest.ResponseRecorder, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var hs []string
			if hdr != nil {
				hs = hdr(i)
			}
			out[i] = get(h, "GET", target, hs...)
		})
	}
	synctest.Wait() // all of them are parked: in the app or waiting for it
	close(release)
	wg.Wait()
	return out
}

func TestSingleFlight100MissesOneRender(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		inner := page("s-maxage=60")
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) { <-release; inner(w, r) }}
		c := newCache(t, Options{})
		ws := concurrent(t, c.Middleware(app), 100, release, "/hot", nil)
		if n := app.calls.Load(); n != 1 {
			t.Fatalf("100 concurrent misses made %d renders, want 1", n)
		}
		statuses := map[string]int{}
		for _, w := range ws {
			statuses[cacheStatus(w)]++
			if w.Code != 200 || w.Body.String() != ws[0].Body.String() {
				t.Fatalf("answer %d %q differs", w.Code, w.Body.String())
			}
		}
		if statuses["bext; fwd=miss; stored"] != 1 || statuses["bext; fwd=miss; collapsed"] != 99 {
			t.Fatalf("statuses %v", statuses)
		}
		if s := c.Stats(); s.Misses != 1 || s.Collapsed != 99 {
			t.Fatalf("stats %+v", s)
		}
	})
}

func TestSingleFlightUncacheableWaitersRenderThemselves(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		inner := page("no-store")
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) { <-release; inner(w, r) }}
		ws := concurrent(t, newCache(t, Options{}).Middleware(app), 10, release, "/private", nil)
		if n := app.calls.Load(); n != 10 {
			t.Fatalf("%d renders, want 10: an uncacheable answer is not shared", n)
		}
		seen := map[string]bool{}
		for _, w := range ws {
			wantStatus(t, w, "bext; fwd=miss")
			seen[w.Body.String()] = true
		}
		if len(seen) != 10 {
			t.Fatalf("%d distinct bodies, want 10", len(seen))
		}
	})
}

func TestSingleFlightLeaderPanicWaitersRender(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		inner := page("s-maxage=60")
		app := &testApp{}
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			if app.calls.Load() == 1 {
				<-release
				panic("boom")
			}
			inner(w, r)
		}
		h := newCache(t, Options{}).Middleware(app)
		safe := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if v := recover(); v != nil {
					w.WriteHeader(500)
				}
			}()
			h.ServeHTTP(w, r)
		})
		ws := concurrent(t, safe, 5, release, "/x", nil)
		codes := map[int]int{}
		for _, w := range ws {
			codes[w.Code]++
		}
		if codes[500] != 1 || codes[200] != 4 {
			t.Fatalf("codes %v: the leader's panic must fail only the leader", codes)
		}
	})
}

func TestSingleFlightVaryMismatchRendersOwnVariant(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		app := &testApp{}
		app.fn = func(w http.ResponseWriter, r *http.Request) {
			<-release
			w.Header().Set("Cache-Control", "s-maxage=60")
			w.Header().Set("Vary", "Accept-Language")
			w.Write([]byte("lang=" + r.Header.Get("Accept-Language")))
		}
		h := newCache(t, Options{}).Middleware(app)
		langs := []string{"en", "de", "en", "de", "en", "fr"}
		ws := concurrent(t, h, len(langs), release, "/v", func(i int) []string { return []string{"Accept-Language: " + langs[i]} })
		for i, w := range ws {
			if w.Body.String() != "lang="+langs[i] {
				t.Fatalf("request %d (%s) got %q", i, langs[i], w.Body.String())
			}
		}
		if n := app.calls.Load(); n > 4 {
			t.Fatalf("%d renders for 3 variants (at most one extra for the first flight)", n)
		}
		for _, l := range []string{"en", "de", "fr"} {
			w := get(h, "GET", "/v", "Accept-Language: "+l)
			if cacheStatus(w) != "bext; hit; ttl=60" || w.Body.String() != "lang="+l {
				t.Fatalf("%s: %q %q", l, cacheStatus(w), w.Body.String())
			}
		}
	})
}

func TestWaiterGoneDoesNotCancelRender(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		inner := page("s-maxage=60")
		var sawCancel bool
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			<-release
			sawCancel = r.Context().Err() != nil
			inner(w, r)
		}}
		h := newCache(t, Options{}).Middleware(app)
		// The leader's client hangs up while another waits: the render
		// goes on for the waiter.
		lctx, lcancel := contextWithCancel()
		go func() {
			r := httptest.NewRequest("GET", "/k", nil).WithContext(lctx)
			h.ServeHTTP(httptest.NewRecorder(), r)
		}()
		synctest.Wait()
		done := make(chan *httptest.ResponseRecorder)
		go func() { done <- get(h, "GET", "/k") }()
		synctest.Wait()
		lcancel()
		synctest.Wait()
		close(release)
		w := <-done
		if sawCancel {
			t.Fatal("the render's context was cancelled while a waiter remained")
		}
		wantStatus(t, w, "bext; fwd=miss; collapsed")
		time.Sleep(time.Second)
	})
}

func TestAllClientsGoneCancelsRender(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		cancelled := make(chan bool, 1)
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			<-r.Context().Done()
			cancelled <- true
		}}
		h := newCache(t, Options{}).Middleware(app)
		ctx, cancel := contextWithCancel()
		go h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/k", nil).WithContext(ctx))
		synctest.Wait()
		cancel()
		if !<-cancelled {
			t.Fatal("render not cancelled")
		}
	})
}

func TestUncacheableKeysDoNotQueue(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		var inFlight, most int
		var mu sync.Mutex
		inner := page("no-cache")
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			mu.Lock()
			inFlight++
			most = max(most, inFlight)
			mu.Unlock()
			<-release
			mu.Lock()
			inFlight--
			mu.Unlock()
			inner(w, r)
		}}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		close(release)
		get(h, "GET", "/u") // learns that /u is not cacheable
		release = make(chan struct{})
		ws := concurrent(t, h, 5, release, "/u", nil)
		if most != 5 {
			t.Fatalf("%d renders at once, want 5: requests for an uncacheable page queued behind one another", most)
		}
		for _, w := range ws {
			wantStatus(t, w, "bext; fwd=miss")
		}
		// Once the app opts in, the page is stored after the pass expires.
		inner = page("s-maxage=60")
		time.Sleep(passTTL)
		wantStatus(t, get(h, "GET", "/u"), "bext; fwd=miss; stored")
		// A purge forgets passes at once.
		inner = page("no-store")
		c.Purge(Selector{Path: "/u"})
		get(h, "GET", "/u")
		inner = page("s-maxage=60")
		c.PurgeAll()
		wantStatus(t, get(h, "GET", "/u"), "bext; fwd=miss; stored")
	})
}
