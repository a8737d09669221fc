package render

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"math"
	"net/http"
	"path"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"bext/engine"
	"bext/pool"
)

// serveApp serves a static file when one exists at the path, else renders
// (through the page cache, when there is one).
func (s *Server) serveApp(w http.ResponseWriter, r *http.Request) {
	if s.serveStatic(w, r) {
		return
	}
	if s.cached != nil {
		s.cached.ServeHTTP(w, r)
		return
	}
	s.render(w, r)
}

// render renders the request through the pool and writes the result. A
// response the engine writes itself (a streamed body, or one sent before a
// handler's ctx.waitUntil work ends) goes through a streamWriter, and the
// handler returns as soon as it is complete while the worker finishes.
func (s *Server) render(w http.ResponseWriter, r *http.Request) {
	var body *limitedBody
	if max := s.opts.MaxBodyBytes; max > 0 && r.Body != nil && r.Body != http.NoBody {
		if r.ContentLength > max {
			s.tooLarge(w, r)
			return
		}
		body = &limitedBody{ReadCloser: http.MaxBytesReader(w, r.Body, max)}
		r.Body = body
	}
	req := toEngineRequest(r)
	sw := &streamWriter{s: s, w: w, r: r, body: body, ended: make(chan struct{})}
	defer sw.close()
	req.Writer = sw
	type result struct {
		resp *engine.Response
		res  pool.Result
		err  error
	}
	done := make(chan result, 1)
	go func() {
		resp, res, err := s.Pool().Render(r.Context(), req)
		done <- result{resp, res, err}
	}()
	var out result
	select {
	case out = <-done:
	case <-sw.ended:
		// The client has the whole response (or it was broken off); the
		// worker may still be finishing ctx.waitUntil work.
		setWorker(r, sw.worker())
		go func() {
			out := <-done
			var re *engine.RenderError
			switch {
			case errors.As(out.err, &re) && re.Written:
				s.log.Error("response stream failed", "method", r.Method, "path", r.URL.Path, "worker", out.res.Worker, "err", out.err.Error())
			case out.err != nil:
				s.log.Warn("work after the response failed", "method", r.Method, "path", r.URL.Path, "worker", out.res.Worker, "err", out.err.Error())
			}
		}()
		sw.finish()
		return
	}
	setWorker(r, out.res.Worker)
	resp, err := out.resp, out.err
	if body != nil && body.over.Load() && (err != nil || resp.Status >= 500) && !sw.started() {
		s.tooLarge(w, r)
		return
	}
	if err != nil {
		var re *engine.RenderError
		if errors.As(err, &re) && re.Written {
			s.log.Error("response stream failed", "method", r.Method, "path", r.URL.Path, "worker", out.res.Worker, "err", err.Error())
			sw.finish()
			return
		}
		s.renderError(w, r, err)
		return
	}
	if resp.Written {
		sw.finish()
		return
	}
	h := w.Header()
	s.copyHeaders(h, r, resp.Headers)
	page := resp.HTML
	if !resp.Object {
		if h.Get("Content-Type") == "" {
			h.Set("Content-Type", "text/html; charset=utf-8")
		}
		if h.Get("Cache-Control") == "" {
			h.Set("Cache-Control", "no-cache")
		}
	}
	if s.opts.TransformHTML != nil && strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		page = s.opts.TransformHTML(page)
	}
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write([]byte(page))
	}
}

// copyHeaders sets the app's headers on h, leaving out the framing ones
// bext owns (logged once per path and name).
func (s *Server) copyHeaders(h http.Header, r *http.Request, from http.Header) {
	for k, vs := range from {
		if ownedHeaders[k] {
			s.warnOnce(r.URL.Path+" "+k, "render set a header bext owns; it is ignored (bext frames the response itself)", "path", r.URL.Path, "header", k)
			continue
		}
		h[k] = vs
	}
}

// tooLarge answers 413 for a request body over max_body_bytes.
func (s *Server) tooLarge(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Connection", "close")
	detail := ""
	if s.opts.Dev {
		detail = fmt.Sprintf("the request body is over [server] max_body_bytes (%d bytes)", s.opts.MaxBodyBytes)
	}
	writeErrorPage(w, http.StatusRequestEntityTooLarge, detail)
}

// limitedBody is a request body under max_body_bytes that remembers
// whether the app tried to read past the limit.
type limitedBody struct {
	io.ReadCloser
	over atomic.Bool
}

func (b *limitedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	var mbe *http.MaxBytesError
	if errors.As(err, &mbe) {
		b.over.Store(true)
	}
	return n, err
}

// streamWriter is the engine.ResponseWriter of one request. The engine
// calls it from the worker's goroutine; once the handler has returned it
// drops whatever comes (an abandoned render cannot write to a finished
// response).
type streamWriter struct {
	s     *Server
	w     http.ResponseWriter
	r     *http.Request
	body  *limitedBody // nil without max_body_bytes
	mu    sync.Mutex
	wid   int  // the worker that wrote
	head  bool // WriteHeader was called
	html  bool // the body is HTML (and not a HEAD's): TransformHTML's tail goes at its end
	done  bool // the handler returned or End was called
	err   error
	ended chan struct{}
}

func (sw *streamWriter) WriteHeader(worker, status int, h http.Header) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.done || sw.head {
		return
	}
	sw.head, sw.wid = true, worker
	if sw.body != nil && sw.body.over.Load() && status >= 500 {
		// The app failed on a body over the limit (chunked, so its size
		// was not known up front): 413, as with a Content-Length over it,
		// and the rest of the app's response is dropped.
		sw.s.tooLarge(sw.w, sw.r)
		sw.done = true
		return
	}
	sw.s.copyHeaders(sw.w.Header(), sw.r, h)
	sw.html = sw.r.Method != http.MethodHead && strings.HasPrefix(sw.w.Header().Get("Content-Type"), "text/html")
	sw.w.WriteHeader(status)
	http.NewResponseController(sw.w).Flush()
}

func (sw *streamWriter) Write(p []byte) error {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.done {
		return errors.New("the response is finished")
	}
	if err := sw.r.Context().Err(); err != nil {
		return err
	}
	if _, err := sw.w.Write(p); err != nil {
		return err
	}
	return http.NewResponseController(sw.w).Flush()
}

func (sw *streamWriter) End(err error) {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	if sw.done {
		return
	}
	if err == nil && sw.html && sw.s.opts.TransformHTML != nil {
		// The body went out as it came: what TransformHTML adds to a
		// document (dev's live-reload client) follows it.
		if tail := sw.s.opts.TransformHTML(""); tail != "" {
			_, _ = sw.w.Write([]byte(tail))
		}
	}
	sw.done, sw.err = true, err
	close(sw.ended)
}

func (sw *streamWriter) started() bool {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.head
}

// worker is the slot that wrote the response.
func (sw *streamWriter) worker() int {
	sw.mu.Lock()
	defer sw.mu.Unlock()
	return sw.wid
}

// finish runs on the handler's goroutine when the engine wrote the
// response: a stream that failed mid-way breaks the connection off, as
// Node does, so the client cannot take a truncated page for a whole one.
func (sw *streamWriter) finish() {
	sw.mu.Lock()
	err := sw.err
	sw.mu.Unlock()
	if err != nil {
		panic(http.ErrAbortHandler)
	}
}

// close marks the response finished: later calls from the engine are
// dropped.
func (sw *streamWriter) close() {
	sw.mu.Lock()
	sw.done = true
	sw.mu.Unlock()
}

// ownedHeaders are the framing and connection headers bext sets itself; an
// app's value could truncate the body or hijack the connection.
var ownedHeaders = map[string]bool{"Content-Length": true, "Transfer-Encoding": true, "Connection": true,
	"Keep-Alive": true, "Proxy-Connection": true, "Upgrade": true, "Te": true, "Trailer": true}

// serveStatic serves a regular file under public_dir. os.Root confines the
// lookup to the folder: "..", encoded traversal and symlinks out of it fail.
func (s *Server) serveStatic(w http.ResponseWriter, r *http.Request) bool {
	if s.root == nil || (r.Method != http.MethodGet && r.Method != http.MethodHead) {
		return false
	}
	name := strings.TrimPrefix(path.Clean("/"+r.URL.Path), "/")
	if name == "" || !fs.ValidPath(name) {
		return false
	}
	fi, err := s.root.Stat(name)
	if err != nil || !fi.Mode().IsRegular() {
		return false
	}
	s.static.ServeHTTP(w, r)
	return true
}

// toEngineRequest builds the plain value render(req) receives.
func toEngineRequest(r *http.Request) *engine.Request {
	q := map[string]string{}
	for k, v := range r.URL.Query() {
		if len(v) > 0 {
			q[k] = v[0]
		}
	}
	hd := make(map[string]string, len(r.Header)+1)
	for k, v := range r.Header {
		hd[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	if r.Host != "" {
		hd["host"] = r.Host
	}
	scheme := "http://"
	if r.TLS != nil {
		scheme = "https://"
	}
	size := r.ContentLength
	if size < 0 {
		size = -1
	}
	return &engine.Request{Method: r.Method, URL: r.URL.RequestURI(), Path: r.URL.Path, Query: q, Headers: hd,
		Origin: scheme + r.Host, Header: r.Header, Body: r.Body, BodySize: size}
}

// renderError answers a failed render: 503 when no worker could take it or
// its worker was drained, 504 when it ran out of time, 500 otherwise. The
// error and its JS stack are logged; the response shows them only in dev.
func (s *Server) renderError(w http.ResponseWriter, r *http.Request, err error) {
	status := statusFor(err)
	if status == http.StatusServiceUnavailable {
		secs := int(math.Ceil(s.opts.QueueTimeout.Seconds()))
		w.Header().Set("Retry-After", strconv.Itoa(max(secs, 1)))
	}
	var re *engine.RenderError
	stack := ""
	if errors.As(err, &re) {
		stack = re.Stack
	}
	if !errors.Is(err, context.Canceled) {
		s.log.Error("render failed", "method", r.Method, "path", r.URL.Path, "status", status, "err", err.Error(), "stack", stack)
	}
	detail := ""
	if s.opts.Dev {
		detail = err.Error()
		if stack != "" && !strings.Contains(detail, stack) {
			detail += "\n\n" + stack
		}
	}
	writeErrorPage(w, status, detail)
}

func statusFor(err error) int {
	switch {
	case errors.Is(err, pool.ErrRenderMemory):
		return http.StatusInternalServerError
	case errors.Is(err, pool.ErrQueueTimeout), errors.Is(err, pool.ErrPoolClosed), errors.Is(err, pool.ErrDrainTimeout):
		return http.StatusServiceUnavailable
	case errors.Is(err, pool.ErrRenderTimeout):
		return http.StatusGatewayTimeout
	}
	var re *engine.RenderError
	if errors.As(err, &re) && (re.Kind == engine.KindTimeout || re.Kind == engine.KindAbandoned) {
		return http.StatusGatewayTimeout
	}
	return http.StatusInternalServerError
}

// WriteErrorPage answers with bext's HTML error page for status, with
// detail (shown as text) when not empty.
func WriteErrorPage(w http.ResponseWriter, status int, detail string) {
	writeErrorPage(w, status, detail)
}

func writeErrorPage(w http.ResponseWriter, status int, detail string) {
	h := w.Header()
	h.Set("Content-Type", "text/html; charset=utf-8")
	h.Set("Cache-Control", "no-store")
	h.Del("Content-Length")
	w.WriteHeader(status)
	text := fmt.Sprintf("%d %s", status, http.StatusText(status))
	fmt.Fprintf(w, "<!doctype html><html><head><meta charset=utf-8><title>%s</title></head><body><h1>%s</h1>", text, text)
	if detail != "" {
		fmt.Fprintf(w, "<pre style=\"white-space:pre-wrap\">%s</pre>", html.EscapeString(detail))
	}
	fmt.Fprint(w, "</body></html>\n")
}
