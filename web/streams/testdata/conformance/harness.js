// A small test harness in the style of testharness.js (test, promise_test,
// assert_*), run in a bext isolate and in Node by conformance_test.go.
// The cases in the other files of this folder are bext's own, derived
// from the WHATWG Streams, Encoding and Compression standards.
const __tests = [];
function test(fn, name) { __tests.push({ name, fn }); }
function promise_test(fn, name) { __tests.push({ name, fn }); }
function __fmt(v) {
  try { return typeof v === "string" ? JSON.stringify(v) : String(v); } catch { return typeof v; }
}
function assert_equals(a, b, m) {
  if (!Object.is(a, b)) throw new Error((m ? m + ": " : "") + "expected " + __fmt(b) + " but got " + __fmt(a));
}
function assert_not_equals(a, b, m) {
  if (Object.is(a, b)) throw new Error((m ? m + ": " : "") + "got disallowed value " + __fmt(b));
}
function assert_true(v, m) { assert_equals(v, true, m); }
function assert_false(v, m) { assert_equals(v, false, m); }
function assert_array_equals(a, b, m) {
  if (a.length !== b.length) throw new Error((m ? m + ": " : "") + "lengths differ: " + __fmt(Array.from(a)) + " vs " + __fmt(Array.from(b)));
  for (let i = 0; i < a.length; i++) assert_equals(a[i], b[i], (m ? m + ": " : "") + "index " + i);
}
function assert_throws_js(C, fn, m) {
  try { fn(); } catch (e) {
    if (!(e instanceof C)) throw new Error((m ? m + ": " : "") + "threw " + __fmt(e) + ", expected " + C.name);
    return e;
  }
  throw new Error((m ? m + ": " : "") + "did not throw");
}
function assert_throws_exactly(v, fn, m) {
  try { fn(); } catch (e) { assert_equals(e, v, m); return; }
  throw new Error((m ? m + ": " : "") + "did not throw");
}
async function promise_rejects_js(C, p, m) {
  try { await p; } catch (e) {
    if (!(e instanceof C)) throw new Error((m ? m + ": " : "") + "rejected with " + __fmt(e) + ", expected " + C.name);
    return e;
  }
  throw new Error((m ? m + ": " : "") + "did not reject");
}
async function promise_rejects_exactly(v, p, m) {
  try { await p; } catch (e) { assert_equals(e, v, m); return; }
  throw new Error((m ? m + ": " : "") + "did not reject");
}
const delay = (ms) => new Promise((r) => setTimeout(r, ms));
const flushAsyncEvents = () => delay(0).then(() => delay(0)).then(() => delay(0));
const asyncIteratorSymbol = Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator");
async function readAll(stream) {
  const r = stream.getReader(); const out = [];
  for (;;) { const { value, done } = await r.read(); if (done) return out; out.push(value); }
}
function bytes(...a) { return new Uint8Array(a); }
async function __run() {
  const out = {};
  for (const t of __tests) {
    if (t.name in out) throw new Error("duplicate test name " + t.name);
    try { await t.fn(); out[t.name] = "PASS"; }
    catch (e) { out[t.name] = "FAIL: " + (e && e.message !== undefined ? e.message : String(e)); }
  }
  return out;
}
