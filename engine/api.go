package engine

import (
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/dop251/goja"

	"bext/web/fetch"
)

// Request is the value a render function receives as `req`.
type Request struct {
	Method  string            `json:"method"`
	URL     string            `json:"url"` // path plus "?query" when there is one
	Path    string            `json:"path"`
	Query   map[string]string `json:"query"`   // first value of each key
	Headers map[string]string `json:"headers"` // lower-case names; repeated values joined with ", "

	// For a fetch handler's Request (render(req) does not see them):
	// Origin is "scheme://host" the absolute URL starts with ("" =
	// http://localhost), Header the request's headers (nil = from
	// Headers), Body its body (nil = none; closed by the caller) of
	// BodySize bytes (-1 = unknown).
	Origin   string        `json:"-"`
	Header   http.Header   `json:"-"`
	Body     io.ReadCloser `json:"-"`
	BodySize int64         `json:"-"`
	// Writer, when set, receives responses the engine writes itself:
	// streamed bodies and responses sent before ctx.waitUntil work ends.
	// Without one a stream is read in full into Response.HTML.
	Writer ResponseWriter `json:"-"`
}

// NewRequest is the request for target (a path with an optional "?query")
// as render(req) receives it: Query holds the first value of each key,
// Headers is empty and ready to fill.
func NewRequest(method, target string) *Request {
	path, raw, _ := strings.Cut(target, "?")
	q := map[string]string{}
	values, _ := url.ParseQuery(raw)
	for k, v := range values {
		q[k] = v[0]
	}
	return &Request{Method: method, URL: target, Path: path, Query: q, Headers: map[string]string{}}
}

// Response is what a render produced: a plain string becomes Status 200
// with no extra headers.
type Response struct {
	Status  int
	Headers http.Header // canonical names; nil when the render set none
	HTML    string
	// Written: the response went through Request.Writer (Status is what
	// was sent); nothing is left to write. ClientGone: the client went
	// away while it streamed.
	Written, ClientGone bool
	// Object: it came from a Response object, whose headers are the app's
	// to set (bext adds no default Content-Type or Cache-Control).
	Object bool
}

// ConsoleLine is one captured console.* call of an isolate.
type ConsoleLine struct {
	At    time.Time `json:"at"`
	Level string    `json:"level"` // log, info, warn, error, debug
	Text  string    `json:"text"`
}

// Options configure one isolate.
type Options struct {
	WorkerID         int               // for log lines
	Env              map[string]string // the app's variables ([app.env]): process.env, and env of a fetch handler
	NodeEnv          string            // process.env.NODE_ENV unless Env sets it; "" = "production"
	ConsoleLines     int               // console ring size; 0 means 200
	Log              *slog.Logger      // console lines are logged here with worker=id; nil = slog.Default()
	MaxCallStackSize int               // 0 means engine default
	InterruptGrace   time.Duration     // how long an interrupted render may take to return before it is abandoned; 0 = 1s
	Fetch            fetch.Options     // fetch() settings ([fetch])
	// MaxAllocation bounds what one call of an allocating built-in may
	// ask for, in bytes (0 = no bound): see installAllocationChecks.
	MaxAllocation int64
	// WaitUntil bounds a fetch handler's ctx.waitUntil work after its
	// response; 0 = 30 s.
	WaitUntil time.Duration

	testHooks   bool          // installs globalThis.__bext_test_panic(msg), a host function that panics in Go
	bootTimeout time.Duration // 0 = defaultBootTimeout; tests shorten it
}

// Program is a server bundle compiled once; safe to share by many isolates.
type Program struct {
	prog *goja.Program
	Name string // file name shown in stacks
	Hash string // short content hash, for logs and /__bext/workers
	Size int    // bytes of source
}
