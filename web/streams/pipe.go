package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// abortSignal is what pipeTo needs of an AbortSignal.
type abortSignal interface {
	Aborted() bool
	Reason() goja.Value
	OnAbort(fn func()) (remove func())
}

// pipe is one ReadableStreamPipeTo in progress.
type pipe struct {
	s            *state
	src          *rstream
	dst          *wstream
	rd           *reader
	w            *writer
	p            *promise
	shuttingDown bool
	currentWrite goja.Value
	removeAbort  func()
}

type pipeOptions struct {
	preventAbort, preventCancel, preventClose bool
	signal                                    abortSignal
}

func (s *state) pipeOpts(v goja.Value, what string) pipeOptions {
	var o pipeOptions
	d := s.r.Dict(v, what)
	o.preventAbort = webidl.Bool(webidl.Member(d, "preventAbort"))
	o.preventCancel = webidl.Bool(webidl.Member(d, "preventCancel"))
	o.preventClose = webidl.Bool(webidl.Member(d, "preventClose"))
	if sv := webidl.Member(d, "signal"); sv != nil {
		sig, ok := s.signalOf(sv)
		if !ok {
			panic(s.typeError(what + ": member signal is not of type AbortSignal."))
		}
		o.signal = sig
	}
	return o
}

func (s *state) pipeToJS(src *rstream, dest, options goja.Value) goja.Value {
	const what = "Failed to execute 'pipeTo' on 'ReadableStream'"
	dst, ok := webidl.Slot[*wstream](dest)
	if !ok {
		panic(s.typeError(what + ": parameter 1 is not of type 'WritableStream'."))
	}
	o := s.pipeOpts(options, what)
	if src.locked() {
		return s.rejectedWith(s.typeError(what + ": Cannot pipe a locked stream"))
	}
	if dst.locked() {
		return s.rejectedWith(s.typeError(what + ": Cannot pipe to a locked stream"))
	}
	return s.pipeTo(src, dst, o)
}

func (s *state) pipeThrough(src *rstream, transform, options goja.Value) goja.Value {
	const what = "Failed to execute 'pipeThrough' on 'ReadableStream'"
	t, ok := transform.(*goja.Object)
	if !ok {
		panic(s.typeError(what + ": parameter 1 is not of type 'ReadableWritablePair'."))
	}
	rv := t.Get("readable")
	if rv == nil || goja.IsUndefined(rv) {
		panic(s.typeError(what + ": required member readable is undefined."))
	}
	rs, ok := webidl.Slot[*rstream](rv)
	if !ok {
		panic(s.typeError(what + ": member readable is not of type 'ReadableStream'."))
	}
	wv := t.Get("writable")
	if wv == nil || goja.IsUndefined(wv) {
		panic(s.typeError(what + ": required member writable is undefined."))
	}
	ws, ok := webidl.Slot[*wstream](wv)
	if !ok {
		panic(s.typeError(what + ": member writable is not of type 'WritableStream'."))
	}
	o := s.pipeOpts(options, what)
	if src.locked() {
		panic(s.typeError(what + ": Cannot pipe a locked stream"))
	}
	if ws.locked() {
		panic(s.typeError(what + ": Cannot pipe to a locked stream"))
	}
	s.setHandled(s.pipeTo(src, ws, o))
	return rs.obj
}

// pipeTo is ReadableStreamPipeTo.
func (s *state) pipeTo(src *rstream, dst *wstream, o pipeOptions) goja.Value {
	pp := &pipe{s: s, src: src, dst: dst, rd: s.acquireDefaultReader(src), w: s.acquireWriter(dst), p: s.newPromise()}
	src.disturbed = true
	pp.currentWrite = s.resolvedUndefined()
	if sig := o.signal; sig != nil {
		abort := func() {
			e := sig.Reason()
			var actions []func() goja.Value
			if !o.preventAbort {
				actions = append(actions, func() goja.Value {
					if dst.state == wsWritable {
						return dst.abort(e)
					}
					return s.resolvedUndefined()
				})
			}
			if !o.preventCancel {
				actions = append(actions, func() goja.Value {
					if src.state == stReadable {
						return src.cancel(e)
					}
					return s.resolvedUndefined()
				})
			}
			pp.shutdownWithAction(func() goja.Value { return s.waitAll(actions) }, true, e)
		}
		if sig.Aborted() {
			abort()
			return pp.p.v
		}
		pp.removeAbort = sig.OnAbort(abort)
	}
	// Errors must be propagated forward.
	if src.state == stErrored {
		pp.sourceErrored(o, src.stored)
	} else {
		s.upon(pp.rd.closed.v, nil, func(e goja.Value) { pp.sourceErrored(o, e) })
	}
	// Errors must be propagated backward.
	if dst.state == wsErrored {
		pp.destErrored(o, dst.stored)
	} else {
		s.upon(pp.w.closed.v, nil, func(e goja.Value) { pp.destErrored(o, e) })
	}
	// Closing must be propagated forward.
	if src.state == stClosed {
		pp.sourceClosed(o)
	} else {
		s.upon(pp.rd.closed.v, func(goja.Value) { pp.sourceClosed(o) }, nil)
	}
	// Closing must be propagated backward.
	if dst.closeQueuedOrInFlight() || dst.state == wsClosed {
		e := s.typeError("the destination writable stream closed before all data could be piped to it")
		if !o.preventCancel {
			pp.shutdownWithAction(func() goja.Value { return src.cancel(e) }, true, e)
		} else {
			pp.shutdown(true, e)
		}
	}
	pp.step()
	return pp.p.v
}

func (pp *pipe) sourceErrored(o pipeOptions, e goja.Value) {
	if !o.preventAbort {
		pp.shutdownWithAction(func() goja.Value { return pp.dst.abort(e) }, true, e)
	} else {
		pp.shutdown(true, e)
	}
}

func (pp *pipe) destErrored(o pipeOptions, e goja.Value) {
	if !o.preventCancel {
		pp.shutdownWithAction(func() goja.Value { return pp.src.cancel(e) }, true, e)
	} else {
		pp.shutdown(true, e)
	}
}

func (pp *pipe) sourceClosed(o pipeOptions) {
	if !o.preventClose {
		pp.shutdownWithAction(func() goja.Value { return pp.w.closeWithErrorPropagation() }, false, nil)
	} else {
		pp.shutdown(false, nil)
	}
}

// step is one round of the pipe loop: wait for the writer to be ready,
// read a chunk, write it without waiting for the write.
func (pp *pipe) step() {
	s := pp.s
	if pp.shuttingDown {
		return
	}
	s.upon(pp.w.ready.v, func(goja.Value) {
		if pp.shuttingDown || pp.rd.stream == nil {
			return
		}
		pp.rd.read(&funcRead{
			chunk: func(chunk goja.Value) {
				if pp.w.stream != nil {
					pp.currentWrite = s.then(pp.w.write(chunk), nil, func(goja.Value) goja.Value { return nil })
				}
				s.microtask(pp.step)
			},
			close: func(goja.Value) {},
			err:   func(goja.Value) {},
		})
	}, nil)
}

func (pp *pipe) waitForWrites(done func()) {
	old := pp.currentWrite
	pp.s.upon(old, func(goja.Value) {
		if old != pp.currentWrite {
			pp.waitForWrites(done)
		} else {
			done()
		}
	}, nil)
}

func (pp *pipe) shutdownWithAction(action func() goja.Value, isErr bool, e goja.Value) {
	if pp.shuttingDown {
		return
	}
	pp.shuttingDown = true
	rest := func() {
		pp.s.upon(action(), func(goja.Value) { pp.finalize(isErr, e) }, func(ne goja.Value) { pp.finalize(true, ne) })
	}
	if pp.dst.state == wsWritable && !pp.dst.closeQueuedOrInFlight() {
		pp.waitForWrites(rest)
	} else {
		rest()
	}
}

func (pp *pipe) shutdown(isErr bool, e goja.Value) {
	if pp.shuttingDown {
		return
	}
	pp.shuttingDown = true
	if pp.dst.state == wsWritable && !pp.dst.closeQueuedOrInFlight() {
		pp.waitForWrites(func() { pp.finalize(isErr, e) })
	} else {
		pp.finalize(isErr, e)
	}
}

func (pp *pipe) finalize(isErr bool, e goja.Value) {
	pp.w.release()
	pp.rd.release()
	if pp.removeAbort != nil {
		pp.removeAbort()
	}
	if isErr {
		pp.p.reject(e)
	} else {
		pp.p.resolve(goja.Undefined())
	}
}

// waitAll is "getting a promise to wait for all" of the actions' promises.
func (s *state) waitAll(actions []func() goja.Value) goja.Value {
	ps := make([]goja.Value, len(actions))
	for i, a := range actions {
		ps[i] = a()
	}
	out := s.newPromise()
	if len(ps) == 0 {
		out.resolve(goja.Undefined())
		return out.v
	}
	left := len(ps)
	for _, p := range ps {
		s.upon(p, func(goja.Value) {
			if left--; left == 0 {
				out.resolve(goja.Undefined())
			}
		}, func(e goja.Value) { out.reject(e) })
	}
	return out.v
}
