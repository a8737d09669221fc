package web_test

import (
	"testing"

	"bext/web/internal/webtest"
)

func TestDOMException(t *testing.T) {
	got := webtest.Run(t, `
		const e = new DOMException("gone", "AbortError");
		const plain = new DOMException();
		class Mine extends DOMException {}
		const m = new Mine("x", "DataCloneError");
		let call = "no";
		try { DOMException.call({}, "x"); } catch (err) { call = err instanceof TypeError; }
		return [e.name, e.message, e.code, e instanceof Error, e instanceof DOMException, String(e),
			typeof e.stack, plain.name, plain.message, plain.code, DOMException.ABORT_ERR, e.ABORT_ERR,
			m instanceof Mine, m.code, call, Object.prototype.toString.call(e),
			Object.keys(e).length].join("|");`)
	want := "AbortError|gone|20|true|true|AbortError: gone|string|Error||0|20|20|true|25|true|[object DOMException]|0"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}

func TestNavigatorAndLazyGlobals(t *testing.T) {
	got := webtest.Run(t, `
		const before = Object.getOwnPropertyDescriptor(globalThis, "navigator");
		const ua = navigator.userAgent;
		const after = Object.getOwnPropertyDescriptor(globalThis, "navigator");
		globalThis.DOMException = 42; // an app may replace a global before touching it
		return [typeof before.get, typeof ua, ua.startsWith("bext"), "value" in after, after.enumerable,
			DOMException, navigator instanceof Navigator].join("|");`)
	want := "function|string|true|true|false|42|true"
	if got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
}
