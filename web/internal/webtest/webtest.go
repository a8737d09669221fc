// Package webtest runs JavaScript against the Web platform in a real bext
// isolate (engine.NewIsolate, the real event loop), for the tests of the
// spec packages. Import it from external test packages (package url_test):
// the engine imports every spec package.
package webtest

import (
	"context"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"bext/engine"
	"bext/web/fetch"
)

// Isolate compiles prelude (a script run once, e.g. a test harness) plus
// a render function that evaluates the body of an async function sent in
// the request path, and boots an isolate from it.
type Isolate struct {
	t   testing.TB
	iso *engine.Isolate
}

// New boots an isolate running prelude with fetch options o.
func New(t testing.TB, prelude string, o fetch.Options) *Isolate {
	t.Helper()
	src := prelude + `
;globalThis.render = async (req) => {
  const body = req.headers["x-body"];
  const v = await (new Function("return (async () => {" + body + "\n})()"))();
  return typeof v === "string" ? v : JSON.stringify(v);
};`
	p, err := engine.Compile("webtest.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler), Fetch: o})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(iso.Close)
	return &Isolate{t: t, iso: iso}
}

// Eval runs body as the body of an async function and returns its result
// (a string as is, anything else as JSON). A throw or rejection is
// returned as an error.
func (w *Isolate) Eval(body string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := engine.NewRequest("GET", "/")
	req.Headers["x-body"] = body
	resp, err := w.iso.Render(ctx, req)
	if err != nil {
		return "", err
	}
	return resp.HTML, nil
}

// Must is Eval that fails the test on error.
func (w *Isolate) Must(body string) string {
	w.t.Helper()
	s, err := w.Eval(body)
	if err != nil {
		w.t.Fatalf("%v\nin:\n%s", err, body)
	}
	return s
}

// Run evaluates body in a fresh isolate (see Eval) and fails on error.
func Run(t testing.TB, body string) string {
	t.Helper()
	return New(t, "", fetch.Options{}).Must(body)
}

// Bench runs setup once in a fresh isolate, then times body run b.N times
// in one loop (so the per-iteration cost is JS, not a render's).
func Bench(b *testing.B, setup, body string) {
	b.Helper()
	w := New(b, "", fetch.Options{})
	w.Must(setup + "\nreturn \"\";")
	b.ReportAllocs()
	b.ResetTimer()
	w.Must(fmt.Sprintf("for (let i = 0; i < %d; i++) { %s }\nreturn \"\";", b.N, body))
}
