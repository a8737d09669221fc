package streams

import (
	"github.com/dop251/goja"

	"bext/web/events"
	"bext/web/webidl"
)

// WritableStream states.
const (
	wsWritable = iota
	wsClosed
	wsErroring
	wsErrored
)

// wstream is a WritableStream's slots.
type wstream struct {
	s                            *state
	obj                          *goja.Object
	state                        int
	stored                       goja.Value
	ctrl                         *wcontroller
	writer                       *writer
	backpr                       bool
	closeReq                     *promise
	inFlightWrite, inFlightClose *promise
	pendingAbort                 *abortRequest
	writeReqs                    []*promise
}

type abortRequest struct {
	p                  *promise
	reason             goja.Value
	wasAlreadyErroring bool
}

// writer is a WritableStreamDefaultWriter's slots.
type writer struct {
	s      *state
	obj    *goja.Object
	stream *wstream
	ready  *promise
	closed *promise
}

// sinkAlgos are a WritableStreamDefaultController's algorithms; each
// returns a promise.
type sinkAlgos struct {
	write func(chunk goja.Value) goja.Value
	close func() goja.Value
	abort func(reason goja.Value) goja.Value
}

// wcontroller is a WritableStreamDefaultController's slots.
type wcontroller struct {
	s       *state
	obj     *goja.Object
	stream  *wstream
	queue   sizedQueue
	algos   sinkAlgos
	cleared bool
	size    sizeAlgo
	hwm     float64
	started bool

	abortCtl    *goja.Object // the AbortController behind signal, made on first use
	aborted     bool
	abortReason goja.Value
}

// closeSentinel marks the close request in a writable controller's queue.
var closeSentinel goja.Value = goja.NewSymbol("close sentinel")

func (s *state) newWStream(o *goja.Object) *wstream {
	if o == nil {
		o = s.rt.CreateObject(s.writable.Proto)
	}
	ws := &wstream{s: s, obj: o}
	s.r.SetSlot(o, ws)
	return ws
}

// createWritable is CreateWritableStream.
func (s *state) createWritable(start func(goja.Value) goja.Value, a sinkAlgos, hwm float64, size sizeAlgo) *wstream {
	ws := s.newWStream(nil)
	c := s.newWController()
	c.setUp(ws, start, a, hwm, size)
	return ws
}

func (ws *wstream) locked() bool { return ws.writer != nil }

func (ws *wstream) closeQueuedOrInFlight() bool { return ws.closeReq != nil || ws.inFlightClose != nil }

func (ws *wstream) hasOperationInFlight() bool {
	return ws.inFlightWrite != nil || ws.inFlightClose != nil
}

// abort is WritableStreamAbort.
func (ws *wstream) abort(reason goja.Value) goja.Value {
	s := ws.s
	if ws.state == wsClosed || ws.state == wsErrored {
		return s.resolvedUndefined()
	}
	ws.ctrl.signalAbort(reason)
	if ws.state == wsClosed || ws.state == wsErrored {
		return s.resolvedUndefined()
	}
	if ws.pendingAbort != nil {
		return ws.pendingAbort.p.v
	}
	wasAlreadyErroring := false
	if ws.state == wsErroring {
		wasAlreadyErroring = true
		reason = goja.Undefined()
	}
	p := s.newPromise()
	ws.pendingAbort = &abortRequest{p: p, reason: reason, wasAlreadyErroring: wasAlreadyErroring}
	if !wasAlreadyErroring {
		ws.startErroring(reason)
	}
	return p.v
}

// close is WritableStreamClose.
func (ws *wstream) close() goja.Value {
	s := ws.s
	if ws.state == wsClosed || ws.state == wsErrored {
		return s.rejectedWith(s.typeError("The stream is not in the writable state and cannot be closed"))
	}
	p := s.newPromise()
	ws.closeReq = p
	if w := ws.writer; w != nil && ws.backpr && ws.state == wsWritable {
		w.ready.resolve(goja.Undefined())
	}
	ws.ctrl.close()
	return p.v
}

func (ws *wstream) addWriteRequest() *promise {
	p := ws.s.newPromise()
	ws.writeReqs = append(ws.writeReqs, p)
	return p
}

func (ws *wstream) dealWithRejection(e goja.Value) {
	if ws.state == wsWritable {
		ws.startErroring(e)
		return
	}
	ws.finishErroring()
}

func (ws *wstream) finishErroring() {
	s := ws.s
	ws.state = wsErrored
	ws.ctrl.queue.reset() // [[ErrorSteps]]
	stored := ws.stored
	for _, p := range ws.writeReqs {
		p.reject(stored)
	}
	ws.writeReqs = nil
	ar := ws.pendingAbort
	if ar == nil {
		ws.rejectCloseAndClosedIfNeeded()
		return
	}
	ws.pendingAbort = nil
	if ar.wasAlreadyErroring {
		ar.p.reject(stored)
		ws.rejectCloseAndClosedIfNeeded()
		return
	}
	p := ws.ctrl.abortSteps(ar.reason)
	s.upon(p, func(goja.Value) {
		ar.p.resolve(goja.Undefined())
		ws.rejectCloseAndClosedIfNeeded()
	}, func(e goja.Value) {
		ar.p.reject(e)
		ws.rejectCloseAndClosedIfNeeded()
	})
}

func (ws *wstream) finishInFlightClose() {
	ws.inFlightClose.resolve(goja.Undefined())
	ws.inFlightClose = nil
	if ws.state == wsErroring {
		ws.stored = goja.Undefined()
		if ws.pendingAbort != nil {
			ws.pendingAbort.p.resolve(goja.Undefined())
			ws.pendingAbort = nil
		}
	}
	ws.state = wsClosed
	if w := ws.writer; w != nil {
		w.closed.resolve(goja.Undefined())
	}
}

func (ws *wstream) finishInFlightCloseWithError(e goja.Value) {
	ws.inFlightClose.reject(e)
	ws.inFlightClose = nil
	if ws.pendingAbort != nil {
		ws.pendingAbort.p.reject(e)
		ws.pendingAbort = nil
	}
	ws.dealWithRejection(e)
}

func (ws *wstream) finishInFlightWrite() {
	ws.inFlightWrite.resolve(goja.Undefined())
	ws.inFlightWrite = nil
}

func (ws *wstream) finishInFlightWriteWithError(e goja.Value) {
	ws.inFlightWrite.reject(e)
	ws.inFlightWrite = nil
	ws.dealWithRejection(e)
}

func (ws *wstream) rejectCloseAndClosedIfNeeded() {
	s := ws.s
	if ws.closeReq != nil {
		ws.closeReq.reject(ws.stored)
		ws.closeReq = nil
	}
	if w := ws.writer; w != nil {
		w.closed.reject(ws.stored)
		w.closed.handled(s)
	}
}

func (ws *wstream) startErroring(reason goja.Value) {
	ws.state = wsErroring
	ws.stored = reason
	if w := ws.writer; w != nil {
		w.ensureReadyRejected(reason)
	}
	if !ws.hasOperationInFlight() && ws.ctrl.started {
		ws.finishErroring()
	}
}

func (ws *wstream) updateBackpressure(bp bool) {
	if w := ws.writer; w != nil && bp != ws.backpr {
		if bp {
			w.ready = ws.s.newPromise()
		} else {
			w.ready.resolve(goja.Undefined())
		}
	}
	ws.backpr = bp
}

// --- writer ---

func (s *state) acquireWriter(ws *wstream) *writer {
	w := &writer{s: s, obj: s.rt.CreateObject(s.writer.Proto)}
	s.r.SetSlot(w.obj, w)
	s.setUpWriter(w, ws)
	return w
}

func (s *state) setUpWriter(w *writer, ws *wstream) {
	if ws.locked() {
		panic(s.typeError("WritableStream is locked"))
	}
	w.stream = ws
	ws.writer = w
	switch ws.state {
	case wsWritable:
		if !ws.closeQueuedOrInFlight() && ws.backpr {
			w.ready = s.newPromise()
		} else {
			w.ready = s.newPromiseResolved()
		}
		w.closed = s.newPromise()
	case wsErroring:
		w.ready = s.newPromiseRejected(ws.stored)
		w.closed = s.newPromise()
	case wsClosed:
		w.ready = s.newPromiseResolved()
		w.closed = s.newPromiseResolved()
	default:
		w.ready = s.newPromiseRejected(ws.stored)
		w.closed = s.newPromiseRejected(ws.stored)
	}
}

func (w *writer) closeWithErrorPropagation() goja.Value {
	s, ws := w.s, w.stream
	if ws.closeQueuedOrInFlight() || ws.state == wsClosed {
		return s.resolvedUndefined()
	}
	if ws.state == wsErrored {
		return s.rejectedWith(ws.stored)
	}
	return ws.close()
}

func (w *writer) ensureClosedRejected(e goja.Value) {
	if w.closed.pending() {
		w.closed.reject(e)
	} else {
		w.closed = w.s.newPromise()
		w.closed.reject(e)
	}
	w.closed.handled(w.s)
}

func (w *writer) ensureReadyRejected(e goja.Value) {
	if w.ready.pending() {
		w.ready.reject(e)
	} else {
		w.ready = w.s.newPromise()
		w.ready.reject(e)
	}
	w.ready.handled(w.s)
}

func (w *writer) desiredSize() (float64, bool) {
	ws := w.stream
	switch ws.state {
	case wsErrored, wsErroring:
		return 0, false
	case wsClosed:
		return 0, true
	}
	return ws.ctrl.hwm - ws.ctrl.queue.total, true
}

func (w *writer) release() {
	e := w.s.typeError("Writer was released and can no longer be used to monitor the stream's closedness")
	w.ensureReadyRejected(e)
	w.ensureClosedRejected(e)
	w.stream.writer = nil
	w.stream = nil
}

// write is WritableStreamDefaultWriterWrite.
func (w *writer) write(chunk goja.Value) goja.Value {
	s, ws := w.s, w.stream
	c := ws.ctrl
	size := c.chunkSize(chunk)
	if ws != w.stream {
		return s.rejectedWith(s.typeError("Writer was released"))
	}
	switch {
	case ws.state == wsErrored:
		return s.rejectedWith(ws.stored)
	case ws.closeQueuedOrInFlight() || ws.state == wsClosed:
		return s.rejectedWith(s.typeError("The stream is closing or closed and cannot be written to"))
	case ws.state == wsErroring:
		return s.rejectedWith(ws.stored)
	}
	p := ws.addWriteRequest()
	c.write(chunk, size)
	return p.v
}

// --- controller ---

func (s *state) newWController() *wcontroller {
	c := &wcontroller{s: s, obj: s.rt.CreateObject(s.writableCtrl.Proto)}
	s.r.SetSlot(c.obj, c)
	return c
}

func (c *wcontroller) setUp(ws *wstream, start func(goja.Value) goja.Value, a sinkAlgos, hwm float64, size sizeAlgo) {
	s := c.s
	c.stream = ws
	ws.ctrl = c
	c.algos, c.hwm, c.size = a, hwm, size
	ws.updateBackpressure(c.backpressure())
	res := start(c.obj)
	s.uponValue(res, func(goja.Value) {
		c.started = true
		c.advanceQueueIfNeeded()
	}, func(e goja.Value) {
		c.started = true
		ws.dealWithRejection(e)
	})
}

// signalAbort signals abort on [[abortController]] with reason.
func (c *wcontroller) signalAbort(reason goja.Value) {
	if c.abortCtl == nil {
		if !c.aborted {
			c.aborted, c.abortReason = true, reason
		}
		return
	}
	abort, _ := goja.AssertFunction(c.abortCtl.Get("abort"))
	if abort != nil {
		if _, err := abort(c.abortCtl, reason); err != nil {
			if _, ok := err.(*goja.Exception); !ok {
				panic(err)
			}
		}
	}
}

// signal returns the controller's AbortSignal, making its AbortController
// on first use (nothing can observe the signal before that).
func (c *wcontroller) signal() goja.Value {
	if c.abortCtl == nil {
		events.Install(c.s.r)
		ctor := c.s.rt.Get("AbortController")
		if webidl.IsNullish(ctor) {
			return goja.Undefined()
		}
		o, err := c.s.rt.New(ctor)
		if err != nil {
			panic(err)
		}
		c.abortCtl = o
		if c.aborted {
			c.signalAbort(c.abortReason)
		}
	}
	return c.abortCtl.Get("signal")
}

func (c *wcontroller) advanceQueueIfNeeded() {
	ws := c.stream
	if !c.started || ws.inFlightWrite != nil {
		return
	}
	if ws.state == wsErroring {
		ws.finishErroring()
		return
	}
	if c.queue.len() == 0 {
		return
	}
	if v := c.queue.peek(); v == closeSentinel {
		c.processClose()
	} else {
		c.processWrite(v)
	}
}

func (c *wcontroller) clearAlgorithms() {
	c.cleared = true
	c.size = nil
}

func (c *wcontroller) close() {
	c.queue.items = append(c.queue.items, sized{closeSentinel, 0})
	c.advanceQueueIfNeeded()
}

func (c *wcontroller) error(e goja.Value) {
	c.clearAlgorithms()
	c.stream.startErroring(e)
}

func (c *wcontroller) errorIfNeeded(e goja.Value) {
	if c.stream.state == wsWritable {
		c.error(e)
	}
}

func (c *wcontroller) backpressure() bool { return c.hwm-c.queue.total <= 0 }

func (c *wcontroller) chunkSize(chunk goja.Value) float64 {
	if c.cleared {
		return 1
	}
	size, ex, ok := c.s.chunkSize(c.size, chunk)
	if !ok {
		c.errorIfNeeded(ex)
		return 1
	}
	return size
}

func (c *wcontroller) processClose() {
	ws := c.stream
	ws.inFlightClose, ws.closeReq = ws.closeReq, nil
	c.queue.dequeue()
	p := c.algos.close()
	c.clearAlgorithms()
	c.s.upon(p, func(goja.Value) { ws.finishInFlightClose() }, func(e goja.Value) { ws.finishInFlightCloseWithError(e) })
}

func (c *wcontroller) processWrite(chunk goja.Value) {
	ws := c.stream
	ws.inFlightWrite = ws.writeReqs[0]
	ws.writeReqs[0] = nil
	ws.writeReqs = ws.writeReqs[1:]
	p := c.algos.write(chunk)
	c.s.upon(p, func(goja.Value) {
		ws.finishInFlightWrite()
		c.queue.dequeue()
		if !ws.closeQueuedOrInFlight() && ws.state == wsWritable {
			ws.updateBackpressure(c.backpressure())
		}
		c.advanceQueueIfNeeded()
	}, func(e goja.Value) {
		if ws.state == wsWritable {
			c.clearAlgorithms()
		}
		ws.finishInFlightWriteWithError(e)
	})
}

func (c *wcontroller) write(chunk goja.Value, size float64) {
	if e := c.s.enqueueSized(&c.queue, chunk, size); e != nil {
		c.errorIfNeeded(e)
		return
	}
	ws := c.stream
	if !ws.closeQueuedOrInFlight() && ws.state == wsWritable {
		ws.updateBackpressure(c.backpressure())
	}
	c.advanceQueueIfNeeded()
}

func (c *wcontroller) abortSteps(reason goja.Value) goja.Value {
	p := c.algos.abort(reason)
	c.clearAlgorithms()
	return p
}

// --- JS interfaces ---

func (s *state) installWritable() {
	r, rt := s.r, s.rt
	c := r.NewClass("WritableStream", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		s.constructWritable(call.This, call.Argument(0), call.Argument(1))
		return nil
	})
	s.writable = c
	this := func(v goja.Value) *wstream { return webidl.This[*wstream](r, v) }
	c.Getter("locked", func(v goja.Value) goja.Value { return rt.ToValue(this(v).locked()) })
	s.promiseOp(c, "abort", 0, func(call goja.FunctionCall) goja.Value {
		ws := this(call.This)
		if ws.locked() {
			return s.rejectedWith(s.typeError("Cannot abort a stream that already has a writer"))
		}
		return ws.abort(call.Argument(0))
	})
	s.promiseOp(c, "close", 0, func(call goja.FunctionCall) goja.Value {
		ws := this(call.This)
		if ws.locked() {
			return s.rejectedWith(s.typeError("Cannot close a stream that already has a writer"))
		}
		if ws.closeQueuedOrInFlight() {
			return s.rejectedWith(s.typeError("Cannot close an already-closing stream"))
		}
		return ws.close()
	})
	c.Method("getWriter", 0, func(call goja.FunctionCall) goja.Value { return s.acquireWriter(this(call.This)).obj })
	r.Global("WritableStream", c.Ctor)

	w := r.NewClass("WritableStreamDefaultWriter", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		ws, ok := webidl.Slot[*wstream](call.Argument(0))
		if !ok {
			panic(s.typeError("Failed to construct 'WritableStreamDefaultWriter': parameter 1 is not of type 'WritableStream'."))
		}
		wr := &writer{s: s, obj: call.This}
		s.setUpWriter(wr, ws)
		r.SetSlot(call.This, wr)
		return nil
	})
	s.writer = w
	wthis := func(v goja.Value) *writer { return webidl.This[*writer](r, v) }
	released := func() goja.Value { return s.rejectedWith(s.typeError("This writer has been released")) }
	w.Getter("closed", func(v goja.Value) goja.Value { return wthis(v).closed.v })
	w.Getter("desiredSize", func(v goja.Value) goja.Value {
		wr := wthis(v)
		if wr.stream == nil {
			panic(s.typeError("This writer has been released"))
		}
		d, ok := wr.desiredSize()
		if !ok {
			return goja.Null()
		}
		return rt.ToValue(d)
	})
	w.Getter("ready", func(v goja.Value) goja.Value { return wthis(v).ready.v })
	s.promiseOp(w, "abort", 0, func(call goja.FunctionCall) goja.Value {
		wr := wthis(call.This)
		if wr.stream == nil {
			return released()
		}
		return wr.stream.abort(call.Argument(0))
	})
	s.promiseOp(w, "close", 0, func(call goja.FunctionCall) goja.Value {
		wr := wthis(call.This)
		if wr.stream == nil {
			return released()
		}
		if wr.stream.closeQueuedOrInFlight() {
			return s.rejectedWith(s.typeError("Cannot close an already-closing stream"))
		}
		return wr.stream.close()
	})
	w.Method("releaseLock", 0, func(call goja.FunctionCall) goja.Value {
		if wr := wthis(call.This); wr.stream != nil {
			wr.release()
		}
		return goja.Undefined()
	})
	s.promiseOp(w, "write", 0, func(call goja.FunctionCall) goja.Value {
		wr := wthis(call.This)
		if wr.stream == nil {
			return released()
		}
		return wr.write(call.Argument(0))
	})
	r.Global("WritableStreamDefaultWriter", w.Ctor)

	ctl := r.NewClass("WritableStreamDefaultController", 0, nil, nil)
	s.writableCtrl = ctl
	cthis := func(v goja.Value) *wcontroller { return webidl.This[*wcontroller](r, v) }
	ctl.Getter("signal", func(v goja.Value) goja.Value { return cthis(v).signal() })
	ctl.Method("error", 0, func(call goja.FunctionCall) goja.Value {
		wc := cthis(call.This)
		if wc.stream.state == wsWritable {
			wc.error(call.Argument(0))
		}
		return goja.Undefined()
	})
	r.Global("WritableStreamDefaultController", ctl.Ctor)
}

func (s *state) constructWritable(o *goja.Object, sink, strat goja.Value) {
	const what = "Failed to construct 'WritableStream'"
	var snk *goja.Object
	if !goja.IsUndefined(sink) {
		var ok bool
		if snk, ok = sink.(*goja.Object); !ok {
			panic(s.typeError(what + ": parameter 1 is not of type 'object'."))
		}
	}
	q := s.strategyDict(strat, what)
	abort := s.callback(snk, "abort", what)
	closeFn := s.callback(snk, "close", what)
	start := s.callback(snk, "start", what)
	typ := webidl.Member(snk, "type")
	write := s.callback(snk, "write", what)
	if typ != nil {
		panic(s.rangeError(what + ": Invalid type is specified"))
	}
	ws := s.newWStream(o)
	size := q.size
	hwm := s.highWaterMark(q, 1)
	var this goja.Value = goja.Undefined()
	if snk != nil {
		this = snk
	}
	c := s.newWController()
	a := sinkAlgos{
		write: func(chunk goja.Value) goja.Value {
			if write == nil {
				return s.resolvedUndefined()
			}
			return s.promiseCall(write, this, chunk, c.obj)
		},
		close: func() goja.Value {
			if closeFn == nil {
				return s.resolvedUndefined()
			}
			return s.promiseCall(closeFn, this)
		},
		abort: func(reason goja.Value) goja.Value {
			if abort == nil {
				return s.resolvedUndefined()
			}
			return s.promiseCall(abort, this, reason)
		},
	}
	c.setUp(ws, func(ctrl goja.Value) goja.Value {
		if start == nil {
			return goja.Undefined()
		}
		v, ex, ok := s.call(start, this, ctrl)
		if !ok {
			panic(ex)
		}
		return v
	}, a, hwm, size)
}
