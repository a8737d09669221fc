package fetch

import (
	"io"
	"net/http"

	"github.com/dop251/goja"

	"bext/web/events"
	"bext/web/streams"
	"bext/web/webidl"
)

// The Go API the engine uses for the fetch-handler contract: an app's
// fetch(request, env, ctx) gets a Request made by NewRequest and returns a
// Response read by ResponseOf. Both run on the isolate's JS goroutine.

// ResponseData is what a fetch handler returned, read from its Response.
type ResponseData struct {
	// Type is the response's type: "default" for one the app made,
	// "basic" for one fetch returned, "error" for Response.error() (which
	// the engine should treat as a failed request).
	Type       string
	Status     int    // 200–599 (0 for Response.error())
	StatusText string // as the app set it ("" by default)
	// Header holds the response's headers, names canonical, values in
	// order; set-cookie values stay separate.
	Header http.Header
	// Body is the whole body when it is known in Go — the app passed a
	// string, BufferSource, Blob, FormData, URLSearchParams or used
	// Response.json — and nil otherwise. It is the caller's to keep.
	Body []byte
	// Stream is the body as a JS ReadableStream when it is not known in
	// Go: the app's own stream, or the network body of a Response that
	// fetch returned (a proxied upstream), which streams as it arrives.
	// Read it with streams.NewReader on the JS goroutine. nil when Body
	// is set or there is no body.
	Stream *goja.Object
	// Used reports a body that was already read (or locked) before the
	// handler returned it: there is nothing left to send.
	Used bool
}

// ResponseOf reads a Response returned by a handler. ok is false when v is
// not a Response. It takes the body: the JS Response's bodyUsed is true
// afterwards.
func ResponseOf(v goja.Value) (*ResponseData, bool) {
	res, ok := webidl.Slot[*response](v)
	if !ok {
		return nil, false
	}
	d := &ResponseData{Type: res.typ, Status: res.status, StatusText: webidl.FromByteString(res.statusText), Header: res.headers.HTTP()}
	b := &res.body
	if b.unusable() {
		d.Used = true
		return d, true
	}
	switch b.kind {
	case bodyBytes:
		d.Body = b.take()
		if d.Body == nil {
			d.Body = []byte{}
		}
		b.used = true
	case bodyNet:
		d.Stream = b.net.stream()
		b.kind, b.stream, b.net = bodyStream, d.Stream, nil
	case bodyStream:
		d.Stream = b.stream
	}
	return d, true
}

// NewRequest makes the JS Request an app's fetch(request, env, ctx)
// handler receives for an incoming HTTP request: method and absURL as the
// client sent them (absURL absolute, e.g. "https://example.com/a?b"), h
// the request's headers (immutable in JS, as Workers and Deno make them),
// src its body (nil = none) and signal the signal that aborts when the
// client goes away (nil = none; it becomes request.signal's source).
//
// A body made by ReaderSource stays in Go until JS asks for
// request.body, so `await request.json()` reads it without a JS stream;
// any other Source becomes a ReadableStream at once.
func NewRequest(r *webidl.Realm, method, absURL string, h http.Header, src streams.Source, sig *events.Signal) *goja.Object {
	s := get(r)
	q := &request{method: method, url: absURL, headers: fromHTTP(h, guardImmutable), redirect: "follow", mode: "cors",
		credentials: "same-origin", cache: "default", referrer: "client", priority: "auto", follows: sig}
	switch b := src.(type) {
	case nil:
	case *netBody:
		b.href = absURL
		q.body = body{kind: bodyNet, net: b, length: b.size}
	default:
		q.body = body{kind: bodyStream, stream: streams.NewReadable(r, b, 0), length: -1}
	}
	return s.request.New(q)
}

// ReaderSource makes a request body for NewRequest that reads rc (size
// bytes, -1 when unknown) on goroutines of the render: all at once when
// the handler calls text(), json(), …, chunk by chunk when it reads
// request.body. rc is closed at the end of the body, when the stream is
// cancelled, and (by the render's context) when the render ends. Bound
// its size with http.MaxBytesReader.
func ReaderSource(r *webidl.Realm, rc io.ReadCloser, size int64) streams.Source {
	return &netBody{s: get(r), rc: rc, size: size}
}
