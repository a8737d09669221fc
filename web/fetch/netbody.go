package fetch

import (
	"bufio"
	"bytes"
	"compress/flate"
	"compress/gzip"
	"compress/zlib"
	"context"
	"errors"
	"io"
	"strings"
	"sync"

	"github.com/dop251/goja"

	"bext/web/streams"
	"bext/web/webidl"
)

// netBody is a response body arriving from the network. It is read from
// Go — all at once for text()/json()/…, or chunk by chunk as a byte
// ReadableStream once someone asks for .body. Reads run one at a time on
// goroutines (Realm.Go); everything else on the JS goroutine.
type netBody struct {
	s       *state
	rc      io.ReadCloser     // decoded
	limit   int64             // bytes, 0 = none
	why     func(error) error // maps a read error to its cause (the fetch's timeout)
	release func()            // called once at the end (the fetch's finish)
	href    string
	n       int64 // bytes read so far
	done    bool  // ended: read to the end, failed, cancelled or aborted
	size    int64 // Content-Length of the decoded body, -1 when unknown

	buf     []byte // a stream's read buffer
	reading bool   // a read into buf is in flight

	ctrl    *streams.Controller      // when streamed
	pending func([]byte, goja.Value) // readAll's callback while it runs
}

func (nb *netBody) cause(err error) error {
	if err != nil && nb.why != nil {
		return nb.why(err)
	}
	return err
}

// chunkSize is the most one pull reads.
const chunkSize = 64 << 10

// stream makes the body's ReadableStream.
func (nb *netBody) stream() *goja.Object {
	return streams.NewReadable(nb.s.r, nb, 0)
}

// Pull implements streams.Source.
func (nb *netBody) Pull(c *streams.Controller) {
	nb.ctrl = c
	if nb.done {
		return
	}
	rc, limit := nb.rc, nb.limit
	if nb.buf == nil {
		if nb.size >= 0 && nb.size < chunkSize {
			nb.buf = make([]byte, nb.size+1)
		} else {
			nb.buf = chunkBufs.Get().(*[chunkSize]byte)[:]
		}
	}
	buf := nb.buf // pulls run one at a time: the buffer is free again
	nb.reading = true
	nb.s.r.Go(func(context.Context) func() error {
		n, err := io.ReadAtLeast(rc, buf, 1)
		chunk := bytes.Clone(buf[:n])
		err = nb.cause(err)
		return func() error {
			nb.reading = false
			if nb.done {
				return nil
			}
			nb.n += int64(n)
			switch {
			case limit > 0 && nb.n > limit:
				nb.fail(nb.s.limitError(nb.href))
			case n > 0:
				c.Enqueue(chunk)
				if err == io.EOF {
					nb.end()
					c.Close()
				}
			case err == io.EOF:
				nb.end()
				c.Close()
			case err != nil:
				nb.fail(nb.s.bodyError(err, nb.href))
			}
			return nil
		}
	})
}

// Cancel implements streams.Source.
func (nb *netBody) Cancel(goja.Value) {
	nb.end()
}

// readAll reads the whole body from Go and calls cb on the JS goroutine.
func (nb *netBody) readAll(cb func([]byte, goja.Value)) {
	nb.pending = cb
	rc, limit, size := nb.rc, nb.limit, nb.size
	nb.s.r.Go(func(context.Context) func() error {
		data, err := readLimited(rc, limit, size)
		err = nb.cause(err)
		return func() error {
			if nb.done || nb.pending == nil {
				return nil
			}
			nb.pending = nil
			nb.n = int64(len(data))
			switch {
			case errors.Is(err, errTooLarge):
				nb.end()
				cb(nil, nb.s.limitError(nb.href))
			case err != nil:
				nb.end()
				cb(nil, nb.s.bodyError(err, nb.href))
			default:
				nb.end()
				cb(data, nil)
			}
			return nil
		}
	})
}

var errTooLarge = errors.New("body too large")

// readLimited reads rc to the end, failing with errTooLarge past limit
// bytes (0 = no limit); size is the expected length (-1 unknown). The
// result is allocated once, at its final size.
func readLimited(rc io.Reader, limit, size int64) ([]byte, error) {
	if limit > 0 {
		rc = io.LimitReader(rc, limit+1)
	}
	if size >= 0 && (limit <= 0 || size <= limit) {
		data := make([]byte, 0, size+1) // room to see EOF without growing
		for {
			n, err := rc.Read(data[len(data):cap(data)])
			data = data[:len(data)+n]
			if err == io.EOF {
				return data, nil
			}
			if err != nil {
				return nil, err
			}
			if len(data) == cap(data) { // longer than announced
				rest, err := io.ReadAll(rc)
				if err != nil {
					return nil, err
				}
				data = append(data, rest...)
				if limit > 0 && int64(len(data)) > limit {
					return nil, errTooLarge
				}
				return data, nil
			}
		}
	}
	buf := readBufs.Get().(*bytes.Buffer)
	defer func() {
		if buf.Cap() <= 1<<20 {
			buf.Reset()
			readBufs.Put(buf)
		}
	}()
	if _, err := buf.ReadFrom(rc); err != nil {
		return nil, err
	}
	if limit > 0 && int64(buf.Len()) > limit {
		return nil, errTooLarge
	}
	return bytes.Clone(buf.Bytes()), nil
}

var readBufs = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// end releases the body (and the fetch) once.
func (nb *netBody) end() {
	if nb.done {
		return
	}
	nb.done = true
	if nb.release != nil {
		nb.release() // cancels the request's context: a read in flight returns
	}
	go nb.rc.Close()
	if len(nb.buf) == chunkSize && !nb.reading {
		chunkBufs.Put((*[chunkSize]byte)(nb.buf))
	}
	nb.buf = nil
}

var chunkBufs = sync.Pool{New: func() any { return new([chunkSize]byte) }}

// fail ends the body with the JS error e: the stream errors, a pending
// readAll rejects.
func (nb *netBody) fail(e goja.Value) {
	if nb.done {
		return
	}
	if cb := nb.pending; cb != nil {
		nb.pending = nil
		cb(nil, e)
	}
	if nb.ctrl != nil {
		nb.ctrl.Error(e)
	}
	nb.end()
}

// decode wraps body in decoders for its Content-Encoding, as undici does
// (gzip, x-gzip, deflate; applied last to first). An unknown coding leaves
// the body as it came.
func decode(body io.ReadCloser, encodings []string) io.ReadCloser {
	var codings []string
	for _, v := range encodings {
		for _, c := range strings.Split(v, ",") {
			if c = lower(strings.TrimSpace(c)); c != "" && c != "identity" {
				codings = append(codings, c)
			}
		}
	}
	var r io.Reader = body
	for i := len(codings) - 1; i >= 0; i-- {
		switch codings[i] {
		case "gzip", "x-gzip":
			r = &lazyReader{mk: func(src io.Reader) (io.Reader, error) { return gzip.NewReader(src) }, src: r}
		case "deflate":
			r = &lazyReader{mk: newDeflate, src: r}
		default:
			return body
		}
	}
	if r == io.Reader(body) {
		return body
	}
	return struct {
		io.Reader
		io.Closer
	}{r, body}
}

// newDeflate reads "deflate": zlib-wrapped as the standard says, or raw
// deflate as some servers send it.
func newDeflate(src io.Reader) (io.Reader, error) {
	br := bufio.NewReader(src)
	head, err := br.Peek(2)
	if err != nil && len(head) < 2 {
		if err == io.EOF {
			return br, nil
		}
		return nil, err
	}
	if (uint16(head[0])<<8|uint16(head[1]))%31 == 0 && head[0]&0x0f == 8 {
		return zlib.NewReader(br)
	}
	return flate.NewReader(br), nil
}

// lazyReader makes its decoder on the first Read (so making a Response
// reads nothing from the network).
type lazyReader struct {
	mk  func(io.Reader) (io.Reader, error)
	src io.Reader
	r   io.Reader
	err error
}

func (l *lazyReader) Read(p []byte) (int, error) {
	if l.r == nil && l.err == nil {
		l.r, l.err = l.mk(l.src)
		if l.err == io.EOF {
			l.err = io.ErrUnexpectedEOF
		}
	}
	if l.err != nil {
		return 0, l.err
	}
	return l.r.Read(p)
}

// pipeBody streams a JS ReadableStream request body to the HTTP
// transport: the JS side reads a chunk and hands it over, then reads the
// next one when the transport has taken it (backpressure).
type pipeBody struct {
	ch     chan []byte // chunks; closed at the end
	quit   chan struct{}
	once   sync.Once
	mu     sync.Mutex
	err    error
	cur    []byte
	reader *streams.Reader
	ended  bool // JS side: the pump stopped
	ctx    context.Context
}

func (s *state) newPipeBody(op *fetchOp, stream *goja.Object) (*pipeBody, error) {
	rd, err := streams.NewReader(s.r, stream)
	if err != nil {
		return nil, err
	}
	p := &pipeBody{ch: make(chan []byte), quit: make(chan struct{}), reader: rd, ctx: op.ctx}
	var step func(chunk goja.Value, done bool, e goja.Value)
	step = func(chunk goja.Value, done bool, e goja.Value) {
		if p.ended {
			return
		}
		switch {
		case e != nil:
			p.ended = true
			p.setErr(errors.New("the request body stream errored: " + e.String()))
			close(p.ch)
			return
		case done:
			p.ended = true
			close(p.ch)
			return
		}
		b, ok := webidl.Bytes(chunk)
		if !ok || !isUint8Array(chunk) {
			p.ended = true
			p.setErr(errors.New("the request body stream gave a chunk that is not a Uint8Array"))
			close(p.ch)
			rd.Cancel(s.rt.NewTypeError("Received non-Uint8Array chunk"))
			return
		}
		b = bytes.Clone(b)
		s.r.Go(func(ctx context.Context) func() error {
			select {
			case p.ch <- b:
				return func() error { rd.Read(step); return nil }
			case <-p.quit:
			case <-ctx.Done():
			case <-p.ctx.Done():
			}
			return nil
		})
	}
	rd.Read(step)
	return p, nil
}

func isUint8Array(v goja.Value) bool {
	o, ok := v.(*goja.Object)
	if !ok {
		return false
	}
	c, ok := o.Get("constructor").(*goja.Object)
	return ok && c.Get("name").String() == "Uint8Array"
}

func (p *pipeBody) setErr(err error) {
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
}

// Read implements io.Reader for the transport.
func (p *pipeBody) Read(b []byte) (int, error) {
	for len(p.cur) == 0 {
		select {
		case c, ok := <-p.ch:
			if !ok {
				p.mu.Lock()
				err := p.err
				p.mu.Unlock()
				if err == nil {
					err = io.EOF
				}
				return 0, err
			}
			p.cur = c
		case <-p.quit:
			return 0, errors.New("request body cancelled")
		case <-p.ctx.Done():
			return 0, p.ctx.Err()
		}
	}
	n := copy(b, p.cur)
	p.cur = p.cur[n:]
	return n, nil
}

// Close implements io.Closer: the transport is done with the body.
func (p *pipeBody) Close() error {
	p.once.Do(func() { close(p.quit) })
	return nil
}

// stop ends the pump on the JS goroutine, cancelling the JS stream with
// reason when it is not nil.
func (p *pipeBody) stop(reason goja.Value) {
	_ = p.Close()
	if !p.ended {
		p.ended = true
		p.reader.Cancel(reason)
	}
}
