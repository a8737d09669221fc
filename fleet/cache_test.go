package fleet

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus/testutil"

	"bext/cache"
)

// member is one instance of a test fleet with a shared cache: its agent,
// its link to Redis, its cache level for the single app, and the purges
// that reached its memory from other instances.
type member struct {
	a      *Agent
	link   *link
	shared *Shared
	level  *Level
	mu     sync.Mutex
	heard  []cache.Selector
}

func (mb *member) purged() []cache.Selector {
	mb.mu.Lock()
	defer mb.mu.Unlock()
	return slices.Clone(mb.heard)
}

func newMember(t *testing.T, m *miniredis.Miniredis, name string) *member {
	t.Helper()
	mb := &member{}
	mb.a, mb.link = startAgentWith(t, m, name, &fakeInstance{}, func(a *Agent) {
		mb.shared = NewShared(a, CacheOptions{Timeout: 50 * time.Millisecond, LockTTL: 6 * time.Second})
		mb.level = mb.shared.Level("", func(s cache.Selector) {
			mb.mu.Lock()
			mb.heard = append(mb.heard, s)
			mb.mu.Unlock()
		})
	})
	return mb
}

func storedPage(path string, tags ...string) *cache.Stored {
	return &cache.Stored{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<h1>" + path + "</h1>"),
		ETag: `"e1"`, StoredAt: time.Now().Truncate(time.Millisecond), Fresh: time.Minute, StaleWhileRevalidate: time.Minute, Path: path, Tags: tags}
}

// A page one instance stores is read back unchanged by another, until its
// TTL; a key that only hashes alike is not confused with it.
func TestCacheLevelSharesEntries(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		a, b := newMember(t, m, "a"), newMember(t, m, "b")
		synctest.Wait()
		ctx := context.Background()
		want := storedPage("/p", "news")
		if err := a.level.Set(ctx, "key-1", want, 2*time.Minute); err != nil {
			t.Fatal(err)
		}
		got, err := b.level.Get(ctx, "key-1")
		if err == nil && got != nil && got.StoredAt.Equal(want.StoredAt) {
			got.StoredAt = want.StoredAt // same instant, another location
		}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Fatalf("got %+v, %v\nwant %+v", got, err, want)
		}
		if got, _ := b.level.Get(ctx, "key-2"); got != nil {
			t.Fatalf("another key: %+v", got)
		}
		if m.TTL(a.level.pathKey("/p")) != 2*time.Minute || m.TTL(a.level.tagKey("news")) != 2*time.Minute {
			t.Fatalf("index TTLs %s %s", m.TTL(a.level.pathKey("/p")), m.TTL(a.level.tagKey("news")))
		}
		time.Sleep(2*time.Minute + time.Second)
		if got, _ := b.level.Get(ctx, "key-1"); got != nil {
			t.Fatal("the entry outlived its TTL")
		}
		if value(t, b.shared, descCacheGets, "hit") != 1 || value(t, b.shared, descCacheGets, "miss") != 2 {
			t.Fatal("get metrics")
		}
		if problems, err := testutil.CollectAndLint(b.shared); err != nil || len(problems) > 0 {
			t.Fatalf("lint: %v %v", err, problems)
		}
	})
}

// Purges by path, prefix, tag and all delete in Redis what they select,
// and reach the other instances' memory, not the purger's own.
func TestCacheLevelPurges(t *testing.T) {
	for _, tc := range []struct {
		sel  cache.Selector
		gone []string
	}{
		{cache.Selector{Path: "/blog/a"}, []string{"k1"}},
		{cache.Selector{Prefix: "/blog/"}, []string{"k1", "k2"}},
		{cache.Selector{Tag: "news"}, []string{"k2", "k3"}},
		{cache.Selector{All: true}, []string{"k1", "k2", "k3", "k4"}},
		{cache.Selector{Prefix: "/[x]*"}, nil}, // glob characters are literal
	} {
		t.Run(strings.TrimSpace(tc.sel.Path+tc.sel.Prefix+tc.sel.Tag), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				m := newMini(t)
				a, b := newMember(t, m, "a"), newMember(t, m, "b")
				synctest.Wait()
				ctx := context.Background()
				a.level.Set(ctx, "k1", storedPage("/blog/a"), time.Minute)
				a.level.Set(ctx, "k2", storedPage("/blog/b", "news"), time.Minute)
				a.level.Set(ctx, "k3", storedPage("/news", "news"), time.Minute)
				a.level.Set(ctx, "k4", storedPage("/[x]"), time.Minute)
				if err := a.level.Purge(ctx, tc.sel); err != nil {
					t.Fatal(err)
				}
				synctest.Wait()
				var gone []string
				for _, k := range []string{"k1", "k2", "k3", "k4"} {
					if s, _ := b.level.Get(ctx, k); s == nil {
						gone = append(gone, k)
					}
				}
				if !slices.Equal(gone, tc.gone) {
					t.Fatalf("gone %v, want %v", gone, tc.gone)
				}
				if h := b.purged(); len(h) != 1 || h[0] != tc.sel {
					t.Fatalf("b heard %v", h)
				}
				if h := a.purged(); len(h) != 0 {
					t.Fatalf("the purger heard its own purge: %v", h)
				}
			})
		})
	}
}

// One instance takes a key's lock; another finds it taken and waits until
// the holder unlocks (at once, by its broadcast) — or, when the holder
// died, until the lock expires.
func TestCacheLevelLocks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		a, b := newMember(t, m, "a"), newMember(t, m, "b")
		synctest.Wait()
		ctx := context.Background()
		unlock, held := a.level.Lock(ctx, "k")
		if !held {
			t.Fatal("the first lock was not held")
		}
		if _, held := b.level.Lock(ctx, "k"); held {
			t.Fatal("the second lock was held too")
		}
		go func() {
			time.Sleep(2 * time.Second)
			unlock()
		}()
		start := time.Now()
		if !b.level.Wait(ctx, "k") || time.Since(start) != 2*time.Second {
			t.Fatalf("wait ended after %s", time.Since(start))
		}

		// The holder dies: the lock expires after LockTTL and the waiter
		// notices at its next poll.
		if _, held := a.level.Lock(ctx, "k"); !held {
			t.Fatal("lock after release")
		}
		start = time.Now()
		if !b.level.Wait(ctx, "k") || time.Since(start) > 6*time.Second+100*time.Millisecond {
			t.Fatalf("wait for a dead holder ended after %s", time.Since(start))
		}
		if value(t, a.shared, descCacheLocks, "held") != 2 || value(t, b.shared, descCacheLocks, "busy") != 1 {
			t.Fatal("lock metrics")
		}
	})
}

// GetOrLock is a lookup that takes the fill lock on a miss, in one round
// trip: the first instance to miss holds it, the next finds it busy, and a
// found entry takes no lock.
func TestCacheLevelGetOrLock(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		a, b := newMember(t, m, "a"), newMember(t, m, "b")
		synctest.Wait()
		ctx := context.Background()
		s, unlock, held, err := a.level.GetOrLock(ctx, "k")
		if s != nil || !held || err != nil {
			t.Fatalf("first miss: %v %v %v", s, held, err)
		}
		if s, _, held, _ := b.level.GetOrLock(ctx, "k"); s != nil || held {
			t.Fatalf("second miss: %v, held %v", s, held)
		}
		a.level.Set(ctx, "k", storedPage("/p"), time.Minute)
		unlock()
		synctest.Wait()
		if m.Exists(a.level.lockKey("k")) {
			t.Fatal("the lock outlived unlock")
		}
		s, unlock, held, _ = b.level.GetOrLock(ctx, "k")
		if s == nil || s.Path != "/p" || held || unlock != nil || m.Exists(a.level.lockKey("k")) {
			t.Fatalf("after the fill: %+v, held %v", s, held)
		}
	})
}

// While Redis is down the level does not ask it: a lookup is a miss at
// once, a lock is held (the instance renders, as alone).
func TestCacheLevelWhileRedisIsDown(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		a := newMember(t, m, "a")
		synctest.Wait()
		a.link.cut()
		time.Sleep(11 * time.Second) // a heartbeat fails: Redis is down
		dials := a.link.dials.Load()
		ctx := context.Background()
		start := time.Now()
		if s, err := a.level.Get(ctx, "k"); s != nil || err != nil {
			t.Fatalf("get %v %v", s, err)
		}
		if _, held := a.level.Lock(ctx, "k"); !held {
			t.Fatal("lock not held while Redis is down")
		}
		if s, _, held, err := a.level.GetOrLock(ctx, "k"); s != nil || !held || err != nil {
			t.Fatalf("GetOrLock while Redis is down: %v %v %v", s, held, err)
		}
		if time.Since(start) != 0 || a.link.dials.Load() != dials {
			t.Fatalf("took %s and %d dials", time.Since(start), a.link.dials.Load()-dials)
		}
		if value(t, a.shared, descCacheGets, "skipped") != 2 {
			t.Fatal("skipped not counted")
		}
	})
}

// Two page caches on two instances share the Redis level: a page rendered
// by one is a hit on the other without rendering, a purge on one reaches
// the other's memory, and a page both miss at once is rendered once.
func TestPageCacheAcrossInstances(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		var renders atomic.Int64
		release := make(chan struct{})
		app := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/slow" {
				<-release
			}
			n := renders.Add(1)
			w.Header().Set("Cache-Control", "s-maxage=60")
			io.WriteString(w, "render "+string(rune('0'+n)))
		})
		type inst struct {
			c *cache.Cache
			h http.Handler
		}
		var insts []inst
		for _, name := range []string{"a", "b"} {
			var c *cache.Cache
			startAgentWith(t, m, name, &fakeInstance{}, func(a *Agent) {
				lvl := NewShared(a, CacheOptions{Timeout: 50 * time.Millisecond}).Level("", func(s cache.Selector) { c.PurgeLocal(s) })
				var err error
				c, err = cache.New(cache.Options{MaxBytes: 1 << 20, Second: lvl, SecondTimeout: 50 * time.Millisecond, Log: slog.New(slog.DiscardHandler)})
				if err != nil {
					t.Fatal(err)
				}
			})
			t.Cleanup(c.Close)
			insts = append(insts, inst{c, c.Middleware(app)})
		}
		synctest.Wait()
		get := func(h http.Handler, path string) (string, string) {
			w := httptest.NewRecorder()
			h.ServeHTTP(w, httptest.NewRequest("GET", path, nil))
			return w.Body.String(), w.Header().Get("Cache-Status")
		}
		get(insts[0].h, "/p")
		synctest.Wait() // the background write to Redis
		if body, st := get(insts[1].h, "/p"); body != "render 1" || !strings.Contains(st, "detail=second-level") || renders.Load() != 1 {
			t.Fatalf("on b: %q %q, %d renders", body, st, renders.Load())
		}
		insts[0].c.Purge(cache.Selector{Path: "/p"})
		synctest.Wait()
		if body, _ := get(insts[1].h, "/p"); body != "render 2" {
			t.Fatalf("b served %q after the purge on a", body)
		}

		// Both miss /slow at once: one renders, the other waits for it.
		done := make(chan string, 2)
		for _, in := range insts {
			go func() {
				body, _ := get(in.h, "/slow")
				done <- body
			}()
		}
		synctest.Wait()
		close(release)
		if x, y := <-done, <-done; x != "render 3" || y != "render 3" {
			t.Fatalf("bodies %q %q", x, y)
		}
		if renders.Load() != 3 {
			t.Fatalf("%d renders", renders.Load())
		}
	})
}
