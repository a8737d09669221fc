package react

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bext/config"
	"bext/engine"
	"bext/internal/app"
	"bext/internal/apptest"
	"bext/internal/nodeparity"
)

// reviewAPI is the slow review service /stream calls (API_ORIGIN/reviews):
// it answers only once the test releases it, and reports each request that
// arrives and each whose caller went away before the answer.
type reviewAPI struct {
	*httptest.Server
	arrived   chan struct{} // a value per request that arrived
	gone      chan struct{} // a value per request cancelled by its caller
	release   chan struct{} // closed: answer
	closeOnce sync.Once
}

const reviewsJSON = `[{"author":"Mei","stars":5,"text":"Slow but worth it ⏳"},{"author":"Ola","stars":3,"text":"<b>ok</b>"}]`

func newReviewAPI(t *testing.T) *reviewAPI {
	a := &reviewAPI{arrived: make(chan struct{}, 64), gone: make(chan struct{}, 64), release: make(chan struct{})}
	a.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/reviews" {
			http.NotFound(w, r)
			return
		}
		a.arrived <- struct{}{}
		select {
		case <-a.release:
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprint(w, reviewsJSON)
		case <-r.Context().Done():
			a.gone <- struct{}{}
		}
	}))
	t.Cleanup(func() {
		a.open()
		a.Close()
	})
	return a
}

func (a *reviewAPI) open() { a.closeOnce.Do(func() { close(a.release) }) }

// streamServer is a real bext serving the example with API_ORIGIN set to
// api, and the bundle it serves (app.Build, as `bext serve` builds it).
type streamServer struct {
	base   string
	inst   *app.Instance
	bundle []byte
	env    map[string]string
}

func startStreamServer(t testing.TB, apiURL string, mod func(*config.Config)) *streamServer {
	t.Helper()
	cfgPath := filepath.Join(nodeparity.AppDir(t, "."), "config.toml")
	set := func(c *config.Config) {
		if apiURL != "" {
			c.App.Env["API_ORIGIN"] = apiURL
		}
		if mod != nil {
			mod(c)
		}
	}
	b, err := app.Build(apptest.Config(t, cfgPath, set), false)
	if err != nil {
		t.Fatal(err)
	}
	inst := apptest.Start(t, cfgPath, set, app.Options{Bundle: b})
	return &streamServer{base: "http://" + inst.Addr(), inst: inst, bundle: b.ServerCode, env: inst.Config().App.Env}
}

// readUntil reads r into buf until buf contains every one of subs; an
// error (EOF, the client's timeout) fails with what arrived.
func readUntil(t *testing.T, r io.Reader, buf *bytes.Buffer, subs ...string) {
	t.Helper()
	chunk := make([]byte, 4096)
	for {
		all := true
		for _, s := range subs {
			all = all && bytes.Contains(buf.Bytes(), []byte(s))
		}
		if all {
			return
		}
		n, err := r.Read(chunk)
		buf.Write(chunk[:n])
		if err != nil {
			t.Fatalf("reading until %q: %v after %d bytes (…%s)", subs, err, buf.Len(), tail(buf.String(), 200))
		}
	}
}

func tail(s string, n int) string { return s[max(0, len(s)-n):] }

// TestStreamShellBeforeData: GET /stream sends the page with the reviews'
// fallback while the review service is still holding its answer (the
// test reads the shell, then releases the service), then the reviews;
// the whole body equals what Node renders from the same bundle with the
// same service.
func TestStreamShellBeforeData(t *testing.T) {
	api := newReviewAPI(t)
	s := startStreamServer(t, api.URL, nil)
	resp, err := nodeparity.Client().Get(s.base + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/html; charset=utf-8" {
		t.Fatalf("status %d, content-type %q", resp.StatusCode, ct)
	}
	var got bytes.Buffer
	readUntil(t, resp.Body, &got, `<p class="loading">Loading reviews…</p>`, "</html>")
	select {
	case <-api.arrived:
	case <-time.After(30 * time.Second):
		t.Fatal("the shell arrived but the app never called the review service")
	}
	if strings.Contains(got.String(), "Slow but worth it") {
		t.Fatal("the reviews are in the shell although the service has not answered")
	}
	shell := got.Len()
	api.open()
	rest, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	got.Write(rest)
	html := got.String()
	for _, want := range []string{`<div hidden id="S:0"><ul class="reviews">`, "Slow but worth it ⏳", "&lt;b&gt;ok&lt;/b&gt;", `$RC("B:0","S:0")`} {
		if !strings.Contains(html[shell:], want) {
			t.Errorf("the part after the shell lacks %q", want)
		}
	}
	t.Logf("shell %d bytes before the service answered, %d bytes in all", shell, len(html))

	node := nodeparity.RenderEnv(t, s.bundle, []*engine.Request{nodeparity.Request("/stream")}, s.env)[0]
	if node.Error != "" {
		t.Fatalf("node: %s", node.Error)
	}
	if node.Status != 200 || node.Headers["content-type"] != "text/html; charset=utf-8" {
		t.Errorf("node: %d %q", node.Status, node.Headers)
	}
	if d := nodeparity.Diff(html, node.HTML); d != "" {
		t.Error(d)
	}
}

// TestStreamLargeParity: the streamed large page, with and without
// Suspense sections, equals Node's rendering byte for byte; and without
// sections it is the same document as /large rendered to a string.
func TestStreamLargeParity(t *testing.T) {
	s := startStreamServer(t, "", nil)
	c := nodeparity.Client()
	paths := []string{"/stream/large", "/stream/large?sections=3", "/stream/large?sections=0", "/large"}
	reqs := make([]*engine.Request, len(paths))
	for i, p := range paths {
		reqs[i] = nodeparity.Request(p)
	}
	node := nodeparity.RenderEnv(t, s.bundle, reqs, s.env)
	bodies := map[string]string{}
	for i, p := range paths {
		r := nodeparity.Do(t, c, s.base, nodeparity.HTTPRequest{Path: p})
		if r.Status != 200 || node[i].Error != "" {
			t.Fatalf("%s: bext %d, node error %q", p, r.Status, node[i].Error)
		}
		if d := nodeparity.Diff(string(r.Body), node[i].HTML); d != "" {
			t.Errorf("%s: %s", p, d)
		}
		bodies[p] = string(r.Body)
	}
	if !strings.Contains(bodies["/stream/large"], `$RC("B:7","S:7")`) {
		t.Error("/stream/large lacks its eighth section's completion")
	}
	if bodies["/stream/large?sections=0"] != bodies["/large"] {
		t.Errorf("/stream/large?sections=0 and /large differ: %s", nodeparity.Diff(bodies["/stream/large?sections=0"], bodies["/large"]))
	}
}

// TestStreamClientGoneFreesWorker: with one worker and a render timeout
// of two minutes, a client that leaves /stream while the review service
// holds its answer must free the worker: the app's pending fetch is
// cancelled, the next request is served and the pool's in-flight gauge
// returns to 0.
func TestStreamClientGoneFreesWorker(t *testing.T) {
	api := newReviewAPI(t)
	s := startStreamServer(t, api.URL, func(c *config.Config) {
		c.Render.JSCWorkers = 1
		c.Render.RenderTimeoutMS = 120_000
		c.Render.QueueTimeoutMS = 2000
	})
	resp, err := nodeparity.Client().Get(s.base + "/stream")
	if err != nil {
		t.Fatal(err)
	}
	var got bytes.Buffer
	readUntil(t, resp.Body, &got, "Loading reviews…")
	resp.Body.Close() // the client goes away; the service never answers

	deadline := time.Now().Add(30 * time.Second)
	select {
	case <-api.gone:
	case <-time.After(time.Until(deadline)):
		t.Fatal("the app's fetch to the review service was not cancelled within 30 s of its client leaving")
	}
	c := nodeparity.Client()
	for {
		r := nodeparity.Do(t, c, s.base, nodeparity.HTTPRequest{Path: "/small"})
		if r.Status == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the only worker is still busy 30 s after its client left: %d", r.Status)
		}
	}
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for apptest.Metrics(t, "http://"+s.inst.AdminAddr()+"/metrics")["bext_pool_in_flight"] != 0 {
		if time.Now().After(deadline) {
			t.Fatal("bext_pool_in_flight is not 0 30 s after the client left")
		}
		select {
		case <-tick.C:
		case <-t.Context().Done():
			t.Fatal(errors.New("test ended"))
		}
	}
}

// TestStreamBuildPicksWebRenderer: react-dom/server resolves to its web
// build (renderToReadableStream) under the server build's export
// conditions, never to the Node build (renderToPipeableStream, which
// needs node:stream).
func TestStreamBuildPicksWebRenderer(t *testing.T) {
	code := string(bundle(t, production).Code)
	if !strings.Contains(code, "renderToReadableStream") || strings.Contains(code, "renderToPipeableStream") {
		t.Error("the server bundle does not carry react-dom/server's web build alone")
	}
}
