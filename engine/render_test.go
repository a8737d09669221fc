package engine

import (
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"strings"
	"testing"
	"time"
)

func TestRenderString(t *testing.T) {
	iso := newTestIsolate(t, "hello", "server.js", Options{})
	resp := mustRender(t, iso, get("/x"))
	if resp.Status != 200 || resp.HTML != "<h1>hello /x</h1>" || resp.Headers != nil {
		t.Fatalf("got %+v", resp)
	}
}

func TestRenderObjectAndPromiseForms(t *testing.T) {
	iso := newTestIsolate(t, "hello", "server.js", Options{})
	resp := mustRender(t, iso, get("/object"))
	if resp.Status != 201 || resp.HTML != "<p>object</p>" || resp.Headers.Get("x-bext") != "yes" {
		t.Fatalf("object form: got %+v", resp)
	}
	resp = mustRender(t, iso, get("/promise"))
	if resp.Status != 200 || resp.HTML != "<p>promise</p>" {
		t.Fatalf("promise form: got %+v", resp)
	}
}

func TestRenderKitchenRoutes(t *testing.T) {
	iso := kitchen(t, Options{Env: map[string]string{"GREETING": "hi"}})
	cases := []struct {
		path, want string
		status     int
	}{
		{"/", `<ul><li class="item">a</li><li class="item">b</li></ul>`, 200},
		{"/object", "<p>not here</p>", 404},
		{"/promise", "<p>from promise</p>", 200},
		{"/async", "tick,micro,timeout0,immediate,msg", 200}, // as in Node: nextTick runs before promise jobs
		{"/syntax", "dflt count=2 sum=3", 200},
		{"/interval", "ticks=3", 200},
		{"/env", "production production hi", 200},
		{"/perf", "true", 200},
		{"/globals", "true", 200},
		{"/nope", "no route /nope", 404},
	}
	for _, c := range cases {
		resp := mustRender(t, iso, get(c.path))
		if resp.HTML != c.want || resp.Status != c.status {
			t.Errorf("%s: got %d %q, want %d %q", c.path, resp.Status, resp.HTML, c.status, c.want)
		}
	}
}

func TestRenderDefaultExport(t *testing.T) {
	iso := newTestIsolate(t, "default-export", "server.js", Options{})
	req := get("/a")
	req.Method, req.URL = "POST", "/a?b=1"
	if got := mustRender(t, iso, req).HTML; got != "<p>default export POST /a?b=1</p>" {
		t.Fatalf("got %q", got)
	}
}

func TestRequestObjectReachesJS(t *testing.T) {
	iso := kitchen(t, Options{})
	req := &Request{Method: "GET", URL: "/req?q=1", Path: "/req", Query: map[string]string{"q": "1"},
		Headers: map[string]string{"accept": "text/html", "x-multi": "a, b"}}
	var got map[string]any
	if err := json.Unmarshal([]byte(mustRender(t, iso, req).HTML), &got); err != nil {
		t.Fatal(err)
	}
	if got["method"] != "GET" || got["url"] != "/req?q=1" || got["path"] != "/req" ||
		got["query"].(map[string]any)["q"] != "1" || got["headers"].(map[string]any)["x-multi"] != "a, b" {
		t.Fatalf("req as seen by JS: %v", got)
	}
}

func TestPromiseWaitsForRealTimers(t *testing.T) {
	iso := newTestIsolate(t, "slow", "server.js", Options{})
	req := get("/")
	req.Query["ms"] = "30"
	start := time.Now()
	resp := mustRender(t, iso, req)
	if el := time.Since(start); el < 30*time.Millisecond {
		t.Fatalf("setTimeout(30) resolved after %v", el)
	}
	if resp.HTML != "<p>slept 30ms</p>" {
		t.Fatalf("got %q", resp.HTML)
	}
}

func TestTimersDoNotLeakIntoNextRender(t *testing.T) {
	iso := kitchen(t, Options{})
	mustRender(t, iso, get("/timer-leak"))
	if got := mustRender(t, iso, get("/timer-check")).HTML; got != "false" {
		t.Fatalf("a timer from the previous render ran: leaked=%s", got)
	}
}

func TestAssetsVisibleToJS(t *testing.T) {
	iso := kitchen(t, Options{})
	if got := mustRender(t, iso, get("/assets")).HTML; got != `{"js":[],"css":[]}` {
		t.Fatalf("default assets: %s", got)
	}
	iso.SetAssets([]string{"/_bext/client-ABC.js"}, []string{"/_bext/client-ABC.css"})
	if got := mustRender(t, iso, get("/assets")).HTML; got != `{"js":["/_bext/client-ABC.js"],"css":["/_bext/client-ABC.css"]}` {
		t.Fatalf("assets: %s", got)
	}
}

func TestTextEncoderDecoderRoundTrip(t *testing.T) {
	iso := kitchen(t, Options{})
	req := get("/encode")
	req.Query["text"] = "héllo 😀 世界"
	var got struct {
		Len           int
		Same, Buf     bool
		Read, Written int
	}
	if err := json.Unmarshal([]byte(mustRender(t, iso, req).HTML), &got); err != nil {
		t.Fatal(err)
	}
	// 4 bytes fit "hé" (1+2) plus "l" (1); read counts UTF-16 units.
	if got.Len != len("héllo 😀 世界") || !got.Same || !got.Buf || got.Read != 3 || got.Written != 4 {
		t.Fatalf("got %+v", got)
	}
}

func TestNodeEnvFromOptions(t *testing.T) {
	iso := kitchen(t, Options{Env: map[string]string{"NODE_ENV": "development"}})
	if got := mustRender(t, iso, get("/env")).HTML; got != "production development undefined" {
		t.Fatalf("got %q", got)
	}
}

func TestRenderAfterContextAlreadyDone(t *testing.T) {
	iso := kitchen(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if re := renderErr(t, iso, ctx, get("/")); re.Kind != KindTimeout {
		t.Fatalf("kind %v", re.Kind)
	}
	mustRender(t, iso, get("/")) // nothing ran, so the isolate still works
}

// A render result is a string, {status, headers, html} with a string html
// (html may be left out only for 204, 304 and redirects), or a Promise or
// thenable of one; anything else is a failed request (KindException: the
// isolate is kept) whose message names what came back. Code the result
// runs while it is read (getters, Proxy traps, toString) throws as the
// render would: an exception, never a crash; an endless getter is a
// timeout.
func TestRenderResultsAreValidated(t *testing.T) {
	iso := newTestIsolate(t, "results", "server.js", Options{})
	for _, c := range []struct{ path, want string }{
		{"/symbol", "it returned a Symbol"},
		{"/empty", "an object without html (its keys: none)"},
		{"/boxed", "a String object"},
		{"/cyclic", "an object without html (its keys: status, self)"},
		{"/array", "it returned an array"},
		{"/number", "it returned the number 42"},
		{"/null", "it returned null"},
		{"/undefined", "it returned undefined"},
		{"/bigint", "it returned the BigInt 10n"},
		{"/date", "it returned a Date"},
		{"/status100", "status 100; status must be a whole number from 200 to 599"},
		{"/status101", "status 101"},
		{"/status-string", `status the string "200"`},
		{"/status-fraction", "status 200.5"},
		{"/status-symbol", "status a Symbol"},
		{"/status-bigint", "status the BigInt 200n"},
		{"/status-getter-throws", "status getter threw"},
		{"/proxy", "proxy trap threw"},
		{"/html-boxed", "html is a String object"},
		{"/header-undefined", `header "x-a" = undefined; header values must be strings or numbers`},
		{"/header-object", `header "x-a" = an object`},
		{"/header-name", `a header named "bad name"`},
		{"/header-newline", `header "x-a" with a value that has control characters`},
		{"/headers-array", "headers that are an array"},
		{"/html-tostring", "html is an object"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		re := renderErr(t, iso, ctx, get(c.path))
		cancel()
		if re.Kind != KindException || !strings.Contains(re.Message, c.want) {
			t.Errorf("%s: %v %q, want an exception containing %q", c.path, re.Kind, re.Message, c.want)
		}
		if got := mustRender(t, iso, get("/alive")); got.HTML != "<p>alive</p>" {
			t.Fatalf("after %s the isolate does not render: %+v", c.path, got)
		}
	}
	for _, c := range []struct {
		path, html string
		status     int
		header     http.Header
	}{
		{"/thenable", "<p>from a thenable</p>", 200, nil},
		{"/cookies", "<p>cookies</p>", 200, http.Header{"Set-Cookie": {"a=1", "b=2"}, "X-N": {"7"}}},
		{"/redirect", "", 302, http.Header{"Location": {"/there"}}},
		{"/no-content", "", 204, nil},
	} {
		got := mustRender(t, iso, get(c.path))
		if got.HTML != c.html || got.Status != c.status || (c.header != nil && !reflect.DeepEqual(got.Headers, c.header)) {
			t.Errorf("%s: %d %q %v, want %d %q %v", c.path, got.Status, got.HTML, got.Headers, c.status, c.html, c.header)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if re := renderErr(t, iso, ctx, get("/status-getter-loops")); re.Kind != KindTimeout {
		t.Fatalf("an endless status getter: %v %q, want a timeout", re.Kind, re.Message)
	}
}
