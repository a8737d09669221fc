package fetch

import (
	"fmt"
	"time"

	"github.com/dop251/goja"

	"bext/web/streams"
	"bext/web/url"
	"bext/web/webidl"
)

// Globals are the global names Install defines.
var Globals = []string{"Headers", "Request", "Response", "fetch", "FormData", "Blob", "File"}

// Defaults of Options; a zero field means its default.
const (
	DefaultTimeout          = 30 * time.Second
	DefaultConnectTimeout   = 10 * time.Second
	DefaultMaxResponseBytes = 32 << 20
	DefaultMaxRedirects     = 20
	DefaultUserAgent        = "bext"
)

// Options configure fetch ([fetch] in config.toml). The zero value of each
// field means its default; a negative duration or size means "none".
type Options struct {
	// Timeout bounds one fetch from sending the request to the last byte
	// of the response body. 0 = DefaultTimeout (30 s); negative = none,
	// the render's own deadline still applies (every fetch is cancelled
	// when the render that made it ends).
	Timeout time.Duration
	// ConnectTimeout bounds connecting (DNS, TCP and TLS handshake) to a
	// host. 0 = DefaultConnectTimeout (10 s); negative = none.
	ConnectTimeout time.Duration
	// MaxResponseBytes bounds the (decoded) body of one response, so a
	// huge or endless upstream cannot exhaust memory: a body over it fails
	// with a TypeError naming the limit. 0 = DefaultMaxResponseBytes
	// (32 MiB); negative = no limit.
	MaxResponseBytes int64
	// BaseURL is the base against which relative URLs resolve in fetch,
	// new Request and Response.redirect, so fetch("/api/x") reaches the
	// app's own server without a hard-coded host (e.g.
	// "http://127.0.0.1:3000"). Empty = a relative URL is a TypeError, as
	// in Node.
	BaseURL string
	// MaxRedirects is how many redirects one fetch follows (redirect:
	// "follow") before failing. 0 = DefaultMaxRedirects (20, the Fetch
	// Standard's number); negative = none is followed.
	MaxRedirects int
	// UserAgent is sent as User-Agent when the app sets none.
	// "" = DefaultUserAgent ("bext").
	UserAgent string
}

// Validate reports an Options the config layer should refuse at start-up:
// a BaseURL that is not an absolute http(s) URL, a UserAgent that is no
// valid header value.
func (o Options) Validate() error {
	if o.BaseURL != "" {
		u, err := url.ParseURL(o.BaseURL, "")
		if err != nil || (u.Scheme() != "http" && u.Scheme() != "https") {
			return fmt.Errorf("fetch base URL %q is not an absolute http(s) URL", o.BaseURL)
		}
	}
	if v := normalizeValue(o.UserAgent); v != o.UserAgent || !validValue(v) {
		return fmt.Errorf("fetch user agent %q is not a valid header value", o.UserAgent)
	}
	return nil
}

// resolved returns o with its defaults filled in; limits that are off are
// 0 (durations, sizes) or -1 (redirects).
func (o Options) resolved() Options {
	switch {
	case o.Timeout == 0:
		o.Timeout = DefaultTimeout
	case o.Timeout < 0:
		o.Timeout = 0
	}
	switch {
	case o.ConnectTimeout == 0:
		o.ConnectTimeout = DefaultConnectTimeout
	case o.ConnectTimeout < 0:
		o.ConnectTimeout = 0
	}
	switch {
	case o.MaxResponseBytes == 0:
		o.MaxResponseBytes = DefaultMaxResponseBytes
	case o.MaxResponseBytes < 0:
		o.MaxResponseBytes = 0
	}
	switch {
	case o.MaxRedirects == 0:
		o.MaxRedirects = DefaultMaxRedirects
	case o.MaxRedirects < 0:
		o.MaxRedirects = 0
	}
	if o.UserAgent == "" {
		o.UserAgent = DefaultUserAgent
	}
	return o
}

type optsKey struct{}

// Configure records o as r's fetch options; call it before Install.
func Configure(r *webidl.Realm, o Options) {
	*webidl.Value(r, optsKey{}, func() *Options { return new(Options) }) = o
}

type key struct{}

// state is the Fetch Standard in one realm: its classes and the
// intrinsics it captured at install.
type state struct {
	r    *webidl.Realm
	rt   *goja.Runtime
	opts Options

	headers, request, response, blob, file, formData *webidl.Class

	jsonParse, jsonStringify goja.Callable
	client                   *client
}

// Install defines Globals in r (once per realm), after the specs it builds
// on: events (AbortSignal), url and streams.
func Install(r *webidl.Realm) { get(r) }

func get(r *webidl.Realm) *state {
	return webidl.Value(r, key{}, func() *state { return install(r) })
}

func install(r *webidl.Realm) *state {
	installDeps(r)
	streams.Install(r)
	rt := r.RT
	o, _ := webidl.Lookup[*Options](r, optsKey{})
	if o == nil {
		o = new(Options)
	}
	s := &state{r: r, rt: rt, opts: o.resolved()}
	json := rt.Get("JSON").ToObject(rt)
	s.jsonParse, _ = goja.AssertFunction(json.Get("parse"))
	s.jsonStringify, _ = goja.AssertFunction(json.Get("stringify"))
	s.client = clientFor(s.opts)
	s.installHeaders()
	s.installBlob()
	s.installFormData()
	s.installResponse()
	s.installRequest()
	r.Global("Headers", s.headers.Ctor)
	r.Global("Blob", s.blob.Ctor)
	r.Global("File", s.file.Ctor)
	r.Global("FormData", s.formData.Ctor)
	r.Global("Response", s.response.Ctor)
	r.Global("Request", s.request.Ctor)
	r.Global("fetch", r.Func("fetch", 1, s.fetch))
	return s
}

func (s *state) typeError(format string, args ...any) { s.r.TypeError(format, args...) }
