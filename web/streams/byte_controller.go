package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Reader types of a pull-into descriptor.
const (
	readerDefault = iota
	readerBYOB
	readerNone
)

type pullInto struct {
	ab                                       goja.ArrayBuffer
	bufferByteLength, byteOffset, byteLength int
	bytesFilled, minimumFill, elementSize    int
	typ                                      viewType
	readerType                               int
}

type byteEntry struct {
	ab     goja.ArrayBuffer
	off, n int
}

// byteController is a ReadableByteStreamController's slots.
type byteController struct {
	s      *state
	obj    *goja.Object
	stream *rstream
	algos  sourceAlgos
	hwm    float64

	autoAllocate int64 // 0: undefined
	byobRequest  *byobRequest
	pending      []*pullInto
	queue        []byteEntry
	qhead        int
	total        int

	started, closeRequested, pullAgain, pulling bool
}

// byobRequest is a ReadableStreamBYOBRequest's slots.
type byobRequest struct {
	obj  *goja.Object
	ctrl *byteController // nil once invalidated
	view goja.Value      // null once invalidated
}

func (s *state) newByteController() *byteController {
	c := &byteController{s: s, obj: s.rt.CreateObject(s.byteCtrl.Proto)}
	s.r.SetSlot(c.obj, c)
	return c
}

// setUp is SetUpReadableByteStreamController; start may throw.
func (c *byteController) setUp(st *rstream, start func(goja.Value) goja.Value, a sourceAlgos, hwm float64, autoAllocate int64) {
	s := c.s
	c.stream = st
	c.algos, c.hwm, c.autoAllocate = a, hwm, autoAllocate
	st.ctrl = c
	res := start(c.obj)
	s.uponValue(res, func(goja.Value) {
		c.started = true
		c.callPullIfNeeded()
	}, func(e goja.Value) { c.error(e) })
}

func (c *byteController) queueLen() int { return len(c.queue) - c.qhead }

func (c *byteController) shouldCallPull() bool {
	st := c.stream
	if st.state != stReadable || c.closeRequested || !c.started {
		return false
	}
	if st.reader != nil && len(st.reader.requests) > 0 {
		return true
	}
	d, _ := c.desiredSize()
	return d > 0
}

func (c *byteController) callPullIfNeeded() {
	if !c.shouldCallPull() {
		return
	}
	if c.pulling {
		c.pullAgain = true
		return
	}
	c.pulling = true
	c.algos.pull(func(ok bool, v goja.Value) {
		if !ok {
			c.error(v)
			return
		}
		c.pulling = false
		if c.pullAgain {
			c.pullAgain = false
			c.callPullIfNeeded()
		}
	})
}

func (c *byteController) clearAlgorithms() {
	c.algos.pull = func(func(bool, goja.Value)) {}
	c.algos.cancel = nil
}

func (c *byteController) clearPendingPullIntos() {
	c.invalidateBYOBRequest()
	c.pending = nil
}

func (c *byteController) resetQueue() {
	clear(c.queue)
	c.queue, c.qhead, c.total = c.queue[:0], 0, 0
}

func (c *byteController) desiredSize() (float64, bool) {
	switch c.stream.state {
	case stErrored:
		return 0, false
	case stClosed:
		return 0, true
	}
	return c.hwm - float64(c.total), true
}

// close is ReadableByteStreamControllerClose; it returns the TypeError it
// throws for a partially filled BYOB request.
func (c *byteController) close() goja.Value {
	st := c.stream
	if c.closeRequested || st.state != stReadable {
		return nil
	}
	if c.total > 0 {
		c.closeRequested = true
		return nil
	}
	if len(c.pending) > 0 {
		if first := c.pending[0]; first.bytesFilled%first.elementSize != 0 {
			e := c.s.typeError("Insufficient bytes to fill elements in the given buffer")
			c.error(e)
			return e
		}
	}
	c.clearAlgorithms()
	st.close()
	return nil
}

func (c *byteController) commitPullInto(d *pullInto) {
	st := c.stream
	done := st.state == stClosed
	v := c.convertPullInto(d)
	st.fulfillReadRequest(v, done)
}

func (c *byteController) convertPullInto(d *pullInto) *goja.Object {
	ab, _ := c.s.transfer(d.ab)
	return c.s.construct(d.typ, ab, d.byteOffset, d.bytesFilled/d.elementSize)
}

// enqueue is ReadableByteStreamControllerEnqueue for the bytes of
// (ab, off, n); it returns what it throws.
func (c *byteController) enqueue(ab goja.ArrayBuffer, off, n int) goja.Value {
	s, st := c.s, c.stream
	if c.closeRequested || st.state != stReadable {
		return nil
	}
	tb, ok := s.transfer(ab)
	if !ok {
		return s.typeError("chunk's buffer is detached and so cannot be enqueued")
	}
	if len(c.pending) > 0 {
		first := c.pending[0]
		if first.ab.Detached() {
			return s.typeError("The BYOB request's buffer has been detached and so cannot be filled with an enqueued chunk")
		}
		c.invalidateBYOBRequest()
		first.ab, _ = s.transfer(first.ab)
		if first.readerType == readerNone {
			if e := c.enqueueDetachedPullIntoToQueue(first); e != nil {
				return e
			}
		}
	}
	switch {
	case st.hasDefaultReader():
		c.processReadRequestsUsingQueue()
		if st.numReadRequests() == 0 {
			c.enqueueChunk(tb, off, n)
		} else {
			if len(c.pending) > 0 {
				c.shiftPending()
			}
			st.fulfillReadRequest(s.newUint8(tb, off, n), false)
		}
	case st.hasBYOBReader():
		c.enqueueChunk(tb, off, n)
		for _, d := range c.processPullIntosUsingQueue() {
			c.commitPullInto(d)
		}
	default:
		c.enqueueChunk(tb, off, n)
	}
	c.callPullIfNeeded()
	return nil
}

func (c *byteController) enqueueChunk(ab goja.ArrayBuffer, off, n int) {
	c.queue = append(c.queue, byteEntry{ab, off, n})
	c.total += n
}

func (c *byteController) enqueueCloned(ab goja.ArrayBuffer, off, n int) goja.Value {
	src := ab.Bytes()
	if off+n > len(src) {
		e := c.s.rangeError("Invalid buffer range")
		c.error(e)
		return e
	}
	b := make([]byte, n)
	copy(b, src[off:off+n])
	c.enqueueChunk(c.s.rt.NewArrayBuffer(b), 0, n)
	return nil
}

func (c *byteController) enqueueDetachedPullIntoToQueue(d *pullInto) goja.Value {
	if d.bytesFilled > 0 {
		if e := c.enqueueCloned(d.ab, d.byteOffset, d.bytesFilled); e != nil {
			return e
		}
	}
	c.shiftPending()
	return nil
}

// error is ReadableByteStreamControllerError.
func (c *byteController) error(e goja.Value) {
	st := c.stream
	if st.state != stReadable {
		return
	}
	c.clearPendingPullIntos()
	c.resetQueue()
	c.clearAlgorithms()
	st.error(e)
}

func (c *byteController) fillHead(size int, d *pullInto) {
	d.bytesFilled += size
}

// fillPullIntoFromQueue is ReadableByteStreamControllerFillPullIntoDescriptorFromQueue.
func (c *byteController) fillPullIntoFromQueue(d *pullInto) bool {
	maxBytesToCopy := min(c.total, d.byteLength-d.bytesFilled)
	maxBytesFilled := d.bytesFilled + maxBytesToCopy
	remaining := maxBytesToCopy
	ready := false
	maxAligned := maxBytesFilled - maxBytesFilled%d.elementSize
	if maxAligned >= d.minimumFill {
		remaining = maxAligned - d.bytesFilled
		ready = true
	}
	for remaining > 0 {
		head := &c.queue[c.qhead]
		n := min(remaining, head.n)
		destStart := d.byteOffset + d.bytesFilled
		copy(d.ab.Bytes()[destStart:destStart+n], head.ab.Bytes()[head.off:head.off+n])
		if head.n == n {
			c.shiftQueue()
		} else {
			head.off += n
			head.n -= n
		}
		c.total -= n
		c.fillHead(n, d)
		remaining -= n
	}
	return ready
}

func (c *byteController) shiftQueue() byteEntry {
	e := c.queue[c.qhead]
	c.queue[c.qhead] = byteEntry{}
	c.qhead++
	if c.qhead == len(c.queue) {
		c.queue, c.qhead = c.queue[:0], 0
	} else if c.qhead > 32 && c.qhead*2 > len(c.queue) {
		k := copy(c.queue, c.queue[c.qhead:])
		clear(c.queue[k:])
		c.queue, c.qhead = c.queue[:k], 0
	}
	return e
}

func (c *byteController) fillReadRequestFromQueue(q readRequest) {
	e := c.shiftQueue()
	c.total -= e.n
	c.handleQueueDrain()
	q.chunkSteps(c.s.newUint8(e.ab, e.off, e.n))
}

// getBYOBRequest is ReadableByteStreamControllerGetBYOBRequest.
func (c *byteController) getBYOBRequest() *byobRequest {
	if c.byobRequest == nil && len(c.pending) > 0 {
		first := c.pending[0]
		v := c.s.newUint8(first.ab, first.byteOffset+first.bytesFilled, first.byteLength-first.bytesFilled)
		req := &byobRequest{obj: c.s.rt.CreateObject(c.s.byobRequest.Proto), ctrl: c, view: v}
		c.s.r.SetSlot(req.obj, req)
		c.byobRequest = req
	}
	return c.byobRequest
}

func (c *byteController) handleQueueDrain() {
	if c.total == 0 && c.closeRequested {
		c.clearAlgorithms()
		c.stream.close()
	} else {
		c.callPullIfNeeded()
	}
}

func (c *byteController) invalidateBYOBRequest() {
	if c.byobRequest == nil {
		return
	}
	c.byobRequest.ctrl = nil
	c.byobRequest.view = goja.Null()
	c.byobRequest = nil
}

func (c *byteController) processPullIntosUsingQueue() []*pullInto {
	var filled []*pullInto
	for len(c.pending) > 0 {
		if c.total == 0 {
			break
		}
		d := c.pending[0]
		if c.fillPullIntoFromQueue(d) {
			c.shiftPending()
			filled = append(filled, d)
		}
	}
	return filled
}

func (c *byteController) processReadRequestsUsingQueue() {
	rd := c.stream.reader
	for len(rd.requests) > 0 {
		if c.total == 0 {
			return
		}
		q := rd.requests[0]
		rd.requests[0] = nil
		rd.requests = rd.requests[1:]
		c.fillReadRequestFromQueue(q)
	}
}

// pullInto is ReadableByteStreamControllerPullInto.
func (c *byteController) pullInto(v view, min int64, q readRequest) {
	s, st := c.s, c.stream
	minimumFill := int(min) * v.typ.size
	ab, ok := s.transfer(v.ab)
	if !ok {
		q.errorSteps(s.typeError("view's buffer has been detached"))
		return
	}
	d := &pullInto{ab: ab, bufferByteLength: len(ab.Bytes()), byteOffset: v.off, byteLength: v.n,
		minimumFill: minimumFill, elementSize: v.typ.size, typ: v.typ, readerType: readerBYOB}
	if len(c.pending) > 0 {
		c.pending = append(c.pending, d)
		st.addReadRequest(q)
		return
	}
	if st.state == stClosed {
		q.closeSteps(s.construct(d.typ, d.ab, d.byteOffset, 0))
		return
	}
	if c.total > 0 {
		if c.fillPullIntoFromQueue(d) {
			fv := c.convertPullInto(d)
			c.handleQueueDrain()
			q.chunkSteps(fv)
			return
		}
		if c.closeRequested {
			e := s.typeError("Insufficient bytes to fill elements in the given buffer")
			c.error(e)
			q.errorSteps(e)
			return
		}
	}
	c.pending = append(c.pending, d)
	st.addReadRequest(q)
	c.callPullIfNeeded()
}

// respond is ReadableByteStreamControllerRespond; it returns what it throws.
func (c *byteController) respond(bytesWritten int64) goja.Value {
	s := c.s
	first := c.pending[0]
	if c.stream.state == stClosed {
		if bytesWritten != 0 {
			return s.typeError("bytesWritten must be 0 when calling respond() on a closed stream")
		}
	} else {
		if bytesWritten == 0 {
			return s.typeError("bytesWritten must be greater than 0 when calling respond() on a readable stream")
		}
		if int64(first.bytesFilled)+bytesWritten > int64(first.byteLength) {
			return s.rangeError("bytesWritten out of range")
		}
	}
	first.ab, _ = s.transfer(first.ab)
	return c.respondInternal(int(bytesWritten))
}

func (c *byteController) respondInClosedState(first *pullInto) {
	if first.readerType == readerNone {
		c.shiftPending()
	}
	st := c.stream
	if st.hasBYOBReader() {
		var filled []*pullInto
		for len(filled) < st.numReadRequests() {
			filled = append(filled, c.shiftPending())
		}
		for _, d := range filled {
			c.commitPullInto(d)
		}
	}
}

func (c *byteController) respondInReadableState(bytesWritten int, d *pullInto) goja.Value {
	c.fillHead(bytesWritten, d)
	if d.readerType == readerNone {
		if e := c.enqueueDetachedPullIntoToQueue(d); e != nil {
			return e
		}
		for _, f := range c.processPullIntosUsingQueue() {
			c.commitPullInto(f)
		}
		return nil
	}
	if d.bytesFilled < d.minimumFill {
		return nil
	}
	c.shiftPending()
	if rem := d.bytesFilled % d.elementSize; rem > 0 {
		end := d.byteOffset + d.bytesFilled
		if e := c.enqueueCloned(d.ab, end-rem, rem); e != nil {
			return e
		}
		d.bytesFilled -= rem
	}
	filled := c.processPullIntosUsingQueue()
	c.commitPullInto(d)
	for _, f := range filled {
		c.commitPullInto(f)
	}
	return nil
}

func (c *byteController) respondInternal(bytesWritten int) goja.Value {
	first := c.pending[0]
	c.invalidateBYOBRequest()
	if c.stream.state == stClosed {
		c.respondInClosedState(first)
	} else if e := c.respondInReadableState(bytesWritten, first); e != nil {
		return e
	}
	c.callPullIfNeeded()
	return nil
}

// respondWithNewView is ReadableByteStreamControllerRespondWithNewView.
func (c *byteController) respondWithNewView(v view) goja.Value {
	s := c.s
	first := c.pending[0]
	if c.stream.state == stClosed {
		if v.n != 0 {
			return s.typeError("The view's length must be 0 when calling respondWithNewView() on a closed stream")
		}
	} else if v.n == 0 {
		return s.typeError("The view's length must be greater than 0 when calling respondWithNewView() on a readable stream")
	}
	if first.byteOffset+first.bytesFilled != v.off {
		return s.rangeError("The region specified by view does not match byobRequest")
	}
	if first.bufferByteLength != len(v.ab.Bytes()) {
		return s.rangeError("The buffer of view has different capacity than byobRequest")
	}
	if first.bytesFilled+v.n > first.byteLength {
		return s.rangeError("The region specified by view is larger than byobRequest")
	}
	n := v.n
	ab, ok := s.transfer(v.ab)
	if !ok {
		return s.typeError("The view's buffer has been detached")
	}
	first.ab = ab
	return c.respondInternal(n)
}

func (c *byteController) shiftPending() *pullInto {
	d := c.pending[0]
	c.pending[0] = nil
	c.pending = c.pending[1:]
	return d
}

func (c *byteController) cancelSteps(reason goja.Value) goja.Value {
	c.clearPendingPullIntos()
	c.resetQueue()
	res := c.algos.cancel(reason)
	c.clearAlgorithms()
	return res
}

func (c *byteController) pullSteps(q readRequest) {
	s, st := c.s, c.stream
	if c.total > 0 {
		c.fillReadRequestFromQueue(q)
		return
	}
	if n := int(c.autoAllocate); n > 0 {
		ab := s.rt.NewArrayBuffer(make([]byte, n))
		c.pending = append(c.pending, &pullInto{ab: ab, bufferByteLength: n, byteLength: n,
			minimumFill: 1, elementSize: 1, typ: s.views["Uint8Array"], readerType: readerDefault})
	}
	st.addReadRequest(q)
	c.callPullIfNeeded()
}

func (c *byteController) releaseSteps() {
	if len(c.pending) > 0 {
		first := c.pending[0]
		first.readerType = readerNone
		c.pending = []*pullInto{first}
	}
}

func (s *state) installByteController() {
	r, rt := s.r, s.rt
	c := r.NewClass("ReadableByteStreamController", 0, nil, nil)
	s.byteCtrl = c
	this := func(v goja.Value) *byteController { return webidl.This[*byteController](r, v) }
	c.Getter("byobRequest", func(v goja.Value) goja.Value {
		if req := this(v).getBYOBRequest(); req != nil {
			return req.obj
		}
		return goja.Null()
	})
	c.Getter("desiredSize", func(v goja.Value) goja.Value {
		d, ok := this(v).desiredSize()
		if !ok {
			return goja.Null()
		}
		return rt.ToValue(d)
	})
	c.Method("close", 0, func(call goja.FunctionCall) goja.Value {
		bc := this(call.This)
		if bc.closeRequested {
			panic(s.typeError("The stream has already been closed; do not close it again!"))
		}
		if bc.stream.state != stReadable {
			panic(s.typeError("The stream is not in the readable state and cannot be closed"))
		}
		if e := bc.close(); e != nil {
			panic(e)
		}
		return goja.Undefined()
	})
	c.Method("enqueue", 1, func(call goja.FunctionCall) goja.Value {
		bc := this(call.This)
		v, ok := s.asView(call.Argument(0))
		if !ok {
			panic(s.typeError("Failed to execute 'enqueue' on 'ReadableByteStreamController': parameter 1 is not of type 'ArrayBufferView'."))
		}
		if v.n == 0 {
			panic(s.typeError("chunk must have non-zero byteLength"))
		}
		if len(v.ab.Bytes()) == 0 {
			panic(s.typeError("chunk's buffer must have non-zero byteLength"))
		}
		if bc.closeRequested {
			panic(s.typeError("stream is closed or draining"))
		}
		if bc.stream.state != stReadable {
			panic(s.typeError("The stream is not in the readable state and cannot be enqueued to"))
		}
		if e := bc.enqueue(v.ab, v.off, v.n); e != nil {
			panic(e)
		}
		return goja.Undefined()
	})
	c.Method("error", 0, func(call goja.FunctionCall) goja.Value {
		this(call.This).error(call.Argument(0))
		return goja.Undefined()
	})
	r.Global("ReadableByteStreamController", c.Ctor)

	b := r.NewClass("ReadableStreamBYOBRequest", 0, nil, nil)
	s.byobRequest = b
	req := func(v goja.Value) *byobRequest { return webidl.This[*byobRequest](r, v) }
	b.Getter("view", func(v goja.Value) goja.Value { return req(v).view })
	b.Method("respond", 1, func(call goja.FunctionCall) goja.Value {
		q := req(call.This)
		n := s.r.Integer(call.Argument(0), 64, false, webidl.EnforceRange)
		if q.ctrl == nil {
			panic(s.typeError("This BYOB request has been invalidated"))
		}
		if v, _ := s.asView(q.view); v.ab.Detached() {
			panic(s.typeError("The BYOB request's buffer has been detached and so cannot be used as a response"))
		}
		if e := q.ctrl.respond(n); e != nil {
			panic(e)
		}
		return goja.Undefined()
	})
	b.Method("respondWithNewView", 1, func(call goja.FunctionCall) goja.Value {
		q := req(call.This)
		v, ok := s.asView(call.Argument(0))
		if !ok {
			panic(s.typeError("Failed to execute 'respondWithNewView' on 'ReadableStreamBYOBRequest': parameter 1 is not of type 'ArrayBufferView'."))
		}
		if q.ctrl == nil {
			panic(s.typeError("This BYOB request has been invalidated"))
		}
		if v.ab.Detached() {
			panic(s.typeError("The given view's buffer has been detached and so cannot be used as a response"))
		}
		if e := q.ctrl.respondWithNewView(v); e != nil {
			panic(e)
		}
		return goja.Undefined()
	})
	r.Global("ReadableStreamBYOBRequest", b.Ctor)
}
