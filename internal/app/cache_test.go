package app_test

import (
	"bytes"
	"compress/gzip"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"bext/cache"
	"bext/config"
	"bext/internal/adminclient"
	"bext/internal/app"
	"bext/internal/apptest"
)

// cachedServer renders pages that say how they may be cached, each with
// the count of renders so far (one isolate: the count is the app's):
// /news is shared for a minute (tag news), /private is per user,
// /plain says nothing about caching, /cookie sets a cookie.
const cachedServer = `
let renders = 0;
globalThis.render = (req) => {
  renders++;
  const page = "<!doctype html><main>" + req.path + " render " + renders + "</main>" + "x".repeat(2000);
  switch (req.path) {
    case "/news": case "/news/a": case "/news/b":
      return { headers: { "cache-control": "public, s-maxage=60, stale-while-revalidate=600", "cache-tag": "news, front" }, html: page };
    case "/private":
      return { headers: { "cache-control": "private, max-age=60" }, html: page };
    case "/cookie":
      return { headers: { "cache-control": "s-maxage=60", "set-cookie": "sid=1" }, html: page };
  }
  return page;
};
`

func startCached(t *testing.T, extra string, mod func(*config.Config)) *app.Instance {
	t.Helper()
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n[render]\njsc_workers = 1\n"+extra,
		map[string]string{"src/server.js": cachedServer})
	return apptest.Start(t, path, mod, app.Options{})
}

type got struct {
	code   int
	body   string
	header http.Header
}

func fetch(t *testing.T, method, url string, h map[string]string) got {
	t.Helper()
	req, _ := http.NewRequest(method, url, nil)
	for k, v := range h {
		req.Header.Set(k, v)
	}
	tr := &http.Transport{DisableCompression: true}
	resp, err := (&http.Client{Transport: tr}).Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return got{resp.StatusCode, string(b), resp.Header}
}

// A page the app marks s-maxage is rendered once and then served from
// memory, with Cache-Status, a strong ETag (304 on If-None-Match), HEAD
// and gzip; pages that are private, set cookies or say nothing render
// every time.
func TestPageCacheServesWhatTheAppMarksCacheable(t *testing.T) {
	inst := startCached(t, "", nil)
	base := "http://" + inst.Addr()

	first := fetch(t, "GET", base+"/news", nil)
	if first.code != 200 || !strings.Contains(first.body, "render 1<") || first.header.Get("Cache-Status") != "bext; fwd=miss; stored" {
		t.Fatalf("first GET /news: %d %q %q", first.code, first.header.Get("Cache-Status"), first.body[:40])
	}
	second := fetch(t, "GET", base+"/news", nil)
	if second.body != first.body || !strings.HasPrefix(second.header.Get("Cache-Status"), "bext; hit; ttl=") {
		t.Fatalf("second GET /news was rendered again or not a hit: %q %q", second.header.Get("Cache-Status"), second.body[:40])
	}
	if cc := second.header.Get("Cache-Control"); !strings.Contains(cc, "s-maxage=60") {
		t.Errorf("the app's Cache-Control did not reach the client: %q", cc)
	}
	etag := second.header.Get("ETag")
	if !strings.HasPrefix(etag, `"`) || etag != first.header.Get("ETag") {
		t.Fatalf("ETag %q (first %q), want the same strong tag", etag, first.header.Get("ETag"))
	}
	if nm := fetch(t, "GET", base+"/news", map[string]string{"If-None-Match": etag}); nm.code != 304 || nm.body != "" {
		t.Fatalf("If-None-Match: %d %q, want 304 with no body", nm.code, nm.body)
	}
	if head := fetch(t, "HEAD", base+"/news", nil); head.code != 200 || head.body != "" || head.header.Get("ETag") != etag {
		t.Fatalf("HEAD: %d %q etag %q", head.code, head.body, head.header.Get("ETag"))
	}
	gz := fetch(t, "GET", base+"/news", map[string]string{"Accept-Encoding": "gzip"})
	if gz.header.Get("Content-Encoding") != "gzip" || !strings.Contains(gz.header.Get("Vary"), "Accept-Encoding") {
		t.Fatalf("gzip: Content-Encoding %q Vary %q", gz.header.Get("Content-Encoding"), gz.header.Get("Vary"))
	}
	zr, err := gzip.NewReader(strings.NewReader(gz.body))
	if err != nil {
		t.Fatal(err)
	}
	if plain, _ := io.ReadAll(zr); string(plain) != first.body || len(gz.body) >= len(first.body) {
		t.Fatalf("gzip body does not inflate to the page (%d → %d bytes)", len(gz.body), len(plain))
	}
	if again := fetch(t, "GET", base+"/news", nil); again.body != first.body {
		t.Fatalf("a hit after HEAD, 304 and gzip rendered again: %q", again.body[:40])
	}

	// Never cached: private, Set-Cookie, no caching headers (bext's
	// default no-cache), POST, and a request with Authorization.
	for _, c := range []struct {
		method, path string
		h            map[string]string
	}{
		{"GET", "/private", nil}, {"GET", "/cookie", nil}, {"GET", "/plain", nil},
		{"POST", "/news", nil}, {"GET", "/news/a", map[string]string{"Authorization": "Bearer x"}},
	} {
		a, b := fetch(t, c.method, base+c.path, c.h), fetch(t, c.method, base+c.path, c.h)
		if a.body == b.body {
			t.Errorf("%s %s with %v was served from the cache: %q", c.method, c.path, c.h, b.header.Get("Cache-Status"))
		}
		if st := b.header.Get("Cache-Status"); st != "" && !strings.Contains(st, "fwd=bypass") && !strings.Contains(st, "fwd=miss") {
			t.Errorf("%s %s: Cache-Status %q", c.method, c.path, st)
		}
	}
	// Uncached HTML gets an ETag and 304 too.
	p := fetch(t, "GET", base+"/plain", nil)
	if p.header.Get("ETag") == "" {
		t.Fatal("uncached HTML has no ETag")
	}
}

// A [[cache.rule]] caches a page whose app says nothing about caching;
// the query is part of the key.
func TestPageCacheRuleCachesPagesWithoutHeaders(t *testing.T) {
	inst := startCached(t, "[[cache.rule]]\npath = \"/plain\"\nmax_age = 30\n", nil)
	base := "http://" + inst.Addr()
	a := fetch(t, "GET", base+"/plain", nil)
	b := fetch(t, "GET", base+"/plain", nil)
	if a.body != b.body || !strings.HasPrefix(b.header.Get("Cache-Status"), "bext; hit") {
		t.Fatalf("rule did not cache /plain: %q", b.header.Get("Cache-Status"))
	}
	if q := fetch(t, "GET", base+"/plain?page=2", nil); q.body == a.body {
		t.Fatal("/plain?page=2 was served /plain's entry")
	}
}

// Purges through the admin API and the CLI's client (path, prefix, tag,
// all), a purge with no selector is a 400 naming the choices, a rolling
// restart of every worker empties the cache, and stats count it all.
func TestPageCachePurgeAndStats(t *testing.T) {
	inst := startCached(t, "", nil)
	base := "http://" + inst.Addr()
	c, err := adminclient.New(inst.AdminAddr(), "", func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	warm := func(paths ...string) map[string]string {
		m := map[string]string{}
		for _, p := range paths {
			m[p] = fetch(t, "GET", base+p, nil).body
			if b := fetch(t, "GET", base+p, nil).body; b != m[p] {
				t.Fatalf("%s not cached", p)
			}
		}
		return m
	}
	stillCached := func(bodies map[string]string, p string) bool { return fetch(t, "GET", base+p, nil).body == bodies[p] }

	bodies := warm("/news", "/news/a", "/news/b")
	if n, err := c.PurgeCache(cacheSel("path", "/news/a"), ""); err != nil || n != 1 {
		t.Fatalf("purge path: %d %v", n, err)
	}
	if stillCached(bodies, "/news/a") || !stillCached(bodies, "/news/b") || !stillCached(bodies, "/news") {
		t.Fatal("purge by path removed the wrong pages")
	}
	bodies = warm("/news", "/news/a", "/news/b")
	if n, err := c.PurgeCache(cacheSel("prefix", "/news/"), ""); err != nil || n != 2 {
		t.Fatalf("purge prefix: %d %v", n, err)
	}
	if stillCached(bodies, "/news/a") || stillCached(bodies, "/news/b") || !stillCached(bodies, "/news") {
		t.Fatal("purge by prefix removed the wrong pages")
	}
	bodies = warm("/news", "/news/a", "/news/b")
	if n, err := c.PurgeCache(cacheSel("tag", "front"), ""); err != nil || n != 3 {
		t.Fatalf("purge tag: %d %v", n, err)
	}
	if stillCached(bodies, "/news") || stillCached(bodies, "/news/a") || stillCached(bodies, "/news/b") {
		t.Fatal("purge by tag left a tagged page")
	}

	resp, err := http.Post("http://"+inst.AdminAddr()+"/__bext/cache/purge", "application/json", bytes.NewReader(nil))
	if err != nil {
		t.Fatal(err)
	}
	msg, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 400 || !strings.Contains(string(msg), "prefix") || !strings.Contains(string(msg), "tag") {
		t.Fatalf("purge without a selector: %d %s", resp.StatusCode, msg)
	}

	bodies = warm("/news")
	if _, err := c.Restart(-1, ""); err != nil {
		t.Fatal(err)
	}
	if stillCached(bodies, "/news") {
		t.Fatal("a restart of every worker left the old render in the cache")
	}

	st, err := c.CacheStats("")
	if err != nil || st == nil {
		t.Fatalf("stats: %v %v", st, err)
	}
	if st.Hits == 0 || st.Misses == 0 || st.Purged < 5 || st.Entries < 1 || st.HitRatio <= 0 {
		t.Fatalf("stats do not add up: %+v", st)
	}
	m := apptest.Metrics(t, "http://"+inst.AdminAddr()+"/metrics")
	if v := m[`bext_cache_requests_total{result="hit"}`]; v != float64(st.Hits) {
		t.Fatalf("bext_cache_requests_total{result=\"hit\"} = %v, stats say %d", v, st.Hits)
	}
}

func cacheSel(kind, v string) (s cache.Selector) {
	switch kind {
	case "path":
		s.Path = v
	case "prefix":
		s.Prefix = v
	case "tag":
		s.Tag = v
	}
	return s
}

// In bext dev the cache is off unless dev_enabled: every request renders.
func TestPageCacheOffInDev(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n[render]\njsc_workers = 1\n",
		map[string]string{"src/server.js": cachedServer})
	inst := apptest.Start(t, path, nil, app.Options{Dev: true})
	base := "http://" + inst.Addr()
	a, b := fetch(t, "GET", base+"/news", nil), fetch(t, "GET", base+"/news", nil)
	if a.body == b.body || b.header.Get("Cache-Status") != "" {
		t.Fatalf("bext dev served from the cache: %q", b.header.Get("Cache-Status"))
	}
	if code, _ := apptest.Get(t, fmt.Sprintf("http://%s/__bext/cache/stats", inst.AdminAddr())); code != 404 {
		t.Fatalf("cache stats in dev without a cache: %d", code)
	}
}

// The fetch-handler contract caches by the Response's headers too; a
// streamed page is streamed to the first client and stored once complete;
// a stream that fails is not stored.
func TestPageCacheFetchHandlerAndStreams(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n[render]\njsc_workers = 1\n", map[string]string{"src/server.js": `
let n = 0;
const cc = { "cache-control": "s-maxage=60", "content-type": "text/html; charset=utf-8" };
export default {
  fetch(request) {
    n++;
    const path = new URL(request.url).pathname;
    const enc = new TextEncoder();
    if (path === "/plain") return new Response("<p>plain " + n + "</p>", { headers: cc });
    let i = 0;
    return new Response(new ReadableStream({
      async pull(c) {
        await null;
        if (i++ < 3) c.enqueue(enc.encode("<p>part " + i + " of render " + n + "</p>"));
        else if (path === "/fails") c.error(new Error("broke"));
        else c.close();
      },
    }), { headers: cc });
  },
};`})
	inst := apptest.Start(t, path, nil, app.Options{})
	base := "http://" + inst.Addr()
	a, b := fetch(t, "GET", base+"/plain", nil), fetch(t, "GET", base+"/plain", nil)
	if a.body != b.body || !strings.HasPrefix(b.header.Get("Cache-Status"), "bext; hit") {
		t.Fatalf("fetch handler page not cached: %q %q", b.header.Get("Cache-Status"), b.body)
	}
	a = fetch(t, "GET", base+"/streamed", nil)
	if !strings.HasPrefix(a.body, "<p>part 1 of render") || !strings.Contains(a.body, "part 3") {
		t.Fatalf("streamed page: %q", a.body)
	}
	b = fetch(t, "GET", base+"/streamed", nil)
	if b.body != a.body || !strings.HasPrefix(b.header.Get("Cache-Status"), "bext; hit") {
		t.Fatalf("streamed page not stored once complete: %q %q", b.header.Get("Cache-Status"), b.body)
	}
	for range 2 {
		resp, err := http.Get(base + "/fails")
		if err != nil {
			t.Fatal(err)
		}
		_, err = io.ReadAll(resp.Body)
		resp.Body.Close()
		if err == nil || strings.HasPrefix(resp.Header.Get("Cache-Status"), "bext; hit") {
			t.Fatalf("a failed stream was served whole or from the cache: %v %q", err, resp.Header.Get("Cache-Status"))
		}
	}
}
