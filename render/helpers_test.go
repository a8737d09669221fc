package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"bext/engine"
	"bext/lifecycle"
	"bext/pool"
)

// appJS is a real render function exercising every outcome the HTTP layer maps.
const appJS = `
let count = 0;
globalThis.render = async (req) => {
	count++;
	switch (req.path) {
	case "/": return "<!doctype html><html><body><h1>home</h1><p>" + req.query.name + "</p></body></html>";
	case "/object": return {status: 201, headers: {"x-app": "yes"}, html: "<p>created</p>"};
	case "/throw": throw new Error("render threw on purpose");
	case "/loop": if (req.query.tag) console.log("looping " + req.query.tag); while (true) {}
	case "/slow": console.log("slow render started"); await new Promise(r => setTimeout(r, Number(req.query.ms || 200))); return "<p>slow</p>";
	case "/log": console.log("hello from", req.path); return "<p>logged</p>";
	case "/big": return "<p>" + "x".repeat(20000) + "</p>";
	case "/framing": return {headers: {"content-length": "3", "transfer-encoding": "chunked", "connection": "upgrade", "upgrade": "websocket", "x-app": "kept"}, html: "<p>the whole body</p>"};
	case "/status101": return {status: 101, html: "switch"};
	case "/cookies": return {headers: {"set-cookie": ["a=1", "b=2"]}, html: "<p>two cookies</p>"};
	case "/headers": return "<p>" + req.method + " " + req.headers["x-test"] + " " + req.url + "</p>";
	}
	return {status: 404, html: "<p>not found</p>"};
};`

type testEnv struct {
	console chan string // console lines the isolates logged
	loops   *loopSignals
	srv     *Server
	pool    *pool.Pool
	ts      *httptest.Server
	reg     *prometheus.Registry
	dir     string
}

func quietLog() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

func newEnv(t *testing.T, workers int, mod func(*Options, *pool.Options)) *testEnv {
	t.Helper()
	prog, err := engine.Compile("app.js", []byte(appJS))
	if err != nil {
		t.Fatal(err)
	}
	pol := lifecycle.DefaultPolicy()
	pol.Workers = workers
	po := pool.Options{Policy: pol, RenderTimeout: 300 * time.Millisecond, QueueTimeout: 500 * time.Millisecond, MemoryCheck: -1, Log: quietLog()}
	dir := t.TempDir()
	pub := filepath.Join(dir, "public")
	os.MkdirAll(pub, 0o755)
	os.WriteFile(filepath.Join(pub, "style.css"), []byte("body{color:red}"), 0o644)
	os.WriteFile(filepath.Join(dir, "secret.txt"), []byte("TOP SECRET"), 0o644)
	reg := prometheus.NewRegistry()
	o := Options{PublicDir: pub, Gzip: true, QueueTimeout: po.QueueTimeout, Registry: reg, Log: quietLog(), MaxBodyBytes: 1 << 20}
	if mod != nil {
		mod(&o, &po)
	}
	console := make(chan string, 100)
	loops := &loopSignals{m: map[string]chan struct{}{}}
	clog := slog.New(chanHandler{console, loops})
	p := pool.New(func(id int) (pool.Isolate, error) {
		return engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: clog})
	}, po)
	reg.MustRegister(p)
	s, err := New(p, o)
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s.Handler())
	t.Cleanup(func() { ts.Close(); p.Close() })
	if err := waitReady(p); err != nil {
		t.Fatal(err)
	}
	return &testEnv{console: console, loops: loops, srv: s, pool: p, ts: ts, reg: reg, dir: dir}
}

func waitReady(p *pool.Pool) error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	return p.WaitActive(ctx, p.Size())
}

// do sends a request to the admin listener's handler with the given peer
// address (httptest recorder: RemoteAddr is whatever the test says, as a
// TCP peer would be).
func (e *testEnv) do(method, target, remote string, hdr map[string]string) *httptest.ResponseRecorder {
	return e.send(e.srv.AdminHandler(), method, target, remote, hdr)
}

// public is do on the public listener's handler.
func (e *testEnv) public(method, target, remote string, hdr map[string]string) *httptest.ResponseRecorder {
	return e.send(e.srv.Handler(), method, target, remote, hdr)
}

func (e *testEnv) send(h http.Handler, method, target, remote string, hdr map[string]string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(method, target, nil)
	req.RemoteAddr = remote
	for k, v := range hdr {
		req.Header[http.CanonicalHeaderKey(k)] = []string{v}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

func (e *testEnv) get(t *testing.T, path string) (*http.Response, string) {
	t.Helper()
	resp, err := http.Get(e.ts.URL + path)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp, string(b)
}

func timeParse(s string) (time.Time, error) { return time.Parse(time.RFC3339Nano, s) }

// chanHandler sends each log message to a channel (dropping when full), so
// a test can wait for the app's console output instead of sleeping; it
// also signals the loops that started (see testEnv.loop).
type chanHandler struct {
	ch    chan string
	loops *loopSignals
}

func (h chanHandler) Enabled(context.Context, slog.Level) bool { return true }
func (h chanHandler) Handle(_ context.Context, r slog.Record) error {
	msg := r.Message
	r.Attrs(func(a slog.Attr) bool { msg += " " + a.Value.String(); return true })
	if m := loopLine.FindStringSubmatch(msg); m != nil {
		h.loops.fire(m[1])
	}
	select {
	case h.ch <- msg:
	default:
	}
	return nil
}
func (h chanHandler) WithAttrs([]slog.Attr) slog.Handler { return h }
func (h chanHandler) WithGroup(string) slog.Handler      { return h }

var loopLine = regexp.MustCompile(`looping (\d+)`)

// loopSignals tells a test that the render of /loop?tag=N has started
// looping (the app logs it first).
type loopSignals struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

func (l *loopSignals) ch(tag string) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.m[tag]
	if !ok {
		c = make(chan struct{})
		l.m[tag] = c
	}
	return c
}

func (l *loopSignals) fire(tag string) {
	c := l.ch(tag)
	l.mu.Lock()
	defer l.mu.Unlock()
	select {
	case <-c:
	default:
		close(c)
	}
}

// loop requests /loop?tag=tag and hangs up once its render is looping: the
// server sees its client gone, interrupts the render and replaces the
// isolate. Ending loops by a signal, not by render_timeout_ms, keeps the
// good renders of a test free of any deadline a loaded CPU could miss.
// It fails the test if the render never started (30 s).
func (e *testEnv) loop(t *testing.T, tag int) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, fmt.Sprintf("%s/loop?tag=%d", e.ts.URL, tag), nil)
	done := make(chan error, 1)
	go func() {
		resp, err := http.DefaultClient.Do(req)
		if err == nil {
			resp.Body.Close()
			err = fmt.Errorf("/loop answered %d before the client hung up", resp.StatusCode)
		}
		done <- err
	}()
	select {
	case <-e.loops.ch(strconv.Itoa(tag)):
		cancel()
		if err := <-done; !errors.Is(err, context.Canceled) {
			t.Errorf("loop %d: %v", tag, err)
		}
	case err := <-done:
		t.Errorf("loop %d ended before it started looping: %v", tag, err)
	case <-time.After(30 * time.Second):
		t.Errorf("loop %d never started", tag)
	}
}
