package engine

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dlclark/regexp2/v2"
)

func TestBootThrows(t *testing.T) {
	_, err := NewIsolate(fixtureProgram(t, "boot-throws", "server.js"), Options{})
	var be *BootError
	if !errors.As(err, &be) {
		t.Fatalf("err = %T %v, want *BootError", err, err)
	}
	if !strings.Contains(be.Message, "threw while loading") || !strings.Contains(be.Message, "config missing at boot") {
		t.Fatalf("message %q", be.Message)
	}
	if !strings.Contains(be.Stack, "loadConfig") {
		t.Fatalf("stack does not name the throwing function: %q", be.Stack)
	}
}

func TestBootNoRenderFunction(t *testing.T) {
	_, err := NewIsolate(fixtureProgram(t, "no-render", "server.js"), Options{})
	var be *BootError
	if !errors.As(err, &be) || !strings.Contains(be.Error(), "globalThis.render") || !strings.Contains(be.Error(), "export default") {
		t.Fatalf("err = %v, want a BootError saying how to define render", err)
	}
}

func TestThrowInRenderKeepsIsolate(t *testing.T) {
	iso := newTestIsolate(t, "render-throws", "server.js", Options{})
	re := renderErr(t, iso, context.Background(), get("/boom"))
	if re.Kind != KindException || re.Fatal() {
		t.Fatalf("kind %v fatal %v", re.Kind, re.Fatal())
	}
	if re.Message != "Error: boom" || !strings.Contains(re.Stack, "explode") {
		t.Fatalf("message %q stack %q", re.Message, re.Stack)
	}
	re = renderErr(t, iso, context.Background(), get("/reject"))
	if re.Kind != KindException || re.Message != "TypeError: rejected on purpose" {
		t.Fatalf("rejection: %v", re)
	}
	if got := mustRender(t, iso, get("/after")).HTML; got != "ok /after" {
		t.Fatalf("isolate not reusable after a throw: %q", got)
	}
}

func TestExceptionKinds(t *testing.T) {
	iso := kitchen(t, Options{})
	cases := []struct{ path, want string }{
		{"/throw", "Error: kaboom"},
		{"/reject", "Error: nope"},
		{"/bad", "render must return a string of HTML, {status, headers, html}"},
		{"/badstatus", "render returned status 42; status must be a whole number from 200 to 599"},
		{"/never", "never settles"},
		{"/timer-throws", "late failure"},
	}
	for _, c := range cases {
		re := renderErr(t, iso, context.Background(), get(c.path))
		if re.Kind != KindException || !strings.Contains(re.Message, c.want) {
			t.Errorf("%s: got %v %q, want exception containing %q", c.path, re.Kind, re.Message, c.want)
		}
	}
	mustRender(t, iso, get("/"))
}

// fatal asserts that the isolate refuses work after a fatal error.
func assertDead(t *testing.T, iso *Isolate, kind ErrorKind) {
	t.Helper()
	re := renderErr(t, iso, context.Background(), get("/"))
	if !re.Fatal() || re.Kind != kind || !errors.Is(re, ErrIsolateDead) {
		t.Fatalf("render on a dead isolate: %v (kind %v), want fatal %v wrapping ErrIsolateDead", re, re.Kind, kind)
	}
}

func TestInfiniteLoopTimesOut(t *testing.T) {
	iso := newTestIsolate(t, "loop", "server.js", Options{})
	deadline := errors.New("render deadline")
	ctx, cancel := context.WithTimeoutCause(context.Background(), 50*time.Millisecond, deadline)
	defer cancel()
	start := time.Now()
	re := renderErr(t, iso, ctx, get("/"))
	if re.Kind != KindTimeout || !re.Fatal() || !errors.Is(re, deadline) {
		t.Fatalf("got %v kind %v cause %v", re, re.Kind, re.Cause)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("interrupt took %v", el)
	}
	assertDead(t, iso, KindTimeout)
}

func TestTimeoutWhileWaitingForTimer(t *testing.T) {
	iso := newTestIsolate(t, "slow", "server.js", Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	req := get("/")
	req.Query["ms"] = "10000"
	re := renderErr(t, iso, ctx, req)
	if re.Kind != KindTimeout || !errors.Is(re, context.DeadlineExceeded) {
		t.Fatalf("got %v kind %v", re, re.Kind)
	}
}

func TestStackOverflow(t *testing.T) {
	iso := kitchen(t, Options{MaxCallStackSize: 500})
	re := renderErr(t, iso, context.Background(), get("/deep"))
	if re.Kind != KindStackOverflow || !re.Fatal() {
		t.Fatalf("got %v kind %v", re, re.Kind)
	}
	assertDead(t, iso, KindStackOverflow)
}

func TestGoPanicInHostFunction(t *testing.T) {
	iso := kitchen(t, Options{})
	re := renderErr(t, iso, context.Background(), get("/panic"))
	if re.Kind != KindPanic || !strings.Contains(re.Message, "host exploded") || !strings.Contains(re.Stack, "goroutine") {
		t.Fatalf("got %v kind %v", re, re.Kind)
	}
	assertDead(t, iso, KindPanic)
}

func TestCatastrophicRegexpIsAbandoned(t *testing.T) {
	iso := kitchen(t, Options{InterruptGrace: 30 * time.Millisecond})
	before := AbandonedRenders()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	start := time.Now()
	re := renderErr(t, iso, ctx, get("/regexp"))
	if re.Kind != KindAbandoned || !errors.Is(re, context.DeadlineExceeded) {
		t.Fatalf("got %v kind %v", re, re.Kind)
	}
	if el := time.Since(start); el > time.Second {
		t.Fatalf("abandoning took %v", el)
	}
	if got := AbandonedRenders() - before; got != 1 {
		t.Fatalf("AbandonedRenders grew by %d", got)
	}
	assertDead(t, iso, KindAbandoned)
}

// An abandoned render's goroutine does not run forever: its regexp match
// gives up after the match timeout (shortened here), the goroutine meets its
// interrupt and returns, and AbandonedRunning counts it down.
func TestAbandonedRenderEndsAfterTheRegexpTimeout(t *testing.T) {
	old := regexp2.DefaultMatchTimeout
	regexp2.DefaultMatchTimeout = 200 * time.Millisecond
	returned := make(chan struct{}, 1)
	onAbandonedReturn = func() { returned <- struct{}{} }
	t.Cleanup(func() { regexp2.DefaultMatchTimeout, onAbandonedReturn = old, nil })
	p, err := Compile("re.js", []byte(`globalThis.render = () => String(/^(a+)+(?=c)/.test("a".repeat(60) + "b"));`))
	if err != nil {
		t.Fatal(err)
	}
	iso, err := NewIsolate(p, Options{InterruptGrace: 20 * time.Millisecond, Log: discardLog})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	before := AbandonedRunning()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if re := renderErr(t, iso, ctx, get("/")); re.Kind != KindAbandoned {
		t.Fatalf("got %v", re.Kind)
	}
	select {
	case <-returned:
	case <-time.After(time.Minute):
		t.Fatal("the abandoned goroutine never returned")
	}
	if got := AbandonedRunning(); got != before {
		t.Fatalf("AbandonedRunning %d, want %d once the goroutine returned", got, before)
	}
}

func TestClosedIsolateRefuses(t *testing.T) {
	iso := kitchen(t, Options{})
	iso.Close()
	re := renderErr(t, iso, context.Background(), get("/"))
	if !re.Fatal() || !errors.Is(re, ErrIsolateDead) {
		t.Fatalf("got %v", re)
	}
}

func TestErrorKindStrings(t *testing.T) {
	want := map[ErrorKind]string{KindException: "exception", KindTimeout: "timeout", KindStackOverflow: "stack_overflow", KindPanic: "panic", KindAbandoned: "abandoned"}
	for k, s := range want {
		if k.String() != s {
			t.Errorf("%d.String() = %q, want %q", int(k), k.String(), s)
		}
	}
}

func TestBootLoopIsBootError(t *testing.T) {
	_, err := NewIsolate(fixtureProgram(t, "boot-loop", "server.js"), Options{bootTimeout: 30 * time.Millisecond})
	var be *BootError
	if !errors.As(err, &be) || !strings.Contains(be.Message, "did not finish loading within 30ms") {
		t.Fatalf("err = %v, want a BootError about loading time", err)
	}
}
