package devserver

import (
	"bufio"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

type sseEvent struct{ name, data string }

// sseStream reads events from a live-reload response the way EventSource
// does: fields until a blank line, comments (":") skipped.
type sseStream struct {
	t      *testing.T
	events chan sseEvent
	retry  chan string
}

func connect(t *testing.T, srv *httptest.Server) (*sseStream, context.CancelFunc) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, srv.URL+LiveReloadPath, nil)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cancel(); resp.Body.Close() })
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("status %d", resp.StatusCode)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q", ct)
	}
	s := &sseStream{t: t, events: make(chan sseEvent, 16), retry: make(chan string, 1)}
	go func() {
		defer close(s.events)
		sc := bufio.NewScanner(resp.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case line == "":
				if ev.name != "" {
					s.events <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, "retry: "):
				s.retry <- strings.TrimPrefix(line, "retry: ")
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			}
		}
	}()
	// The hub registers a client before writing the preamble, so once it is
	// read no broadcast can be missed.
	select {
	case r := <-s.retry:
		if r != "500" {
			t.Fatalf("retry = %q, want 500", r)
		}
	case <-time.After(eventTimeout):
		t.Fatal("no retry preamble")
	}
	return s, cancel
}

func (s *sseStream) next() sseEvent {
	s.t.Helper()
	select {
	case ev, ok := <-s.events:
		if !ok {
			s.t.Fatal("stream ended")
		}
		return ev
	case <-time.After(eventTimeout):
		s.t.Fatal("no event")
	}
	return sseEvent{}
}

func (s *sseStream) ended() bool {
	select {
	case ev, ok := <-s.events:
		if ok {
			s.t.Fatalf("unexpected event %v", ev)
		}
		return true
	case <-time.After(eventTimeout):
		return false
	}
}

func newHubServer(t *testing.T) (*Hub, *httptest.Server) {
	h := NewHub()
	srv := httptest.NewServer(h)
	t.Cleanup(func() { h.Close(); srv.Close() })
	return h, srv
}

func TestHubBroadcastsToAllClients(t *testing.T) {
	h, srv := newHubServer(t)
	a, _ := connect(t, srv)
	b, _ := connect(t, srv)

	h.Reload()
	for _, s := range []*sseStream{a, b} {
		if ev := s.next(); ev.name != "reload" {
			t.Fatalf("got %v, want reload", ev)
		}
	}

	h.Error(ErrorOverlay{
		Title: TitleBootFailed, Message: "x is not defined", File: "src/App.tsx",
		Line: 3, Column: 2, LineText: "  x()", Text: "✘ [ERROR] x is not defined\n\n    src/App.tsx:3:2:",
	})
	for _, s := range []*sseStream{a, b} {
		ev := s.next()
		if ev.name != "error" {
			t.Fatalf("got %v, want error", ev)
		}
		var got map[string]any
		if err := json.Unmarshal([]byte(ev.data), &got); err != nil {
			t.Fatalf("error data %q: %v", ev.data, err)
		}
		want := map[string]any{
			"title": TitleBootFailed, "message": "x is not defined", "file": "src/App.tsx",
			"line": 3.0, "column": 2.0, "lineText": "  x()",
			"text": "✘ [ERROR] x is not defined\n\n    src/App.tsx:3:2:",
		}
		for k, v := range want {
			if got[k] != v {
				t.Errorf("error data %s = %v, want %v", k, got[k], v)
			}
		}
	}

	h.Clear()
	for _, s := range []*sseStream{a, b} {
		if ev := s.next(); ev.name != "ok" {
			t.Fatalf("got %v, want ok", ev)
		}
	}
}

func TestHubSendsActiveErrorOnConnect(t *testing.T) {
	h, srv := newHubServer(t)
	h.Error(ErrorOverlay{Message: "Expected \";\"", File: "src/a.ts", Line: 1, Column: 4, LineText: "let x y"})

	late, _ := connect(t, srv)
	ev := late.next()
	if ev.name != "error" {
		t.Fatalf("late client got %v, want the active error", ev)
	}
	var got ErrorOverlay
	if err := json.Unmarshal([]byte(ev.data), &got); err != nil {
		t.Fatal(err)
	}
	if got.Title != TitleBuildFailed {
		t.Errorf("default title = %q", got.Title)
	}
	wantText := "src/a.ts:1:4: Expected \";\"\n\n    let x y\n        ^"
	if got.Text != wantText {
		t.Errorf("filled-in text =\n%s\nwant\n%s", got.Text, wantText)
	}

	// Reload does not clear the error; Clear does.
	h.Reload()
	if ev := late.next(); ev.name != "reload" {
		t.Fatalf("got %v", ev)
	}
	again, _ := connect(t, srv)
	if ev := again.next(); ev.name != "error" {
		t.Fatalf("after Reload, a new client got %v, want the still-active error", ev)
	}
	h.Clear()
	late.next()
	again.next()

	fresh, _ := connect(t, srv)
	h.Reload()
	if ev := fresh.next(); ev.name != "reload" {
		t.Fatalf("after Clear, a new client first got %v, want no stale error", ev)
	}
}

func TestHubCloseEndsStreams(t *testing.T) {
	h, srv := newHubServer(t)
	s, _ := connect(t, srv)
	h.Close()
	if !s.ended() {
		t.Fatal("stream still open after Close")
	}
	h.Reload() // no-op after Close, must not block
	h.Close()

	resp, err := srv.Client().Get(srv.URL + LiveReloadPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("connect after Close: status %d, want 503", resp.StatusCode)
	}
}

func TestHubRejectsNonGET(t *testing.T) {
	_, srv := newHubServer(t)
	resp, err := srv.Client().Post(srv.URL+LiveReloadPath, "text/plain", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("POST: status %d, want 405", resp.StatusCode)
	}
}

// flushRecorder is a ResponseWriter for fake-time tests: it records what the
// handler has flushed.
type flushRecorder struct {
	mu      sync.Mutex
	hdr     http.Header
	buf     strings.Builder
	flushed string
}

func (r *flushRecorder) Header() http.Header { return r.hdr }
func (r *flushRecorder) WriteHeader(int)     {}
func (r *flushRecorder) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.buf.Write(p)
}
func (r *flushRecorder) Flush() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushed = r.buf.String()
}
func (r *flushRecorder) output() string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.flushed
}

func TestHubHeartbeatAndRequestEnd(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := NewHub()
		defer h.Close()
		ctx, cancel := context.WithCancel(context.Background())
		req := httptest.NewRequestWithContext(ctx, http.MethodGet, LiveReloadPath, nil)
		w := &flushRecorder{hdr: http.Header{}}
		served := make(chan struct{})
		go func() { h.ServeHTTP(w, req); close(served) }()

		time.Sleep(Heartbeat - time.Millisecond)
		synctest.Wait()
		if got := w.output(); got != "retry: 500\n\n" {
			t.Fatalf("before the heartbeat, flushed %q", got)
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if got := w.output(); got != "retry: 500\n\n: ping\n\n" {
			t.Fatalf("at %v, flushed %q; want a heartbeat comment", Heartbeat, got)
		}

		cancel()
		synctest.Wait()
		select {
		case <-served:
		default:
			t.Fatal("ServeHTTP still running after the request context ended")
		}
		h.Reload() // the ended client is unregistered; must not block or panic
	})
}

func TestErrorOverlayFormatCaretUnderNonASCII(t *testing.T) {
	e := ErrorOverlay{File: "a.ts", Line: 2, Column: len("const é = "), Message: "bad", LineText: "const é = ?"}
	want := "a.ts:2:11: bad\n\n    const é = ?\n              ^"
	if got := e.format(); got != want {
		t.Fatalf("format() =\n%q\nwant\n%q", got, want)
	}
	if got := (ErrorOverlay{Message: "boom"}).format(); got != "boom" {
		t.Fatalf("no location: %q", got)
	}
	if got := (ErrorOverlay{LineText: "ab", Column: 99, Message: "m"}).format(); !strings.HasSuffix(got, "\n      ^") {
		t.Fatalf("column past the line should clamp: %q", got)
	}
}
