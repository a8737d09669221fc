package engine

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/dop251/goja"

	"bext/web/events"
	"bext/web/fetch"
	"bext/web/streams"
)

// The fetch-handler contract (Cloudflare Workers, Deno, Bun, Hono): a
// server entry whose default export is an object with
// fetch(request, env, ctx) gets a real Request and returns a Response (or
// a Promise of one). A render(req) function may return a Response too.
// A Response whose body is known in Go comes back as a Response value, as
// render(req)'s results do; a streamed body (or a handler that left
// ctx.waitUntil work) is written through Request.Writer as it is produced.

// ResponseWriter is where the engine writes a response itself: a Response
// whose body is a stream, or any Response of a handler that left
// ctx.waitUntil work to finish after it. The HTTP layer implements it.
// Calls come from the isolate's goroutine in order: WriteHeader once, Write
// for each chunk, End once.
type ResponseWriter interface {
	// WriteHeader sends the status line and headers; worker is the
	// writing isolate's Options.WorkerID, for logs.
	WriteHeader(worker, status int, h http.Header)
	// Write sends one chunk and flushes it; an error means the client is
	// gone and nothing more should be written.
	Write(p []byte) error
	// End completes the response: the client has it all. A non-nil err
	// breaks the response off instead (the status was already sent), as
	// Node does when a stream errors mid-way.
	End(err error)
}

// defaultWaitUntil bounds ctx.waitUntil work after the response, as
// Cloudflare Workers does.
const defaultWaitUntil = 30 * time.Second

// errWaitUntil is the cause that ends ctx.waitUntil work past its bound.
var errWaitUntil = errors.New("ctx.waitUntil work did not finish in time")

const errBadHandlerResult = "the fetch handler must return a Response (or a Promise of one)"

func (i *Isolate) waitUntilBound() time.Duration {
	if i.opts.WaitUntil > 0 {
		return i.opts.WaitUntil
	}
	return defaultWaitUntil
}

// findHandler returns the entry's default export when it is an object with
// a fetch method (a Hono app, `export default { fetch }`).
func (i *Isolate) findHandler() (*goja.Object, goja.Callable) {
	entry, ok := i.rt.GlobalObject().Get(entryGlobal).(*goja.Object)
	if !ok {
		return nil, nil
	}
	def, ok := entry.Get("default").(*goja.Object)
	if !ok {
		return nil, nil
	}
	if _, isFn := goja.AssertFunction(def); isFn {
		return nil, nil
	}
	fn, ok := goja.AssertFunction(def.Get("fetch"))
	if !ok {
		return nil, nil
	}
	return def, fn
}

// envObject is the env argument: [app.env] as a plain object, made once
// per isolate.
func (i *Isolate) envObject() *goja.Object {
	if i.env == nil {
		i.env = i.stringMap(i.opts.Env)
	}
	return i.env
}

// exchange is one request of the fetch-handler contract: the ctx.waitUntil
// promises its handler left, and what aborts request.signal.
type exchange struct {
	waits []*goja.Promise
	abort func(reason goja.Value) // nil: render(req), which has no signal
	sent  bool                    // the response is complete: nothing to abort
}

// callHandler calls fetch(request, env, ctx) with a Request built from req.
func (i *Isolate) callHandler(req *Request, ex *exchange) (goja.Value, error) {
	origin := req.Origin
	if origin == "" {
		origin = "http://localhost"
	}
	h := req.Header
	if h == nil {
		h = http.Header{}
		for k, v := range req.Headers {
			h.Set(k, v)
		}
	}
	var src streams.Source
	if req.Body != nil && req.Body != http.NoBody {
		src = fetch.ReaderSource(i.web, req.Body, req.BodySize)
	}
	sig, abort := events.NewController(i.web)
	ex.abort = abort
	request := fetch.NewRequest(i.web, req.Method, origin+req.URL, h, src, sig)
	ctx := i.rt.NewObject()
	_ = ctx.Set("waitUntil", func(c goja.FunctionCall) goja.Value {
		p, ok := i.asPromise(i.web.Resolved(c.Argument(0)))
		if ok {
			ex.waits = append(ex.waits, p)
		}
		return goja.Undefined()
	})
	_ = ctx.Set("passThroughOnException", func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	return i.handlerFn(i.handler, request, i.envObject(), ctx)
}

// deliver answers with a Response object: a body known in Go is returned
// like render(req)'s results; a stream is written through req.Writer chunk
// by chunk (read in full when there is no Writer).
func (i *Isolate) deliver(ctx context.Context, req *Request, rd *fetch.ResponseData, ex *exchange) (*Response, error) {
	switch {
	case rd.Type == "error":
		return nil, &RenderError{Kind: KindException, Message: "the app returned Response.error(), a network error"}
	case rd.Used:
		return nil, &RenderError{Kind: KindException, Message: "the app returned a Response whose body was already read (bodyUsed); return a new Response or response.clone()"}
	}
	resp := &Response{Status: rd.Status, Headers: rd.Header, Object: true}
	if len(resp.Headers) == 0 {
		resp.Headers = nil
	}
	w := req.Writer
	if rd.Stream == nil {
		resp.HTML = string(rd.Body)
		if w == nil || len(ex.waits) == 0 {
			return resp, nil
		}
		// Send it now: the client must not wait for waitUntil work.
		w.WriteHeader(i.opts.WorkerID, resp.Status, resp.Headers)
		if req.Method != http.MethodHead && len(rd.Body) > 0 {
			w.Write(rd.Body)
		}
		w.End(nil)
		return &Response{Status: resp.Status, Written: true, Object: true}, nil
	}
	rdr, err := streams.NewReader(i.web, rd.Stream)
	if err != nil {
		return nil, &RenderError{Kind: KindException, Message: "the response body cannot be read: " + err.Error()}
	}
	var buf []byte
	if w != nil {
		w.WriteHeader(i.opts.WorkerID, resp.Status, resp.Headers)
	}
	// Chunks the stream has ready one after the other (React enqueues a
	// flush as several) go out in one write: they are sent once the next
	// read has to wait, at the end, or every maxPending bytes.
	var pending []byte
	send := func() error {
		if len(pending) == 0 {
			return nil
		}
		err := w.Write(pending)
		pending = pending[:0]
		return err
	}
	clientGone := func(err error) (*Response, error) {
		// The client is gone: stop the app's stream, abort
		// request.signal, free the worker.
		rdr.Cancel(nil)
		i.abortRequest(ex)
		w.End(err)
		return &Response{Status: resp.Status, Written: true, ClientGone: true, Object: true}, nil
	}
	broken := func(rerr *RenderError) (*Response, error) {
		if w != nil {
			_ = send() // what the app produced before it failed
		}
		return i.broken(w, rerr)
	}
	for {
		var chunk goja.Value
		var done, got bool
		var jerr goja.Value
		if gerr := i.guard(ctx, func() {
			rdr.Read(func(c goja.Value, d bool, e goja.Value) { chunk, done, jerr, got = c, d, e, true })
		}); gerr != nil {
			return broken(gerr)
		}
		if !got && w != nil {
			if err := send(); err != nil {
				return clientGone(err)
			}
		}
		if err := i.loop.run(ctx, func() bool { return got }); err != nil {
			if errors.Is(err, errNeverSettles) {
				err = errors.New("the response body stream stopped producing data and nothing is left that could resume it")
			}
			return broken(classify(ctx, err))
		}
		if jerr != nil {
			return broken(&RenderError{Kind: KindException, Message: "the response body stream errored: " + valueMessage(jerr)})
		}
		if done {
			break
		}
		p, ok := chunk.Export().([]byte)
		if !ok {
			rdr.Cancel(nil)
			return broken(&RenderError{Kind: KindException, Message: "the response body stream produced " + describe(chunk) + "; every chunk must be a Uint8Array"})
		}
		switch {
		case w == nil:
			if i.opts.MaxAllocation > 0 && int64(len(buf)+len(p)) > i.opts.MaxAllocation {
				rdr.Cancel(nil)
				return nil, &RenderError{Kind: KindException, Message: fmt.Sprintf("the response body stream is over %d bytes", i.opts.MaxAllocation)}
			}
			buf = append(buf, p...)
		case req.Method == http.MethodHead:
		default:
			pending = append(pending, p...) // a copy: the app may reuse its buffer
			if len(pending) >= maxPending {
				if err := send(); err != nil {
					return clientGone(err)
				}
			}
		}
	}
	if w == nil {
		resp.HTML = string(buf)
		return resp, nil
	}
	if err := send(); err != nil {
		return clientGone(err)
	}
	w.End(nil)
	return &Response{Status: resp.Status, Written: true, Object: true}, nil
}

// maxPending bounds the bytes of a streamed body held back to be written
// together.
const maxPending = 64 << 10

// abortGraceShare: the abort listeners of request.signal, when a request
// ends before its response, may run for Options.InterruptGrace divided by
// this.
const abortGraceShare = 2

// abortRequest aborts request.signal of a fetch-handler request whose
// client went away, or whose render ended (timeout, shutdown) before the
// response was complete, and runs its abort listeners as Workers and Node
// do — even when the render's own JS was interrupted, within half of
// Options.InterruptGrace. Listeners that throw are reported, as the DOM
// reports them; the request fails the way it was failing anyway.
func (i *Isolate) abortRequest(ex *exchange) {
	if ex == nil || ex.abort == nil || ex.sent {
		return
	}
	abort := ex.abort
	ex.abort = nil
	i.imu.Lock()
	i.runs++ // a late interrupt of the render (runJS) must not hit the listeners
	i.imu.Unlock()
	i.rt.ClearInterrupt()
	t := time.AfterFunc(i.opts.InterruptGrace/abortGraceShare, func() { i.rt.Interrupt(interruptValue{errAbortListeners}) })
	defer t.Stop()
	if rerr := i.guard(context.Background(), func() { abort(goja.Undefined()) }); rerr != nil {
		i.wlog.Warn("request.signal abort listeners did not finish", "err", rerr.Message)
	}
}

// errAbortListeners interrupts abort listeners that run too long.
var errAbortListeners = errors.New("request.signal's abort listeners ran too long")

// broken ends a response whose stream failed: with a Writer the status is
// sent, so the response is broken off and the error still reported (logged
// with the worker id by the caller).
func (i *Isolate) broken(w ResponseWriter, rerr *RenderError) (*Response, error) {
	if w != nil {
		w.End(rerr)
		rerr.Written = true
	}
	return nil, rerr
}

// waitUntil runs the loop until every ctx.waitUntil promise settles, within
// Options.WaitUntil after the response. A rejection is logged; work left at
// the bound is dropped (the isolate stays usable when no JS was running).
func (i *Isolate) waitUntil(ctx context.Context, ex *exchange, detach func()) error {
	if len(ex.waits) == 0 {
		return nil
	}
	detach()
	err := i.loop.run(ctx, func() bool {
		for _, p := range ex.waits {
			if p.State() == goja.PromiseStatePending {
				return false
			}
		}
		return true
	})
	for _, p := range ex.waits {
		if p.State() == goja.PromiseStateRejected {
			i.wlog.Warn("ctx.waitUntil promise rejected", "err", valueMessage(p.Result()))
		}
	}
	switch {
	case errors.Is(err, errNeverSettles):
		i.wlog.Warn("ctx.waitUntil promise can never settle; dropped")
		return nil
	case errors.Is(err, errCtxDone):
		// No JS was running: what is left is dropped, the isolate is fine.
		i.wlog.Warn("ctx.waitUntil work dropped", "why", context.Cause(ctx).Error())
		return nil
	}
	return err
}
