test(() => {
  const ws = new WritableStream();
  assert_false(ws.locked);
  assert_equals(Object.prototype.toString.call(ws), "[object WritableStream]");
  assert_throws_js(RangeError, () => new WritableStream({ type: "bytes" }));
  assert_throws_js(TypeError, () => new WritableStream({ write: 1 }));
  assert_throws_js(TypeError, () => new WritableStream(null));
  assert_throws_js(RangeError, () => new WritableStream({}, { highWaterMark: -1 }));
}, "WritableStream constructor validates its arguments");

promise_test(async () => {
  const log = [];
  const ws = new WritableStream({
    start(c) { log.push("start"); },
    write(chunk, c) { log.push("write " + chunk); return delay(1); },
    close() { log.push("close"); },
  });
  const w = ws.getWriter();
  assert_true(ws.locked);
  const p1 = w.write("a"), p2 = w.write("b");
  await w.close();
  await p1; await p2;
  await w.closed;
  assert_array_equals(log, ["start", "write a", "write b", "close"]);
}, "writes go to the sink in order, one at a time, then close");

promise_test(async () => {
  const ws = new WritableStream({}, { highWaterMark: 2 });
  const w = ws.getWriter();
  assert_equals(w.desiredSize, 2);
  w.write("a");
  assert_equals(w.desiredSize, 1);
  await w.ready;
  await flushAsyncEvents();
  assert_equals(w.desiredSize, 2, "desiredSize recovers once the write completes");
}, "desiredSize and ready follow the queue");

promise_test(async () => {
  let resolveWrite;
  const ws = new WritableStream({ write() { return new Promise((r) => { resolveWrite = r; }); } }, { highWaterMark: 1 });
  const w = ws.getWriter();
  await w.ready;
  w.write("a");
  w.write("b");
  let ready = false;
  w.ready.then(() => { ready = true; });
  await flushAsyncEvents();
  assert_false(ready, "ready is pending under backpressure");
  resolveWrite();
  await flushAsyncEvents();
  resolveWrite();
  await flushAsyncEvents();
  assert_true(ready);
}, "ready waits while the queue is over the high-water mark");

promise_test(async () => {
  const err = new Error("sink failed");
  const ws = new WritableStream({ write() { throw err; } });
  const w = ws.getWriter();
  await promise_rejects_exactly(err, w.write("a"));
  await promise_rejects_exactly(err, w.closed);
  await promise_rejects_exactly(err, w.write("b"));
  await promise_rejects_exactly(err, w.ready);
}, "a failing write errors the stream");

promise_test(async () => {
  const log = [];
  const ws = new WritableStream({ write(c) { log.push(c); }, abort(r) { log.push("abort " + r); } });
  const w = ws.getWriter();
  await w.write("x");
  await w.abort("stop");
  assert_array_equals(log, ["x", "abort stop"]);
  await promise_rejects_exactly("stop", w.closed);
  await promise_rejects_exactly("stop", w.write("y"));
}, "abort calls the sink's abort and errors the stream with the reason");

promise_test(async () => {
  let signal;
  const ws = new WritableStream({ start(c) { signal = c.signal; } });
  assert_false(signal.aborted);
  let fired = false;
  signal.addEventListener("abort", () => { fired = true; });
  await ws.abort("why");
  assert_true(signal.aborted);
  assert_equals(signal.reason, "why");
  assert_true(fired);
}, "the controller's signal aborts with the abort reason");

promise_test(async () => {
  let ctrl;
  const ws = new WritableStream({ start(c) { ctrl = c; } });
  const w = ws.getWriter();
  const err = new Error("ctl");
  ctrl.error(err);
  await promise_rejects_exactly(err, w.closed);
  ctrl.error(new Error("ignored"));
}, "controller.error errors the stream once");

promise_test(async () => {
  const ws = new WritableStream();
  const w = ws.getWriter();
  w.releaseLock();
  assert_false(ws.locked);
  await promise_rejects_js(TypeError, w.closed);
  await promise_rejects_js(TypeError, w.write("x"));
  assert_throws_js(TypeError, () => w.desiredSize);
  const w2 = ws.getWriter();
  assert_throws_js(TypeError, () => ws.getWriter());
  assert_throws_js(TypeError, () => new WritableStreamDefaultWriter(ws));
  await promise_rejects_js(TypeError, ws.close(), "close on a locked stream");
  await promise_rejects_js(TypeError, ws.abort(), "abort on a locked stream");
  w2.releaseLock();
}, "writer locking and release");

promise_test(async () => {
  const ws = new WritableStream();
  const w = ws.getWriter();
  const c = w.close();
  await promise_rejects_js(TypeError, w.close());
  await promise_rejects_js(TypeError, w.write("late"));
  await c;
}, "spec: write and close after close reject");

promise_test(async () => {
  const err = new Error("start failed");
  const ws = new WritableStream({ start() { return Promise.reject(err); } });
  const w = ws.getWriter();
  await promise_rejects_exactly(err, w.closed);
}, "a rejected start errors the stream");

promise_test(async () => {
  const sizes = [];
  const ws = new WritableStream({}, { highWaterMark: 10, size(c) { sizes.push(c); return c.length; } });
  const w = ws.getWriter();
  w.write("abcd");
  assert_equals(w.desiredSize, 6);
  await promise_rejects_js(TypeError, WritableStreamDefaultWriter.prototype.write.call({}, "x"));
}, "writes count with the size strategy");
