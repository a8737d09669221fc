package events_test

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"runtime"
	"strings"
	"sync"
	"testing"

	"github.com/dop251/goja"

	"bext/web/events"
	"bext/web/webidl"
)

// host is a bare webidl.Host: a runtime and a logger that keeps its lines.
type host struct {
	rt  *goja.Runtime
	mu  sync.Mutex
	log bytes.Buffer
}

func (h *host) Runtime() *goja.Runtime      { return h.rt }
func (h *host) Begin() func(func() error)   { return func(func() error) {} }
func (h *host) Context() context.Context    { return context.Background() }
func (h *host) Logger() *slog.Logger        { return slog.New(slog.NewTextHandler(h, nil)) }
func (h *host) Write(p []byte) (int, error) { h.mu.Lock(); defer h.mu.Unlock(); return h.log.Write(p) }
func (h *host) logged() string              { h.mu.Lock(); defer h.mu.Unlock(); return h.log.String() }
func newRealm(t *testing.T) (*host, *webidl.Realm) {
	h := &host{rt: goja.New()}
	r := webidl.NewRealm(h)
	events.Install(r)
	return h, r
}

func TestListenerExceptionIsReported(t *testing.T) {
	h, r := newRealm(t)
	v, err := r.RT.RunString(`
const t = new EventTarget(); let after = 0;
t.addEventListener("x", function boom() { throw new TypeError("listener broke"); });
t.addEventListener("x", { handleEvent: "not callable" });
t.addEventListener("x", () => after++);
t.dispatchEvent(new Event("x"));
reportError(new RangeError("by hand"));
after`)
	if err != nil {
		t.Fatal(err)
	}
	if v.ToInteger() != 1 {
		t.Errorf("the listener after the throwing ones ran %d times, want 1", v.ToInteger())
	}
	out := h.logged()
	for _, want := range []string{"level=ERROR", "Uncaught TypeError: listener broke", "at boom", "handleEvent", "Uncaught RangeError: by hand"} {
		if !strings.Contains(out, want) {
			t.Errorf("log lacks %q:\n%s", want, out)
		}
	}
}

func TestInterruptInListenerIsNotSwallowed(t *testing.T) {
	_, r := newRealm(t)
	_ = r.RT.Set("stop", func() { r.RT.Interrupt("stop") })
	_, err := r.RT.RunString(`
const t = new EventTarget();
t.addEventListener("x", () => { stop(); for (;;) {} });
t.dispatchEvent(new Event("x"));
"finished"`)
	var ie *goja.InterruptedError
	if !errors.As(err, &ie) {
		t.Fatalf("got %v, want the interrupt", err)
	}
}

func TestSignalGoAPI(t *testing.T) {
	_, r := newRealm(t)
	s, abort := events.NewController(r)
	var order []string
	remove := s.OnAbort(func(reason goja.Value) { order = append(order, "go:"+reason.String()) })
	gone := s.OnAbort(func(goja.Value) { order = append(order, "removed") })
	gone()
	_ = r.RT.Set("sig", s.Object())
	_ = r.RT.Set("note", func(x string) { order = append(order, x) })
	if _, err := r.RT.RunString(`sig.addEventListener("abort", () => note("js:" + sig.reason))`); err != nil {
		t.Fatal(err)
	}
	if s.Aborted() {
		t.Fatal("aborted too early")
	}
	abort(r.RT.ToValue("why"))
	abort(r.RT.ToValue("again"))
	remove()
	if got := strings.Join(order, ","); got != "go:why,js:why" {
		t.Errorf("order %q: Go abort algorithms run before JS listeners, once", got)
	}
	if !s.Aborted() || s.Reason().String() != "why" {
		t.Errorf("aborted %v reason %v", s.Aborted(), s.Reason())
	}
	if got, ok := events.SignalOf(s.Object()); !ok || got != s {
		t.Error("SignalOf does not find the signal")
	}
	if _, ok := events.SignalOf(r.RT.NewObject()); ok {
		t.Error("SignalOf accepts a plain object")
	}
	s2, abort2 := events.NewController(r)
	abort2(nil)
	if name := s2.Reason().(*goja.Object).Get("name").String(); name != "AbortError" {
		t.Errorf("abort(nil) reason %s, want AbortError", name)
	}
	called := false
	s2.OnAbort(func(goja.Value) { called = true })()
	if called {
		t.Error("OnAbort on an aborted signal ran")
	}
}

func TestListenFunc(t *testing.T) {
	_, r := newRealm(t)
	v, _ := r.RT.RunString(`globalThis.t = new EventTarget(); t`)
	n := 0
	remove, ok := events.ListenFunc(v, "x", func(e goja.Value) { n++ })
	if !ok {
		t.Fatal("ListenFunc refused an EventTarget")
	}
	_, _ = r.RT.RunString(`t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("y"))`)
	remove()
	_, _ = r.RT.RunString(`t.dispatchEvent(new Event("x"))`)
	if n != 1 {
		t.Errorf("listened %d times, want 1", n)
	}
}

// A dependent signal with an abort listener survives garbage collection
// while its source lives, even when nothing else references it.
func TestAnyDependentWithListenerSurvivesGC(t *testing.T) {
	_, r := newRealm(t)
	if _, err := r.RT.RunString(`
globalThis.src = new AbortController(); globalThis.fired = 0;
(() => { AbortSignal.any([src.signal]).addEventListener("abort", () => fired++); })();
for (let i = 0; i < 1000; i++) AbortSignal.any([src.signal]); // no listeners: may be collected`); err != nil {
		t.Fatal(err)
	}
	runtime.GC()
	runtime.GC()
	v, err := r.RT.RunString(`src.abort(); fired`)
	if err != nil {
		t.Fatal(err)
	}
	if v.ToInteger() != 1 {
		t.Errorf("the dependent's listener fired %d times, want 1", v.ToInteger())
	}
}
