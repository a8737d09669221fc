package cache

import (
	"context"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// mapLevel is a SecondLevel in a map, as a Redis level would behave.
type mapLevel struct {
	mu     sync.Mutex
	items  map[string]*Stored
	sets   int
	purges []Selector
}

func (m *mapLevel) Get(_ context.Context, key string) (*Stored, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.items[key], nil
}

func (m *mapLevel) Set(_ context.Context, key string, s *Stored, _ time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.items[key] = s
	m.sets++
	return nil
}

func (m *mapLevel) Purge(_ context.Context, s Selector) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.purges = append(m.purges, s)
	for k, v := range m.items {
		if s.All || v.Path == s.Path || s.Prefix != "" && strings.HasPrefix(v.Path, s.Prefix) || slices.Contains(v.Tags, s.Tag) {
			delete(m.items, k)
		}
	}
	return nil
}

func TestSecondLevel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l2 := &mapLevel{items: map[string]*Stored{}}
		app := &testApp{fn: page("s-maxage=60")}
		a := newCache(t, Options{Second: l2})
		get(a.Middleware(app), "GET", "/p")
		synctest.Wait()
		if l2.sets != 1 {
			t.Fatalf("%d sets", l2.sets)
		}
		// Another instance (empty memory) finds it in the second level.
		time.Sleep(10 * time.Second)
		b := newCache(t, Options{Second: l2})
		hb := b.Middleware(app)
		w := get(hb, "GET", "/p")
		wantStatus(t, w, "bext; hit; ttl=50; detail=second-level")
		if w.Header().Get("Age") != "10" || app.calls.Load() != 1 {
			t.Fatalf("Age %q, %d calls", w.Header().Get("Age"), app.calls.Load())
		}
		wantStatus(t, get(hb, "GET", "/p"), "bext; hit; ttl=50")
		b.Purge(Selector{Path: "/p"})
		if len(l2.items) != 0 || len(l2.purges) != 1 {
			t.Fatalf("second level not purged: %v", l2.purges)
		}
	})
}

func TestSecondLevelVary(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l2 := &mapLevel{items: map[string]*Stored{}}
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "s-maxage=60")
			w.Header().Set("Vary", "Accept-Language")
			w.Write([]byte(r.Header.Get("Accept-Language")))
		}}
		get(newCache(t, Options{Second: l2}).Middleware(app), "GET", "/", "Accept-Language: de")
		synctest.Wait()
		hb := newCache(t, Options{Second: l2}).Middleware(app)
		w := get(hb, "GET", "/", "Accept-Language: de")
		if w.Body.String() != "de" || !strings.HasSuffix(cacheStatus(w), "detail=second-level") {
			t.Fatalf("%q %q", w.Body.String(), cacheStatus(w))
		}
		w = get(hb, "GET", "/", "Accept-Language: en")
		if w.Body.String() != "en" || cacheStatus(w) != "bext; fwd=miss; stored" {
			t.Fatalf("%q %q", w.Body.String(), cacheStatus(w))
		}
	})
}

func TestMetricsLintAndValues(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("s-maxage=60")}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		get(h, "GET", "/")
		get(h, "GET", "/")
		get(h, "POST", "/")
		problems, err := testutil.CollectAndLint(c)
		if err != nil || len(problems) > 0 {
			t.Fatalf("lint: %v %v", err, problems)
		}
		want := `
# HELP bext_cache_entries Responses in the page cache.
# TYPE bext_cache_entries gauge
bext_cache_entries 1
`
		if err := testutil.CollectAndCompare(c, strings.NewReader(want), "bext_cache_entries"); err != nil {
			t.Fatal(err)
		}
		if n := testutil.CollectAndCount(c, "bext_cache_requests_total"); n != 6 {
			t.Fatalf("%d result series", n)
		}
		s := c.Stats()
		if s.Hits != 1 || s.Misses != 1 || s.Bypasses != 1 || s.HitRatio != 0.5 || s.Stores != 1 {
			t.Fatalf("%+v", s)
		}
	})
}

// lockLevel is a mapLevel shared by several caches with SharedFlight: a
// lock per key, released by unlock.
type lockLevel struct {
	mapLevel
	lmu   sync.Mutex
	locks map[string]chan struct{}
}

func (l *lockLevel) Lock(_ context.Context, key string) (func(), bool) {
	l.lmu.Lock()
	defer l.lmu.Unlock()
	if _, taken := l.locks[key]; taken {
		return nil, false
	}
	ch := make(chan struct{})
	l.locks[key] = ch
	return func() {
		l.lmu.Lock()
		delete(l.locks, key)
		l.lmu.Unlock()
		close(ch)
	}, true
}

func (l *lockLevel) GetOrLock(ctx context.Context, key string) (*Stored, func(), bool, error) {
	if s, _ := l.Get(ctx, key); s != nil {
		return s, nil, false, nil
	}
	unlock, held := l.Lock(ctx, key)
	return nil, unlock, held, nil
}

func (l *lockLevel) Wait(ctx context.Context, key string) bool {
	l.lmu.Lock()
	ch := l.locks[key]
	l.lmu.Unlock()
	if ch == nil {
		return true
	}
	select {
	case <-ch:
		return true
	case <-ctx.Done():
		return false
	}
}

// Two servers sharing a SharedFlight level miss the same page at once: one
// renders, the other waits for it and serves its response from the level.
// A page that cannot be stored is rendered by the waiter too, once the
// lock is released, without queueing again.
func TestSharedFlightAcrossServers(t *testing.T) {
	for _, tc := range []struct {
		cc        string
		wantCalls int64
		wantB     string
	}{
		{"s-maxage=60", 1, "bext; hit; ttl=60; detail=second-level"},
		{"no-store", 2, "bext; fwd=miss"},
	} {
		t.Run(tc.cc, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				l2 := &lockLevel{mapLevel: mapLevel{items: map[string]*Stored{}}, locks: map[string]chan struct{}{}}
				release := make(chan struct{})
				app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
					<-release
					page(tc.cc)(w, r)
				}}
				a, b := newCache(t, Options{Second: l2}).Middleware(app), newCache(t, Options{Second: l2}).Middleware(app)
				doneA, doneB := make(chan *httptest.ResponseRecorder), make(chan *httptest.ResponseRecorder)
				go func() { doneA <- get(a, "GET", "/p") }()
				synctest.Wait() // A renders, holding the lock
				go func() { doneB <- get(b, "GET", "/p") }()
				synctest.Wait() // B waits for A
				if n := app.calls.Load(); n != 1 {
					t.Fatalf("%d renders while A holds the lock, want 1", n)
				}
				close(release)
				<-doneA
				wantStatus(t, <-doneB, tc.wantB)
				if n := app.calls.Load(); n != tc.wantCalls {
					t.Fatalf("%d renders, want %d", n, tc.wantCalls)
				}
				if len(l2.locks) != 0 {
					t.Fatalf("locks left: %v", l2.locks)
				}
			})
		})
	}
}

// PurgeLocal empties memory and leaves the second level alone (the server
// that purged there broadcast it).
func TestPurgeLocalLeavesTheSecondLevel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		l2 := &mapLevel{items: map[string]*Stored{}}
		app := &testApp{fn: page("s-maxage=60")}
		c := newCache(t, Options{Second: l2})
		h := c.Middleware(app)
		get(h, "GET", "/p")
		synctest.Wait()
		if n := c.PurgeLocal(Selector{Path: "/p"}); n != 1 {
			t.Fatalf("purged %d", n)
		}
		if len(l2.purges) != 0 || len(l2.items) != 1 {
			t.Fatalf("second level touched: %v, %d items", l2.purges, len(l2.items))
		}
		wantStatus(t, get(h, "GET", "/p"), "bext; hit; ttl=60; detail=second-level")
		c.PurgeLocal(Selector{All: true})
		if len(l2.purges) != 0 {
			t.Fatalf("second level purged: %v", l2.purges)
		}
	})
}
