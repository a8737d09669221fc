package cache

import (
	"bytes"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

func TestNeverCached(t *testing.T) {
	type tc struct {
		name   string
		method string
		req    []string // request headers
		resp   map[string]string
		status int
		want   string // Cache-Status of the first answer
	}
	cases := []tc{
		{"post", "POST", nil, nil, 200, "bext; fwd=bypass"},
		{"put", "PUT", nil, nil, 200, "bext; fwd=bypass"},
		{"authorization", "GET", []string{"Authorization: Bearer x"}, nil, 200, "bext; fwd=bypass"},
		{"cookie without a rule", "GET", []string{"Cookie: sid=1"}, nil, 200, "bext; fwd=bypass"},
		{"range", "GET", []string{"Range: bytes=0-10"}, nil, 200, "bext; fwd=bypass"},
		{"set-cookie", "GET", nil, map[string]string{"Set-Cookie": "a=b"}, 200, "bext; fwd=miss"},
		{"private", "GET", nil, map[string]string{"Cache-Control": "private, s-maxage=60"}, 200, "bext; fwd=miss"},
		{"no-store", "GET", nil, map[string]string{"Cache-Control": "no-store, s-maxage=60"}, 200, "bext; fwd=miss"},
		{"no-cache", "GET", nil, map[string]string{"Cache-Control": "no-cache, s-maxage=60"}, 200, "bext; fwd=miss"},
		{"vary star", "GET", nil, map[string]string{"Vary": "*"}, 200, "bext; fwd=miss"},
		{"too many vary", "GET", nil, map[string]string{"Vary": "A, B, C"}, 200, "bext; fwd=miss"},
		{"no headers", "GET", nil, map[string]string{"Cache-Control": ""}, 200, "bext; fwd=miss"},
		{"zero lifetime", "GET", nil, map[string]string{"Cache-Control": "s-maxage=0"}, 200, "bext; fwd=miss"},
		{"status 500", "GET", nil, nil, 500, "bext; fwd=miss"},
		{"status 302", "GET", nil, nil, 302, "bext; fwd=miss"},
		{"status 403", "GET", nil, nil, 403, "bext; fwd=miss"},
		{"must-revalidate keeps fresh only", "GET", nil, map[string]string{"Cache-Control": "s-maxage=0, must-revalidate, stale-while-revalidate=60"}, 200, "bext; fwd=miss"},
		{"CDN-Cache-Control no-store wins", "GET", nil, map[string]string{"CDN-Cache-Control": "no-store"}, 200, "bext; fwd=miss"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Cache-Control", "s-maxage=60")
					for k, v := range c.resp {
						if v == "" {
							w.Header().Del(k)
						} else {
							w.Header().Set(k, v)
						}
					}
					w.WriteHeader(c.status)
					w.Write([]byte("x"))
				}}
				h := newCache(t, Options{MaxVary: 2}).Middleware(app)
				w := get(h, c.method, "/p", c.req...)
				wantStatus(t, w, c.want)
				w = get(h, c.method, "/p", c.req...)
				wantStatus(t, w, c.want)
				if app.calls.Load() != 2 {
					t.Fatalf("%d calls, want 2 (nothing cached)", app.calls.Load())
				}
			})
		})
	}
}

func TestCacheableStatuses(t *testing.T) {
	for _, status := range []int{200, 203, 204, 206, 300, 301, 308, 404, 410} {
		t.Run(http.StatusText(status), func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
					w.Header().Set("Cache-Control", "s-maxage=60")
					w.WriteHeader(status)
					if bodyAllowed(status) {
						w.Write([]byte("body"))
					}
				}}
				h := newCache(t, Options{}).Middleware(app)
				get(h, "GET", "/p")
				w := get(h, "GET", "/p")
				wantStatus(t, w, "bext; hit; ttl=60")
				if w.Code != status {
					t.Fatalf("hit status %d", w.Code)
				}
			})
		})
	}
}

func TestTargetedFieldsWin(t *testing.T) {
	cases := []struct {
		name string
		hdr  map[string]string
		want string
	}{
		{"CDN-Cache-Control over Cache-Control", map[string]string{"CDN-Cache-Control": "max-age=30", "Cache-Control": "no-store"}, "bext; hit; ttl=30"},
		{"Surrogate-Control over Cache-Control", map[string]string{"Surrogate-Control": "max-age=20", "Cache-Control": "private"}, "bext; hit; ttl=20"},
		{"CDN-Cache-Control over Surrogate-Control", map[string]string{"CDN-Cache-Control": "s-maxage=40", "Surrogate-Control": "max-age=20"}, "bext; hit; ttl=40"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
					for k, v := range c.hdr {
						w.Header().Set(k, v)
					}
					w.Write([]byte("x"))
				}}
				h := newCache(t, Options{}).Middleware(app)
				get(h, "GET", "/")
				w := get(h, "GET", "/")
				wantStatus(t, w, c.want)
				if cc := w.Header().Get("Cache-Control"); cc != c.hdr["Cache-Control"] {
					t.Fatalf("Cache-Control for browsers changed: %q", cc)
				}
			})
		})
	}
}

func TestMalformedCacheControlIgnoredAndLoggedOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var logs bytes.Buffer
		app := &testApp{fn: page("s-maxage=abc")}
		h := newCache(t, Options{Log: slog.New(slog.NewTextHandler(&logs, nil))}).Middleware(app)
		for range 3 {
			w := get(h, "GET", "/bad")
			wantStatus(t, w, "bext; fwd=miss")
			if w.Code != 200 {
				t.Fatalf("malformed Cache-Control made a %d", w.Code)
			}
		}
		get(h, "GET", "/other")
		if n := strings.Count(logs.String(), "level=WARN"); n != 2 {
			t.Fatalf("%d log lines, want one per path:\n%s", n, logs.String())
		}
		if !strings.Contains(logs.String(), "path=/bad") {
			t.Fatalf("log does not name the path: %s", logs.String())
		}
	})
}

func TestVaryKeysVariants(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Cache-Control", "s-maxage=60")
			w.Header().Set("Vary", "Accept-Language")
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("hello " + r.Header.Get("Accept-Language") + strings.Repeat(".", 100)))
		}}
		c := newCache(t, Options{})
		h := c.Middleware(app)
		wantStatus(t, get(h, "GET", "/", "Accept-Language: en"), "bext; fwd=miss; stored")
		wantStatus(t, get(h, "GET", "/", "Accept-Language: de"), "bext; fwd=miss; stored")
		w := get(h, "GET", "/", "Accept-Language: en")
		wantStatus(t, w, "bext; hit; ttl=60")
		if !strings.HasPrefix(w.Body.String(), "hello en") {
			t.Fatalf("en got %q", w.Body.String())
		}
		// Accept-Encoding does not split the cache (the app does not vary
		// on it): the cache encodes.
		w = get(h, "GET", "/", "Accept-Language: de", "Accept-Encoding: gzip")
		wantStatus(t, w, "bext; hit; ttl=60")
		if w.Header().Get("Content-Encoding") != "gzip" {
			t.Fatal("no gzip")
		}
		if app.calls.Load() != 2 || c.Stats().Entries != 2 {
			t.Fatalf("calls %d entries %d", app.calls.Load(), c.Stats().Entries)
		}
		if v := w.Header().Get("Vary"); v != "Accept-Language, Accept-Encoding" {
			t.Fatalf("Vary %q", v)
		}
	})
}

func TestRuleCachesWithoutHeaders(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		// bext's SSR handler sends no-cache for pages without caching
		// headers: a rule still caches them.
		app := &testApp{fn: page("no-cache")}
		c := newCache(t, Options{Rules: []Rule{
			{Pattern: "/blog/*", MaxAge: 30 * time.Second, StaleWhileRevalidate: time.Minute},
			{Pattern: "/docs/**", MaxAge: 10 * time.Second},
			{Pattern: "/", MaxAge: 5 * time.Second},
		}})
		h := c.Middleware(app)
		for path, want := range map[string]string{
			"/blog/a": "bext; hit; ttl=30", "/docs": "bext; hit; ttl=10", "/docs/a/b/c": "bext; hit; ttl=10", "/": "bext; hit; ttl=5",
			"/blog/a/b": "bext; fwd=miss", "/blog": "bext; fwd=miss", "/x": "bext; fwd=miss",
		} {
			get(h, "GET", path)
			wantStatus(t, get(h, "GET", path), want)
		}
	})
}

func TestRuleAppFreshnessWins(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("s-maxage=5")}
		h := newCache(t, Options{Rules: []Rule{{Pattern: "/**", MaxAge: time.Hour}}}).Middleware(app)
		get(h, "GET", "/p")
		wantStatus(t, get(h, "GET", "/p"), "bext; hit; ttl=5")
	})
}

func TestRuleCookiesKeyThePage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) {
			theme, _ := r.Cookie("theme")
			v := ""
			if theme != nil {
				v = theme.Value
			}
			w.Write([]byte("theme=" + v))
		}}
		h := newCache(t, Options{Rules: []Rule{{Pattern: "/shop/**", MaxAge: time.Minute, Cookies: []string{"theme"}}}}).Middleware(app)
		wantStatus(t, get(h, "GET", "/shop/a", "Cookie: theme=dark; _ga=1"), "bext; fwd=miss; stored")
		// Other cookies do not split the key.
		w := get(h, "GET", "/shop/a", "Cookie: _ga=2; theme=dark")
		wantStatus(t, w, "bext; hit; ttl=60")
		if w.Body.String() != "theme=dark" {
			t.Fatal(w.Body.String())
		}
		w = get(h, "GET", "/shop/a", "Cookie: theme=light")
		wantStatus(t, w, "bext; fwd=miss; stored")
		if w.Body.String() != "theme=light" {
			t.Fatal(w.Body.String())
		}
		// No cookie at all is its own key.
		wantStatus(t, get(h, "GET", "/shop/a"), "bext; fwd=miss; stored")
		// Off the rule's paths a cookie still bypasses.
		wantStatus(t, get(h, "GET", "/other", "Cookie: theme=dark"), "bext; fwd=bypass")
	})
}

func TestRuleHeadersKeyThePage(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("dev=" + r.Header.Get("X-Device"))) }}
		h := newCache(t, Options{Rules: []Rule{{Pattern: "/", MaxAge: time.Minute, Headers: []string{"x-device"}}}}).Middleware(app)
		get(h, "GET", "/", "X-Device: mobile")
		get(h, "GET", "/", "X-Device: desktop")
		w := get(h, "GET", "/", "X-Device: mobile")
		wantStatus(t, w, "bext; hit; ttl=60")
		if w.Body.String() != "dev=mobile" || app.calls.Load() != 2 {
			t.Fatalf("%q after %d calls", w.Body.String(), app.calls.Load())
		}
	})
}

func TestKeyHasSchemeHostQuery(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		app := &testApp{fn: page("s-maxage=60")}
		h := newCache(t, Options{}).Middleware(app)
		get(h, "GET", "http://a.example/p?x=1")
		wantStatus(t, get(h, "GET", "http://A.EXAMPLE/p?x=1"), "bext; hit; ttl=60")
		wantStatus(t, get(h, "GET", "http://b.example/p?x=1"), "bext; fwd=miss; stored")
		wantStatus(t, get(h, "GET", "http://a.example/p?x=2"), "bext; fwd=miss; stored")
		wantStatus(t, get(h, "GET", "https://a.example/p?x=1"), "bext; fwd=miss; stored")
	})
}

func TestBadRules(t *testing.T) {
	for _, r := range []Rule{
		{Pattern: "blog", MaxAge: time.Second},
		{Pattern: "/a*b", MaxAge: time.Second},
		{Pattern: "/a", MaxAge: -time.Second},
		{Pattern: "/a"},
		{Pattern: "/a", MaxAge: time.Second, Headers: []string{"bad header"}},
		{Pattern: "/a", MaxAge: time.Second, Cookies: []string{"a=b"}},
	} {
		if _, err := New(Options{MaxBytes: 1 << 20, Rules: []Rule{r}}); err == nil || !strings.Contains(err.Error(), "rule 1") {
			t.Errorf("%+v: err %v, want one naming the rule", r, err)
		}
	}
	if _, err := New(Options{}); err == nil {
		t.Error("MaxBytes 0 accepted")
	}
}

func TestRulePatterns(t *testing.T) {
	cases := []struct {
		pat, path string
		want      bool
	}{
		{"/", "/", true}, {"/", "/a", false},
		{"/blog/*", "/blog/x", true}, {"/blog/*", "/blog/", false}, {"/blog/*", "/blog", false}, {"/blog/*", "/blog/x/y", false},
		{"/docs/**", "/docs", true}, {"/docs/**", "/docs/", true}, {"/docs/**", "/docs/a/b", true}, {"/docs/**", "/doc", false},
		{"/**", "/", true}, {"/**", "/a/b", true},
		{"/a/**/edit", "/a/edit", true}, {"/a/**/edit", "/a/x/y/edit", true}, {"/a/**/edit", "/a/x/y", false},
		{"/*/x", "/a/x", true}, {"/*/x", "//x", false},
	}
	for _, c := range cases {
		r, err := compileRule(Rule{Pattern: c.pat, MaxAge: time.Second})
		if err != nil {
			t.Fatal(err)
		}
		if got := r.match(c.path); got != c.want {
			t.Errorf("%q matches %q = %v, want %v", c.pat, c.path, got, c.want)
		}
	}
}
