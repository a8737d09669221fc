package engine

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A single call that would allocate more than MaxAllocation, or one that
// would bring what the render allocated through these built-ins over it (a
// loop of buffers, kept or not), throws a RangeError before it allocates — a failed request (KindException), the
// isolate kept — while the same built-ins under the limit, and code that
// checks constructors and instances, work as before.
func TestOversizedSingleAllocationsThrowBeforeAllocating(t *testing.T) {
	p, err := Compile("alloc.js", []byte(`
		const routes = {
			"/typed": () => new Uint8Array(4e9).fill(1),
			"/buffer": () => new ArrayBuffer(2 ** 31),
			"/f64": () => new Float64Array(100e6),
			"/from-array-like": () => new Uint32Array({ length: 1e9 }),
			"/repeat": () => "x".repeat(2 ** 30),
			"/pad": () => "".padStart(1e9, "ab"),
			"/fill": () => Array(1e9).fill(0),
			"/json": () => JSON.parse("[" + "1,".repeat(20e6) + "1]"),
			"/loop": () => { const keep = []; for (;;) keep.push(new ArrayBuffer(1 << 20)); },
			"/garbage": () => { for (let k = 0; k < 1000; k++) new ArrayBuffer(1 << 20); return "garbage"; },
			"/ok": () => {
				const a = new Uint8Array(1024).fill(7);
				class Bytes extends Uint8Array {}
				const b = new Bytes(8);
				const view = new Uint8Array(a.buffer, 16, 8);
				return [a.length, a[3], a.constructor === Uint8Array, a instanceof Uint8Array, b instanceof Uint8Array,
					b instanceof Bytes, b.constructor === Bytes, view.length, Uint8Array.name, Uint8Array.BYTES_PER_ELEMENT,
					"ab".repeat(3), "7".padStart(3, "0"), Array(3).fill(1).join(""), JSON.parse("[1]")[0],
					String.prototype.repeat.name, String.prototype.repeat.length, Object.prototype.toString.call(a),
					a.subarray(0, 2).constructor === Uint8Array, new Uint16Array([1, 2, 3]).length].join(",");
			},
		};
		globalThis.render = (req) => String(routes[req.path]());`))
	if err != nil {
		t.Fatal(err)
	}
	iso, err := NewIsolate(p, Options{MaxAllocation: 64 << 20, Log: discardLog})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	for _, path := range []string{"/typed", "/buffer", "/f64", "/from-array-like", "/repeat", "/pad", "/fill", "/json", "/loop", "/garbage"} {
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		re := renderErr(t, iso, ctx, get(path))
		cancel()
		if re.Kind != KindException || !strings.HasPrefix(re.Message, "RangeError") || !strings.Contains(re.Message, "max_render_memory_mb") {
			t.Errorf("%s: %v %q, want a RangeError naming max_render_memory_mb", path, re.Kind, re.Message)
		}
	}
	// The budget is per render: the next render starts from zero.
	want := "1024,7,true,true,true,true,true,8,Uint8Array,1,ababab,007,111,1,repeat,1,[object Uint8Array],true,3"
	if got := mustRender(t, iso, get("/ok")).HTML; got != want {
		t.Fatalf("under the limit:\n got %s\nwant %s", got, want)
	}
}
