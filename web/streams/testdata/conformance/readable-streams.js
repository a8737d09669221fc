test(() => {
  const rs = new ReadableStream();
  assert_equals(typeof rs.getReader, "function");
  assert_equals(rs.locked, false);
  assert_equals(Object.prototype.toString.call(rs), "[object ReadableStream]");
  assert_equals(ReadableStream.name, "ReadableStream");
  assert_equals(ReadableStream.length, 0);
}, "ReadableStream can be constructed with no arguments");

test(() => {
  assert_throws_js(TypeError, () => new ReadableStream(null));
  assert_throws_js(TypeError, () => new ReadableStream(1));
  assert_throws_js(TypeError, () => new ReadableStream({ start: 1 }));
  assert_throws_js(TypeError, () => new ReadableStream({ type: "nope" }));
  assert_throws_js(RangeError, () => new ReadableStream({}, { highWaterMark: -1 }));
  assert_throws_js(RangeError, () => new ReadableStream({}, { highWaterMark: NaN }));
  assert_throws_js(TypeError, () => new ReadableStream({}, { size: 1 }));
}, "ReadableStream constructor validates its arguments");

test(() => {
  const order = [];
  new ReadableStream({
    get start() { order.push("start"); return undefined; },
    get pull() { order.push("pull"); return undefined; },
    get cancel() { order.push("cancel"); return undefined; },
    get type() { order.push("type"); return undefined; },
    get autoAllocateChunkSize() { order.push("autoAllocateChunkSize"); return undefined; },
  }, {
    get size() { order.push("size"); return undefined; },
    get highWaterMark() { order.push("highWaterMark"); return 1; },
  });
  assert_array_equals(order, ["highWaterMark", "size", "autoAllocateChunkSize", "cancel", "pull", "start", "type"]);
}, "spec: ReadableStream constructor reads strategy then source members in order");

test(() => {
  let ctrl, thisValue;
  const source = { start(c) { ctrl = c; thisValue = this; } };
  new ReadableStream(source);
  assert_equals(thisValue, source);
  assert_equals(Object.prototype.toString.call(ctrl), "[object ReadableStreamDefaultController]");
  assert_equals(ctrl.desiredSize, 1);
  assert_throws_js(TypeError, () => new ReadableStreamDefaultController());
}, "start is called with the source as this and a controller");

test(() => {
  const err = new Error("boom");
  assert_throws_exactly(err, () => new ReadableStream({ start() { throw err; } }));
}, "a throwing start rethrows from the constructor");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } });
  assert_array_equals(await readAll(rs), ["a", "b"]);
}, "chunks enqueued in start are read in order, then done");

promise_test(async () => {
  let pulls = 0;
  const rs = new ReadableStream({ pull(c) { pulls++; c.enqueue(pulls); if (pulls === 3) c.close(); } }, { highWaterMark: 0 });
  await flushAsyncEvents();
  assert_equals(pulls, 0, "no pull before a read with highWaterMark 0");
  assert_array_equals(await readAll(rs), [1, 2, 3]);
}, "pull is called on demand with highWaterMark 0");

promise_test(async () => {
  let pulls = 0;
  new ReadableStream({ pull(c) { pulls++; c.enqueue(pulls); } }, { highWaterMark: 4 });
  await flushAsyncEvents();
  assert_equals(pulls, 4);
}, "pull fills the queue up to the high-water mark");

promise_test(async () => {
  let pulls = 0, resolve;
  const rs = new ReadableStream({ pull() { pulls++; return new Promise((r) => { resolve = r; }); } });
  await flushAsyncEvents();
  assert_equals(pulls, 1);
  const r = rs.getReader(); r.read(); r.read();
  await flushAsyncEvents();
  assert_equals(pulls, 1, "pull is not called again while its promise is pending");
  resolve();
  await flushAsyncEvents();
  assert_equals(pulls, 2);
}, "pull is not reentered while its promise is pending");

promise_test(async () => {
  const err = new Error("pull failed");
  const rs = new ReadableStream({ pull() { throw err; } });
  await promise_rejects_exactly(err, rs.getReader().read());
}, "a throwing pull errors the stream");

promise_test(async () => {
  const sizes = [];
  let ctrl;
  new ReadableStream({ start(c) { ctrl = c; } }, { highWaterMark: 10, size(chunk) { sizes.push(chunk); return chunk.length; } });
  ctrl.enqueue("abc");
  assert_equals(ctrl.desiredSize, 7);
  ctrl.enqueue("defg");
  assert_equals(ctrl.desiredSize, 3);
  assert_array_equals(sizes, ["abc", "defg"]);
}, "desiredSize follows the size strategy");

test(() => {
  let ctrl;
  const rs = new ReadableStream({ start(c) { ctrl = c; } }, { size() { return -1; } });
  assert_throws_js(RangeError, () => ctrl.enqueue("x"));
  assert_equals(ctrl.desiredSize, null, "the stream is errored");
}, "a negative chunk size errors the stream with a RangeError");

test(() => {
  let ctrl;
  new ReadableStream({ start(c) { ctrl = c; } });
  ctrl.close();
  assert_throws_js(TypeError, () => ctrl.enqueue("x"));
  assert_throws_js(TypeError, () => ctrl.close());
  assert_equals(ctrl.desiredSize, 0);
}, "enqueue and close after close throw");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue(1); } });
  const r = rs.getReader();
  assert_true(rs.locked);
  assert_throws_js(TypeError, () => rs.getReader());
  assert_throws_js(TypeError, () => new ReadableStreamDefaultReader(rs));
  r.releaseLock();
  assert_false(rs.locked);
  await promise_rejects_js(TypeError, r.closed);
  await promise_rejects_js(TypeError, r.read());
  const r2 = rs.getReader();
  assert_equals((await r2.read()).value, 1);
}, "a reader locks the stream; releaseLock unlocks and rejects closed");

promise_test(async () => {
  let ctrl;
  const rs = new ReadableStream({ start(c) { ctrl = c; } });
  const r = rs.getReader();
  const p = r.read();
  r.releaseLock();
  await promise_rejects_js(TypeError, p);
}, "releaseLock rejects pending reads");

promise_test(async () => {
  const log = [];
  const rs = new ReadableStream({ cancel(reason) { log.push(reason); return delay(1).then(() => "ignored"); } });
  const res = await rs.cancel("why");
  assert_equals(res, undefined);
  assert_array_equals(log, ["why"]);
  const r = rs.getReader();
  const read = await r.read();
  assert_true(read.done);
  await r.closed;
}, "cancel calls the source's cancel and closes the stream");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue(1); } });
  rs.getReader();
  await promise_rejects_js(TypeError, rs.cancel());
}, "cancel on a locked stream rejects");

promise_test(async () => {
  const err = new Error("e");
  const rs = new ReadableStream({ start(c) { c.error(err); } });
  const r = rs.getReader();
  await promise_rejects_exactly(err, r.closed);
  await promise_rejects_exactly(err, r.read());
  await promise_rejects_exactly(err, r.cancel());
}, "an errored stream rejects closed, read and cancel with its error");

promise_test(async () => {
  let ctrl;
  const rs = new ReadableStream({ start(c) { ctrl = c; } });
  const r = rs.getReader();
  const p1 = r.read(), p2 = r.read();
  ctrl.enqueue("x");
  ctrl.close();
  assert_equals((await p1).value, "x");
  assert_true((await p2).done);
  await r.closed;
}, "pending reads are fulfilled by enqueue and close");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.close(); } });
  const r = rs.getReader();
  const v = await r.read();
  assert_equals(Object.getPrototypeOf(v), Object.prototype);
  assert_array_equals(Object.keys(v), ["value", "done"]);
}, "read results are plain objects with value and done");

test(() => {
  const rs = new ReadableStream();
  const proto = Object.getPrototypeOf(rs.getReader());
  assert_equals(proto, ReadableStreamDefaultReader.prototype);
  for (const m of ["read", "releaseLock", "cancel"]) assert_equals(typeof proto[m], "function", m);
  assert_throws_js(TypeError, () => ReadableStream.prototype.getReader.call({}));
}, "getReader returns a ReadableStreamDefaultReader; methods check their receiver");

promise_test(async () => {
  await promise_rejects_js(TypeError, ReadableStream.prototype.cancel.call({}));
  await promise_rejects_js(TypeError, ReadableStreamDefaultReader.prototype.read.call({}));
}, "promise-returning methods reject on a wrong receiver");

test(() => {
  const rs = new ReadableStream();
  assert_throws_js(TypeError, () => rs.getReader({ mode: "bogus" }));
  assert_throws_js(TypeError, () => rs.getReader({ mode: "byob" }), "byob on a default stream");
  rs.getReader({ mode: undefined });
}, "getReader validates mode");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } });
  const [b1, b2] = rs.tee();
  assert_true(rs.locked);
  assert_array_equals(await readAll(b1), ["a", "b"]);
  assert_array_equals(await readAll(b2), ["a", "b"]);
}, "tee gives both branches every chunk");

promise_test(async () => {
  let reason;
  const rs = new ReadableStream({ cancel(r) { reason = r; } });
  const [b1, b2] = rs.tee();
  const p1 = b1.cancel("one");
  await flushAsyncEvents();
  assert_equals(reason, undefined, "source not cancelled until both branches are");
  await Promise.all([p1, b2.cancel("two")]);
  assert_array_equals(reason, ["one", "two"]);
}, "tee cancels the source with both reasons once both branches cancel");

promise_test(async () => {
  const err = new Error("x");
  let ctrl;
  const rs = new ReadableStream({ start(c) { ctrl = c; } });
  const [b1, b2] = rs.tee();
  ctrl.error(err);
  await promise_rejects_exactly(err, b1.getReader().closed);
  await promise_rejects_exactly(err, b2.getReader().closed);
}, "tee errors both branches");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.enqueue(3); c.close(); } });
  const seen = [];
  for await (const v of rs) seen.push(v);
  assert_array_equals(seen, [1, 2, 3]);
  assert_false(rs.locked, "iteration to the end releases the lock");
}, "async iteration reads every chunk");

promise_test(async () => {
  let cancelled;
  const rs = new ReadableStream({ pull(c) { c.enqueue(1); }, cancel(r) { cancelled = r; } });
  for await (const v of rs) { break; }
  assert_equals(cancelled, undefined);
  assert_false(rs.locked);
  const r = rs.getReader();
  assert_true((await r.read()).done, "breaking out cancelled the stream");
}, "breaking out of for-await cancels the stream");

promise_test(async () => {
  let cancelled = false;
  const rs = new ReadableStream({ pull(c) { c.enqueue(1); }, cancel() { cancelled = true; } });
  const it = rs.values({ preventCancel: true });
  await it.next();
  const ret = await it.return("v");
  assert_equals(ret.value, "v");
  assert_true(ret.done);
  assert_false(cancelled);
  assert_false(rs.locked);
}, "values({preventCancel: true}) releases without cancelling");

promise_test(async () => {
  const rs = new ReadableStream();
  const it = rs[asyncIteratorSymbol]();
  assert_equals(typeof it.next, "function");
  assert_equals(typeof it.return, "function");
  const aip = Object.getPrototypeOf(Object.getPrototypeOf(it));
  assert_equals(aip[asyncIteratorSymbol].call(it), it);
  assert_equals(ReadableStream.prototype.values, ReadableStream.prototype[asyncIteratorSymbol]);
  assert_throws_js(TypeError, () => rs.values(), "the stream is locked by the iterator");
}, "the async iterator's shape");

promise_test(async () => {
  const err = new Error("it");
  const rs = new ReadableStream({ start(c) { c.error(err); } });
  const it = rs.values();
  await promise_rejects_exactly(err, it.next());
  const after = await it.next();
  assert_true(after.done);
}, "the async iterator rejects with the stream's error, then is done");

promise_test(async () => {
  let ctrl;
  const rs = new ReadableStream({ start(c) { ctrl = c; } });
  const it = rs.values();
  const p1 = it.next(), p2 = it.next();
  ctrl.enqueue("a"); ctrl.enqueue("b");
  assert_equals((await p1).value, "a");
  assert_equals((await p2).value, "b");
}, "the async iterator queues next() calls");

promise_test(async () => {
  assert_array_equals(await readAll(ReadableStream.from([1, 2, 3])), [1, 2, 3]);
  function* gen() { yield "x"; yield "y"; }
  assert_array_equals(await readAll(ReadableStream.from(gen())), ["x", "y"]);
  const asyncIterable = {
    [asyncIteratorSymbol]() {
      let i = 0;
      return { next() { i++; return Promise.resolve(i > 2 ? { done: true } : { value: i * 10, done: false }); } };
    },
  };
  assert_array_equals(await readAll(ReadableStream.from(asyncIterable)), [10, 20]);
  assert_array_equals(await readAll(ReadableStream.from([Promise.resolve(5)])), [5], "sync iterable values are awaited");
}, "ReadableStream.from reads sync and async iterables");

promise_test(async () => {
  assert_throws_js(TypeError, () => ReadableStream.from(1));
  assert_throws_js(TypeError, () => ReadableStream.from({}));
  let returned;
  const it = { [Symbol.iterator]() { return { next() { return { value: 1, done: false }; }, return(v) { returned = v; return {}; } }; } };
  const rs = ReadableStream.from(it);
  const r = rs.getReader();
  await r.read();
  await r.cancel("stop");
  assert_equals(returned, "stop");
}, "ReadableStream.from validates and forwards cancel to return()");

promise_test(async () => {
  const err = new Error("bad next");
  const rs = ReadableStream.from({ [Symbol.iterator]() { return { next() { throw err; } }; } });
  await promise_rejects_exactly(err, rs.getReader().read());
}, "ReadableStream.from errors the stream when next throws");
