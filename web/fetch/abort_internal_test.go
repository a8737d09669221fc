package fetch

// Abort, tested with a stand-in AbortSignal until web/events lands (the
// conformance cases in fetch.js cover the real one).

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/dop251/goja"

	"bext/web/streams"
	"bext/web/webidl"
)

type fakeSignal struct {
	obj     *goja.Object
	aborted bool
	reason  goja.Value
	fns     map[int]func(goja.Value)
	n       int
}

func (f *fakeSignal) Aborted() bool        { return f.aborted }
func (f *fakeSignal) Reason() goja.Value   { return f.reason }
func (f *fakeSignal) Object() *goja.Object { return f.obj }
func (f *fakeSignal) OnAbort(fn func(goja.Value)) func() {
	id := f.n
	f.n++
	f.fns[id] = fn
	return func() { delete(f.fns, id) }
}

type loopHost struct {
	rt      *goja.Runtime
	posted  chan func() error
	pending int
}

func (h *loopHost) Runtime() *goja.Runtime { return h.rt }
func (h *loopHost) Begin() func(func() error) {
	h.pending++
	return func(fn func() error) { h.posted <- fn }
}
func (h *loopHost) Context() context.Context { return context.Background() }
func (h *loopHost) Logger() *slog.Logger     { return slog.New(slog.DiscardHandler) }

func (h *loopHost) await(t *testing.T, src string) (goja.Value, bool) {
	t.Helper()
	v, err := h.rt.RunString(src)
	if err != nil {
		t.Fatal(err)
	}
	p := v.Export().(*goja.Promise)
	for p.State() == goja.PromiseStatePending {
		if h.pending == 0 {
			t.Fatal("the promise never settles")
		}
		select {
		case fn := <-h.posted:
			h.pending--
			if err := fn(); err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("no completion in 10 s")
		}
	}
	return p.Result(), p.State() == goja.PromiseStateFulfilled
}

func TestAbortWithStandIn(t *testing.T) {
	arrived := make(chan struct{}, 4)
	gone := make(chan struct{}, 4)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/half" {
			io.WriteString(w, "first")
			w.(http.Flusher).Flush()
		}
		arrived <- struct{}{}
		<-r.Context().Done()
		gone <- struct{}{}
	}))
	defer srv.Close()
	saved := signalOf
	defer func() { signalOf = saved }()
	signalOf = func(v goja.Value) (signal, bool) {
		f, ok := webidl.Slot[*fakeSignal](v)
		return f, ok
	}
	h := &loopHost{rt: goja.New(), posted: make(chan func() error, 16)}
	r := webidl.NewRealm(h)
	streams.Install(r)
	Install(r)
	var sig *fakeSignal
	_ = h.rt.Set("newSignal", func() *goja.Object {
		sig = &fakeSignal{obj: h.rt.NewObject(), fns: map[int]func(goja.Value){}}
		r.SetSlot(sig.obj, sig)
		return sig.obj
	})
	abort := func(reason string) {
		sig.aborted, sig.reason = true, h.rt.ToValue(reason)
		for _, fn := range sig.fns {
			fn(sig.reason)
		}
	}
	_ = h.rt.Set("SERVER", srv.URL)
	_ = h.rt.Set("abortLater", func() { go func() { <-arrived; h.posted <- func() error { abort("stop"); return nil } }(); h.pending++ })

	// Aborted before the fetch.
	_, _ = h.rt.RunString(`globalThis.s = newSignal()`)
	abort("early")
	if v, ok := h.await(t, `fetch(SERVER + "/x", {signal: s})`); ok || v.String() != "early" {
		t.Fatalf("an aborted signal: %v %v", v, ok)
	}
	// While waiting for the response: the server sees the request go.
	if v, ok := h.await(t, `globalThis.s = newSignal(); abortLater(); fetch(SERVER + "/hang", {signal: s})`); ok || v.String() != "stop" {
		t.Fatalf("abort while waiting: %v %v", v, ok)
	}
	<-gone
	// Mid-body: text() rejects, a stream errors.
	if v, ok := h.await(t, `globalThis.s = newSignal(); fetch(SERVER + "/half", {signal: s}).then(r => { abortLater(); return r.text() })`); ok || v.String() != "stop" {
		t.Fatalf("abort mid-body (text): %v %v", v, ok)
	}
	<-gone
	if v, ok := h.await(t, `globalThis.s = newSignal(); fetch(SERVER + "/half", {signal: s}).then(async r => {
		const rd = r.body.getReader();
		const first = await rd.read();
		if (String.fromCharCode(...first.value) !== "first") throw new Error("first chunk");
		abortLater();
		await rd.read();
	})`); ok || v.String() != "stop" {
		t.Fatalf("abort mid-body (stream): %v %v", v, ok)
	}
	<-gone
	if len(sig.fns) != 0 {
		t.Fatalf("%d abort listeners left", len(sig.fns))
	}
	// A fetch that ends normally removes its listener.
	if _, ok := h.await(t, `globalThis.s = newSignal(); fetch("data:,x", {signal: s}).then(r => r.text())`); !ok {
		t.Fatal("data: with a signal")
	}
}
