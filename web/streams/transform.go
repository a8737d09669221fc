package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// tstream is a TransformStream's slots.
type tstream struct {
	s        *state
	obj      *goja.Object
	readable *rstream
	writable *wstream
	backpr   bool
	hasBP    bool // backpressure is not undefined
	bpChange *promise
	ctrl     *tcontroller
}

// transformAlgos are a TransformStreamDefaultController's algorithms;
// each returns a promise.
type transformAlgos struct {
	transform func(chunk goja.Value) goja.Value
	flush     func() goja.Value
	cancel    func(reason goja.Value) goja.Value
}

// tcontroller is a TransformStreamDefaultController's slots.
type tcontroller struct {
	s       *state
	obj     *goja.Object
	stream  *tstream
	algos   transformAlgos
	finish  *promise
	cleared bool
}

// newTransform makes a TransformStream over Go algorithms (what
// TextEncoderStream and friends are): InitializeTransformStream and
// SetUpTransformStreamDefaultController with start resolved.
func (s *state) newTransform(o *goja.Object, a func(c *tcontroller) transformAlgos, wHWM float64, wSize sizeAlgo, rHWM float64, rSize sizeAlgo) *tstream {
	start := s.newPromise()
	ts := s.initTransform(o, start, wHWM, wSize, rHWM, rSize)
	c := s.newTController(ts)
	c.algos = a(c)
	start.resolve(goja.Undefined())
	return ts
}

func (s *state) initTransform(o *goja.Object, start *promise, wHWM float64, wSize sizeAlgo, rHWM float64, rSize sizeAlgo) *tstream {
	if o == nil {
		o = s.rt.CreateObject(s.transform.Proto)
	}
	ts := &tstream{s: s, obj: o}
	s.r.SetSlot(o, ts)
	startAlgo := func(goja.Value) goja.Value { return start.v }
	ts.writable = s.createWritable(startAlgo, sinkAlgos{
		write: func(chunk goja.Value) goja.Value { return ts.sinkWrite(chunk) },
		close: func() goja.Value { return ts.sinkClose() },
		abort: func(reason goja.Value) goja.Value { return ts.sinkAbort(reason) },
	}, wHWM, wSize)
	ts.readable = s.createReadable(startAlgo, sourceAlgos{
		pull: func(k func(bool, goja.Value)) {
			p := ts.sourcePull()
			s.upon(p, func(v goja.Value) { k(true, v) }, func(e goja.Value) { k(false, e) })
		},
		cancel: func(reason goja.Value) goja.Value { return ts.sourceCancel(reason) },
	}, rHWM, rSize)
	ts.setBackpressure(true)
	return ts
}

func (s *state) newTController(ts *tstream) *tcontroller {
	c := &tcontroller{s: s, obj: s.rt.CreateObject(s.transformCtrl.Proto), stream: ts}
	s.r.SetSlot(c.obj, c)
	ts.ctrl = c
	return c
}

func (ts *tstream) rctrl() *defaultController { return ts.readable.ctrl.(*defaultController) }

func (ts *tstream) error(e goja.Value) {
	ts.rctrl().error(e)
	ts.errorWritableAndUnblockWrite(e)
}

func (ts *tstream) errorWritableAndUnblockWrite(e goja.Value) {
	ts.ctrl.clearAlgorithms()
	ts.writable.ctrl.errorIfNeeded(e)
	ts.unblockWrite()
}

func (ts *tstream) unblockWrite() {
	if ts.backpr {
		ts.setBackpressure(false)
	}
}

func (ts *tstream) setBackpressure(bp bool) {
	if ts.bpChange != nil {
		ts.bpChange.resolve(goja.Undefined())
	}
	ts.bpChange = ts.s.newPromise()
	ts.backpr, ts.hasBP = bp, true
}

func (c *tcontroller) clearAlgorithms() { c.cleared = true }

// enqueue is TransformStreamDefaultControllerEnqueue; it returns what it
// throws.
func (c *tcontroller) enqueue(chunk goja.Value) goja.Value {
	ts := c.stream
	rc := ts.rctrl()
	if !rc.canCloseOrEnqueue() {
		return c.s.typeError("Readable side is not in a state that permits enqueue")
	}
	if ex, ok := rc.enqueue(chunk); !ok {
		ts.errorWritableAndUnblockWrite(ex)
		return ts.readable.stored
	}
	if bp := rc.hasBackpressure(); bp != ts.backpr {
		ts.setBackpressure(true)
	}
	return nil
}

func (c *tcontroller) performTransform(chunk goja.Value) goja.Value {
	p := c.algos.transform(chunk)
	return c.s.then(p, nil, func(e goja.Value) goja.Value {
		c.stream.error(e)
		panic(e)
	})
}

func (c *tcontroller) terminate() {
	ts := c.stream
	ts.rctrl().close()
	ts.errorWritableAndUnblockWrite(c.s.typeError("TransformStream terminated"))
}

func (ts *tstream) sinkWrite(chunk goja.Value) goja.Value {
	c := ts.ctrl
	if ts.backpr {
		return ts.s.then(ts.bpChange.v, func(goja.Value) goja.Value {
			if ws := ts.writable; ws.state == wsErroring {
				panic(ws.stored)
			}
			return c.performTransform(chunk)
		}, nil)
	}
	return c.performTransform(chunk)
}

func (ts *tstream) sinkAbort(reason goja.Value) goja.Value {
	s, c := ts.s, ts.ctrl
	if c.finish != nil {
		return c.finish.v
	}
	rs := ts.readable
	c.finish = s.newPromise()
	p := c.algos.cancel(reason)
	c.clearAlgorithms()
	fin := c.finish
	s.upon(p, func(goja.Value) {
		if rs.state == stErrored {
			fin.reject(rs.stored)
		} else {
			ts.rctrl().error(reason)
			fin.resolve(goja.Undefined())
		}
	}, func(e goja.Value) {
		ts.rctrl().error(e)
		fin.reject(e)
	})
	return fin.v
}

func (ts *tstream) sinkClose() goja.Value {
	s, c := ts.s, ts.ctrl
	if c.finish != nil {
		return c.finish.v
	}
	rs := ts.readable
	c.finish = s.newPromise()
	p := c.algos.flush()
	c.clearAlgorithms()
	fin := c.finish
	s.upon(p, func(goja.Value) {
		if rs.state == stErrored {
			fin.reject(rs.stored)
		} else {
			ts.rctrl().close()
			fin.resolve(goja.Undefined())
		}
	}, func(e goja.Value) {
		ts.rctrl().error(e)
		fin.reject(e)
	})
	return fin.v
}

func (ts *tstream) sourceCancel(reason goja.Value) goja.Value {
	s, c := ts.s, ts.ctrl
	if c.finish != nil {
		return c.finish.v
	}
	ws := ts.writable
	c.finish = s.newPromise()
	p := c.algos.cancel(reason)
	c.clearAlgorithms()
	fin := c.finish
	s.upon(p, func(goja.Value) {
		if ws.state == wsErrored {
			fin.reject(ws.stored)
		} else {
			ws.ctrl.errorIfNeeded(reason)
			ts.unblockWrite()
			fin.resolve(goja.Undefined())
		}
	}, func(e goja.Value) {
		ws.ctrl.errorIfNeeded(e)
		ts.unblockWrite()
		fin.reject(e)
	})
	return fin.v
}

func (ts *tstream) sourcePull() goja.Value {
	ts.setBackpressure(false)
	return ts.bpChange.v
}

func (s *state) installTransform() {
	r, rt := s.r, s.rt
	c := r.NewClass("TransformStream", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		s.constructTransform(call.This, call.Argument(0), call.Argument(1), call.Argument(2))
		return nil
	})
	s.transform = c
	this := func(v goja.Value) *tstream { return webidl.This[*tstream](r, v) }
	c.Getter("readable", func(v goja.Value) goja.Value { return this(v).readable.obj })
	c.Getter("writable", func(v goja.Value) goja.Value { return this(v).writable.obj })
	r.Global("TransformStream", c.Ctor)

	ctl := r.NewClass("TransformStreamDefaultController", 0, nil, nil)
	s.transformCtrl = ctl
	cthis := func(v goja.Value) *tcontroller { return webidl.This[*tcontroller](r, v) }
	ctl.Getter("desiredSize", func(v goja.Value) goja.Value {
		d, ok := cthis(v).stream.rctrl().desiredSize()
		if !ok {
			return goja.Null()
		}
		return rt.ToValue(d)
	})
	ctl.Method("enqueue", 0, func(call goja.FunctionCall) goja.Value {
		if e := cthis(call.This).enqueue(call.Argument(0)); e != nil {
			panic(e)
		}
		return goja.Undefined()
	})
	ctl.Method("error", 0, func(call goja.FunctionCall) goja.Value {
		cthis(call.This).stream.error(call.Argument(0))
		return goja.Undefined()
	})
	ctl.Method("terminate", 0, func(call goja.FunctionCall) goja.Value {
		cthis(call.This).terminate()
		return goja.Undefined()
	})
	r.Global("TransformStreamDefaultController", ctl.Ctor)
}

func (s *state) constructTransform(o *goja.Object, transformer, wStrat, rStrat goja.Value) {
	const what = "Failed to construct 'TransformStream'"
	var tr *goja.Object
	if !goja.IsUndefined(transformer) {
		var ok bool
		if tr, ok = transformer.(*goja.Object); !ok {
			panic(s.typeError(what + ": parameter 1 is not of type 'object'."))
		}
	}
	wq := s.strategyDict(wStrat, what)
	rq := s.strategyDict(rStrat, what)
	cancel := s.callback(tr, "cancel", what)
	flush := s.callback(tr, "flush", what)
	readableType := webidl.Member(tr, "readableType")
	start := s.callback(tr, "start", what)
	transform := s.callback(tr, "transform", what)
	writableType := webidl.Member(tr, "writableType")
	if readableType != nil {
		panic(s.rangeError(what + ": Invalid readableType specified"))
	}
	if writableType != nil {
		panic(s.rangeError(what + ": Invalid writableType specified"))
	}
	rHWM := s.highWaterMark(rq, 0)
	wHWM := s.highWaterMark(wq, 1)
	startP := s.newPromise()
	ts := s.initTransform(o, startP, wHWM, wq.size, rHWM, rq.size)
	c := s.newTController(ts)
	var this goja.Value = goja.Undefined()
	if tr != nil {
		this = tr
	}
	c.algos = transformAlgos{
		transform: func(chunk goja.Value) goja.Value {
			if c.cleared {
				return s.resolvedUndefined()
			}
			if transform == nil {
				if e := c.enqueue(chunk); e != nil {
					return s.rejectedWith(e)
				}
				return s.resolvedUndefined()
			}
			return s.promiseCall(transform, this, chunk, c.obj)
		},
		flush: func() goja.Value {
			if flush == nil {
				return s.resolvedUndefined()
			}
			return s.promiseCall(flush, this, c.obj)
		},
		cancel: func(reason goja.Value) goja.Value {
			if cancel == nil {
				return s.resolvedUndefined()
			}
			return s.promiseCall(cancel, this, reason)
		},
	}
	if start != nil {
		v, ex, ok := s.call(start, this, c.obj)
		if !ok {
			panic(ex)
		}
		startP.resolve(v)
	} else {
		startP.resolve(goja.Undefined())
	}
}
