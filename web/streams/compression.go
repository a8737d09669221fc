package streams

import (
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"io"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// CompressionStream and DecompressionStream (WHATWG Compression) with
// compress/gzip, compress/zlib ("deflate") and compress/flate
// ("deflate-raw").

type compressionStream struct{ ts *tstream }

func (s *state) compressionFormat(v goja.Value, what string) string {
	f := s.r.String(v)
	switch f {
	case "gzip", "deflate", "deflate-raw":
		return f
	}
	panic(s.typeError("Failed to construct '" + what + "': The provided value '" + f + "' is not a valid enum value of type CompressionFormat."))
}

func (s *state) installCompression() {
	r, rt := s.r, s.rt
	bytesOf := func(chunk goja.Value) ([]byte, goja.Value) {
		b, ok := webidl.Bytes(chunk)
		if !ok {
			return nil, s.typeError("The chunk is not of type '(ArrayBuffer or ArrayBufferView)'")
		}
		return b, nil
	}
	enqueue := func(c *tcontroller, out []byte) goja.Value {
		if len(out) == 0 {
			return nil
		}
		return c.enqueue(s.newUint8(rt.NewArrayBuffer(out), 0, len(out)))
	}
	settle := func(e goja.Value) goja.Value {
		if e != nil {
			return s.rejectedWith(e)
		}
		return s.resolvedUndefined()
	}

	comp := r.NewClass("CompressionStream", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		format := s.compressionFormat(call.Argument(0), "CompressionStream")
		var buf bytes.Buffer
		var w io.WriteCloser
		switch format {
		case "gzip":
			w = gzip.NewWriter(&buf)
		case "deflate":
			w = zlib.NewWriter(&buf)
		default:
			w, _ = flate.NewWriter(&buf, flate.DefaultCompression)
		}
		take := func() []byte {
			out := bytes.Clone(buf.Bytes())
			buf.Reset()
			return out
		}
		cs := &compressionStream{}
		cs.ts = s.newTransform(nil, func(c *tcontroller) transformAlgos {
			return transformAlgos{
				transform: func(chunk goja.Value) goja.Value {
					b, e := bytesOf(chunk)
					if e != nil {
						return s.rejectedWith(e)
					}
					_, _ = w.Write(b) // writes to a bytes.Buffer do not fail
					return settle(enqueue(c, take()))
				},
				flush: func() goja.Value {
					_ = w.Close()
					return settle(enqueue(c, take()))
				},
				cancel: func(goja.Value) goja.Value { return s.resolvedUndefined() },
			}
		}, 1, nil, 0, nil)
		r.SetSlot(call.This, cs)
		return nil
	})
	genericTransform(s, comp, func(v goja.Value) *tstream { return webidl.This[*compressionStream](r, v).ts })
	r.Global("CompressionStream", comp.Ctor)

	decomp := r.NewClass("DecompressionStream", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		format := s.compressionFormat(call.Argument(0), "DecompressionStream")
		inf := &inflater{format: format, ctx: s.r.Context()}
		ds := &compressionStream{}
		fail := func() goja.Value { return s.typeError("The compressed data was not valid: " + inf.err.Error()) }
		ds.ts = s.newTransform(nil, func(c *tcontroller) transformAlgos {
			return transformAlgos{
				transform: func(chunk goja.Value) goja.Value {
					b, e := bytesOf(chunk)
					if e != nil {
						return s.rejectedWith(e)
					}
					out := inf.write(b)
					if inf.err != nil {
						return s.rejectedWith(fail())
					}
					return settle(enqueue(c, out))
				},
				flush: func() goja.Value {
					out := inf.finish()
					if inf.err != nil {
						return s.rejectedWith(fail())
					}
					return settle(enqueue(c, out))
				},
				cancel: func(goja.Value) goja.Value { inf.stop(); return s.resolvedUndefined() },
			}
		}, 1, nil, 0, nil)
		r.SetSlot(call.This, ds)
		return nil
	})
	genericTransform(s, decomp, func(v goja.Value) *tstream { return webidl.This[*compressionStream](r, v).ts })
	r.Global("DecompressionStream", decomp.Ctor)
}

// inflater runs a Go decompressor (which pulls from an io.Reader) on a
// goroutine of its own, fed chunk by chunk: write hands it a chunk and
// waits until it has consumed all of it, returning what it produced. The
// JS goroutine and the decompressor never run at once.
type inflater struct {
	format string
	ctx    context.Context

	in       chan []byte   // chunks to the decompressor; closed at the end
	ack      chan []byte   // output so far, each time the input runs dry
	finished chan struct{} // closed when the goroutine exits
	cur      []byte        // input not consumed yet (goroutine side)
	out      []byte        // output not handed over yet (goroutine side)
	gerr     error         // the goroutine's result, read after finished
	final    []byte        // output handed over at exit
	err      error         // JS side: the stream failed
	stopped  bool
}

// ended collects the goroutine's result once finished is closed.
func (f *inflater) ended() []byte {
	if f.err == nil {
		f.err = f.gerr
	}
	out := f.final
	f.final = nil
	return out
}

var errTrailing = errors.New("junk found after end of compressed data")

func (f *inflater) write(b []byte) []byte {
	if f.err != nil || len(b) == 0 {
		return nil
	}
	if f.in == nil {
		f.in, f.ack, f.finished = make(chan []byte), make(chan []byte), make(chan struct{})
		go f.run()
	}
	select {
	case <-f.finished:
		f.ended()
		if f.err == nil {
			f.err = errTrailing
		}
		return nil
	case f.in <- b:
	}
	select {
	case out := <-f.ack:
		return out
	case <-f.finished:
		return f.ended()
	}
}

func (f *inflater) finish() []byte {
	if f.in == nil {
		f.err = io.ErrUnexpectedEOF
		return nil
	}
	if f.stopped {
		return nil
	}
	f.stopped = true
	select {
	case <-f.finished:
	default:
		close(f.in)
		<-f.finished
	}
	return f.ended()
}

func (f *inflater) stop() {
	if f.in != nil && !f.stopped {
		f.stopped = true
		select {
		case <-f.finished:
		default:
			close(f.in)
			<-f.finished
		}
	}
}

// Read and ReadByte are the decompressor's input (goroutine side).
// ReadByte keeps flate from reading ahead past the end of the stream, so
// trailing data is noticed.
func (f *inflater) ReadByte() (byte, error) {
	if len(f.cur) == 0 && !f.refill() {
		return 0, io.EOF
	}
	c := f.cur[0]
	f.cur = f.cur[1:]
	return c, nil
}

func (f *inflater) Read(p []byte) (int, error) {
	if len(f.cur) == 0 && !f.refill() {
		return 0, io.EOF
	}
	n := copy(p, f.cur)
	f.cur = f.cur[n:]
	return n, nil
}

func (f *inflater) refill() bool {
	out := f.out
	f.out = nil
	select {
	case f.ack <- out:
	case <-f.ctx.Done():
		return false
	}
	select {
	case b, ok := <-f.in:
		if !ok {
			return false
		}
		f.cur = b
		return true
	case <-f.ctx.Done():
		return false
	}
}

func (f *inflater) run() {
	defer close(f.finished)
	// The first chunk: refill's handover of the (empty) output is skipped.
	select {
	case b := <-f.in:
		f.cur = b
	case <-f.ctx.Done():
		f.gerr = f.ctx.Err()
		return
	}
	var zr io.Reader
	var err error
	switch f.format {
	case "gzip":
		var g *gzip.Reader
		if g, err = gzip.NewReader(f); err == nil {
			g.Multistream(false)
			zr = g
		}
	case "deflate":
		zr, err = zlib.NewReader(f)
	default:
		zr = flate.NewReader(f)
	}
	if err == nil {
		buf := make([]byte, 32*1024)
		for {
			n, rerr := zr.Read(buf)
			f.out = append(f.out, buf[:n]...)
			if rerr == io.EOF {
				break
			}
			if rerr != nil {
				err = rerr
				break
			}
		}
	}
	if err == io.EOF {
		err = io.ErrUnexpectedEOF
	}
	if err == nil && len(f.cur) > 0 {
		err = errTrailing
	}
	f.gerr = err
	f.final = f.out
	f.out = nil
}
