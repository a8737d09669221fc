package streams_test

import (
	"testing"

	"bext/web/internal/webtest"
)

func TestSmoke(t *testing.T) {
	got := webtest.Run(t, `
		const out = [];
		const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } });
		const r = rs.getReader();
		for (;;) { const {value, done} = await r.read(); if (done) break; out.push(value); }
		const bs = new ReadableStream({ type: "bytes", pull(c) { c.enqueue(new Uint8Array([1,2,3])); c.close(); } }, { highWaterMark: 0 });
		const br = bs.getReader();
		const x = await br.read();
		out.push(x.value.join(","), (await br.read()).done);
		const ts = new TransformStream({ transform(ch, c) { c.enqueue(ch.toUpperCase()); } });
		const piped = new ReadableStream({ start(c) { c.enqueue("x"); c.enqueue("y"); c.close(); } }).pipeThrough(ts);
		const pr = piped.getReader();
		for (;;) { const {value, done} = await pr.read(); if (done) break; out.push(value); }
		const text = new ReadableStream({ start(c) { c.enqueue("héllo"); c.close(); } }).pipeThrough(new TextEncoderStream()).pipeThrough(new CompressionStream("gzip")).pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TextDecoderStream());
		const tr = text.getReader(); let s = "";
		for (;;) { const {value, done} = await tr.read(); if (done) break; s += value; }
		out.push(s);
		const [t1, t2] = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } }).tee();
		const a1 = []; for (const r = t1.getReader();;) { const {value, done} = await r.read(); if (done) break; a1.push(value); }
		out.push(a1.join("+"));
		const it = ReadableStream.from([5,6,7]).values(); const a2 = [];
		for (;;) { const {value, done} = await it.next(); if (done) break; a2.push(value); }
		out.push(a2.join("+"));
		return out.join("|");`)
	if want := "a|b|1,2,3|true|X|Y|héllo|1+2|5+6+7"; got != want {
		t.Fatalf("got %s want %s", got, want)
	}
}
