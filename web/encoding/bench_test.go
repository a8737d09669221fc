package encoding_test

import (
	"testing"

	"bext/web/internal/webtest"
)

// bench runs setup once, then body b.N times inside one render, so the
// figure is the cost of body alone.
// 16 KB of mostly ASCII HTML with some non-ASCII text, as a render emits.
const html16k = `globalThis.s = ("<div class=\"row\"><span>caf\u00e9 \u2014 na\u00efve</span> ordinary text here</div>\n").repeat(190).slice(0, 16384);`

func BenchmarkTextEncoderEncode16K(b *testing.B) {
	webtest.Bench(b, html16k+`globalThis.enc = new TextEncoder();`, `enc.encode(s);`)
}

func BenchmarkTextEncoderEncodeASCII16K(b *testing.B) {
	webtest.Bench(b, `globalThis.s = "x".repeat(16384); globalThis.enc = new TextEncoder();`, `enc.encode(s);`)
}

func BenchmarkTextEncoderEncodeInto16K(b *testing.B) {
	webtest.Bench(b, html16k+`globalThis.enc = new TextEncoder(); globalThis.buf = new Uint8Array(65536);`, `enc.encodeInto(s, buf);`)
}

func BenchmarkTextDecoderDecode16K(b *testing.B) {
	webtest.Bench(b, html16k+`globalThis.bytes = new TextEncoder().encode(s); globalThis.dec = new TextDecoder();`, `dec.decode(bytes);`)
}

func BenchmarkTextDecoderDecodeASCII16K(b *testing.B) {
	webtest.Bench(b, `globalThis.bytes = new TextEncoder().encode("x".repeat(16384)); globalThis.dec = new TextDecoder();`, `dec.decode(bytes);`)
}

func BenchmarkBtoa16K(b *testing.B) {
	webtest.Bench(b, `let t = ""; for (let i = 0; i < 16384; i++) t += String.fromCharCode(i & 255); globalThis.s = t;`, `btoa(s);`)
}

func BenchmarkAtob16K(b *testing.B) {
	webtest.Bench(b, `let t = ""; for (let i = 0; i < 16384; i++) t += String.fromCharCode(i & 255); globalThis.s = btoa(t);`, `atob(s);`)
}
