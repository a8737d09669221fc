package engine

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"
)

func handlerIsolate(t testing.TB, o Options) *Isolate {
	return newTestIsolate(t, "fetch-handler", "server.js", o)
}

// req makes a fetch-handler request for target with a body.
func req(method, target, contentType, body string) *Request {
	r := NewRequest(method, target)
	r.Origin = "http://shop.example"
	r.Header = http.Header{"Accept": {"text/html"}}
	if contentType != "" {
		r.Header.Set("Content-Type", contentType)
	}
	if body != "" {
		r.Body, r.BodySize = io.NopCloser(strings.NewReader(body)), int64(len(body))
	}
	return r
}

// The handler gets a real Request (absolute URL, method, headers, signal),
// env from Options.Env, and is called as a method of the export.
func TestFetchHandlerGetsARequestAndEnv(t *testing.T) {
	iso := handlerIsolate(t, Options{Env: map[string]string{"API": "https://api.example"}})
	resp := mustRender(t, iso, req("GET", "/request?x=1", "", ""))
	var got map[string]any
	if err := json.Unmarshal([]byte(resp.HTML), &got); err != nil {
		t.Fatalf("%v: %s", err, resp.HTML)
	}
	want := map[string]any{"url": "http://shop.example/request?x=1", "method": "GET", "isRequest": true, "accept": "text/html",
		"env": map[string]any{"API": "https://api.example"}, "signal": true, "thisIsHandler": true}
	for k, v := range want {
		if b1, _ := json.Marshal(got[k]); string(b1) != mustJSON(v) {
			t.Errorf("%s = %s, want %s", k, b1, mustJSON(v))
		}
	}
	if resp.Status != 200 || resp.Headers.Get("Content-Type") != "application/json" || !resp.Object {
		t.Fatalf("Response.json: %d %v object=%v", resp.Status, resp.Headers, resp.Object)
	}
}

func mustJSON(v any) string { b, _ := json.Marshal(v); return string(b) }

// Request bodies: text, JSON, urlencoded and multipart forms.
func TestFetchHandlerReadsBodies(t *testing.T) {
	iso := handlerIsolate(t, Options{})
	if r := mustRender(t, iso, req("POST", "/text", "text/plain", "hello body")); r.HTML != "hello body" {
		t.Errorf("text: %q", r.HTML)
	}
	if r := mustRender(t, iso, req("PUT", "/json", "application/json", `{"a":[1,2]}`)); r.HTML != `{"got":{"a":[1,2]}}` {
		t.Errorf("json: %q", r.HTML)
	}
	if r := mustRender(t, iso, req("POST", "/form", "application/x-www-form-urlencoded", "name=Ada+L&x=%C3%A9")); r.HTML != `{"name":"Ada L","x":"é"}` {
		t.Errorf("urlencoded form: %q", r.HTML)
	}
	var b strings.Builder
	mw := multipart.NewWriter(&b)
	mw.WriteField("title", "report")
	fw, _ := mw.CreateFormFile("file", "a.txt")
	fw.Write([]byte("file body"))
	mw.Close()
	r := mustRender(t, iso, req("POST", "/form", mw.FormDataContentType(), b.String()))
	if r.HTML != `{"title":"report","file":{"name":"a.txt","type":"application/octet-stream","text":"file body"}}` {
		t.Errorf("multipart form: %q", r.HTML)
	}
}

// Without a Writer a streamed body is read in full; status and headers
// are the Response's.
func TestFetchHandlerStreamWithoutWriter(t *testing.T) {
	iso := handlerIsolate(t, Options{})
	r := mustRender(t, iso, req("GET", "/stream", "", ""))
	if r.HTML != "part 0;part 1;part 2;" || r.Status != 201 || r.Headers.Get("X-Kind") != "stream" {
		t.Fatalf("stream: %d %v %q", r.Status, r.Headers, r.HTML)
	}
}

// recorder is an engine.ResponseWriter that records what it is given.
type recorder struct {
	mu     sync.Mutex
	events []string
	status int
	header http.Header
	body   strings.Builder
	ended  chan error
	fail   bool // Write fails: the client is gone
}

func newRecorder() *recorder { return &recorder{ended: make(chan error, 1)} }

func (w *recorder) WriteHeader(worker, status int, h http.Header) {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.events = append(w.events, "header")
	w.status, w.header = status, h
}
func (w *recorder) Write(p []byte) error {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.fail {
		return errors.New("client gone")
	}
	w.events = append(w.events, "chunk:"+string(p))
	w.body.Write(p)
	return nil
}
func (w *recorder) End(err error) {
	w.mu.Lock()
	w.events = append(w.events, "end")
	w.mu.Unlock()
	w.ended <- err
}

// A stream goes to the Writer as it is produced, then End; chunks ready
// one after the other go in one write, one that comes a timer later in the
// next. The Response says it was written.
func TestFetchHandlerStreamsThroughTheWriter(t *testing.T) {
	iso := handlerIsolate(t, Options{})
	r := req("GET", "/stream", "", "")
	w := newRecorder()
	r.Writer = w
	resp := mustRender(t, iso, r)
	if !resp.Written || resp.Status != 201 {
		t.Fatalf("resp %+v", resp)
	}
	if got := strings.Join(w.events, " "); got != "header chunk:part 0;part 1; chunk:part 2; end" {
		t.Fatalf("writer saw %q", got)
	}
	if err := <-w.ended; err != nil || w.header.Get("X-Kind") != "stream" {
		t.Fatalf("End(%v), header %v", err, w.header)
	}
	if got := consoleText(iso); got != "" {
		t.Fatalf("a complete response aborted request.signal: console %q", got)
	}
	// HEAD: the status and headers, no chunk.
	r = req("HEAD", "/stream", "", "")
	w = newRecorder()
	r.Writer = w
	mustRender(t, iso, r)
	if got := strings.Join(w.events, " "); got != "header end" {
		t.Fatalf("HEAD: writer saw %q", got)
	}
}

// A stream that errors after its first chunk breaks the response off
// (End with the error) and fails the render without killing the isolate;
// a chunk that is not a Uint8Array is named.
func TestFetchHandlerStreamErrors(t *testing.T) {
	iso := handlerIsolate(t, Options{})
	r := req("GET", "/stream-error", "", "")
	w := newRecorder()
	r.Writer = w
	_, err := iso.Render(context.Background(), r)
	var re *RenderError
	if !errors.As(err, &re) || !re.Written || re.Fatal() || !strings.Contains(re.Message, "upstream broke") {
		t.Fatalf("stream error: %v", err)
	}
	if e := <-w.ended; e == nil || w.body.String() != "first;" {
		t.Fatalf("End(%v) after %q", e, w.body.String())
	}
	_, err = iso.Render(context.Background(), req("GET", "/stream-string", "", ""))
	if err == nil || !strings.Contains(err.Error(), "Uint8Array") || !strings.Contains(err.Error(), "string") {
		t.Fatalf("string chunk: %v", err)
	}
	if r := mustRender(t, iso, req("GET", "/text", "", "")); r.Status != 200 {
		t.Fatal("isolate unusable after stream errors")
	}
}

// A client that goes away mid-stream stops the stream; the render ends
// without an error and the isolate serves on.
func TestFetchHandlerClientGoneMidStream(t *testing.T) {
	iso := handlerIsolate(t, Options{})
	r := req("GET", "/stream", "", "")
	w := newRecorder()
	w.fail = true
	r.Writer = w
	resp := mustRender(t, iso, r)
	if !resp.ClientGone || <-w.ended == nil {
		t.Fatalf("resp %+v", resp)
	}
	if got := consoleText(iso); got != "stream aborted: AbortError" {
		t.Fatalf("request.signal: console %q, want its abort listener's line", got)
	}
	if r := mustRender(t, iso, req("GET", "/stream", "", "")); r.HTML != "part 0;part 1;part 2;" {
		t.Fatalf("next render: %q", r.HTML)
	}
}

// request.signal aborts, and its listeners run, when the request ends
// before its response (the client left, the render timed out), as in
// Workers and Node — though the render's JS was interrupted.
func TestFetchHandlerSignalAbortsWhenTheRequestEnds(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		iso := handlerIsolate(t, Options{})
		ctx, cancel := context.WithCancelCause(context.Background())
		time.AfterFunc(time.Minute, func() { cancel(errors.New("client gone")) })
		_, err := iso.Render(ctx, req("GET", "/abort-wait", "", ""))
		var re *RenderError
		if !errors.As(err, &re) || re.Kind != KindTimeout {
			t.Fatalf("render: %v", err)
		}
		if got := consoleText(iso); got != "aborted true AbortError\nabort microtask ran" {
			t.Fatalf("console: %q", got)
		}
	})
}

// consoleText is the isolate's console lines, one a line.
func consoleText(iso *Isolate) string {
	var lines []string
	for _, l := range iso.Console() {
		lines = append(lines, l.Text)
	}
	return strings.Join(lines, "\n")
}

// ctx.waitUntil: with a Writer the response is sent (End) before the
// waitUntil work runs, and the render returns once it settled.
func TestFetchHandlerWaitUntil(t *testing.T) {
	iso := handlerIsolate(t, Options{})
	r := req("GET", "/wait", "", "")
	w := newRecorder()
	r.Writer = w
	resp := mustRender(t, iso, r)
	if !resp.Written || strings.Join(w.events, " ") != "header chunk:sent end" {
		t.Fatalf("resp %+v, writer %v", resp, w.events)
	}
	if got := mustRender(t, iso, req("GET", "/waited", "", "")).HTML; got != "1" {
		t.Fatalf("the waitUntil work ran %s times before the next render, want 1", got)
	}
}

// waitUntil work is bounded (Options.WaitUntil, in fake time): the render
// returns without error when the bound passes and the isolate serves on.
func TestFetchHandlerWaitUntilBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		iso := handlerIsolate(t, Options{WaitUntil: time.Minute})
		r := req("GET", "/wait-forever", "", "")
		w := newRecorder()
		r.Writer = w
		start := time.Now()
		resp, err := iso.Render(context.Background(), r)
		if err != nil || !resp.Written {
			t.Fatalf("%v %+v", err, resp)
		}
		if d := time.Since(start); d != time.Minute {
			t.Fatalf("the render returned after %v, want the one-minute bound", d)
		}
		if r := mustRender(t, iso, req("GET", "/text", "", "")); r.Status != 200 {
			t.Fatal("isolate unusable after dropped waitUntil work")
		}
	})
}

// Bad results name what came back; the isolate stays usable.
func TestFetchHandlerBadResults(t *testing.T) {
	iso := handlerIsolate(t, Options{})
	for path, want := range map[string]string{
		"/not-response": "the fetch handler must return a Response (or a Promise of one); it returned an object",
		"/error":        "Response.error()",
		"/used":         "already read",
		"/throws":       "TypeError: handler threw",
	} {
		_, err := iso.Render(context.Background(), req("GET", path, "", ""))
		var re *RenderError
		if !errors.As(err, &re) || re.Fatal() || !strings.Contains(re.Message, want) {
			t.Errorf("%s: %v, want %q", path, err, want)
		}
	}
	if r := mustRender(t, iso, req("GET", "/redirect", "", "")); r.Status != 307 || r.Headers.Get("Location") != "http://shop.example/text" {
		t.Fatalf("redirect: %d %v", r.Status, r.Headers)
	}
}

// render(req) may return a Response (streamed here); plain results are
// unchanged.
func TestRenderMayReturnAResponse(t *testing.T) {
	iso := newTestIsolate(t, "fetch-handler", "render.js", Options{})
	if r := mustRender(t, iso, get("/a")); r.HTML != "<p>/a</p>" || !r.Object || r.Headers.Get("Content-Type") != "text/html; charset=utf-8" {
		t.Fatalf("Response from render: %+v", r)
	}
	if r := mustRender(t, iso, get("/plain")); r.HTML != "<p>plain</p>" || r.Object {
		t.Fatalf("string from render: %+v", r)
	}
}

// globalThis.health is the bundle's own health check: true or a promise of
// it passes; false, a throw or a rejection fails with the isolate kept; a
// bundle without one says so.
func TestHealthFunction(t *testing.T) {
	iso := newTestIsolate(t, "health", "server.js", Options{})
	ctx := t.Context()
	for _, c := range []struct{ path, want string }{
		{"/ok", ""}, {"/false", "health() returned false"}, {"/throw", "database unreachable"}, {"/ok", ""},
	} {
		mustRender(t, iso, get(c.path))
		err := iso.Health(ctx)
		switch {
		case c.want == "" && err != nil:
			t.Errorf("after %s: %v, want a pass", c.path, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("after %s: %v, want a failure naming %q", c.path, err, c.want)
		}
	}
	if none := newTestIsolate(t, "contracts", "render.js", Options{}); !errors.Is(none.Health(ctx), ErrNoHealth) {
		t.Error("a bundle without globalThis.health: want ErrNoHealth")
	}
}
