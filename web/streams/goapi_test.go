package streams_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/dop251/goja"

	"bext/web/streams"
	"bext/web/webidl"
)

// host is a webidl.Host for driving streams from Go: completions posted
// through Begin run when the test calls run.
type host struct {
	rt     *goja.Runtime
	posted []func() error
}

func (h *host) Runtime() *goja.Runtime { return h.rt }
func (h *host) Begin() func(func() error) {
	return func(fn func() error) { h.posted = append(h.posted, fn) }
}
func (h *host) Context() context.Context { return context.Background() }
func (h *host) Logger() *slog.Logger     { return slog.New(slog.DiscardHandler) }

func (h *host) run(t testing.TB) {
	for len(h.posted) > 0 {
		fn := h.posted[0]
		h.posted = h.posted[1:]
		if err := fn(); err != nil {
			t.Fatal(err)
		}
	}
}

func newRealm(t testing.TB) (*host, *webidl.Realm) {
	h := &host{rt: goja.New()}
	r := webidl.NewRealm(h)
	streams.Install(r)
	return h, r
}

func eval(t testing.TB, r *webidl.Realm, src string) goja.Value {
	v, err := r.RT.RunString(src)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// reactLike is a byte stream used the way React's renderToReadableStream
// uses it: pull-driven, highWaterMark 0, Uint8Array views over reused
// 4096-byte buffers, closed after the last chunk.
const reactLike = `(function (n, size) {
	let sent = 0, view = new Uint8Array(4096), written = 0;
	return new ReadableStream({
		type: "bytes",
		pull(c) {
			while (sent < n) {
				const chunk = new Uint8Array(size).fill(97 + (sent % 26));
				sent++;
				if (written + size > view.length) { c.enqueue(new Uint8Array(view.buffer, 0, written)); view = new Uint8Array(4096); written = 0; }
				view.set(chunk, written); written += size;
			}
			if (written > 0) c.enqueue(new Uint8Array(view.buffer, 0, written));
			c.close();
		},
		cancel() {},
	}, { highWaterMark: 0 });
})`

func TestReaderReadsReactPattern(t *testing.T) {
	_, r := newRealm(t)
	s := eval(t, r, reactLike+"(10, 1000)")
	rd, err := streams.NewReader(r, s)
	if err != nil {
		t.Fatal(err)
	}
	if !streams.Locked(s) {
		t.Fatal("a Reader must lock the stream")
	}
	var got bytes.Buffer
	done := false
	var read func(chunk goja.Value, d bool, e goja.Value)
	read = func(chunk goja.Value, d bool, e goja.Value) {
		if e != nil {
			t.Fatalf("read error %v", e)
		}
		if d {
			done = true
			return
		}
		b, ok := webidl.Bytes(chunk)
		if !ok {
			t.Fatalf("chunk %v is not bytes", chunk)
		}
		got.Write(b)
		rd.Read(read)
	}
	rd.Read(read)
	if !done || got.Len() != 10000 || got.String()[:3] != "aaa" || got.String()[9999] != 'j' {
		t.Fatalf("done %v, %d bytes %q…", done, got.Len(), got.String()[:min(10, got.Len())])
	}
	if !streams.Disturbed(s) {
		t.Error("a read stream must be disturbed")
	}
	rd.Release()
	if streams.Locked(s) {
		t.Error("Release must unlock")
	}
}

func TestReadAll(t *testing.T) {
	_, r := newRealm(t)
	var data []byte
	var jsErr goja.Value
	streams.ReadAll(r, eval(t, r, reactLike+"(5, 100)"), 0, func(d []byte, e goja.Value) { data, jsErr = d, e })
	if jsErr != nil || len(data) != 500 {
		t.Fatalf("ReadAll: %d bytes, error %v", len(data), jsErr)
	}

	streams.ReadAll(r, eval(t, r, reactLike+"(50, 100)"), 1000, func(d []byte, e goja.Value) { data, jsErr = d, e })
	if jsErr == nil || !strings.Contains(jsErr.String(), "1000") || !strings.HasPrefix(jsErr.String(), "RangeError") {
		t.Fatalf("over the limit: %d bytes, error %v", len(data), jsErr)
	}

	streams.ReadAll(r, eval(t, r, `new ReadableStream({ start(c) { c.enqueue("text"); c.close(); } })`), 0, func(d []byte, e goja.Value) { data, jsErr = d, e })
	if jsErr == nil || !strings.HasPrefix(jsErr.String(), "TypeError") {
		t.Fatalf("a string chunk: error %v", jsErr)
	}

	locked := eval(t, r, `globalThis.l = new ReadableStream(); l.getReader(); l`)
	streams.ReadAll(r, locked, 0, func(d []byte, e goja.Value) { data, jsErr = d, e })
	if jsErr == nil || !strings.HasPrefix(jsErr.String(), "TypeError") {
		t.Fatalf("a locked stream: error %v", jsErr)
	}
	if _, err := streams.NewReader(r, goja.Undefined()); err == nil {
		t.Fatal("NewReader of undefined must fail")
	}

	streams.ReadAll(r, eval(t, r, `new ReadableStream({ start(c) { c.error(new Error("gone")); } })`), 0, func(d []byte, e goja.Value) { data, jsErr = d, e })
	if jsErr == nil || jsErr.String() != "Error: gone" {
		t.Fatalf("an errored stream: error %v", jsErr)
	}
}

// goSource serves parts one Pull at a time, each from a completion (as a
// network body would).
type goSource struct {
	h        *host
	parts    [][]byte
	pulls    int
	canceled goja.Value
}

func (g *goSource) Pull(c *streams.Controller) {
	g.pulls++
	done := g.h.Begin()
	done(func() error {
		if len(g.parts) == 0 {
			c.Close()
			return nil
		}
		c.Enqueue(g.parts[0])
		g.parts = g.parts[1:]
		return nil
	})
}

func (g *goSource) Cancel(reason goja.Value) { g.canceled = reason }

func TestNewReadableFromGo(t *testing.T) {
	h, r := newRealm(t)
	src := &goSource{h: h, parts: [][]byte{[]byte("hello "), []byte("streams "), []byte("from Go")}}
	s := streams.NewReadable(r, src, 0)
	if !streams.IsReadable(s) || streams.IsReadable(r.RT.NewObject()) {
		t.Fatal("IsReadable")
	}
	_ = r.RT.Set("s", s)
	eval(t, r, `globalThis.out = ""; (async () => { const it = s.values(); for (;;) { const { value, done } = await it.next(); if (done) break; out += String.fromCharCode(...value); } out += "|done"; })()`)
	h.run(t)
	if got := r.RT.Get("out").String(); got != "hello streams from Go|done" {
		t.Fatalf("got %q", got)
	}
	if src.pulls != 4 {
		t.Errorf("%d pulls, want 4 (one per part, one to close)", src.pulls)
	}

	src2 := &goSource{h: h, parts: [][]byte{[]byte("x")}}
	s2 := streams.NewReadable(r, src2, 0)
	_ = r.RT.Set("s2", s2)
	eval(t, r, `s2.cancel("bye")`)
	if src2.canceled == nil || src2.canceled.String() != "bye" {
		t.Errorf("Cancel got %v", src2.canceled)
	}
}

func TestFromBytesAndTee(t *testing.T) {
	h, r := newRealm(t)
	s := streams.FromBytes(r, []byte("body"))
	a, b := streams.Tee(r, s)
	var da, db []byte
	streams.ReadAll(r, a, 0, func(d []byte, e goja.Value) { da = d })
	streams.ReadAll(r, b, 0, func(d []byte, e goja.Value) { db = d })
	h.run(t)
	if string(da) != "body" || string(db) != "body" {
		t.Fatalf("tee branches read %q and %q", da, db)
	}
	var empty []byte
	streams.ReadAll(r, streams.FromBytes(r, nil), 0, func(d []byte, e goja.Value) { empty = d })
	if empty == nil || len(empty) != 0 {
		t.Fatalf("an empty body reads %v", empty)
	}
}

// BenchmarkByteStreamGoReader: 100 chunks of 2 KB through a byte stream,
// enqueued by JS and read by a Go Reader (the engine's path for a
// streamed Response).
func BenchmarkByteStreamGoReader(b *testing.B) {
	_, r := newRealm(b)
	mk := eval(b, r, `(function () {
		let n = 0;
		return new ReadableStream({ type: "bytes", pull(c) { c.enqueue(new Uint8Array(2048)); if (++n === 100) c.close(); } }, { highWaterMark: 0 });
	})`)
	fn, _ := goja.AssertFunction(mk)
	b.ReportAllocs()
	for b.Loop() {
		s, _ := fn(goja.Undefined())
		rd, err := streams.NewReader(r, s)
		if err != nil {
			b.Fatal(err)
		}
		n := 0
		var read func(goja.Value, bool, goja.Value)
		read = func(c goja.Value, done bool, e goja.Value) {
			if done || e != nil {
				return
			}
			n++
			rd.Read(read)
		}
		rd.Read(read)
		if n != 100 {
			b.Fatalf("read %d chunks", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/chunk")
}

// BenchmarkPipeThrough: 100 chunks of 2 KB through a JS TransformStream
// by pipeThrough, read whole by ReadAll.
func BenchmarkPipeThrough(b *testing.B) {
	_, r := newRealm(b)
	mk := eval(b, r, `(function () {
		let n = 0;
		const src = new ReadableStream({ pull(c) { c.enqueue(new Uint8Array(2048)); if (++n === 100) c.close(); } });
		return src.pipeThrough(new TransformStream({ transform(ch, c) { c.enqueue(ch); } }));
	})`)
	fn, _ := goja.AssertFunction(mk)
	b.ReportAllocs()
	for b.Loop() {
		s, _ := fn(goja.Undefined())
		var got int
		streams.ReadAll(r, s, 0, func(d []byte, e goja.Value) { got = len(d) })
		if got != 204800 {
			b.Fatalf("read %d bytes", got)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100), "ns/chunk")
}
