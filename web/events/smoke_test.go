package events_test

import (
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

func TestSmoke(t *testing.T) {
	w := webtest.New(t, "", fetch.Options{})
	cases := map[string]string{
		`const t = new EventTarget(); const log = []; t.addEventListener("x", e => log.push("a" + e.eventPhase)); t.addEventListener("x", {handleEvent(e) { log.push("b" + (this === obj)) }}); var obj; t.addEventListener("x", e => log.push("c"), true); const r = t.dispatchEvent(new Event("x")); return log.join() + r`: "c,a2,bfalsetrue",
		`const c = new AbortController(); let got; c.signal.onabort = e => got = e.type + e.isTrusted; c.abort(); return got + c.signal.reason.name + c.signal.aborted`:                                                                                                                                                       "aborttrueAbortErrortrue",
		`const s = AbortSignal.timeout(5); await new Promise(r => s.addEventListener("abort", r)); return s.reason.name`:                                                                                                                                                                                                      "TimeoutError",
		`const a = new AbortController(), b = new AbortController(); const s = AbortSignal.any([a.signal, b.signal]); b.abort("why"); return s.reason`:                                                                                                                                                                        "why",
		`class Foo extends EventTarget { constructor() { super(); this.n = 1 } }; const f = new Foo(); let n = 0; f.addEventListener("y", () => n++); f.dispatchEvent(new CustomEvent("y", {detail: 3})); return String(n + f.n)`:                                                                                             "2",
		`const t = new EventTarget(); let n = 0; t.addEventListener("x", () => { throw new Error("boom") }); t.addEventListener("x", () => n++); t.dispatchEvent(new Event("x")); return String(n)`:                                                                                                                           "1",
	}
	for src, want := range cases {
		got, err := w.Eval(src)
		if err != nil {
			t.Errorf("%s: %v", src, err)
			continue
		}
		if got != want {
			t.Errorf("%s = %q, want %q", src, got, want)
		}
	}
}
