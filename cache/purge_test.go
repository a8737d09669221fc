package cache

import (
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func taggedApp() *testApp {
	return &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "s-maxage=600")
		if tags := r.URL.Query().Get("tags"); tags != "" {
			w.Header().Set("Cache-Tag", tags)
		}
		w.Write([]byte(r.URL.String()))
	}}
}

func TestPurge(t *testing.T) {
	urls := []string{
		"http://a.example/blog/one", "http://b.example/blog/one?x=1", "http://a.example/blog/two?tags=post,blog",
		"http://a.example/blogroll?tags=blog", "http://a.example/shop/item?tags=product-1", "http://a.example/?tags=home,+product-1",
	}
	cases := []struct {
		sel  Selector
		want int
		gone []int // indexes of urls purged
	}{
		{Selector{Path: "/blog/one"}, 2, []int{0, 1}},
		{Selector{Prefix: "/blog/"}, 3, []int{0, 1, 2}},
		{Selector{Prefix: "/blog"}, 4, []int{0, 1, 2, 3}},
		{Selector{Tag: "product-1"}, 2, []int{4, 5}},
		{Selector{Tag: "blog"}, 2, []int{2, 3}},
		{Selector{Tag: "blog", Path: "/blog/one"}, 4, []int{0, 1, 2, 3}},
		{Selector{All: true}, 6, []int{0, 1, 2, 3, 4, 5}},
		{Selector{Tag: "none"}, 0, nil},
		{Selector{}, 0, nil},
	}
	for _, tc := range cases {
		t.Run(strings.Trim(strings.ReplaceAll(strings.ReplaceAll(strings.ReplaceAll(
			strings.TrimSpace(sprintSel(tc.sel)), "/", "_"), " ", "_"), ":", ""), "_"), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				app := taggedApp()
				c := newCache(t, Options{})
				h := c.Middleware(app)
				for _, u := range urls {
					get(h, "GET", u)
				}
				if n := c.Purge(tc.sel); n != tc.want {
					t.Fatalf("Purge(%+v) = %d, want %d", tc.sel, n, tc.want)
				}
				if c.Stats().Entries != len(urls)-tc.want {
					t.Fatalf("entries %d after purging %d of %d", c.Stats().Entries, tc.want, len(urls))
				}
				for i, u := range urls {
					gone := false
					for _, g := range tc.gone {
						gone = gone || g == i
					}
					want := "bext; hit; ttl=600"
					if gone {
						want = "bext; fwd=miss; stored"
					}
					wantStatus(t, get(h, "GET", u), want)
				}
			})
		})
	}
}

func sprintSel(s Selector) string {
	return "path:" + s.Path + " prefix:" + s.Prefix + " tag:" + s.Tag + map[bool]string{true: " all", false: ""}[s.All]
}

func TestPurgeAll(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := taggedApp()
		c := newCache(t, Options{})
		h := c.Middleware(app)
		for i := range 50 {
			get(h, "GET", "/p"+itoa(int64(i))+"?tags=t")
		}
		if n := c.PurgeAll(); n != 50 {
			t.Fatalf("PurgeAll = %d", n)
		}
		synctest.Wait()
		s := c.Stats()
		if s.Entries != 0 || s.Bytes != 0 || s.Purged != 50 {
			t.Fatalf("after PurgeAll: %+v", s)
		}
		if n := c.Purge(Selector{Tag: "t"}); n != 0 {
			t.Fatalf("tag index survived PurgeAll: %d", n)
		}
		wantStatus(t, get(h, "GET", "/p1?tags=t"), "bext; fwd=miss; stored")
	})
}

func TestRenderDuringPurgeNotStored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		release := make(chan struct{})
		inner := page("s-maxage=60")
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) { <-release; inner(w, r) }}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		done := make(chan string)
		go func() { done <- cacheStatus(get(h, "GET", "/p")) }()
		synctest.Wait()
		c.Purge(Selector{Path: "/p"})
		close(release)
		if st := <-done; st != "bext; fwd=miss" {
			t.Fatalf("a render begun before a purge was stored: %q", st)
		}
		wantStatus(t, get(h, "GET", "/p"), "bext; fwd=miss; stored")
	})
}

func TestPurgeVariants(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "s-maxage=60")
			w.Header().Set("Vary", "Accept-Language")
			w.Write([]byte(r.Header.Get("Accept-Language")))
		}}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		get(h, "GET", "/v", "Accept-Language: en")
		get(h, "GET", "/v", "Accept-Language: de")
		if n := c.Purge(Selector{Path: "/v"}); n != 2 {
			t.Fatalf("purged %d variants, want 2", n)
		}
		wantStatus(t, get(h, "GET", "/v", "Accept-Language: en"), "bext; fwd=miss; stored")
	})
}

func TestEvictionBySize(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		body := strings.Repeat("x", 10<<10)
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "s-maxage=600")
			w.Header().Set("Cache-Tag", "all")
			w.Write([]byte(body))
		}}
		const max = 256 << 10
		c := newCache(t, Options{MaxBytes: max})
		h := c.Middleware(app)
		for i := range 100 {
			get(h, "GET", "/p"+itoa(int64(i)))
			c.store.CleanUp()
		}
		synctest.Wait()
		s := c.Stats()
		if s.Bytes > max || s.Bytes < max/2 {
			t.Fatalf("bytes %d, want within (%d/2, %d]", s.Bytes, max, max)
		}
		if s.Evictions == 0 || s.Entries+int(s.Evictions) != 100 {
			t.Fatalf("entries %d + evictions %d != 100", s.Entries, s.Evictions)
		}
		// Each entry weighs at least its body.
		if per := s.Bytes / int64(s.Entries); per < 10<<10 || per > 12<<10 {
			t.Fatalf("%d bytes per entry of a 10 KiB body", per)
		}
		// The tag index follows evictions.
		if n := c.Purge(Selector{Tag: "all"}); n != s.Entries {
			t.Fatalf("purged %d by tag, %d entries live", n, s.Entries)
		}
	})
}

func TestTooLargeNotStored(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		big := strings.Repeat("y", 70<<10)
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "s-maxage=600")
			w.Write([]byte(big))
		}}
		h := newCache(t, Options{MaxBytes: 1 << 20}).Middleware(app) // entries up to 64 KiB
		w := get(h, "GET", "/big")
		if w.Body.String() != big {
			t.Fatal("body cut")
		}
		wantStatus(t, w, "bext; fwd=miss")
		wantStatus(t, get(h, "GET", "/big"), "bext; fwd=miss")
	})
}

func TestExpiredEntriesLeave(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("s-maxage=10, stale-while-revalidate=10")}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		get(h, "GET", "/a?tags=x")
		time.Sleep(25 * time.Second)
		c.store.CleanUp()
		synctest.Wait()
		if s := c.Stats(); s.Entries != 0 || s.Expirations != 1 || s.Bytes != 0 {
			t.Fatalf("stats %+v", s)
		}
	})
}
