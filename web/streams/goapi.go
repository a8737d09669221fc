package streams

import (
	"fmt"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// The Go API other packages use: fetch makes Response and Request bodies
// from Go data and reads JS streams; the engine writes a streamed
// Response to HTTP chunk by chunk. Everything here runs on the JS
// goroutine; entry points may be called from JS natives or from
// completions of Go I/O (Realm.Go), and run their steps inside one JS
// call frame, so promise jobs run after them rather than midway.

// Source produces a ReadableStream's bytes from Go (a fetch response
// body, a request body).
type Source interface {
	// Pull is called on the JS goroutine when the stream wants more; it
	// enqueues through c now or later (e.g. from an r.Go continuation)
	// and may close or error it. Pull is not called again until the
	// source has enqueued, closed or errored.
	Pull(c *Controller)
	// Cancel is called when the stream is cancelled (reason is the JS
	// reason); the source should stop its I/O.
	Cancel(reason goja.Value)
}

// Controller is the Go side of a byte stream made by NewReadable.
type Controller struct {
	s       *state
	bc      *byteController
	pending func(bool, goja.Value) // the pull waiting for the source
}

func (c *Controller) settle() {
	if k := c.pending; k != nil {
		c.pending = nil
		c.s.goTask(func() { k(true, nil) })
	}
}

// Enqueue hands b to the stream (the stream owns b afterwards). An empty
// b, or a stream that is closed, errored or cancelled, is ignored.
func (c *Controller) Enqueue(b []byte) {
	c.s.enter(func() {
		if len(b) > 0 && !c.bc.closeRequested && c.bc.stream.state == stReadable {
			c.bc.enqueue(c.s.rt.NewArrayBuffer(b), 0, len(b))
		}
		c.settle()
	})
}

// Close closes the stream once its queued bytes are read.
func (c *Controller) Close() {
	c.s.enter(func() {
		if !c.bc.closeRequested && c.bc.stream.state == stReadable {
			c.bc.close()
		}
		c.settle()
	})
}

// Error errors the stream with e (a JS value, e.g. a TypeError).
func (c *Controller) Error(e goja.Value) {
	c.s.enter(func() {
		c.bc.error(e)
		c.settle()
	})
}

// DesiredSize is how many more bytes the stream wants queued (0 when it
// is closed or errored; negative when over its high-water mark).
func (c *Controller) DesiredSize() int {
	d, _ := c.bc.desiredSize()
	return int(d)
}

// NewReadable makes a byte stream (type "bytes") whose bytes come from
// src, with the given high-water mark in bytes.
func NewReadable(r *webidl.Realm, src Source, highWaterMark int) *goja.Object {
	s := get(r)
	gc := &Controller{s: s}
	var st *rstream
	st, gc.bc = s.createByteStream(func(goja.Value) goja.Value { return goja.Undefined() }, sourceAlgos{
		pull: func(k func(bool, goja.Value)) {
			gc.pending = k
			src.Pull(gc)
		},
		cancel: func(reason goja.Value) goja.Value {
			gc.pending = nil
			src.Cancel(reason)
			return s.resolvedUndefined()
		},
	}, float64(highWaterMark))
	return st.obj
}

// FromBytes makes a byte stream holding b, already closed (the stream
// owns b afterwards), as Fetch's "body with type" from a byte sequence.
func FromBytes(r *webidl.Realm, b []byte) *goja.Object {
	s := get(r)
	st, bc := s.createByteStream(func(goja.Value) goja.Value { return goja.Undefined() }, sourceAlgos{
		pull:   s.resolvedPull,
		cancel: func(goja.Value) goja.Value { return s.resolvedUndefined() },
	}, 0)
	if len(b) > 0 {
		bc.enqueue(s.rt.NewArrayBuffer(b), 0, len(b))
	}
	bc.close()
	return st.obj
}

// IsReadable reports whether v is a ReadableStream.
func IsReadable(v goja.Value) bool {
	_, ok := webidl.Slot[*rstream](v)
	return ok
}

// Locked reports whether v is a ReadableStream with a reader.
func Locked(v goja.Value) bool {
	st, ok := webidl.Slot[*rstream](v)
	return ok && st.locked()
}

// Disturbed reports whether v is a ReadableStream that has been read
// from or cancelled (Response.bodyUsed).
func Disturbed(v goja.Value) bool {
	st, ok := webidl.Slot[*rstream](v)
	return ok && st.disturbed
}

// Error is a JS exception (a TypeError, RangeError, …) returned to Go;
// throw it in JS with panic(e.Value).
type Error struct {
	Value goja.Value
}

func (e *Error) Error() string { return fmt.Sprint(e.Value) }

// Reader reads a ReadableStream from Go through a default reader.
type Reader struct {
	s  *state
	rd *reader
}

// NewReader locks stream to a new Reader. The error is an *Error holding
// a TypeError when stream is not a ReadableStream or is locked.
func NewReader(r *webidl.Realm, stream goja.Value) (*Reader, error) {
	s := get(r)
	st, ok := webidl.Slot[*rstream](stream)
	if !ok {
		return nil, &Error{s.typeError("The value is not a ReadableStream")}
	}
	if st.locked() {
		return nil, &Error{s.typeError("ReadableStream is locked")}
	}
	return &Reader{s: s, rd: s.acquireDefaultReader(st)}, nil
}

// goRead is a read request whose result goes to Go in a (shared)
// microtask.
type goRead struct {
	s  *state
	cb func(chunk goja.Value, done bool, err goja.Value)
}

func (q *goRead) chunkSteps(c goja.Value) { q.s.goTask(func() { q.cb(c, false, nil) }) }
func (q *goRead) closeSteps(goja.Value)   { q.s.goTask(func() { q.cb(nil, true, nil) }) }
func (q *goRead) errorSteps(e goja.Value) { q.s.goTask(func() { q.cb(nil, false, e) }) }

// Read reads the next chunk; cb runs on the JS goroutine when the read
// settles: with a chunk, with done at the end, or with the stream's
// error (err is non-nil; a JS undefined error arrives as goja.Undefined()).
func (rd *Reader) Read(cb func(chunk goja.Value, done bool, err goja.Value)) {
	q := &goRead{s: rd.s, cb: cb}
	rd.s.enter(func() {
		if rd.rd.stream == nil {
			q.errorSteps(rd.s.typeError("This reader has been released"))
			return
		}
		rd.rd.read(q)
	})
}

// Cancel cancels the stream with reason (nil for undefined); pending
// reads settle as done.
func (rd *Reader) Cancel(reason goja.Value) {
	if reason == nil {
		reason = goja.Undefined()
	}
	rd.s.enter(func() {
		if rd.rd.stream != nil {
			rd.s.setHandled(rd.rd.stream.cancel(reason))
		}
	})
}

// Release releases the reader's lock; pending reads fail with a
// TypeError.
func (rd *Reader) Release() {
	rd.s.enter(func() {
		if rd.rd.stream != nil {
			rd.rd.release()
		}
	})
}

// ReadAll reads every chunk of stream and calls cb on the JS goroutine
// with the bytes, or with the error (the stream's error; a TypeError when
// stream is locked or not a stream, or a chunk is not a Uint8Array, as
// Fetch requires; a RangeError when the body exceeds limit bytes, after
// which the stream is cancelled). limit 0 means no limit.
func ReadAll(r *webidl.Realm, stream goja.Value, limit int64, cb func(data []byte, err goja.Value)) {
	s := get(r)
	rd, err := NewReader(r, stream)
	if err != nil {
		e := err.(*Error).Value
		s.enter(func() { s.goTask(func() { cb(nil, e) }) })
		return
	}
	var buf []byte
	var total int64
	var step func(chunk goja.Value, done bool, e goja.Value)
	step = func(chunk goja.Value, done bool, e goja.Value) {
		switch {
		case e != nil:
			cb(nil, e)
			return
		case done:
			rd.Release()
			if buf == nil {
				buf = []byte{}
			}
			cb(buf, nil)
			return
		}
		v, ok := s.asView(chunk)
		if !ok || !v.typed || v.typ.ctor != s.uint8Ctor {
			cb(nil, s.typeError("Received non-Uint8Array chunk"))
			return
		}
		total += int64(v.n)
		if limit > 0 && total > limit {
			e := s.rangeError(fmt.Sprintf("The body is larger than the limit of %d bytes", limit))
			rd.Cancel(e)
			cb(nil, e)
			return
		}
		buf = append(buf, v.ab.Bytes()[v.off:v.off+v.n]...)
		rd.Read(step)
	}
	rd.Read(step)
}

// Tee tees stream (ReadableStreamTee), locking it; both branches read
// the same chunks. It panics with a TypeError if stream is not a
// ReadableStream or is locked.
func Tee(r *webidl.Realm, stream goja.Value) (a, b *goja.Object) {
	s := get(r)
	st, ok := webidl.Slot[*rstream](stream)
	if !ok {
		panic(s.typeError("The value is not a ReadableStream"))
	}
	if st.locked() {
		panic(s.typeError("ReadableStream is locked"))
	}
	var x, y *rstream
	if e := s.enter(func() { x, y = s.tee(st) }); e != nil {
		panic(e)
	}
	return x.obj, y.obj
}
