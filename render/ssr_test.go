package render

import (
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"bext/pool"
)

func TestSSRResponses(t *testing.T) {
	e := newEnv(t, 2, nil)
	cases := []struct {
		path   string
		status int
		body   string
		header [2]string
	}{
		{"/?name=Ada", 200, "<p>Ada</p>", [2]string{"Cache-Control", "no-cache"}},
		{"/object", 201, "<p>created</p>", [2]string{"X-App", "yes"}},
		{"/nope", 404, "<p>not found</p>", [2]string{"Content-Type", "text/html; charset=utf-8"}},
		{"/throw", 500, "500 Internal Server Error", [2]string{"Cache-Control", "no-store"}},
		{"/loop", 504, "504 Gateway Timeout", [2]string{}},
		{"/style.css", 200, "body{color:red}", [2]string{"Content-Type", "text/css; charset=utf-8"}},
	}
	for _, c := range cases {
		resp, body := e.get(t, c.path)
		if resp.StatusCode != c.status || !strings.Contains(body, c.body) {
			t.Errorf("GET %s = %d %q, want %d containing %q", c.path, resp.StatusCode, body, c.status, c.body)
		}
		if c.header[0] != "" && resp.Header.Get(c.header[0]) != c.header[1] {
			t.Errorf("GET %s: %s = %q, want %q", c.path, c.header[0], resp.Header.Get(c.header[0]), c.header[1])
		}
	}
	if _, body := e.get(t, "/throw"); strings.Contains(body, "render threw on purpose") {
		t.Error("production error page leaks the error message")
	}
	// Same worker keeps serving after a throw; the server after a loop.
	if resp, _ := e.get(t, "/"); resp.StatusCode != 200 {
		t.Fatalf("after failures: %d", resp.StatusCode)
	}
}

func TestDevErrorPageShowsStack(t *testing.T) {
	e := newEnv(t, 1, func(o *Options, _ *pool.Options) { o.Dev = true })
	_, body := e.get(t, "/throw")
	if !strings.Contains(body, "render threw on purpose") || !strings.Contains(body, "app.js") {
		t.Fatalf("dev error page lacks message and stack: %s", body)
	}
}

func TestRequestFields(t *testing.T) {
	e := newEnv(t, 1, nil)
	req, _ := http.NewRequest("GET", e.ts.URL+"/headers?a=1&b=2", nil)
	req.Header.Set("X-Test", "v1")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(b), "GET v1 /headers?a=1&amp;b=2") && !strings.Contains(string(b), "GET v1 /headers?a=1&b=2") {
		t.Fatalf("render saw %s", b)
	}
}

func TestQueueTimeout503(t *testing.T) {
	e := newEnv(t, 1, func(o *Options, po *pool.Options) {
		po.QueueTimeout, o.QueueTimeout = 50*time.Millisecond, 50*time.Millisecond
		po.RenderTimeout = 5 * time.Second
	})
	done := make(chan struct{})
	go func() { e.get(t, "/slow?ms=1000"); close(done) }()
	waitConsole(t, e, "slow render started") // the one worker is now busy
	resp, _ := e.get(t, "/")
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") == "" {
		t.Fatalf("busy pool: %d Retry-After=%q, want 503 with Retry-After", resp.StatusCode, resp.Header.Get("Retry-After"))
	}
	<-done
}

func TestStaticNeverLeavesPublicDir(t *testing.T) {
	e := newEnv(t, 1, nil)
	for _, p := range []string{"/../secret.txt", "/..%2fsecret.txt", "/%2e%2e/secret.txt", "/%2e%2e%2fsecret.txt", "/style.css/../../secret.txt", "//../secret.txt"} {
		req, _ := http.NewRequest("GET", e.ts.URL+p, nil)
		req.URL.Opaque = p // send the raw path as written
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if strings.Contains(string(b), "TOP SECRET") {
			t.Errorf("GET %s leaked a file outside public_dir", p)
		}
	}
}

func TestGzip(t *testing.T) {
	e := newEnv(t, 1, nil)
	req, _ := http.NewRequest("GET", e.ts.URL+"/big", nil)
	req.Header.Set("Accept-Encoding", "gzip")
	resp, err := http.DefaultTransport.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.Header.Get("Content-Encoding") != "gzip" {
		t.Fatalf("no gzip for a client that accepts it: %v", resp.Header)
	}
	zr, err := gzip.NewReader(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(zr)
	if !strings.Contains(string(b), strings.Repeat("x", 20000)) {
		t.Fatal("gzip body does not decode to the page")
	}
}

func TestHealthAndReadiness(t *testing.T) {
	e := newEnv(t, 1, nil)
	if r, _ := e.get(t, "/healthz"); r.StatusCode != 200 {
		t.Fatalf("healthz %d", r.StatusCode)
	}
	if r, _ := e.get(t, "/readyz"); r.StatusCode != 200 {
		t.Fatalf("readyz %d with an ACTIVE worker", r.StatusCode)
	}
	e.srv.ShuttingDown()
	if r, _ := e.get(t, "/readyz"); r.StatusCode != 503 {
		t.Fatalf("readyz %d while shutting down, want 503", r.StatusCode)
	}
}

// Under concurrent load with good, throwing and looping routes mixed, every
// good request gets its answer: a bad render fails only itself. Loops end
// when their client hangs up (testEnv.loop), so no verdict depends on a
// render finishing within a deadline on a busy CPU.
func TestMixedLoadGoodRequestsSucceed(t *testing.T) {
	e := newEnv(t, 4, func(o *Options, po *pool.Options) {
		po.RenderTimeout = time.Minute
		po.QueueTimeout = time.Minute
	})
	paths := []string{"/", "/throw", "/", "/object", "/loop", "/", "/throw", "/"}
	var wg sync.WaitGroup
	var mu sync.Mutex
	bad := []string{}
	jobs := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range jobs {
				p := paths[i%len(paths)]
				if p == "/loop" {
					e.loop(t, i)
					continue
				}
				resp, err := http.Get(e.ts.URL + p)
				if err != nil {
					mu.Lock()
					bad = append(bad, err.Error())
					mu.Unlock()
					continue
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				want := map[string]int{"/": 200, "/object": 201, "/throw": 500}[p]
				if resp.StatusCode != want {
					mu.Lock()
					bad = append(bad, fmt.Sprintf("%s: %d", p, resp.StatusCode))
					mu.Unlock()
				}
			}
		})
	}
	for i := range 200 {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d of 200 requests got the wrong answer, e.g. %v", len(bad), bad[:min(5, len(bad))])
	}
	// Looping renders were replaced at once: every slot serves again.
	if err := waitReady(e.pool); err != nil {
		t.Fatalf("%d ACTIVE workers after the load, want all 4: %v", e.pool.ActiveWorkers(), err)
	}
}

func waitConsole(t *testing.T, e *testEnv, text string) {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case line := <-e.console:
			if strings.Contains(line, text) {
				return
			}
		case <-timeout:
			t.Fatalf("the app never logged %q", text)
		}
	}
}

// 200 requests to a looping route interleaved with 200 good ones: each loop
// is interrupted (its client hangs up once it loops) and its isolate
// replaced at once, never counted as a slot failure, so no stream of bad
// requests can take capacity away. No good render has a deadline a busy
// CPU could miss: render_timeout_ms is a minute.
func TestLoopingRouteCannotTakeCapacity(t *testing.T) {
	e := newEnv(t, 4, func(o *Options, po *pool.Options) {
		po.RenderTimeout = time.Minute
		po.QueueTimeout = time.Minute
		po.Policy.Recovery.MaxConsecutiveFailures = 1 // a single counted failure would empty a slot
	})
	var wg sync.WaitGroup
	var mu sync.Mutex
	good := map[int]int{}
	next := make(chan int)
	for range 16 {
		wg.Go(func() {
			for i := range next {
				if i%2 == 0 {
					e.loop(t, i)
					continue
				}
				resp, err := http.Get(e.ts.URL + "/")
				code := 0
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
					code = resp.StatusCode
				}
				mu.Lock()
				good[code]++
				mu.Unlock()
			}
		})
	}
	for i := range 400 {
		next <- i
	}
	close(next)
	wg.Wait()
	if good[200] != 200 {
		t.Fatalf("good requests by status %v, want all 200 OK", good)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	restarts := func(ws []pool.WorkerStats) (n int) {
		for _, w := range ws {
			n += w.Restarts
		}
		return n
	}
	if err := e.pool.WaitFor(ctx, func(ws []pool.WorkerStats) bool { return restarts(ws) >= 200 }); err != nil || restarts(e.pool.Snapshot()) != 200 {
		t.Fatalf("%d isolate replacements, want one per looping request (200): %v", restarts(e.pool.Snapshot()), err)
	}
	if err := waitReady(e.pool); err != nil {
		t.Fatal(err)
	}
	for _, st := range e.pool.Snapshot() {
		if st.State != "ACTIVE" || st.ConsecutiveFailures != 0 || st.GaveUp {
			t.Fatalf("worker %d after 200 loops: %+v", st.ID, st)
		}
	}
}

// bext owns framing: the app's Content-Length, Transfer-Encoding,
// Connection and Upgrade are ignored, so a wrong length can never truncate
// a page or an upgrade hijack the connection; other headers pass, several
// values of one name (Set-Cookie) included. A 1xx status is a 500.
func TestFramingIsBextsAndStatusesAreFinal(t *testing.T) {
	e := newEnv(t, 1, nil)
	resp, body := e.get(t, "/framing")
	if resp.StatusCode != 200 || body != "<p>the whole body</p>" || resp.Header.Get("X-App") != "kept" ||
		resp.Header.Get("Upgrade") != "" || resp.Header.Get("Connection") != "" || len(resp.TransferEncoding) != 0 {
		t.Fatalf("framing: %d %q len %d te %v headers %v", resp.StatusCode, body, resp.ContentLength, resp.TransferEncoding, resp.Header)
	}
	resp, body = e.get(t, "/cookies")
	if got := resp.Header.Values("Set-Cookie"); len(got) != 2 || got[0] != "a=1" || got[1] != "b=2" {
		t.Fatalf("Set-Cookie %v (%s)", got, body)
	}
	if resp, _ := e.get(t, "/status101"); resp.StatusCode != 500 {
		t.Fatalf("status 101 from a render answered %d, want 500", resp.StatusCode)
	}
	if resp, body := e.get(t, "/"); resp.StatusCode != 200 || !strings.Contains(body, "home") {
		t.Fatalf("after a bad status the worker must serve: %d", resp.StatusCode)
	}
}
