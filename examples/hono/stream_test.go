package hono

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bext/config"
	"bext/internal/apptest"
	"bext/internal/nodeparity"
)

// TestStreamsAsProduced proves that each line of /stream/ticks reaches the
// client before the handler writes the next: after "tick N" the handler
// waits for gate N of the API server, which the test opens only once it
// has read "tick N". Node shows what a client gets; bext must do the same.
func TestStreamsAsProduced(t *testing.T) {
	s := start(t, nil)
	for _, target := range []struct{ name, base string }{{"node", s.node}, {"bext", s.bext}} {
		t.Run(target.name, func(t *testing.T) {
			s.api.hold(true)
			defer s.api.hold(false)
			resp, err := nodeparity.Client().Get(target.base + "/stream/ticks?n=3")
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if ct := resp.Header.Get("Content-Type"); resp.StatusCode != 200 || ct != "text/plain; charset=UTF-8" {
				t.Fatalf("status %d, content-type %q", resp.StatusCode, ct)
			}
			r := bufio.NewReader(resp.Body)
			for i, want := range []string{"tick 0\n", "tick 1\n", "tick 2\n"} {
				line, err := r.ReadString('\n')
				if err != nil || line != want {
					t.Fatalf("line %d: %q, %v; want %q before gate %d opens (is the response buffered?)", i, line, err, want, i)
				}
				s.api.open(strings.TrimSpace(strings.TrimPrefix(want, "tick ")))
			}
			rest, err := io.ReadAll(r)
			if err != nil || string(rest) != "end" {
				t.Fatalf("after the ticks: %q, %v; want \"end\"", rest, err)
			}
		})
	}
}

// TestWaitUntil: /api/notify answers 202 at once and delivers a hook
// through ctx.waitUntil after the response. The hook server holds the hook
// until the test has the response, so the response cannot be waiting for
// the hook; then the hook must arrive.
func TestWaitUntil(t *testing.T) {
	s := start(t, nil)
	for _, target := range []struct{ name, base string }{{"node", s.node}, {"bext", s.bext}} {
		t.Run(target.name, func(t *testing.T) {
			defer s.api.holdHooks()()
			ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
			defer cancel()
			req, _ := http.NewRequestWithContext(ctx, "POST", target.base+"/api/notify", strings.NewReader(`{"event":"order-42"}`))
			req.Header.Set("Content-Type", "application/json")
			resp, err := nodeparity.Client().Do(req)
			if err != nil {
				t.Fatalf("no response while the waitUntil hook is held: %v", err)
			}
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != 202 || string(body) != `{"queued":"order-42"}` {
				t.Fatalf("%d %s", resp.StatusCode, body)
			}
			select {
			case hook := <-s.api.hookIn:
				if hook != `{"event":"order-42"}` {
					t.Errorf("hook body %q", hook)
				}
			case <-ctx.Done():
				t.Fatal("the hook queued with ctx.waitUntil never arrived")
			}
		})
	}
}

// TestClientGoneFreesWorker: with one worker, a client that leaves in the
// middle of /stream/ticks (the handler waiting on a gate that never opens)
// must not keep the worker: the next request is served and the pool's
// in-flight gauge returns to 0 — long before render_timeout_ms (2 minutes
// here) could have ended the stream.
func TestClientGoneFreesWorker(t *testing.T) {
	s := start(t, func(c *config.Config) {
		c.Render.JSCWorkers = 1
		c.Render.RenderTimeoutMS = 120_000
		c.Render.QueueTimeoutMS = 2000
	})
	s.api.hold(true)
	resp, err := nodeparity.Client().Get(s.bext + "/stream/ticks?n=3")
	if err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(resp.Body).ReadString('\n'); err != nil || line != "tick 0\n" {
		t.Fatalf("first line %q, %v", line, err)
	}
	resp.Body.Close() // the client goes away; gate 0 stays closed

	deadline := time.Now().Add(30 * time.Second)
	c := nodeparity.Client()
	for {
		r := nodeparity.Do(t, c, s.bext, nodeparity.HTTPRequest{Path: "/hello/again"})
		if r.Status == 200 && bytes.Contains(r.Body, []byte("Hello, again!")) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the only worker is still busy 30 s after its client left: last answer %d %.100s", r.Status, r.Body)
		}
	}
	waitFor(t, deadline, "bext_pool_in_flight to return to 0", func() bool {
		return apptest.Metrics(t, "http://"+s.inst.AdminAddr()+"/metrics")["bext_pool_in_flight"] == 0
	})
}

// TestBodyLimit: a request body over [server] max_body_bytes is refused
// with 413: before the app runs (no render is counted) when its size is
// announced (Content-Length); when it is not (chunked), once the app has
// read past the limit and failed, although this app's responses are
// streams (hono/etag clones them, which tees the body). One within the
// limit reaches the app.
func TestBodyLimit(t *testing.T) {
	s := start(t, func(c *config.Config) { c.Server.MaxBodyBytes = 4096 })
	c := nodeparity.Client()
	served := func() (n int64) {
		for _, w := range s.inst.Pool().Snapshot() {
			n += w.RequestsServed
		}
		return n
	}
	before := served()
	big := bytes.Repeat([]byte("x"), 4097)
	if r := nodeparity.Do(t, c, s.bext, nodeparity.HTTPRequest{Method: "POST", Path: "/api/echo", Body: big}); r.Status != 413 {
		t.Errorf("4097-byte body with Content-Length: %d, want 413", r.Status)
	}
	if n := served() - before; n != 0 {
		t.Errorf("%d renders ran for a Content-Length over the limit, want 0", n)
	}
	req, _ := http.NewRequestWithContext(t.Context(), "POST", s.bext+"/api/echo", io.MultiReader(bytes.NewReader(big))) // no length: chunked
	resp, err := c.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 413 {
		t.Errorf("4097-byte chunked body: %d, want 413", resp.StatusCode)
	}
	ok := nodeparity.Do(t, c, s.bext, nodeparity.HTTPRequest{Method: "POST", Path: "/api/echo", Body: big[:4096]})
	if ok.Status != 200 || !bytes.Contains(ok.Body, []byte(`"bytes":4096`)) {
		t.Errorf("4096-byte body: %d %.200s", ok.Status, ok.Body)
	}
}

// TestStaticFiles: bext serves public/ itself; the app is not asked.
func TestStaticFiles(t *testing.T) {
	s := start(t, nil)
	want, err := os.ReadFile(filepath.Join(nodeparity.AppDir(t, "."), "public", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	r := nodeparity.Do(t, nodeparity.Client(), s.bext, nodeparity.HTTPRequest{Path: "/style.css"})
	if r.Status != 200 || !bytes.Equal(r.Body, want) || r.Header.Get("X-Example") != "" {
		t.Errorf("/style.css: %d, x-example %q, %d bytes; want the file from public/ untouched by the app", r.Status, r.Header.Get("X-Example"), len(r.Body))
	}
}

// waitFor polls cond every 20 ms until it holds, failing t at deadline.
func waitFor(t *testing.T, deadline time.Time, what string, cond func() bool) {
	t.Helper()
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		select {
		case <-tick.C:
		case <-t.Context().Done():
			t.Fatal(errors.New("test ended while waiting for " + what))
		}
	}
}
