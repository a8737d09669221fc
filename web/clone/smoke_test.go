package clone_test

import (
	"testing"

	"bext/web/fetch"
	"bext/web/internal/webtest"
)

func TestSmoke(t *testing.T) {
	w := webtest.New(t, "", fetch.Options{})
	cases := map[string]string{
		`const o = {a: 1, d: new Date(5), r: /x/gi, m: new Map([[1, {z: 2}]]), s: new Set([3]), arr: [1,,3], big: 10n, u: new Uint8Array([1,2,3]).subarray(1)}; o.self = o; o.arr.foo = "bar"; const c = structuredClone(o); return [c.self === c, c.d.getTime(), c.r.source + c.r.flags, c.m.get(1).z, c.s.has(3), 1 in c.arr, c.arr.foo, c.arr.length, typeof c.big, c.u.join(), c.u.byteOffset, c.d !== o.d].join()`: "true,5,xgi,2,true,false,bar,3,bigint,2,3,1,true",
		`try { structuredClone(() => 1); return "no" } catch (e) { return e.name + ": " + e.message }`:                                                              "DataCloneError: () => 1 could not be cloned.",
		`try { structuredClone(new WeakMap); return "no" } catch (e) { return e.message }`:                                                                          "#<WeakMap> could not be cloned.",
		`try { structuredClone(new EventTarget); return "no" } catch (e) { return e.name }`:                                                                         "DataCloneError",
		`const b = new ArrayBuffer(4); const c = structuredClone({b}, {transfer: [b]}); return [b.byteLength, c.b.byteLength].join()`:                               "0,4",
		`const e = new RangeError("m", {cause: 1}); const c = structuredClone(e); return [c instanceof RangeError, c.message, c.cause, c.stack === e.stack].join()`: "true,m,1,true",
		`return String(structuredClone(Object(5)) + 1)`:                                                                                                             "6",
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
