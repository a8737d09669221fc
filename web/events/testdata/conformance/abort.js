test(() => {
  const c = new AbortController();
  const s = c.signal;
  assert_true(s instanceof AbortSignal);
  assert_true(s instanceof EventTarget);
  assert_equals(c.signal, s, "same object each time");
  assert_false(s.aborted);
  assert_equals(s.reason, undefined);
  assert_equals(s.onabort, null);
}, "AbortController makes a signal that is not aborted");

test(() => {
  const c = new AbortController();
  const log = [];
  c.signal.onabort = (e) => log.push("onabort:" + e.type + ":" + e.isTrusted + ":" + (e.target === c.signal));
  c.signal.addEventListener("abort", () => log.push("listener"));
  c.abort();
  c.abort();
  assert_array_equals(log, ["onabort:abort:true:true", "listener"]);
  assert_true(c.signal.aborted);
}, "abort fires one trusted abort event");

test(() => {
  const c = new AbortController();
  c.abort();
  const r = c.signal.reason;
  assert_true(r instanceof DOMException);
  assert_equals(r.name, "AbortError");
  assert_equals(r.code, 20);
  assert_equals(r.message, "This operation was aborted");
}, "the default reason is an AbortError DOMException");

test(() => {
  const c = new AbortController();
  const reason = { why: 1 };
  c.abort(reason);
  assert_equals(c.signal.reason, reason);
  assert_throws_exactly(reason, () => c.signal.throwIfAborted());
  new AbortController().signal.throwIfAborted();
}, "abort(reason) and throwIfAborted");

test(() => {
  const s = AbortSignal.abort();
  assert_true(s.aborted);
  assert_equals(s.reason.name, "AbortError");
  assert_equals(AbortSignal.abort(0).reason, 0);
  assert_equals(AbortSignal.abort(null).reason, null);
}, "AbortSignal.abort");

test(() => {
  assert_throws_js(TypeError, () => new AbortSignal());
}, "AbortSignal is not constructible");

promise_test(async () => {
  const s = AbortSignal.timeout(10);
  assert_false(s.aborted);
  const e = await new Promise((resolve) => s.addEventListener("abort", resolve));
  assert_true(s.aborted);
  assert_true(s.reason instanceof DOMException);
  assert_equals(s.reason.name, "TimeoutError");
  assert_equals(s.reason.code, 23);
  assert_true(e.isTrusted);
}, "AbortSignal.timeout aborts with a TimeoutError");

promise_test(async () => {
  const s = AbortSignal.timeout(0);
  assert_false(s.aborted, "not at once");
  await delay(5);
  assert_true(s.aborted);
}, "AbortSignal.timeout(0) aborts in a later task");

test(() => {
  assert_throws_js(TypeError, () => AbortSignal.timeout(-1));
  assert_throws_js(TypeError, () => AbortSignal.timeout(NaN));
}, "spec: AbortSignal.timeout takes an [EnforceRange] unsigned long long");

test(() => {
  const a = new AbortController(), b = new AbortController();
  const s = AbortSignal.any([a.signal, b.signal]);
  assert_false(s.aborted);
  let n = 0;
  s.onabort = () => n++;
  b.abort("B");
  assert_true(s.aborted);
  assert_equals(s.reason, "B");
  a.abort("A");
  assert_equals(s.reason, "B");
  assert_equals(n, 1);
}, "AbortSignal.any follows the first source that aborts");

test(() => {
  const s = AbortSignal.any([new AbortController().signal, AbortSignal.abort("x"), AbortSignal.abort("y")]);
  assert_true(s.aborted);
  assert_equals(s.reason, "x");
  assert_false(AbortSignal.any([]).aborted);
}, "AbortSignal.any of an aborted signal is aborted at once");

test(() => {
  const a = new AbortController();
  const s1 = AbortSignal.any([a.signal]);
  const s2 = AbortSignal.any([s1]);
  const log = [];
  a.signal.onabort = () => log.push("a");
  s1.onabort = () => log.push("s1");
  s2.onabort = () => log.push("s2");
  a.abort();
  assert_array_equals(log, ["a", "s1", "s2"]);
  assert_equals(s2.reason, a.signal.reason);
}, "AbortSignal.any of a dependent signal follows its sources");

test(() => {
  const a = new AbortController();
  const s = AbortSignal.any([a.signal]);
  let seen;
  s.onabort = () => { seen = a.signal.aborted && s.aborted; };
  a.signal.addEventListener("abort", () => { assert_true(s.aborted, "dependents are aborted before events fire"); });
  a.abort();
  assert_true(seen);
}, "dependent signals are marked aborted before any abort event");

test(() => {
  assert_throws_js(TypeError, () => AbortSignal.any([{}]));
  assert_throws_js(TypeError, () => AbortSignal.any(5));
}, "AbortSignal.any takes a sequence of signals");

test(() => {
  const c = new AbortController();
  let n = 0;
  c.signal.onabort = () => n++;
  c.signal.onabort = null;
  c.abort();
  assert_equals(n, 0);
  const d = new AbortController();
  const f = () => n++;
  d.signal.onabort = f;
  assert_equals(d.signal.onabort, f);
}, "onabort can be cleared");

test(() => {
  const s = new AbortController().signal;
  s.onabort = () => {};
  s.onabort = 5;
  assert_equals(s.onabort, null);
  const o = {};
  s.onabort = o;
  assert_equals(s.onabort, o, "a non-callable object is kept, and does nothing when called");
}, "spec: onabort treats non-objects as null");

test(() => {
  const c = new AbortController();
  const log = [];
  c.signal.addEventListener("abort", () => log.push(1));
  c.signal.onabort = () => log.push(2);
  c.signal.addEventListener("abort", () => log.push(3));
  c.signal.onabort = () => log.push(4);
  c.abort();
  assert_array_equals(log, [1, 4, 3], "the handler keeps the place of its first assignment");
}, "onabort's place among listeners");

test(() => {
  const c = new AbortController();
  c.signal.addEventListener("abort", () => { throw new Error("listener"); });
  let later = false;
  c.signal.addEventListener("abort", () => { later = true; });
  c.abort();
  assert_true(later);
}, "a throwing abort listener does not stop the others");

test(() => {
  assert_equals(Object.prototype.toString.call(new AbortController()), "[object AbortController]");
  assert_equals(Object.prototype.toString.call(AbortSignal.abort()), "[object AbortSignal]");
  assert_throws_js(TypeError, () => AbortController.prototype.abort.call({}));
  assert_throws_js(TypeError, () => Object.getOwnPropertyDescriptor(AbortSignal.prototype, "aborted").get.call({}));
}, "AbortController and AbortSignal brands");

test(() => {
  const c = new AbortController();
  const e = new Event("abort");
  let n = 0;
  c.signal.onabort = () => n++;
  c.signal.dispatchEvent(e);
  assert_equals(n, 1);
  assert_false(c.signal.aborted, "a synthetic abort event aborts nothing");
}, "dispatching abort by hand does not abort");

test(() => {
  let reported = 0;
  if (typeof process === "object" && typeof process.on === "function") process.on("uncaughtException", () => reported++);
  reportError(new Error("reported"));
}, "spec: reportError exists and does not throw");

promise_test(async () => {
  const s = AbortSignal.timeout(Number.MAX_SAFE_INTEGER);
  await delay(5);
  assert_false(s.aborted);
}, "spec: a huge AbortSignal.timeout is accepted and does not fire at once (Node 20 refuses over 2^32-1)");
