package fetch

import (
	"net/http"

	"github.com/dop251/goja"

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
