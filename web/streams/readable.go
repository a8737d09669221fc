package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Stream states ([[state]] of ReadableStream; WritableStream adds its own).
const (
	stReadable = iota
	stClosed
	stErrored
)

// rstream is a ReadableStream's internal slots.
type rstream struct {
	s         *state
	obj       *goja.Object
	state     int
	stored    goja.Value
	disturbed bool
	reader    *reader
	ctrl      rcontroller
}

// rcontroller is what ReadableStreamDefaultController and
// ReadableByteStreamController share: their [[CancelSteps]],
// [[PullSteps]] and [[ReleaseSteps]].
type rcontroller interface {
	cancelSteps(reason goja.Value) goja.Value
	pullSteps(req readRequest)
	releaseSteps()
}

// readRequest is a read request or read-into request: what happens when a
// read settles. closeSteps gets undefined for default reads and the empty
// view for BYOB reads.
type readRequest interface {
	chunkSteps(chunk goja.Value)
	closeSteps(chunk goja.Value)
	errorSteps(e goja.Value)
}

// jsRead settles the promise that reader.read() returned.
type jsRead struct {
	s *state
	p *promise
}

func (q *jsRead) chunkSteps(c goja.Value) { q.p.resolve(q.s.iterResult(c, false)) }
func (q *jsRead) closeSteps(c goja.Value) { q.p.resolve(q.s.iterResult(c, true)) }
func (q *jsRead) errorSteps(e goja.Value) { q.p.reject(e) }

// funcRead is a read request made of Go functions (tee, pipeTo, from Go).
type funcRead struct {
	chunk func(goja.Value)
	close func(goja.Value)
	err   func(goja.Value)
}

func (q *funcRead) chunkSteps(c goja.Value) { q.chunk(c) }
func (q *funcRead) closeSteps(c goja.Value) { q.close(c) }
func (q *funcRead) errorSteps(e goja.Value) { q.err(e) }

// sourceAlgos are a controller's [[pullAlgorithm]] and
// [[cancelAlgorithm]]. pull settles through k, later (in a microtask at
// the earliest), as "upon fulfillment/rejection of pullPromise" does.
type sourceAlgos struct {
	pull   func(k func(ok bool, v goja.Value))
	cancel func(reason goja.Value) goja.Value
}

// newRStream makes the slots of a ReadableStream object o
// (InitializeReadableStream) and attaches them.
func (s *state) newRStream(o *goja.Object) *rstream {
	if o == nil {
		o = s.rt.CreateObject(s.readable.Proto)
	}
	st := &rstream{s: s, obj: o}
	s.r.SetSlot(o, st)
	return st
}

// --- abstract operations on streams ---

func (st *rstream) locked() bool { return st.reader != nil }

// cancel is ReadableStreamCancel.
func (st *rstream) cancel(reason goja.Value) goja.Value {
	s := st.s
	st.disturbed = true
	switch st.state {
	case stClosed:
		return s.resolvedUndefined()
	case stErrored:
		return s.rejectedWith(st.stored)
	}
	st.close()
	if rd := st.reader; rd != nil && rd.byob {
		reqs := rd.requests
		rd.requests = nil
		for _, q := range reqs {
			q.closeSteps(goja.Undefined())
		}
	}
	p := st.ctrl.cancelSteps(reason)
	return s.then(p, func(goja.Value) goja.Value { return goja.Undefined() }, nil)
}

// close is ReadableStreamClose.
func (st *rstream) close() {
	st.state = stClosed
	rd := st.reader
	if rd == nil {
		return
	}
	rd.closed.resolve(goja.Undefined())
	if !rd.byob {
		reqs := rd.requests
		rd.requests = nil
		for _, q := range reqs {
			q.closeSteps(goja.Undefined())
		}
	}
}

// error is ReadableStreamError.
func (st *rstream) error(e goja.Value) {
	st.state = stErrored
	st.stored = e
	rd := st.reader
	if rd == nil {
		return
	}
	rd.closed.reject(e)
	rd.closed.handled(st.s)
	rd.errorRequests(e)
}

func (st *rstream) addReadRequest(q readRequest) { st.reader.requests = append(st.reader.requests, q) }

// fulfillReadRequest is ReadableStreamFulfillReadRequest and
// ReadableStreamFulfillReadIntoRequest.
func (st *rstream) fulfillReadRequest(chunk goja.Value, done bool) {
	rd := st.reader
	q := rd.requests[0]
	rd.requests[0] = nil
	rd.requests = rd.requests[1:]
	if done {
		q.closeSteps(chunk)
	} else {
		q.chunkSteps(chunk)
	}
}

func (st *rstream) numReadRequests() int {
	if st.reader == nil {
		return 0
	}
	return len(st.reader.requests)
}

func (st *rstream) hasDefaultReader() bool { return st.reader != nil && !st.reader.byob }
func (st *rstream) hasBYOBReader() bool    { return st.reader != nil && st.reader.byob }

// --- creating streams from Go ---

// createReadable is CreateReadableStream: a default stream over Go
// algorithms.
func (s *state) createReadable(start func(ctrl goja.Value) goja.Value, a sourceAlgos, hwm float64, size sizeAlgo) *rstream {
	st := s.newRStream(nil)
	c := s.newDefaultController()
	c.setUp(st, start, a, hwm, size)
	return st
}

// createByteStream is CreateReadableByteStream (high-water mark 0, no
// auto-allocation) over Go algorithms.
func (s *state) createByteStream(start func(ctrl goja.Value) goja.Value, a sourceAlgos, hwm float64) (*rstream, *byteController) {
	st := s.newRStream(nil)
	c := s.newByteController()
	c.setUp(st, start, a, hwm, 0)
	return st, c
}

// resolvedPull is the pull algorithm "return a promise resolved with
// undefined" of streams the platform makes: its reaction runs in a
// microtask.
func (s *state) resolvedPull(k func(bool, goja.Value)) {
	s.microtask(func() { k(true, nil) })
}

// jsSource makes the algorithms of an underlying source given in JS.
func (s *state) jsSource(src goja.Value, pull, cancel goja.Callable, ctrl *goja.Object) sourceAlgos {
	var a sourceAlgos
	if pull != nil {
		a.pull = func(k func(bool, goja.Value)) {
			v, ex, ok := s.call(pull, src, ctrl)
			if !ok {
				s.microtask(func() { k(false, ex) })
				return
			}
			s.uponValue(v, func(v goja.Value) { k(true, v) }, func(e goja.Value) { k(false, e) })
		}
	} else {
		a.pull = s.resolvedPull
	}
	if cancel != nil {
		a.cancel = func(reason goja.Value) goja.Value { return s.promiseCall(cancel, src, reason) }
	} else {
		a.cancel = func(goja.Value) goja.Value { return s.resolvedUndefined() }
	}
	return a
}

// --- the ReadableStream interface ---

func (s *state) installReadable() {
	r, rt := s.r, s.rt
	c := r.NewClass("ReadableStream", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		s.constructReadable(call.This, call.Argument(0), call.Argument(1))
		return nil
	})
	s.readable = c
	this := func(v goja.Value) *rstream { return webidl.This[*rstream](r, v) }
	c.Getter("locked", func(v goja.Value) goja.Value { return rt.ToValue(this(v).locked()) })
	s.promiseOp(c, "cancel", 0, func(call goja.FunctionCall) goja.Value {
		st := this(call.This)
		if st.locked() {
			return s.rejectedWith(s.typeError("Cannot cancel a stream that already has a reader"))
		}
		return st.cancel(call.Argument(0))
	})
	c.Method("getReader", 0, func(call goja.FunctionCall) goja.Value {
		st := this(call.This)
		var mode goja.Value
		if o := s.r.Dict(call.Argument(0), "ReadableStream.getReader"); o != nil {
			mode = webidl.Member(o, "mode")
		}
		if mode == nil {
			return s.acquireDefaultReader(st).obj
		}
		if m := s.r.String(mode); m != "byob" {
			panic(s.typeError("Failed to execute 'getReader' on 'ReadableStream': The provided value '" + m + "' is not a valid enum value of type ReadableStreamReaderMode."))
		}
		return s.acquireBYOBReader(st).obj
	})
	c.Method("pipeThrough", 1, func(call goja.FunctionCall) goja.Value {
		return s.pipeThrough(this(call.This), call.Argument(0), call.Argument(1))
	})
	s.promiseOp(c, "pipeTo", 1, func(call goja.FunctionCall) goja.Value {
		return s.pipeToJS(this(call.This), call.Argument(0), call.Argument(1))
	})
	c.Method("tee", 0, func(call goja.FunctionCall) goja.Value {
		a, b := s.tee(this(call.This))
		return rt.NewArray(a.obj, b.obj)
	})
	values := r.Func("values", 0, func(call goja.FunctionCall) goja.Value {
		st := this(call.This)
		preventCancel := false
		if o := s.r.Dict(call.Argument(0), "ReadableStream.values"); o != nil {
			preventCancel = webidl.Bool(webidl.Member(o, "preventCancel"))
		}
		return s.newAsyncIterator(st, preventCancel)
	})
	_ = c.Proto.DefineDataProperty("values", values, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = c.Proto.DefineDataPropertySymbol(s.asyncIterator, values, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	c.Static("from", 1, func(call goja.FunctionCall) goja.Value { return s.from(call.Argument(0)).obj })
	r.Global("ReadableStream", c.Ctor)

	s.installReaders()
	s.installDefaultController()
	s.installByteController()
	s.installAsyncIterator()
}

// constructReadable is the ReadableStream constructor's steps.
func (s *state) constructReadable(o *goja.Object, source, strat goja.Value) {
	const what = "Failed to construct 'ReadableStream'"
	var src *goja.Object
	if !goja.IsUndefined(source) {
		var ok bool
		if src, ok = source.(*goja.Object); !ok {
			panic(s.typeError(what + ": parameter 1 is not of type 'object'."))
		}
	}
	q := s.strategyDict(strat, what)
	// UnderlyingSource, members in lexicographic order.
	var autoAlloc int64
	hasAuto := false
	if v := webidl.Member(src, "autoAllocateChunkSize"); v != nil {
		autoAlloc, hasAuto = s.r.Integer(v, 64, false, webidl.EnforceRange), true
	}
	cancel := s.callback(src, "cancel", what)
	pull := s.callback(src, "pull", what)
	start := s.callback(src, "start", what)
	bytes := false
	if v := webidl.Member(src, "type"); v != nil {
		if t := s.r.String(v); t != "bytes" {
			panic(s.typeError(what + ": The provided value '" + t + "' is not a valid enum value of type ReadableStreamType."))
		}
		bytes = true
	}
	st := s.newRStream(o)
	var srcThis goja.Value = goja.Undefined()
	if src != nil {
		srcThis = src
	}
	startFn := func(ctrl goja.Value) goja.Value {
		if start == nil {
			return goja.Undefined()
		}
		v, ex, ok := s.call(start, srcThis, ctrl)
		if !ok {
			panic(ex)
		}
		return v
	}
	if bytes {
		if q.size != nil {
			panic(s.rangeError(what + ": The strategy for a byte stream cannot have a size function"))
		}
		hwm := s.highWaterMark(q, 0)
		if hasAuto && autoAlloc == 0 {
			panic(s.typeError(what + ": autoAllocateChunkSize must be greater than 0"))
		}
		c := s.newByteController()
		c.setUp(st, startFn, s.jsSource(srcThis, pull, cancel, c.obj), hwm, autoAlloc)
		return
	}
	hwm := s.highWaterMark(q, 1)
	c := s.newDefaultController()
	c.setUp(st, startFn, s.jsSource(srcThis, pull, cancel, c.obj), hwm, q.size)
}
