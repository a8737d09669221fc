package fetch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dop251/goja"

	"bext/web/streams"
	"bext/web/url"
)

// client is the HTTP side of fetch: one Go transport (connection pool)
// per connect timeout, shared by every isolate of the process so
// keep-alive connections outlive a render.
type client struct {
	transport *http.Transport
}

var clients sync.Map // time.Duration (connect timeout) → *client

func clientFor(o Options) *client {
	if c, ok := clients.Load(o.ConnectTimeout); ok {
		return c.(*client)
	}
	d := &net.Dialer{Timeout: o.ConnectTimeout, KeepAlive: 30 * time.Second}
	t := &http.Transport{
		Proxy:                 nil, // Node's fetch ignores HTTP(S)_PROXY too
		DialContext:           d.DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   32,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   o.ConnectTimeout,
		ExpectContinueTimeout: time.Second,
		DisableCompression:    true, // fetch asks for and decodes gzip/deflate itself, as undici does
	}
	c, _ := clients.LoadOrStore(o.ConnectTimeout, &client{transport: t})
	return c.(*client)
}

// errFetchTimeout is the context cause of a fetch that ran over
// Options.Timeout.
var errFetchTimeout = errors.New("fetch timeout")

// fetchOp is one fetch() call: its request as sent, its promise, and —
// once the response arrived — its body.
type fetchOp struct {
	s        *state
	href     string
	method   string
	header   http.Header
	data     []byte    // request body bytes, or
	pipe     *pipeBody // a request body streamed from JS
	hasBody  bool
	redirect string
	max      int

	ctx    context.Context
	cancel context.CancelFunc

	resolve, reject func(any)
	settled         bool // the fetch promise is settled
	finished        bool // everything is released
	removeAbort     func()
	nb              *netBody
}

// fetch is the global fetch(input, init).
func (s *state) fetch(call goja.FunctionCall) goja.Value {
	r := s.r
	p, resolve, reject := r.NewPromise()
	var q *request
	if ex := catch(func() { q = s.newRequest(call.Argument(0), call.Argument(1)) }); ex != nil {
		reject(ex)
		return r.RT.ToValue(p)
	}
	sig := q.signal()
	if sig != nil && sig.Aborted() {
		if q.body.kind == bodyStream {
			if rd, err := streams.NewReader(r, q.body.stream); err == nil {
				rd.Cancel(sig.Reason())
			}
		}
		reject(sig.Reason())
		return r.RT.ToValue(p)
	}
	if strings.HasPrefix(q.url, "data:") {
		s.fetchData(q, resolve, reject)
		return r.RT.ToValue(p)
	}
	op := &fetchOp{s: s, href: q.url, method: q.method, redirect: q.redirect, max: s.opts.MaxRedirects,
		resolve: resolve, reject: reject}
	if ex := catch(func() { op.prepare(q) }); ex != nil {
		reject(ex)
		return r.RT.ToValue(p)
	}
	if sig != nil {
		op.removeAbort = sig.OnAbort(op.abort)
	}
	r.Go(op.run)
	return r.RT.ToValue(p)
}

// catch runs f and returns the JS value it threw, if any.
func catch(f func()) (ex goja.Value) {
	defer func() {
		if p := recover(); p != nil {
			switch e := p.(type) {
			case *goja.Object:
				ex = e
			case *goja.Exception:
				ex = e.Value()
			default:
				panic(p)
			}
		}
	}()
	f()
	return nil
}

// prepare fixes what is sent: the headers fetch adds, the body, and the
// context (the render's, bounded by Options.Timeout).
func (op *fetchOp) prepare(q *request) {
	s := op.s
	if err := checkURL(q.target()); err != "" {
		panic(s.networkError(errors.New(err), q.url))
	}
	h := make(http.Header, len(q.headers.h)+5)
	for _, e := range q.headers.h {
		k := http.CanonicalHeaderKey(e.name)
		h[k] = append(h[k], e.value)
	}
	def := func(name, value string) {
		if _, ok := h[name]; !ok {
			h[name] = []string{value}
		}
	}
	def("Accept", "*/*")
	def("Accept-Language", "*")
	def("Sec-Fetch-Mode", q.mode)
	def("User-Agent", s.opts.UserAgent)
	def("Accept-Encoding", "gzip, deflate")
	op.header = h
	ctx := s.r.Context()
	if s.opts.Timeout > 0 {
		op.ctx, op.cancel = context.WithTimeoutCause(ctx, s.opts.Timeout, errFetchTimeout)
	} else {
		op.ctx, op.cancel = context.WithCancel(ctx)
	}
	switch q.body.kind {
	case bodyBytes:
		op.data, op.hasBody = q.body.bytes(), true
		q.body.used = true
	case bodyStream, bodyNet:
		st := s.streamOf(&q.body)
		pb, err := s.newPipeBody(op, st.(*goja.Object))
		if err != nil {
			op.cancel()
			panic(err.(*streams.Error).Value)
		}
		op.pipe, op.hasBody = pb, true
	}
}

// checkURL returns why u cannot be fetched ("" when it can).
func checkURL(u url.URL) string {
	if u.Scheme() != "http" && u.Scheme() != "https" {
		return "unknown scheme " + u.Protocol()
	}
	if p := u.Port(); p != "" {
		if n, _ := strconv.Atoi(p); slices.Contains(badPorts, n) {
			return "bad port"
		}
	}
	return ""
}

// badPorts are the ports the Fetch Standard blocks (§2.9 "port blocking").
var badPorts = []int{1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95,
	101, 102, 103, 104, 109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427,
	465, 512, 513, 514, 515, 526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993,
	995, 1719, 1720, 1723, 2049, 3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669,
	6679, 6697, 10080}

// run is the HTTP exchange, on a goroutine of its own: the request and
// the redirects it follows, up to the response's headers.
func (op *fetchOp) run(context.Context) func() error {
	cur, method, header := op.href, op.method, op.header
	data, hasBody := op.data, op.hasBody
	urls := []string{cur}
	for {
		var rd io.Reader
		if hasBody {
			if op.pipe != nil {
				rd = op.pipe
			} else {
				rd = bytes.NewReader(data)
			}
		}
		req, err := http.NewRequestWithContext(op.ctx, method, cur, rd)
		if err != nil {
			return op.failed(err, cur)
		}
		req.Header = header
		if host := header.Get("Host"); host != "" {
			req.Host = host
		}
		switch {
		case hasBody && op.pipe != nil:
			req.ContentLength = -1
		case hasBody:
			req.ContentLength = int64(len(data))
			if len(data) == 0 {
				req.Body = http.NoBody
			}
		}
		resp, err := op.s.client.transport.RoundTrip(req)
		if err != nil {
			return op.failed(err, cur)
		}
		loc := resp.Header.Get("Location")
		if !redirectStatus(resp.StatusCode) || loc == "" || op.redirect == "manual" {
			return op.respond(resp, urls)
		}
		discard(resp.Body)
		if op.redirect == "error" {
			return op.failed(errors.New("unexpected redirect"), cur)
		}
		nu, err := url.ParseURL(loc, cur)
		if err != nil {
			return op.failed(fmt.Errorf("invalid redirect location %q", loc), cur)
		}
		next := nu.Href()
		if why := checkURL(nu); why != "" {
			return op.failed(errors.New("redirect to "+why), next)
		}
		if len(urls) > op.max {
			return op.failed(errors.New("redirect count exceeded"), cur)
		}
		if (resp.StatusCode == 303 && method != "GET" && method != "HEAD") ||
			((resp.StatusCode == 301 || resp.StatusCode == 302) && method == "POST") {
			method, hasBody, data = "GET", false, nil
			header = header.Clone()
			for _, n := range requestBodyHeaders {
				header.Del(n)
			}
			if op.pipe != nil {
				op.pipe.Close()
			}
		}
		if hasBody && op.pipe != nil {
			return op.failed(errors.New("cannot follow a redirect with a streamed request body"), cur)
		}
		if !sameOrigin(cur, next) {
			header = header.Clone()
			header.Del("Authorization")
			header.Del("Proxy-Authorization")
			header.Del("Cookie")
			header.Del("Host")
		}
		urls = append(urls, next)
		cur = next
	}
}

// discard reads a little of a body we do not use, so its connection can
// be reused, and closes it.
func discard(b io.ReadCloser) {
	_, _ = io.CopyN(io.Discard, b, 4<<10)
	_ = b.Close()
}

func sameOrigin(a, b string) bool {
	ua, err1 := url.ParseURL(a, "")
	ub, err2 := url.ParseURL(b, "")
	return err1 == nil && err2 == nil && ua.Origin() == ub.Origin()
}

// failed is the continuation that rejects the fetch with a network error.
func (op *fetchOp) failed(err error, href string) func() error {
	err = op.why(err)
	return func() error {
		if op.settled {
			return nil
		}
		op.settled = true
		op.finish()
		op.reject(op.s.networkError(err, href))
		return nil
	}
}

// why replaces a context error by its cause (our timeout, the render's end).
func (op *fetchOp) why(err error) error {
	if op.ctx.Err() != nil {
		if c := context.Cause(op.ctx); errors.Is(c, errFetchTimeout) {
			return &timeoutError{op.s.opts.Timeout}
		}
	}
	return err
}

type timeoutError struct{ d time.Duration }

func (e *timeoutError) Error() string { return "request timed out after " + e.d.String() }

// respond is the continuation that resolves the fetch with a Response.
func (op *fetchOp) respond(resp *http.Response, urls []string) func() error {
	return func() error {
		if op.settled {
			go discard(resp.Body)
			return nil
		}
		s := op.s
		res := &response{typ: "basic", status: resp.StatusCode, urls: urls,
			headers: fromHTTP(resp.Header, guardImmutable)}
		res.statusText = strings.TrimPrefix(resp.Status, strconv.Itoa(resp.StatusCode)+" ")
		if resp.Status == strconv.Itoa(resp.StatusCode) {
			res.statusText = ""
		}
		limit := s.opts.MaxResponseBytes
		switch {
		case op.method == "HEAD" || nullBodyStatus(resp.StatusCode):
			go discard(resp.Body)
			op.finish()
		case limit > 0 && resp.ContentLength > limit && resp.Header.Get("Content-Encoding") == "":
			go discard(resp.Body)
			op.settled = true
			op.finish()
			op.reject(s.limitError(urls[len(urls)-1]))
			return nil
		default:
			size := resp.ContentLength
			if len(resp.Header.Values("Content-Encoding")) > 0 {
				size = -1
			}
			op.nb = &netBody{s: s, rc: decode(resp.Body, resp.Header.Values("Content-Encoding")), href: urls[len(urls)-1],
				size: size, limit: limit, why: op.why, release: op.finish}
			res.body = body{kind: bodyNet, net: op.nb, length: resp.ContentLength}
		}
		op.settled = true
		op.resolve(s.response.New(res))
		return nil
	}
}

// finish releases what the fetch holds: its context, its abort listener,
// its request body pump.
func (op *fetchOp) finish() {
	if op.finished {
		return
	}
	op.finished = true
	op.cancel()
	if op.removeAbort != nil {
		op.removeAbort()
	}
	if op.pipe != nil {
		op.pipe.stop(nil)
	}
}

// abort runs when the request's signal aborts: the fetch rejects (or its
// body errors) with the signal's reason, and the Go request is cancelled.
func (op *fetchOp) abort(reason goja.Value) {
	if op.finished {
		return
	}
	if op.pipe != nil {
		op.pipe.stop(reason)
	}
	if !op.settled {
		op.settled = true
		op.finish()
		op.reject(reason)
		return
	}
	if op.nb != nil {
		op.nb.fail(reason)
	}
	op.finish()
}

// fetchData answers a data: URL without the network.
func (s *state) fetchData(q *request, resolve, reject func(any)) {
	href := q.url
	if i := strings.IndexByte(href, '#'); i >= 0 {
		href = href[:i]
	}
	mt, data, err := processDataURL(href)
	if err != nil {
		reject(s.networkError(err, href))
		return
	}
	res := &response{typ: "basic", status: 200, statusText: "OK", urls: []string{q.url},
		headers: &headerList{h: []header{{"content-type", mt}}, guard: guardImmutable},
		body:    body{kind: bodyBytes, data: data, owned: true, length: int64(len(data))}}
	resolve(s.response.New(res))
}
