test(() => {
  let ctrl;
  new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
  assert_equals(Object.prototype.toString.call(ctrl), "[object ReadableByteStreamController]");
  assert_equals(ctrl.byobRequest, null);
  assert_equals(ctrl.desiredSize, 0);
  assert_throws_js(RangeError, () => new ReadableStream({ type: "bytes" }, { size() { return 1; } }));
  assert_throws_js(TypeError, () => new ReadableStream({ type: "bytes", autoAllocateChunkSize: 0 }));
}, "a byte stream's controller and its validation");

promise_test(async () => {
  const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(bytes(1, 2)); c.enqueue(bytes(3)); c.close(); } });
  const chunks = await readAll(rs);
  assert_equals(chunks.length, 2);
  assert_true(chunks[0] instanceof Uint8Array);
  assert_array_equals(chunks[0], [1, 2]);
  assert_array_equals(chunks[1], [3]);
}, "a default reader reads a byte stream's chunks as Uint8Arrays");

test(() => {
  let ctrl;
  new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
  const view = bytes(1, 2, 3);
  ctrl.enqueue(view);
  assert_equals(view.buffer.byteLength, 0, "the enqueued buffer is transferred (detached)");
  assert_throws_js(TypeError, () => ctrl.enqueue(view), "a detached view cannot be enqueued");
  assert_throws_js(TypeError, () => ctrl.enqueue(new Uint8Array(0)));
  assert_throws_js(TypeError, () => ctrl.enqueue("nope"));
}, "enqueue transfers the chunk's buffer");

promise_test(async () => {
  const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(bytes(1, 2, 3, 4, 5)); c.close(); } });
  const r = rs.getReader({ mode: "byob" });
  assert_equals(Object.prototype.toString.call(r), "[object ReadableStreamBYOBReader]");
  const buf = new ArrayBuffer(3);
  const first = await r.read(new Uint8Array(buf));
  assert_false(first.done);
  assert_array_equals(first.value, [1, 2, 3]);
  assert_equals(buf.byteLength, 0, "the view's buffer was transferred");
  const second = await r.read(new Uint8Array(3));
  assert_array_equals(second.value, [4, 5]);
  const third = await r.read(new Uint8Array(3));
  assert_true(third.done);
  assert_equals(third.value.byteLength, 0);
  assert_true(third.value instanceof Uint8Array);
}, "a BYOB reader fills the given views from the queue");

promise_test(async () => {
  let req;
  const rs = new ReadableStream({
    type: "bytes",
    pull(c) {
      req = c.byobRequest;
      const v = req.view;
      v[0] = 7; v[1] = 8;
      req.respond(2);
    },
  });
  const r = rs.getReader({ mode: "byob" });
  const { value } = await r.read(new Uint16Array(2));
  assert_true(value instanceof Uint16Array);
  assert_equals(value.length, 1);
  assert_equals(new Uint8Array(value.buffer)[0], 7);
  assert_equals(req.view, null, "the request is invalidated after respond");
  assert_throws_js(TypeError, () => req.respond(1));
}, "byobRequest.respond fills the reader's view");

promise_test(async () => {
  const rs = new ReadableStream({
    type: "bytes",
    pull(c) {
      const v = c.byobRequest.view;
      const out = new Uint8Array(v.buffer, v.byteOffset, 2);
      out.set([9, 9]);
      c.byobRequest.respondWithNewView(out);
    },
  });
  const r = rs.getReader({ mode: "byob" });
  const { value } = await r.read(new Uint8Array(4));
  assert_array_equals(value, [9, 9]);
}, "byobRequest.respondWithNewView fills the reader's view");

promise_test(async () => {
  let pulls = 0;
  const rs = new ReadableStream({
    type: "bytes",
    pull(c) { pulls++; const v = c.byobRequest.view; v[0] = pulls; c.byobRequest.respond(1); },
  });
  const r = rs.getReader({ mode: "byob" });
  const { value } = await r.read(new Uint8Array(3), { min: 3 });
  assert_array_equals(value, [1, 2, 3]);
  assert_equals(pulls, 3);
}, "read(view, {min}) waits for min elements");

promise_test(async () => {
  const rs = new ReadableStream({ type: "bytes" });
  const r = rs.getReader({ mode: "byob" });
  await promise_rejects_js(TypeError, r.read(new Uint8Array(0)));
  await promise_rejects_js(TypeError, r.read(new Uint8Array(2), { min: 0 }));
  await promise_rejects_js(RangeError, r.read(new Uint8Array(2), { min: 3 }));
  await promise_rejects_js(TypeError, r.read("x"));
}, "BYOB read validates its view and min");

promise_test(async () => {
  const rs = new ReadableStream({ type: "bytes", autoAllocateChunkSize: 16, pull(c) {
    const req = c.byobRequest;
    assert_equals(req.view.byteLength, 16);
    req.view.set([4, 2]);
    req.respond(2);
  } });
  const { value } = await rs.getReader().read();
  assert_array_equals(value, [4, 2]);
}, "autoAllocateChunkSize gives default reads a byobRequest");

promise_test(async () => {
  let ctrl;
  const rs = new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
  const r = rs.getReader({ mode: "byob" });
  const p = r.read(new Uint8Array(4));
  ctrl.enqueue(bytes(5, 6));
  const { value } = await p;
  assert_array_equals(value, [5, 6]);
}, "enqueue fulfils a pending BYOB read");

promise_test(async () => {
  const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(bytes(1, 2, 3)); c.close(); } });
  const [a, b] = rs.tee();
  const ca = await readAll(a), cb = await readAll(b);
  assert_array_equals(ca[0], [1, 2, 3]);
  assert_array_equals(cb[0], [1, 2, 3]);
  assert_not_equals(ca[0].buffer, cb[0].buffer, "the second branch gets a copy");
}, "tee of a byte stream gives byte streams with copies");

promise_test(async () => {
  const rs = new ReadableStream({ type: "bytes", start(c) { c.enqueue(bytes(1, 2, 3, 4)); c.close(); } });
  const [a] = rs.tee();
  const r = a.getReader({ mode: "byob" });
  const { value } = await r.read(new Uint8Array(2));
  assert_array_equals(value, [1, 2]);
}, "a byte stream's tee branch supports BYOB readers");

promise_test(async () => {
  // React's renderToReadableStream pattern: bytes, pull-driven, highWaterMark 0,
  // chunks are views over a reused 4096-byte buffer, enqueued before close.
  let view = new Uint8Array(4096), written = 0;
  const enc = new TextEncoder();
  let flushed = false;
  const rs = new ReadableStream({
    type: "bytes",
    pull(controller) {
      if (flushed) return;
      flushed = true;
      for (const s of ["<!DOCTYPE html>", "<html>", "<body>hi</body>", "</html>"]) {
        const chunk = enc.encode(s);
        view.set(chunk, written); written += chunk.byteLength;
      }
      controller.enqueue(new Uint8Array(view.buffer, 0, written));
      view = new Uint8Array(4096); written = 0;
      controller.close();
    },
    cancel() {},
  }, { highWaterMark: 0 });
  const dec = new TextDecoder();
  let text = "";
  for (const c of await readAll(rs)) text += dec.decode(c, { stream: true });
  assert_equals(text, "<!DOCTYPE html><html><body>hi</body></html>");
}, "React's byte-stream pattern reads back whole");

promise_test(async () => {
  let ctrl;
  const rs = new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
  const r = rs.getReader({ mode: "byob" });
  const p = r.read(new Uint8Array(4));
  ctrl.close();
  ctrl.byobRequest.respond(0);
  const res = await p;
  assert_true(res.done);
  assert_equals(res.value.byteLength, 0);
}, "respond(0) after close settles a pending BYOB read as done");

promise_test(async () => {
  let ctrl;
  const rs = new ReadableStream({ type: "bytes", start(c) { ctrl = c; } });
  const r = rs.getReader();
  const p = r.read();
  const err = new Error("bytes failed");
  ctrl.error(err);
  await promise_rejects_exactly(err, p);
  await promise_rejects_exactly(err, r.closed);
}, "error rejects pending reads of a byte stream");
