// Helpers the fetch conformance cases use on top of webtest's shared
// harness (test, promise_test, assert_*): fetch's cases compare arrays as
// JSON and accept a subclass in assert_throws_js (these two replace the
// shared ones), and read streams and bytes. SERVER is the loopback test
// server's origin.
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
