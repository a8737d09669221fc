package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// defaultController is a ReadableStreamDefaultController's slots.
type defaultController struct {
	s      *state
	obj    *goja.Object
	stream *rstream
	queue  sizedQueue
	algos  sourceAlgos
	size   sizeAlgo
	hwm    float64

	started, closeRequested, pullAgain, pulling bool
}

func (s *state) newDefaultController() *defaultController {
	c := &defaultController{s: s, obj: s.rt.CreateObject(s.defaultCtrl.Proto)}
	s.r.SetSlot(c.obj, c)
	return c
}

// setUp is SetUpReadableStreamDefaultController; start may throw.
func (c *defaultController) setUp(st *rstream, start func(goja.Value) goja.Value, a sourceAlgos, hwm float64, size sizeAlgo) {
	s := c.s
	c.stream = st
	c.algos, c.hwm, c.size = a, hwm, size
	st.ctrl = c
	res := start(c.obj)
	s.uponValue(res, func(goja.Value) {
		c.started = true
		c.callPullIfNeeded()
	}, func(e goja.Value) { c.error(e) })
}

func (c *defaultController) canCloseOrEnqueue() bool {
	return !c.closeRequested && c.stream.state == stReadable
}

// desiredSize is ReadableStreamDefaultControllerGetDesiredSize; ok is
// false for null (errored).
func (c *defaultController) desiredSize() (float64, bool) {
	switch c.stream.state {
	case stErrored:
		return 0, false
	case stClosed:
		return 0, true
	}
	return c.hwm - c.queue.total, true
}

func (c *defaultController) shouldCallPull() bool {
	if !c.canCloseOrEnqueue() || !c.started {
		return false
	}
	if c.stream.locked() && c.stream.numReadRequests() > 0 {
		return true
	}
	d, _ := c.desiredSize()
	return d > 0
}

func (c *defaultController) hasBackpressure() bool { return !c.shouldCallPull() }

func (c *defaultController) callPullIfNeeded() {
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

func (c *defaultController) clearAlgorithms() {
	c.algos.pull = func(func(bool, goja.Value)) {}
	c.algos.cancel = nil
	c.size = nil
}

// close is ReadableStreamDefaultControllerClose.
func (c *defaultController) close() {
	if !c.canCloseOrEnqueue() {
		return
	}
	c.closeRequested = true
	if c.queue.len() == 0 {
		c.clearAlgorithms()
		c.stream.close()
	}
}

// enqueue is ReadableStreamDefaultControllerEnqueue; it returns what the
// size algorithm threw (after erroring the stream).
func (c *defaultController) enqueue(chunk goja.Value) (goja.Value, bool) {
	if !c.canCloseOrEnqueue() {
		return nil, true
	}
	st := c.stream
	if st.locked() && st.numReadRequests() > 0 {
		st.fulfillReadRequest(chunk, false)
	} else {
		size, ex, ok := c.s.chunkSize(c.size, chunk)
		if ok {
			if e := c.s.enqueueSized(&c.queue, chunk, size); e != nil {
				ex, ok = e, false
			}
		}
		if !ok {
			c.error(ex)
			return ex, false
		}
	}
	c.callPullIfNeeded()
	return nil, true
}

// error is ReadableStreamDefaultControllerError.
func (c *defaultController) error(e goja.Value) {
	if c.stream.state != stReadable {
		return
	}
	c.queue.reset()
	c.clearAlgorithms()
	c.stream.error(e)
}

func (c *defaultController) cancelSteps(reason goja.Value) goja.Value {
	c.queue.reset()
	res := c.algos.cancel(reason)
	c.clearAlgorithms()
	return res
}

func (c *defaultController) pullSteps(q readRequest) {
	st := c.stream
	if c.queue.len() > 0 {
		chunk := c.queue.dequeue()
		if c.closeRequested && c.queue.len() == 0 {
			c.clearAlgorithms()
			st.close()
		} else {
			c.callPullIfNeeded()
		}
		q.chunkSteps(chunk)
		return
	}
	st.addReadRequest(q)
	c.callPullIfNeeded()
}

func (c *defaultController) releaseSteps() {}

func (s *state) installDefaultController() {
	r, rt := s.r, s.rt
	c := r.NewClass("ReadableStreamDefaultController", 0, nil, nil)
	s.defaultCtrl = c
	this := func(v goja.Value) *defaultController { return webidl.This[*defaultController](r, v) }
	c.Getter("desiredSize", func(v goja.Value) goja.Value {
		d, ok := this(v).desiredSize()
		if !ok {
			return goja.Null()
		}
		return rt.ToValue(d)
	})
	c.Method("close", 0, func(call goja.FunctionCall) goja.Value {
		dc := this(call.This)
		if !dc.canCloseOrEnqueue() {
			panic(s.typeError("The stream is not in a state that permits close"))
		}
		dc.close()
		return goja.Undefined()
	})
	c.Method("enqueue", 0, func(call goja.FunctionCall) goja.Value {
		dc := this(call.This)
		if !dc.canCloseOrEnqueue() {
			panic(s.typeError("The stream is not in a state that permits enqueue"))
		}
		if ex, ok := dc.enqueue(call.Argument(0)); !ok {
			panic(ex)
		}
		return goja.Undefined()
	})
	c.Method("error", 0, func(call goja.FunctionCall) goja.Value {
		this(call.This).error(call.Argument(0))
		return goja.Undefined()
	})
	r.Global("ReadableStreamDefaultController", c.Ctor)
}
