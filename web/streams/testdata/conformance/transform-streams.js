promise_test(async () => {
  const ts = new TransformStream();
  assert_true(ts.readable instanceof ReadableStream);
  assert_true(ts.writable instanceof WritableStream);
  const w = ts.writable.getWriter();
  w.write("a"); w.write("b"); w.close();
  assert_array_equals(await readAll(ts.readable), ["a", "b"]);
}, "an identity TransformStream passes chunks through");

promise_test(async () => {
  const ts = new TransformStream({
    transform(chunk, c) { c.enqueue(chunk * 2); c.enqueue(chunk * 3); },
    flush(c) { c.enqueue("end"); },
  });
  const w = ts.writable.getWriter();
  w.write(1); w.write(2); w.close();
  assert_array_equals(await readAll(ts.readable), [2, 3, 4, 6, "end"]);
}, "transform may enqueue several chunks, flush enqueues last");

promise_test(async () => {
  const ts = new TransformStream({ async transform(chunk, c) { await delay(1); c.enqueue(chunk.toUpperCase()); } });
  const out = readAll(ts.readable);
  const w = ts.writable.getWriter();
  await w.write("x"); await w.write("y"); await w.close();
  assert_array_equals(await out, ["X", "Y"]);
}, "an async transform is waited for");

promise_test(async () => {
  const err = new Error("transform failed");
  const ts = new TransformStream({ transform() { throw err; } });
  const w = ts.writable.getWriter();
  const r = ts.readable.getReader();
  const read = r.read();
  await promise_rejects_exactly(err, w.write("a"));
  await promise_rejects_exactly(err, read);
  await promise_rejects_exactly(err, w.closed);
}, "a throwing transform errors both sides");

promise_test(async () => {
  let ctrl;
  const ts = new TransformStream({ start(c) { ctrl = c; } });
  assert_equals(Object.prototype.toString.call(ctrl), "[object TransformStreamDefaultController]");
  assert_equals(ctrl.desiredSize, 0, "readable highWaterMark defaults to 0");
  ctrl.terminate();
  const r = ts.readable.getReader();
  assert_true((await r.read()).done);
  await promise_rejects_js(TypeError, ts.writable.getWriter().write("x"));
}, "terminate closes the readable side and errors the writable side");

promise_test(async () => {
  const log = [];
  const ts = new TransformStream({ cancel(reason) { log.push("cancel " + reason); } });
  await ts.readable.cancel("r");
  assert_array_equals(log, ["cancel r"]);
  await promise_rejects_exactly("r", ts.writable.getWriter().closed);
}, "cancelling the readable side calls the transformer's cancel");

promise_test(async () => {
  const log = [];
  const ts = new TransformStream({ cancel(reason) { log.push("cancel " + reason); } });
  await ts.writable.abort("a");
  assert_array_equals(log, ["cancel a"]);
  await promise_rejects_exactly("a", ts.readable.getReader().closed);
}, "aborting the writable side calls the transformer's cancel");

promise_test(async () => {
  const ts = new TransformStream({}, undefined, { highWaterMark: 2 });
  const w = ts.writable.getWriter();
  await w.write("a");
  await w.write("b");
  let third = false;
  w.write("c").then(() => { third = true; });
  await flushAsyncEvents();
  assert_false(third, "the third write waits for the reader");
  await ts.readable.getReader().read();
  await flushAsyncEvents();
  assert_true(third);
}, "backpressure from the readable side holds writes");

test(() => {
  assert_throws_js(RangeError, () => new TransformStream({ readableType: "bytes" }));
  assert_throws_js(RangeError, () => new TransformStream({ writableType: "bytes" }));
  assert_throws_js(TypeError, () => new TransformStream({ transform: 1 }));
  assert_throws_js(TypeError, () => new TransformStreamDefaultController());
}, "TransformStream constructor validates its arguments");

promise_test(async () => {
  const ts = new TransformStream({ flush() { throw new TypeError("flush failed"); } });
  const w = ts.writable.getWriter();
  await promise_rejects_js(TypeError, w.close());
  await promise_rejects_js(TypeError, ts.readable.getReader().closed);
}, "a throwing flush errors the readable side");
