package fetch_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"bext/engine"
	"bext/web/fetch"
	"bext/web/internal/webtest"
)

// The fetch tests that need Go around them: options, the render's
// context, limits. The behaviour shared with Node is in the conformance
// cases (testdata/conformance/fetch.js).

func TestBaseURL(t *testing.T) {
	ts := newTestServer(t)
	w := webtest.New(t, "", fetch.Options{BaseURL: ts.URL + "/base/"})
	got := w.Must(`
const a = await (await fetch("/echo?x=1")).json();
const req = new Request("rel");
const loc = Response.redirect("/echo").headers.get("location");
return [a.url, req.url, loc];`)
	want := `["/echo?x=1","` + ts.URL + `/base/rel","` + ts.URL + `/echo"]`
	if got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	none := webtest.New(t, "", fetch.Options{})
	got = none.Must(`try { await fetch("/echo"); return "resolved" } catch (e) { return e.name + ": " + e.message }`)
	if got != "TypeError: Failed to parse URL from /echo" {
		t.Fatalf("without a base URL: %s", got)
	}
}

func TestUserAgent(t *testing.T) {
	ts := newTestServer(t)
	for _, c := range []struct {
		o    fetch.Options
		want string
	}{{fetch.Options{}, "bext"}, {fetch.Options{UserAgent: "bext/1.2 (+https://example.com)"}, "bext/1.2 (+https://example.com)"}} {
		got := webtest.New(t, "", c.o).Must(`return (await (await fetch("` + ts.URL + `/echo")).json()).headers["user-agent"]`)
		if got != c.want {
			t.Errorf("User-Agent %q, want %q", got, c.want)
		}
	}
}

func TestUnreachable(t *testing.T) {
	ts := newTestServer(t)
	w := webtest.New(t, "", fetch.Options{})
	host := strings.TrimPrefix(ts.closed, "http://")
	got := w.Must(`try { await fetch("` + ts.closed + `/x"); } catch (e) { return [e.name, e.message, e.cause instanceof Error, e.cause.message, e.cause.code] }`)
	want := `["TypeError","fetch failed: connect ECONNREFUSED ` + host + ` (` + ts.closed + `/x)",true,"connect ECONNREFUSED ` + host + `","ECONNREFUSED"]`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	got = w.Must(`try { await fetch("http://127.0.0.1:1/x"); } catch (e) { return e.message }`)
	if got != "fetch failed: bad port (http://127.0.0.1:1/x)" {
		t.Fatalf("a blocked port: %s", got)
	}
}

func TestSizeLimit(t *testing.T) {
	ts := newTestServer(t)
	w := webtest.New(t, "", fetch.Options{MaxResponseBytes: 1000})
	const msg = "the response body is larger than the limit of 1000 bytes"
	// Content-Length over the limit: fetch itself rejects.
	got := w.Must(`try { await fetch("` + ts.URL + `/bytes/1001"); return "resolved" } catch (e) { return e.name + ": " + e.message }`)
	if !strings.HasPrefix(got, "TypeError: ") || !strings.Contains(got, msg) {
		t.Errorf("Content-Length over the limit: %s", got)
	}
	if got := w.Must(`return (await (await fetch("` + ts.URL + `/bytes/1000")).arrayBuffer()).byteLength`); got != "1000" {
		t.Errorf("a body at the limit: %s", got)
	}
	// An endless body: text() rejects, a stream errors; the server sees the request end.
	for _, read := range []string{`await r.text()`, `await new Response(r.body).arrayBuffer()`, `for (const rd = r.body.getReader();;) { if ((await rd.read()).done) break }`} {
		got := w.Must(`const r = await fetch("` + ts.URL + `/big"); try { ` + read + `; return "read it all" } catch (e) { return e.name + ": " + e.message }`)
		if !strings.HasPrefix(got, "TypeError: ") || !strings.Contains(got, msg) {
			t.Errorf("%s: %s", read, got)
		}
	}
	// A gzip bomb counts decoded bytes.
	if got := w.Must(`const r = await fetch("` + ts.URL + `/encoded/gzip?n=1000"); try { await r.text(); return "ok" } catch (e) { return e.message }`); !strings.Contains(got, msg) {
		t.Errorf("decoded bytes over the limit: %s", got)
	}
}

func TestTimeout(t *testing.T) {
	ts := newTestServer(t)
	w := webtest.New(t, "", fetch.Options{Timeout: 50 * time.Millisecond})
	got := w.Must(`try { await fetch("` + ts.URL + `/hang"); return "resolved" } catch (e) { return [e.name, e.message, e.cause.code] }`)
	want := `["TypeError","fetch failed: request timed out after 50ms (` + ts.URL + `/hang)","UND_ERR_TIMEOUT"]`
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	got = w.Must(`const r = await fetch("` + ts.URL + `/half"); try { await r.text(); return "read" } catch (e) { return e.message }`)
	if got != "terminated: request timed out after 50ms ("+ts.URL+"/half)" {
		t.Fatalf("a body that stalls: %s", got)
	}
}

// TestRenderEndAbortsFetch: when the render's context ends (timeout,
// client gone), the Go request is cancelled — the server sees it go.
func TestRenderEndAbortsFetch(t *testing.T) {
	arrived, gone := make(chan struct{}), make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/body" {
			w.Write([]byte("first"))
			w.(http.Flusher).Flush()
		}
		close(arrived)
		<-r.Context().Done()
		close(gone)
	}))
	defer srv.Close()
	for _, path := range []string{"/headers", "/body"} {
		arrived, gone = make(chan struct{}), make(chan struct{})
		p, err := engine.Compile("t.js", []byte(`globalThis.render = async () => { const r = await fetch("`+srv.URL+path+`"); return await r.text(); };`))
		if err != nil {
			t.Fatal(err)
		}
		iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler)})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan error, 1)
		go func() {
			_, err := iso.Render(ctx, engine.NewRequest("GET", "/"))
			done <- err
		}()
		wait(t, arrived, path+": the request never arrived")
		cancel()
		wait(t, gone, path+": the server never saw the request cancelled")
		if err := <-done; err == nil {
			t.Fatalf("%s: the render succeeded", path)
		}
		// The isolate is fine afterwards; nothing late breaks it.
		iso.Close()
	}
}

func wait(t *testing.T, ch <-chan struct{}, msg string) {
	t.Helper()
	select {
	case <-ch:
	case <-time.After(10 * time.Second):
		t.Fatal(msg)
	}
}

// TestRedirectHeaders: credentials do not follow a redirect to another
// origin.
func TestRedirectHeaders(t *testing.T) {
	other := newTestServer(t)
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/same" {
			http.Redirect(w, r, "/echo-here", http.StatusFound)
			return
		}
		if r.URL.Path == "/echo-here" {
			w.Write([]byte(r.Header.Get("Authorization") + "|" + r.Header.Get("Cookie")))
			return
		}
		http.Redirect(w, r, other.URL+"/echo", http.StatusFound)
	}))
	defer ts.Close()
	w := webtest.New(t, "", fetch.Options{})
	got := w.Must(`
const init = { headers: { authorization: "Bearer x", cookie: "a=b", "x-keep": "1" } };
const cross = await (await fetch("` + ts.URL + `/cross", init)).json();
const same = await (await fetch("` + ts.URL + `/same", init)).text();
return [cross.headers.authorization ?? null, cross.headers.cookie ?? null, cross.headers["x-keep"], same];`)
	if got != `[null,null,"1","Bearer x|a=b"]` {
		t.Fatalf("got %s", got)
	}
}

func TestMaxRedirectsOption(t *testing.T) {
	ts := newTestServer(t)
	w := webtest.New(t, "", fetch.Options{MaxRedirects: 2})
	got := w.Must(`
const ok = (await fetch("` + ts.URL + `/redirect/302/2")).status;
let err; try { await fetch("` + ts.URL + `/redirect/302/3") } catch (e) { err = e.cause.message }
return [ok, err];`)
	if got != `[200,"redirect count exceeded"]` {
		t.Fatalf("got %s", got)
	}
	none := webtest.New(t, "", fetch.Options{MaxRedirects: -1})
	got = none.Must(`try { await fetch("` + ts.URL + `/redirect/302/1"); return "followed" } catch (e) { return e.cause.message }`)
	if got != "redirect count exceeded" {
		t.Fatalf("MaxRedirects < 0: %s", got)
	}
}

// TestStreamedRequestBody: a request body streams to the server as JS
// produces it — the server has the first chunk before JS makes the second.
func TestStreamedRequestBody(t *testing.T) {
	gotFirst := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/wait-first" {
			<-gotFirst
			return
		}
		buf := make([]byte, 64)
		n, _ := r.Body.Read(buf)
		first := string(buf[:n])
		close(gotFirst)
		rest, _ := io.ReadAll(r.Body)
		w.Write([]byte(first + "|" + string(rest)))
	}))
	defer srv.Close()
	w := webtest.New(t, "", fetch.Options{})
	got := w.Must(`
let n = 0;
const body = new ReadableStream({ async pull(c) {
  n++;
  if (n === 1) c.enqueue(new TextEncoder().encode("one;"));
  else if (n === 2) { await fetch("` + srv.URL + `/wait-first"); c.enqueue(new TextEncoder().encode("two;")); }
  else c.close();
} });
return await (await fetch("` + srv.URL + `/upload", { method: "POST", body, duplex: "half" })).text();`)
	if got != "one;|two;" {
		t.Fatalf("got %q", got)
	}
}

// TestAbortCancelsTheRequest: aborting a fetch's signal rejects it (or
// errors its body) with the reason, and the server sees the request go.
func TestAbortCancelsTheRequest(t *testing.T) {
	ts := newTestServer(t)
	gone := make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/half" {
			io.WriteString(w, "first")
			w.(http.Flusher).Flush()
		}
		ts.hang <- struct{}{} // JS's fetch of /wait-hang returns: the request is here
		<-r.Context().Done()
		gone <- struct{}{}
	}))
	defer srv.Close()
	w := webtest.New(t, "", fetch.Options{})
	for _, c := range []struct{ name, js string }{
		{"waiting for the response", `const c = new AbortController();
			const p = fetch("` + srv.URL + `/hang", {signal: c.signal});
			await fetch("` + ts.URL + `/wait-hang"); c.abort(); await p;`},
		{"reading text()", `const c = new AbortController();
			const r = await fetch("` + srv.URL + `/half", {signal: c.signal});
			const p = r.text(); await fetch("` + ts.URL + `/wait-hang"); c.abort(); await p;`},
		{"reading the stream", `const c = new AbortController();
			const r = await fetch("` + srv.URL + `/half", {signal: c.signal});
			const rd = r.body.getReader(); await rd.read(); await fetch("` + ts.URL + `/wait-hang"); c.abort(); await rd.read();`},
		{"the Request's signal", `const c = new AbortController();
			const p = fetch(new Request("` + srv.URL + `/hang", {signal: c.signal}));
			await fetch("` + ts.URL + `/wait-hang"); c.abort(); await p;`},
	} {
		got := w.Must(`try { ` + c.js + ` return "not aborted" } catch (e) { return e.name + ": " + e.message }`)
		if got != "AbortError: This operation was aborted" {
			t.Errorf("%s: %s", c.name, got)
		}
		wait(t, gone, c.name+": the server never saw the request go")
	}
}

func TestOptionsValidate(t *testing.T) {
	for _, c := range []struct {
		o  fetch.Options
		ok bool
	}{
		{fetch.Options{}, true},
		{fetch.Options{BaseURL: "http://127.0.0.1:3000", UserAgent: "bext/1"}, true},
		{fetch.Options{BaseURL: "https://example.com/app/"}, true},
		{fetch.Options{BaseURL: "/relative"}, false},
		{fetch.Options{BaseURL: "ftp://example.com/"}, false},
		{fetch.Options{UserAgent: "a\nb"}, false},
		{fetch.Options{UserAgent: " padded"}, false},
	} {
		if err := c.o.Validate(); (err == nil) != c.ok {
			t.Errorf("%+v: %v", c.o, err)
		}
	}
}
