// A small harness in the style of testharness.js (test, promise_test,
// assert_*, promise_rejects_*), run in a bext isolate and in Node 20 by
// conformance_test.go. The cases in the other files of this folder are
// bext's own, written from the Web Cryptography API's text and the RFC and
// NIST known-answer vectors named beside them; a case named "spec: …"
// checks where Node 20 departs from the spec, and Node is not held to it.
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
// promise_rejects checks that p (a promise, or a function returning one
// that must not throw synchronously) rejects with a DOMException of name,
// or with an instance of the error constructor name.
async function promise_rejects(name, p, m) {
  if (typeof p === "function") {
    try { p = p(); } catch (e) { throw new Error(__m(m) + "threw synchronously: " + __fmt(e)); }
  }
  if (!(p instanceof Promise)) throw new Error(__m(m) + "did not return a promise");
  let v;
  try { v = await p; } catch (e) {
    if (typeof name === "function") {
      if (!(e instanceof name) || e.constructor !== name) throw new Error(__m(m) + "rejected with " + __fmt(e) + ", expected " + name.name);
    } else if (!(e instanceof DOMException) || e.name !== name) {
      throw new Error(__m(m) + "rejected with " + __fmt(e) + ", expected DOMException " + name);
    }
    return e;
  }
  throw new Error(__m(m) + "resolved with " + __fmt(v));
}
const subtle = crypto.subtle;
const utf8 = (s) => new TextEncoder().encode(s);
function hex(b) {
  if (b instanceof ArrayBuffer) b = new Uint8Array(b);
  return Array.from(b, (x) => x.toString(16).padStart(2, "0")).join("");
}
function unhex(s) {
  const out = new Uint8Array(s.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = parseInt(s.substr(i * 2, 2), 16);
  return out;
}
function b64url(b) {
  if (b instanceof ArrayBuffer) b = new Uint8Array(b);
  return btoa(String.fromCharCode(...b)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}
async function __run() {
  const out = {};
  for (const t of __tests) {
    if (t.name in out) throw new Error("duplicate test name " + t.name);
    try { await t.fn(); out[t.name] = "PASS"; }
    catch (e) { out[t.name] = "FAIL: " + (e && e.message !== undefined ? e.message : String(e)); }
  }
  return out;
}
