// A testharness.js-like harness (test, promise_test, assert_*) for bext's
// own fetch conformance cases, run in a bext isolate and in Node 20 by
// conformance_test.go. SERVER is the loopback test server's origin.
const __tests = [];
function test(fn, name) { __tests.push({ name, fn }); }
function promise_test(fn, name) { __tests.push({ name, fn }); }
function __fmt(v) {
  try { return typeof v === "string" ? JSON.stringify(v) : String(v); } catch { return typeof v; }
}
function __m(m) { return m ? m + ": " : ""; }
function assert_equals(a, b, m) {
  if (!Object.is(a, b)) throw new Error(__m(m) + "expected " + __fmt(b) + " but got " + __fmt(a));
}
function assert_not_equals(a, b, m) {
  if (Object.is(a, b)) throw new Error(__m(m) + "got disallowed value " + __fmt(b));
}
function assert_true(v, m) { assert_equals(v, true, m); }
function assert_false(v, m) { assert_equals(v, false, m); }
function assert_array_equals(a, b, m) {
  const x = JSON.stringify(Array.from(a)), y = JSON.stringify(Array.from(b));
  if (x !== y) throw new Error(__m(m) + "expected " + y + " but got " + x);
}
function assert_deep(a, b, m) {
  const x = JSON.stringify(a), y = JSON.stringify(b);
  if (x !== y) throw new Error(__m(m) + "expected " + y + " but got " + x);
}
function assert_throws_js(C, fn, m) {
  try { fn(); } catch (e) {
    if (!(e instanceof C)) throw new Error(__m(m) + "threw " + __fmt(e) + ", expected " + C.name);
    return e;
  }
  throw new Error(__m(m) + "did not throw");
}
async function promise_rejects_js(C, p, m) {
  try { await p; } catch (e) {
    if (!(e instanceof C)) throw new Error(__m(m) + "rejected with " + __fmt(e) + ", expected " + C.name);
    return e;
  }
  throw new Error(__m(m) + "did not reject");
}
async function promise_rejects_exactly(v, p, m) {
  try { await p; } catch (e) { assert_equals(e, v, m); return; }
  throw new Error(__m(m) + "did not reject");
}
async function promise_rejects_dom(name, p, m) {
  try { await p; } catch (e) {
    if (!(e instanceof DOMException) || e.name !== name) throw new Error(__m(m) + "rejected with " + __fmt(e) + ", expected DOMException " + name);
    return e;
  }
  throw new Error(__m(m) + "did not reject");
}
async function readAll(stream) {
  const r = stream.getReader(); const out = [];
  for (;;) { const { value, done } = await r.read(); if (done) return out; out.push(value); }
}
const enc = (s) => new TextEncoder().encode(s);
const dec = (b) => new TextDecoder().decode(b);
async function __run() {
  const out = {};
  for (const t of __tests) {
    if (t.name in out) throw new Error("duplicate test name " + t.name);
    try { await t.fn(); out[t.name] = "PASS"; }
    catch (e) { out[t.name] = "FAIL: " + (e && e.message !== undefined ? e.message : String(e)); }
  }
  return out;
}
