package engine

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// asyncIsolate is an isolate whose JS can start a Go operation:
// goAsync(label) returns a promise that a goroutine resolves with label
// once the test sends on release; ranLate records completions that ran.
// started receives once when an operation begins and once when its
// completion has been posted.
func asyncIsolate(t *testing.T, src string) (iso *Isolate, release, started chan struct{}) {
	t.Helper()
	p, err := Compile("async.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	iso, err = NewIsolate(p, Options{Log: discardLog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(iso.Close)
	release, started = make(chan struct{}), make(chan struct{}, 16)
	_ = iso.rt.Set("goAsync", func(call goja.FunctionCall) goja.Value {
		label := call.Argument(0).String()
		p, resolve, _ := iso.rt.NewPromise()
		done := iso.Begin()
		started <- struct{}{}
		go func() {
			<-release
			done(func() error {
				_ = iso.rt.Set("ranLate", label)
				return resolve(label)
			})
			started <- struct{}{} // posted
		}()
		return iso.rt.ToValue(p)
	})
	return iso, release, started
}

func TestAsyncGoOperationResolvesRender(t *testing.T) {
	iso, release, _ := asyncIsolate(t, `globalThis.render = async () => "got " + await goAsync("a") + " " + await goAsync("b");`)
	go func() { release <- struct{}{}; release <- struct{}{} }()
	if resp := mustRender(t, iso, get("/")); resp.HTML != "got a b" {
		t.Fatalf("HTML %q", resp.HTML)
	}
}

func TestAsyncOperationPendingIsNotNeverSettles(t *testing.T) {
	iso, _, started := asyncIsolate(t, `globalThis.render = async () => await goAsync("never released");`)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		<-started // the operation is pending: end the render now
		cancel()
	}()
	re := renderErr(t, iso, ctx, get("/"))
	if re.Kind != KindTimeout {
		t.Fatalf("kind %v (%s), want a timeout: a pending Go operation must keep the render waiting", re.Kind, re.Message)
	}
}

func TestCompletionAfterRenderEndsIsDropped(t *testing.T) {
	iso, release, started := asyncIsolate(t, `
		globalThis.ranLate = "";
		globalThis.render = (req) => {
			if (req.path === "/start") { goAsync("late"); return "started"; }
			return "ranLate=" + globalThis.ranLate;
		};`)
	if resp := mustRender(t, iso, get("/start")); resp.HTML != "started" {
		t.Fatal(resp.HTML)
	}
	<-started
	release <- struct{}{} // the goroutine posts its completion after the render ended
	<-started
	for range 3 {
		if resp := mustRender(t, iso, get("/check")); resp.HTML != "ranLate=" {
			t.Fatalf("a completion of an ended render ran in a later one: %q", resp.HTML)
		}
	}
}

func TestNeverSettlesWithoutPendingWork(t *testing.T) {
	iso, _, _ := asyncIsolate(t, `globalThis.render = () => new Promise(() => {});`)
	re := renderErr(t, iso, context.Background(), get("/"))
	if re.Kind != KindException || !strings.Contains(re.Message, "never settles") {
		t.Fatalf("%v %q", re.Kind, re.Message)
	}
}

// A render whose fetch continuation never ends (the JS after `await
// fetch(…)` loops) is a timeout, and its isolate is replaced: the interrupt
// that stops the loop must reach the render, not be swallowed by the code
// that resolved the fetch's promise (which left a half-run isolate that
// reported "never settles" and failed later renders).
func TestInterruptInAFetchContinuationIsATimeout(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }))
	defer srv.Close()
	p, err := Compile("loop.js", []byte(`globalThis.render = async (req) => {
		const r = await fetch(req.query.url);
		if (await r.text() === "ok") { looping(); for (;;) {} }
		return "unreachable";
	};`))
	if err != nil {
		t.Fatal(err)
	}
	iso, err := NewIsolate(p, Options{Log: discardLog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(iso.Close)
	ctx, cancel := context.WithCancel(context.Background())
	_ = iso.rt.Set("looping", func(goja.FunctionCall) goja.Value { cancel(); return goja.Undefined() })
	req := get("/")
	req.Query["url"] = srv.URL
	re := renderErr(t, iso, ctx, req)
	if re.Kind != KindTimeout || !re.Fatal() {
		t.Fatalf("kind %v (%s), want a timeout that replaces the isolate", re.Kind, re.Message)
	}
}
