package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// reader is a ReadableStreamDefaultReader or ReadableStreamBYOBReader
// (ReadableStreamGenericReader plus its [[readRequests]] or
// [[readIntoRequests]]).
type reader struct {
	s        *state
	obj      *goja.Object
	stream   *rstream
	closed   *promise
	byob     bool
	requests []readRequest
}

func (rd *reader) errorRequests(e goja.Value) {
	reqs := rd.requests
	rd.requests = nil
	for _, q := range reqs {
		q.errorSteps(e)
	}
}

// acquireDefaultReader is AcquireReadableStreamDefaultReader.
func (s *state) acquireDefaultReader(st *rstream) *reader {
	rd := &reader{s: s, obj: s.rt.CreateObject(s.defaultReader.Proto)}
	s.r.SetSlot(rd.obj, rd)
	s.setUpReader(rd, st)
	return rd
}

// acquireBYOBReader is AcquireReadableStreamBYOBReader.
func (s *state) acquireBYOBReader(st *rstream) *reader {
	rd := &reader{s: s, obj: s.rt.CreateObject(s.byobReader.Proto), byob: true}
	s.r.SetSlot(rd.obj, rd)
	s.setUpReader(rd, st)
	return rd
}

// setUpReader is SetUpReadableStreamDefaultReader /
// SetUpReadableStreamBYOBReader with ReadableStreamReaderGenericInitialize.
func (s *state) setUpReader(rd *reader, st *rstream) {
	if st.locked() {
		panic(s.typeError("ReadableStream is locked"))
	}
	if rd.byob {
		if _, ok := st.ctrl.(*byteController); !ok {
			panic(s.typeError("Cannot use a BYOB reader with a non-byte stream"))
		}
	}
	rd.stream = st
	st.reader = rd
	switch st.state {
	case stReadable:
		rd.closed = s.newPromise()
	case stClosed:
		rd.closed = s.newPromiseResolved()
	default:
		rd.closed = s.newPromiseRejected(st.stored)
	}
}

// release is ReadableStreamDefaultReaderRelease /
// ReadableStreamBYOBReaderRelease (with the generic release).
func (rd *reader) release() {
	s, st := rd.s, rd.stream
	e := s.typeError("Reader was released")
	if st.state == stReadable {
		rd.closed.reject(e)
	} else {
		rd.closed = s.newPromiseRejected(e)
	}
	rd.closed.handled(s)
	st.ctrl.releaseSteps()
	st.reader = nil
	rd.stream = nil
	rd.errorRequests(s.typeError("Reader was released"))
}

// read is ReadableStreamDefaultReaderRead.
func (rd *reader) read(q readRequest) {
	st := rd.stream
	st.disturbed = true
	switch st.state {
	case stClosed:
		q.closeSteps(goja.Undefined())
	case stErrored:
		q.errorSteps(st.stored)
	default:
		st.ctrl.pullSteps(q)
	}
}

// readInto is ReadableStreamBYOBReaderRead.
func (rd *reader) readInto(v view, min int64, q readRequest) {
	st := rd.stream
	st.disturbed = true
	if st.state == stErrored {
		q.errorSteps(st.stored)
		return
	}
	st.ctrl.(*byteController).pullInto(v, min, q)
}

func (s *state) installReaders() {
	r := s.r
	streamArg := func(v goja.Value, what string) *rstream {
		st, ok := webidl.Slot[*rstream](v)
		if !ok {
			panic(s.typeError("Failed to construct '" + what + "': parameter 1 is not of type 'ReadableStream'."))
		}
		return st
	}
	this := func(v goja.Value) *reader { return webidl.This[*reader](r, v) }
	generic := func(c *webidl.Class, byob bool) {
		c.Getter("closed", func(v goja.Value) goja.Value { return this(v).closed.v })
		s.promiseOp(c, "cancel", 0, func(call goja.FunctionCall) goja.Value {
			rd := this(call.This)
			if rd.byob != byob {
				panic(s.typeError("Illegal invocation"))
			}
			if rd.stream == nil {
				return s.rejectedWith(s.typeError("This reader has been released"))
			}
			return rd.stream.cancel(call.Argument(0))
		})
		c.Method("releaseLock", 0, func(call goja.FunctionCall) goja.Value {
			rd := this(call.This)
			if rd.byob != byob {
				panic(s.typeError("Illegal invocation"))
			}
			if rd.stream != nil {
				rd.release()
			}
			return goja.Undefined()
		})
	}

	d := r.NewClass("ReadableStreamDefaultReader", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		st := streamArg(call.Argument(0), "ReadableStreamDefaultReader")
		rd := &reader{s: s, obj: call.This}
		s.setUpReader(rd, st)
		r.SetSlot(call.This, rd)
		return nil
	})
	s.defaultReader = d
	generic(d, false)
	s.promiseOp(d, "read", 0, func(call goja.FunctionCall) goja.Value {
		rd := this(call.This)
		if rd.byob {
			panic(s.typeError("Illegal invocation"))
		}
		if rd.stream == nil {
			return s.rejectedWith(s.typeError("This reader has been released"))
		}
		p := s.newPromise()
		rd.read(&jsRead{s, p})
		return p.v
	})
	r.Global("ReadableStreamDefaultReader", d.Ctor)

	b := r.NewClass("ReadableStreamBYOBReader", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		st := streamArg(call.Argument(0), "ReadableStreamBYOBReader")
		rd := &reader{s: s, obj: call.This, byob: true}
		s.setUpReader(rd, st)
		r.SetSlot(call.This, rd)
		return nil
	})
	s.byobReader = b
	generic(b, true)
	s.promiseOp(b, "read", 1, func(call goja.FunctionCall) goja.Value {
		rd := this(call.This)
		if !rd.byob {
			panic(s.typeError("Illegal invocation"))
		}
		v, ok := s.asView(call.Argument(0))
		if !ok {
			panic(s.typeError("Failed to execute 'read' on 'ReadableStreamBYOBReader': parameter 1 is not of type 'ArrayBufferView'."))
		}
		min := int64(1)
		if o := s.r.Dict(call.Argument(1), "ReadableStreamBYOBReader.read"); o != nil {
			if m := webidl.Member(o, "min"); m != nil {
				min = s.r.Integer(m, 64, false, webidl.EnforceRange)
			}
		}
		if v.n == 0 {
			return s.rejectedWith(s.typeError("view must have non-zero byteLength"))
		}
		if len(v.ab.Bytes()) == 0 {
			return s.rejectedWith(s.typeError("view's buffer must have non-zero byteLength"))
		}
		if v.ab.Detached() {
			return s.rejectedWith(s.typeError("view's buffer has been detached"))
		}
		if min == 0 {
			return s.rejectedWith(s.typeError("options.min must be greater than 0"))
		}
		if v.typed {
			if min > int64(v.n/v.typ.size) {
				return s.rejectedWith(s.rangeError("options.min must be less than or equal to view's length"))
			}
		} else if min > int64(v.n) {
			return s.rejectedWith(s.rangeError("options.min must be less than or equal to view's byteLength"))
		}
		if rd.stream == nil {
			return s.rejectedWith(s.typeError("This reader has been released"))
		}
		p := s.newPromise()
		rd.readInto(v, min, &jsRead{s, p})
		return p.v
	})
	r.Global("ReadableStreamBYOBReader", b.Ctor)
}
