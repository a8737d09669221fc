// A small harness in the style of testharness.js (test, promise_test,
// assert_*), run in a bext isolate and in Node 20 by webtest.Conformance.
// The cases it runs are bext's own, written from the standards' text; a
// case named "spec: …" checks where Node 20 departs from the standard, and
// Node is not held to it. A package's testdata/conformance/harness.js adds
// helpers of its own after it (or replaces it: Options.OwnHarness).
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
  a = Array.from(a); b = Array.from(b);
  if (a.length !== b.length) throw new Error(__m(m) + "lengths differ: " + __fmt(a) + " vs " + __fmt(b));
  for (let i = 0; i < a.length; i++) assert_equals(a[i], b[i], __m(m) + "index " + i);
}
function assert_throws_js(C, fn, m) {
  try { fn(); } catch (e) {
    if (!(e instanceof C) || e.constructor !== C) throw new Error(__m(m) + "threw " + __fmt(e) + ", expected " + C.name);
    return e;
  }
  throw new Error(__m(m) + "did not throw");
}
function assert_throws_dom(name, fn, m) {
  try { fn(); } catch (e) {
    if (!(e instanceof DOMException) || e.name !== name) throw new Error(__m(m) + "threw " + __fmt(e) + ", expected DOMException " + name);
    return e;
  }
  throw new Error(__m(m) + "did not throw");
}
function assert_throws_exactly(v, fn, m) {
  try { fn(); } catch (e) { assert_equals(e, v, m); return; }
  throw new Error(__m(m) + "did not throw");
}
const delay = (ms) => new Promise((r) => setTimeout(r, ms));
async function __run() {
  const out = {};
  for (const t of __tests) {
    if (t.name in out) throw new Error("duplicate test name " + t.name);
    try { await t.fn(); out[t.name] = "PASS"; }
    catch (e) { out[t.name] = "FAIL: " + (e && e.message !== undefined ? e.message : String(e)); }
  }
  return out;
}
