promise_test(async () => {
  const written = [];
  const rs = new ReadableStream({ start(c) { c.enqueue(1); c.enqueue(2); c.close(); } });
  let closed = false;
  const ws = new WritableStream({ write(c) { written.push(c); }, close() { closed = true; } });
  await rs.pipeTo(ws);
  assert_array_equals(written, [1, 2]);
  assert_true(closed);
  assert_false(rs.locked);
  assert_false(ws.locked);
}, "pipeTo copies every chunk and closes the destination");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue(1); c.close(); } });
  let closed = false;
  const ws = new WritableStream({ close() { closed = true; } });
  await rs.pipeTo(ws, { preventClose: true });
  assert_false(closed);
  await ws.getWriter().close();
}, "preventClose leaves the destination open");

promise_test(async () => {
  const err = new Error("source failed");
  const rs = new ReadableStream({ start(c) { c.error(err); } });
  let aborted;
  const ws = new WritableStream({ abort(r) { aborted = r; } });
  await promise_rejects_exactly(err, rs.pipeTo(ws));
  assert_equals(aborted, err);
}, "a source error aborts the destination");

promise_test(async () => {
  const err = new Error("source failed");
  const rs = new ReadableStream({ start(c) { c.error(err); } });
  let aborted = false;
  const ws = new WritableStream({ abort() { aborted = true; } });
  await promise_rejects_exactly(err, rs.pipeTo(ws, { preventAbort: true }));
  assert_false(aborted);
}, "preventAbort keeps the destination");

promise_test(async () => {
  const err = new Error("sink failed");
  let cancelled;
  const rs = new ReadableStream({ pull(c) { c.enqueue("x"); }, cancel(r) { cancelled = r; } });
  const ws = new WritableStream({ write() { throw err; } });
  await promise_rejects_exactly(err, rs.pipeTo(ws));
  assert_equals(cancelled, err);
}, "a destination error cancels the source");

promise_test(async () => {
  const err = new Error("sink failed");
  let cancelled = false;
  const rs = new ReadableStream({ pull(c) { c.enqueue("x"); }, cancel() { cancelled = true; } });
  const ws = new WritableStream({ write() { throw err; } });
  await promise_rejects_exactly(err, rs.pipeTo(ws, { preventCancel: true }));
  assert_false(cancelled);
  assert_false(rs.locked);
}, "preventCancel keeps the source");

promise_test(async () => {
  const rs = new ReadableStream();
  const ws = new WritableStream();
  rs.getReader();
  await promise_rejects_js(TypeError, rs.pipeTo(new WritableStream()));
  ws.getWriter();
  await promise_rejects_js(TypeError, new ReadableStream().pipeTo(ws));
  await promise_rejects_js(TypeError, new ReadableStream().pipeTo({}));
}, "pipeTo rejects locked streams and non-streams");

promise_test(async () => {
  const rs = new ReadableStream({ start(c) { c.enqueue("a"); c.enqueue("b"); c.close(); } });
  const out = rs.pipeThrough(new TransformStream({ transform(ch, c) { c.enqueue(ch + ch); } }));
  assert_array_equals(await readAll(out), ["aa", "bb"]);
}, "pipeThrough returns the transform's readable side");

test(() => {
  const rs = new ReadableStream();
  assert_throws_js(TypeError, () => rs.pipeThrough({}));
  assert_throws_js(TypeError, () => rs.pipeThrough({ readable: new ReadableStream() }));
  const ts = new TransformStream();
  ts.writable.getWriter();
  assert_throws_js(TypeError, () => rs.pipeThrough(ts));
  rs.getReader();
  assert_throws_js(TypeError, () => rs.pipeThrough(new TransformStream()));
}, "pipeThrough validates its arguments and locks");

promise_test(async () => {
  const ac = new AbortController();
  let cancelled, aborted;
  const rs = new ReadableStream({ pull(c) { c.enqueue("x"); return delay(1); }, cancel(r) { cancelled = r; } });
  const ws = new WritableStream({ abort(r) { aborted = r; } });
  const p = rs.pipeTo(ws, { signal: ac.signal });
  await delay(5);
  ac.abort();
  const e = await promise_rejects_js(DOMException, p);
  assert_equals(e.name, "AbortError");
  assert_equals(cancelled, e);
  assert_equals(aborted, e);
}, "aborting the signal stops the pipe");

promise_test(async () => {
  const ac = new AbortController();
  ac.abort("early");
  const rs = new ReadableStream();
  const ws = new WritableStream();
  await promise_rejects_exactly("early", rs.pipeTo(ws, { signal: ac.signal, preventAbort: true, preventCancel: true }));
  assert_false(rs.locked);
}, "an already aborted signal rejects at once");

promise_test(async () => {
  await promise_rejects_js(TypeError, new ReadableStream().pipeTo(new WritableStream(), { signal: {} }));
}, "signal must be an AbortSignal");

promise_test(async () => {
  let n = 0;
  const rs = new ReadableStream({ pull(c) { n++; c.enqueue(n); if (n === 100) c.close(); } });
  const got = [];
  await rs.pipeTo(new WritableStream({ write(c) { got.push(c); } }, { highWaterMark: 4 }));
  assert_equals(got.length, 100);
  assert_equals(got[99], 100);
}, "a long pipe delivers everything in order");
