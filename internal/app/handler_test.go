package app_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"bext/config"
	"bext/internal/app"
	"bext/internal/apptest"
)

// handlerApp is a fetch handler whose streams and waitUntil work wait on
// an upstream the test holds (env.UPSTREAM): the test decides when data
// arrives, so nothing depends on timing.
const handlerApp = `
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    const enc = new TextEncoder();
    switch (url.pathname) {
    case "/page":
      // The shell at once, the rest when the upstream answers.
      return new Response(new ReadableStream({
        async start(c) {
          c.enqueue(enc.encode("<!doctype html><h1>shell</h1>"));
          const r = await fetch(env.UPSTREAM + "/slow", { signal: request.signal });
          c.enqueue(enc.encode("<p>" + await r.text() + "</p>"));
          c.close();
        },
      }), { headers: { "content-type": "text/html; charset=utf-8" } });
    case "/broken":
      return new Response(new ReadableStream({
        async start(c) {
          c.enqueue(enc.encode("<h1>begun</h1>"));
          await fetch(env.UPSTREAM + "/slow");
          c.error(new Error("the data source failed"));
        },
      }));
    case "/later":
      ctx.waitUntil(fetch(env.UPSTREAM + "/slow").then((r) => r.text()));
      return new Response("answered");
    case "/echo":
      return new Response(await request.text(), { headers: { "x-method": request.method } });
    case "/env":
      return Response.json(env);
    case "/bad":
      return 42;
    }
    return new Response("none", { status: 404 });
  },
};`

// upstream is a loopback server whose /slow answers only when release is
// closed; started says a request arrived, gone that its client left.
type upstream struct {
	*httptest.Server
	started, release, gone chan struct{}
}

func newUpstream(t *testing.T) *upstream {
	u := &upstream{started: make(chan struct{}, 16), release: make(chan struct{}), gone: make(chan struct{}, 16)}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.started <- struct{}{}
		select {
		case <-u.release:
			io.WriteString(w, "data")
		case <-r.Context().Done():
			u.gone <- struct{}{}
		}
	}))
	t.Cleanup(u.Close)
	return u
}

func startHandlerApp(t *testing.T, u *upstream, mod func(*config.Config)) *app.Instance {
	t.Helper()
	path := apptest.WriteApp(t, fmt.Sprintf("[app]\nserver_entry = \"src/server.js\"\n[app.env]\nUPSTREAM = %q\nREGION = \"eu\"\n[render]\njsc_workers = 1\n", u.URL),
		map[string]string{"src/server.js": handlerApp})
	return apptest.Start(t, path, mod, app.Options{})
}

func waitFor(t *testing.T, ch chan struct{}, what string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(time.Minute):
		t.Fatalf("timed out waiting for %s", what)
	}
}

// The shell of a streamed page reaches the client before the data it
// waits for exists; the rest follows when it does.
func TestStreamedResponseArrivesAsProduced(t *testing.T) {
	u := newUpstream(t)
	inst := startHandlerApp(t, u, nil)
	resp, err := http.Get("http://" + inst.Addr() + "/page")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	br := bufio.NewReader(resp.Body)
	shell := make([]byte, len("<!doctype html><h1>shell</h1>"))
	if _, err := io.ReadFull(br, shell); err != nil {
		t.Fatalf("reading the shell: %v", err)
	}
	waitFor(t, u.started, "the upstream request") // the render is still waiting for it
	close(u.release)
	rest, err := io.ReadAll(br)
	if err != nil || string(rest) != "<p>data</p>" || resp.Header.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("after the shell: %q %v %v", rest, err, resp.Header)
	}
}

// A client that leaves mid-stream cancels the render (its fetch is
// aborted upstream) and frees the only worker for the next request.
func TestClientDisconnectMidStreamFreesTheWorker(t *testing.T) {
	u := newUpstream(t)
	inst := startHandlerApp(t, u, nil)
	conn, err := net.Dial("tcp", inst.Addr())
	if err != nil {
		t.Fatal(err)
	}
	fmt.Fprintf(conn, "GET /page HTTP/1.1\r\nHost: x\r\n\r\n")
	br := bufio.NewReader(conn)
	if line, err := br.ReadString('\n'); err != nil || !strings.Contains(line, "200") {
		t.Fatalf("status line %q %v", line, err)
	}
	waitFor(t, u.started, "the upstream request")
	conn.Close()
	waitFor(t, u.gone, "the upstream fetch to be aborted")
	client := &http.Client{Timeout: time.Minute}
	req, _ := http.NewRequest("POST", "http://"+inst.Addr()+"/echo", strings.NewReader("next"))
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || string(b) != "next" {
		t.Fatalf("the next request: %d %q", resp.StatusCode, b)
	}
}

// In dev the live-reload client follows a streamed HTML page (its end is
// not known up front); other streamed and JSON bodies get nothing.
func TestDevLiveReloadFollowsStreamedPages(t *testing.T) {
	u := newUpstream(t)
	close(u.release)
	path := apptest.WriteApp(t, fmt.Sprintf("[app]\nserver_entry = \"src/server.js\"\n[app.env]\nUPSTREAM = %q\n[render]\njsc_workers = 1\n", u.URL),
		map[string]string{"src/server.js": handlerApp})
	inst := apptest.Start(t, path, nil, app.Options{Dev: true})
	base := "http://" + inst.Addr()
	code, body := apptest.Get(t, base+"/page")
	if code != 200 || !strings.HasPrefix(body, "<!doctype html><h1>shell</h1><p>data</p><script>") ||
		!strings.Contains(body, "__bextLiveReload") || !strings.HasSuffix(body, "</script>") {
		t.Fatalf("streamed page in dev: %d %q", code, body)
	}
	for _, p := range []string{"/env", "/broken"} {
		if _, body := apptest.Get(t, base+p); strings.Contains(body, "__bextLiveReload") {
			t.Errorf("%s got the live-reload client: %q", p, body)
		}
	}
}

// A stream that errors after its first bytes breaks the connection off:
// the client sees a truncated response, never a complete-looking page.
func TestStreamErrorBreaksTheResponseOff(t *testing.T) {
	u := newUpstream(t)
	close(u.release)
	inst := startHandlerApp(t, u, nil)
	resp, err := http.Get("http://" + inst.Addr() + "/broken")
	if err != nil {
		t.Fatal(err)
	}
	b, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err == nil || !strings.HasPrefix(string(b), "<h1>begun</h1>") {
		t.Fatalf("read %q, err %v; want the first bytes, then an error", b, err)
	}
	if code, body := apptest.Get(t, "http://"+inst.Addr()+"/env"); code != 200 || !strings.Contains(body, "eu") {
		t.Fatalf("after the broken stream: %d %s", code, body)
	}
}

// ctx.waitUntil: the client has the response while the work it left is
// still waiting on the upstream.
func TestWaitUntilRunsAfterTheResponse(t *testing.T) {
	u := newUpstream(t)
	inst := startHandlerApp(t, u, nil)
	code, body := apptest.Get(t, "http://"+inst.Addr()+"/later")
	if code != 200 || body != "answered" {
		t.Fatalf("%d %q", code, body)
	}
	waitFor(t, u.started, "the waitUntil fetch")
	close(u.release)
}

// Bodies, env, HEAD, a non-Response result and the body limit.
func TestFetchHandlerOverHTTP(t *testing.T) {
	u := newUpstream(t)
	inst := startHandlerApp(t, u, func(c *config.Config) { c.Server.MaxBodyBytes = 1024 })
	base := "http://" + inst.Addr()
	resp, err := http.Post(base+"/echo", "text/plain", strings.NewReader("hello"))
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != "hello" || resp.Header.Get("X-Method") != "POST" {
		t.Fatalf("echo: %q %v", b, resp.Header)
	}
	if _, body := apptest.Get(t, base+"/env"); !strings.Contains(body, `"REGION":"eu"`) {
		t.Fatalf("env: %s", body)
	}
	// HEAD: the GET's status and headers (the page cache asks the app for
	// the GET, as caches do), no body.
	head, err := http.Head(base + "/echo")
	if err != nil || head.StatusCode != 200 || head.Header.Get("X-Method") == "" || head.ContentLength > 0 {
		t.Fatalf("HEAD: %v %v", head, err)
	}
	if code, body := apptest.Get(t, base+"/bad"); code != 500 {
		t.Fatalf("a handler returning 42: %d %s", code, body)
	}
	// Over max_body_bytes: with Content-Length before the app runs, and
	// chunked when the app reads past the limit.
	big := strings.Repeat("x", 2048)
	resp, err = http.Post(base+"/echo", "text/plain", strings.NewReader(big))
	if err != nil || resp.StatusCode != 413 {
		t.Fatalf("Content-Length over the limit: %v %v", resp, err)
	}
	resp.Body.Close()
	req, _ := http.NewRequestWithContext(context.Background(), "POST", base+"/echo", io.MultiReader(strings.NewReader(big)))
	req.ContentLength = -1 // chunked
	resp, err = http.DefaultClient.Do(req)
	if err != nil || resp.StatusCode != 413 {
		t.Fatalf("chunked body over the limit: %v %v", resp, err)
	}
	resp.Body.Close()
}
