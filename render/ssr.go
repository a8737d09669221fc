package render

import (
	"context"
	"errors"
	"fmt"
	"html"
	"io/fs"
	"math"
	"net/http"
	"path"
	"strconv"
	"strings"

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

// render renders the request through the pool and writes the result.
func (s *Server) render(w http.ResponseWriter, r *http.Request) {
	if s.opts.MaxBodyBytes > 0 && r.Body != nil {
		r.Body = http.MaxBytesReader(w, r.Body, s.opts.MaxBodyBytes)
	}
	resp, res, err := s.Pool().Render(r.Context(), toEngineRequest(r))
	setWorker(r, res.Worker)
	if err != nil {
		s.renderError(w, r, err)
		return
	}
	h := w.Header()
	for k, vs := range resp.Headers {
		if ownedHeaders[k] {
			s.warnOnce(r.URL.Path+" "+k, "render set a header bext owns; it is ignored (bext frames the response itself)", "path", r.URL.Path, "header", k)
			continue
		}
		h[k] = vs
	}
	if h.Get("Content-Type") == "" {
		h.Set("Content-Type", "text/html; charset=utf-8")
	}
	if h.Get("Cache-Control") == "" {
		h.Set("Cache-Control", "no-cache")
	}
	body := resp.HTML
	if s.opts.TransformHTML != nil && strings.HasPrefix(h.Get("Content-Type"), "text/html") {
		body = s.opts.TransformHTML(body)
	}
	status := resp.Status
	if status == 0 {
		status = http.StatusOK
	}
	w.WriteHeader(status)
	if r.Method != http.MethodHead {
		w.Write([]byte(body))
	}
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
	return &engine.Request{Method: r.Method, URL: r.URL.RequestURI(), Path: r.URL.Path, Query: q, Headers: hd}
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
