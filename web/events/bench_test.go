package events_test

import (
	"testing"

	"bext/web/internal/webtest"
)

// An event created and dispatched to three listeners.
func BenchmarkDispatchEvent3Listeners(b *testing.B) {
	webtest.Bench(b, `globalThis.t = new EventTarget(); globalThis.n = 0; for (let i = 0; i < 3; i++) t.addEventListener("x", () => n++);`,
		`t.dispatchEvent(new Event("x"));`)
}

// The same event object dispatched again (no construction).
func BenchmarkDispatchSameEvent3Listeners(b *testing.B) {
	webtest.Bench(b, `globalThis.t = new EventTarget(); globalThis.n = 0; for (let i = 0; i < 3; i++) t.addEventListener("x", () => n++); globalThis.e = new Event("x");`,
		`t.dispatchEvent(e);`)
}

func BenchmarkAbortController(b *testing.B) {
	webtest.Bench(b, ``, `const c = new AbortController(); c.signal.addEventListener("abort", () => {}); c.abort();`)
}
