package events_test

import (
	"fmt"
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

func bench(b *testing.B, setup, body string) {
	w := webtest.New(b, "", fetch.Options{})
	w.Must(setup + "\nreturn \"\";")
	b.ReportAllocs()
	b.ResetTimer()
	w.Must(fmt.Sprintf("for (let i = 0; i < %d; i++) { %s }\nreturn \"\";", b.N, body))
}

// An event created and dispatched to three listeners.
func BenchmarkDispatchEvent3Listeners(b *testing.B) {
	bench(b, `globalThis.t = new EventTarget(); globalThis.n = 0; for (let i = 0; i < 3; i++) t.addEventListener("x", () => n++);`,
		`t.dispatchEvent(new Event("x"));`)
}

// The same event object dispatched again (no construction).
func BenchmarkDispatchSameEvent3Listeners(b *testing.B) {
	bench(b, `globalThis.t = new EventTarget(); globalThis.n = 0; for (let i = 0; i < 3; i++) t.addEventListener("x", () => n++); globalThis.e = new Event("x");`,
		`t.dispatchEvent(e);`)
}

func BenchmarkAbortController(b *testing.B) {
	bench(b, ``, `const c = new AbortController(); c.signal.addEventListener("abort", () => {}); c.abort();`)
}
