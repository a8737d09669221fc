package fetch

import (
	"slices"
	"strings"

	"github.com/dop251/goja"

	"bext/web/url"
	"bext/web/webidl"
)

// request is the Go state of a Request (Fetch §2.2.5 and §5.4). Fields
// no server acts on (cache, credentials, mode, referrer, …) are validated
// and reflected as undici does.
type request struct {
	method         string
	url            string
	parsed         url.URL // url, parsed
	headers        *headerList
	body           body
	redirect       string
	mode           string
	credentials    string
	cache          string
	referrer       string // "client", "no-referrer" or a URL
	referrerPolicy string
	integrity      string
	priority       string
	keepalive      bool
	reload         bool
	history        bool

	follows signal // the signal this request's signal follows, nil for none
	sig     signal // this request's own signal, made on first .signal
	abort   func(goja.Value)
}

// target is the request's URL, parsed (requests made from Go parse it
// on first use).
func (q *request) target() url.URL {
	if q.parsed.Href() == "" {
		q.parsed, _ = url.ParseURL(q.url, "")
	}
	return q.parsed
}

// signal returns the signal whose abort aborts this request (its own, or
// the one it follows when it has not made its own yet).
func (q *request) signal() signal {
	if q.sig != nil {
		return q.sig
	}
	return q.follows
}

var (
	forbiddenMethods = []string{"CONNECT", "TRACE", "TRACK"}
	normalMethods    = []string{"DELETE", "GET", "HEAD", "OPTIONS", "POST", "PUT"}
	// requestBodyHeaders are dropped when a redirect turns a request into a GET.
	requestBodyHeaders = []string{"content-encoding", "content-language", "content-location", "content-type"}
)

func (s *state) enum(v goja.Value, what string, allowed ...string) string {
	str := s.r.String(v)
	if !slices.Contains(allowed, str) {
		s.typeError("Request constructor: %s is not an accepted type. Expected one of %s.", str, strings.Join(allowed, ", "))
	}
	return str
}

// requestInit holds a RequestInit's members, read in the order WebIDL's
// dictionary conversion reads them (lexicographic).
type requestInit struct {
	present                                                                 bool
	body, cache, credentials, duplex, headers, integrity, keepalive, method goja.Value
	mode, priority, redirect, referrer, referrerPolicy, signal, window      goja.Value
	hasBody, hasSignal                                                      bool
}

func (s *state) readInit(v goja.Value) requestInit {
	d := s.r.Dict(v, "Request constructor")
	var in requestInit
	if d == nil {
		return in
	}
	m := func(name string) goja.Value {
		x := webidl.Member(d, name)
		if x != nil {
			in.present = true
		}
		return x
	}
	in.body = m("body")
	in.cache = m("cache")
	in.credentials = m("credentials")
	in.duplex = m("duplex")
	in.headers = m("headers")
	in.integrity = m("integrity")
	in.keepalive = m("keepalive")
	in.method = m("method")
	in.mode = m("mode")
	in.priority = m("priority")
	in.redirect = m("redirect")
	in.referrer = m("referrer")
	in.referrerPolicy = m("referrerPolicy")
	in.signal = m("signal")
	in.window = m("window")
	in.hasBody = in.body != nil && !goja.IsNull(in.body)
	in.hasSignal = in.signal != nil
	return in
}

// newRequest is the Request constructor's steps.
func (s *state) newRequest(input, initV goja.Value) *request {
	r := s.r
	var q request
	var inputReq *request
	if in, ok := webidl.Slot[*request](input); ok {
		inputReq = in
		q = *in
		q.headers = in.headers.clone()
		q.body = body{}
		q.sig, q.abort = nil, nil
		q.follows = in.signal()
	} else {
		u := s.parseURL(input)
		href := u.Href()
		if u.Username() != "" || u.Password() != "" {
			s.typeError("Request cannot be constructed from a URL that includes credentials: %s", href)
		}
		q = request{method: "GET", url: href, parsed: u, headers: &headerList{}, redirect: "follow", mode: "cors",
			credentials: "same-origin", cache: "default", referrer: "client", priority: "auto"}
	}
	init := s.readInit(initV)
	if init.window != nil && !goja.IsNull(init.window) {
		s.typeError("'window' option 'client' must be null")
	}
	if init.present {
		if q.mode == "navigate" {
			q.mode = "same-origin"
		}
		q.reload, q.history = false, false
		q.referrer, q.referrerPolicy = "client", ""
	}
	if v := init.referrer; v != nil {
		ref := r.String(v)
		if ref == "" {
			q.referrer = "no-referrer"
		} else {
			href, err := parseURL(ref, s.opts.BaseURL)
			if err != nil {
				s.typeError("Referrer %q is not a valid URL.", ref)
			}
			if href == "about:client" {
				q.referrer = "client"
			} else {
				q.referrer = href
			}
		}
	}
	if v := init.referrerPolicy; v != nil {
		q.referrerPolicy = s.enum(v, "referrerPolicy", "", "no-referrer", "no-referrer-when-downgrade", "same-origin",
			"origin", "strict-origin", "origin-when-cross-origin", "strict-origin-when-cross-origin", "unsafe-url")
	}
	if v := init.mode; v != nil {
		m := s.enum(v, "mode", "same-origin", "no-cors", "cors", "navigate")
		if m == "navigate" {
			s.typeError("Request constructor: invalid request mode navigate.")
		}
		q.mode = m
	}
	if v := init.credentials; v != nil {
		q.credentials = s.enum(v, "credentials", "omit", "same-origin", "include")
	}
	if v := init.cache; v != nil {
		q.cache = s.enum(v, "cache", "default", "no-store", "reload", "no-cache", "force-cache", "only-if-cached")
	}
	if q.cache == "only-if-cached" && q.mode != "same-origin" {
		s.typeError("'only-if-cached' can be set only with 'same-origin' mode")
	}
	if v := init.redirect; v != nil {
		q.redirect = s.enum(v, "redirect", "follow", "manual", "error")
	}
	if v := init.integrity; v != nil {
		q.integrity = r.String(v)
	}
	if v := init.keepalive; v != nil {
		q.keepalive = webidl.Bool(v)
	}
	if v := init.method; v != nil {
		q.method = s.method(v)
	}
	if v := init.priority; v != nil {
		q.priority = s.enum(v, "priority", "high", "low", "auto")
	}
	if v := init.duplex; v != nil {
		s.enum(v, "duplex", "half")
	}
	if init.hasSignal {
		q.follows = nil
		if !goja.IsNull(init.signal) {
			sig, ok := signalOf(init.signal)
			if !ok {
				s.typeError("Request constructor: Expected signal (\"%s\") to be an instance of AbortSignal.", r.String(init.signal))
			}
			q.follows = sig
		}
	}
	q.headers.guard = guardRequest
	if q.mode == "no-cors" {
		if q.method != "GET" && q.method != "HEAD" && q.method != "POST" {
			s.typeError("'%s' is unsupported in no-cors mode.", q.method)
		}
		q.headers.guard = guardRequestNoCORS
	}
	if init.headers != nil { // else the copy made above holds the input's headers
		q.headers.h = q.headers.h[:0]
		q.headers.changed()
		s.fillHeaders(q.headers, init.headers, "Request constructor")
	}
	inputHasBody := inputReq != nil && inputReq.body.kind != bodyNone
	if (init.hasBody || inputHasBody) && (q.method == "GET" || q.method == "HEAD") {
		s.typeError("Request with GET/HEAD method cannot have body.")
	}
	var initBody *extracted
	if init.hasBody {
		ex := s.extract(init.body, q.keepalive)
		initBody = &ex
		if ex.ctype != "" && !q.headers.has("content-type") {
			q.headers.append("content-type", ex.ctype)
		}
	}
	isStream := (initBody != nil && initBody.kind == bodyStream) || (initBody == nil && inputHasBody && inputReq.body.kind != bodyBytes)
	if isStream {
		if initBody != nil && init.duplex == nil {
			s.typeError("RequestInit: duplex option is required when sending a body.")
		}
		if q.mode != "same-origin" && q.mode != "cors" {
			s.typeError(`If request is made from ReadableStream, mode should be "same-origin" or "cors"`)
		}
	}
	switch {
	case initBody != nil:
		q.body = initBody.body
	case inputHasBody:
		if inputReq.body.unusable() {
			s.typeError("Cannot construct a Request with a Request object that has already been used.")
		}
		q.body = inputReq.body
		inputReq.body = body{kind: bodyBytes, used: true, length: q.body.length}
	}
	return &q
}

// method converts and normalises a method, rejecting forbidden ones.
func (s *state) method(v goja.Value) string {
	m := s.r.ByteString(v)
	if !isToken(m) {
		s.typeError("'%s' is not a valid HTTP method.", webidl.FromByteString(m))
	}
	up := strings.ToUpper(m)
	if slices.Contains(forbiddenMethods, up) {
		s.typeError("'%s' HTTP method is unsupported.", m)
	}
	if slices.Contains(normalMethods, up) {
		return up
	}
	return m
}

func (s *state) installRequest() {
	r, rt := s.r, s.rt
	s.request = r.NewClass("Request", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		if len(call.Arguments) < 1 {
			s.typeError("Request constructor: 1 argument required, but only 0 present.")
		}
		r.SetSlot(call.This, s.newRequest(call.Argument(0), call.Argument(1)))
		return nil
	})
	c := s.request
	this := func(v goja.Value) *request { return webidl.This[*request](r, v) }
	str := func(name string, f func(q *request) string) {
		c.Getter(name, func(v goja.Value) goja.Value { return rt.ToValue(f(this(v))) })
	}
	str("method", func(q *request) string { return webidl.FromByteString(q.method) })
	str("url", func(q *request) string { return q.url })
	c.Getter("headers", func(v goja.Value) goja.Value { return s.headersObject(this(v).headers) })
	str("destination", func(*request) string { return "" })
	str("referrer", func(q *request) string {
		switch q.referrer {
		case "no-referrer":
			return ""
		case "client":
			return "about:client"
		}
		return q.referrer
	})
	str("referrerPolicy", func(q *request) string { return q.referrerPolicy })
	str("mode", func(q *request) string { return q.mode })
	str("credentials", func(q *request) string { return q.credentials })
	str("cache", func(q *request) string { return q.cache })
	str("redirect", func(q *request) string { return q.redirect })
	str("integrity", func(q *request) string { return q.integrity })
	c.Getter("keepalive", func(v goja.Value) goja.Value { return rt.ToValue(this(v).keepalive) })
	c.Getter("isReloadNavigation", func(v goja.Value) goja.Value { return rt.ToValue(this(v).reload) })
	c.Getter("isHistoryNavigation", func(v goja.Value) goja.Value { return rt.ToValue(this(v).history) })
	c.Getter("signal", func(v goja.Value) goja.Value { return s.signalObject(this(v)) })
	str("duplex", func(*request) string { return "half" })
	s.bodyMixin(c, func(v goja.Value) (*body, *headerList) {
		q := this(v)
		return &q.body, q.headers
	})
	c.Method("clone", 0, func(call goja.FunctionCall) goja.Value {
		q := this(call.This)
		if q.body.unusable() {
			s.typeError("Request.clone: Body has already been consumed.")
		}
		cl := *q
		cl.headers = q.headers.clone()
		cl.headers.guard = q.headers.guard
		cl.body = s.cloneBody(&q.body)
		cl.sig, cl.abort = nil, nil
		cl.follows = q.signal()
		return s.request.New(&cl)
	})
}

// signalObject is Request.signal: a signal of the request's own that
// follows the one it was given (made on first access).
func (s *state) signalObject(q *request) goja.Value {
	if q.sig == nil {
		sig, abort := newController(s.r)
		if sig == nil {
			return goja.Undefined()
		}
		q.sig, q.abort = sig, abort
		if f := q.follows; f != nil {
			if f.Aborted() {
				abort(f.Reason())
			} else {
				f.OnAbort(abort)
			}
		}
	}
	return q.sig.Object()
}

// parse parses a URL argument (a URL object or a string) against the
// configured base URL, throwing the TypeError Node throws.
func (s *state) parse(v goja.Value) string {
	if href, ok := urlOf(v); ok {
		return href
	}
	in := s.r.String(v)
	href, err := parseURL(in, s.opts.BaseURL)
	if err != nil {
		s.typeError("Failed to parse URL from %s", in)
	}
	return href
}

// parseURL is parse returning the parsed URL.
func (s *state) parseURL(v goja.Value) url.URL {
	in := ""
	if href, ok := urlOf(v); ok {
		in = href
	} else {
		in = s.r.String(v)
	}
	u, err := url.ParseURL(in, s.opts.BaseURL)
	if err != nil {
		s.typeError("Failed to parse URL from %s", in)
	}
	return u
}
