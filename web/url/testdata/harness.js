// A small testharness.js-style harness (test, assert_*), run in a bext
// isolate and in Node by conformance_test.go. Each test's outcome is
// "PASS" or "FAIL: <message>", keyed by its name.
const __tests = [];
function test(fn, name) { __tests.push({ name, fn }); }
function __fmt(v) {
  try { return typeof v === "string" ? JSON.stringify(v) : String(v); } catch { return typeof v; }
}
function assert_equals(a, b, m) {
  if (!Object.is(a, b)) throw new Error((m ? m + ": " : "") + "expected " + __fmt(b) + " but got " + __fmt(a));
}
function assert_true(v, m) { assert_equals(v, true, m); }
function assert_false(v, m) { assert_equals(v, false, m); }
function assert_array_equals(a, b, m) {
  if (!a || a.length !== b.length) throw new Error((m ? m + ": " : "") + "expected " + __fmt(JSON.stringify(b)) + " but got " + __fmt(JSON.stringify(a)));
  for (let i = 0; i < a.length; i++) assert_equals(a[i], b[i], (m ? m + ": " : "") + "index " + i);
}
function assert_pairs(params, want, m) {
  assert_equals(JSON.stringify([...params]), JSON.stringify(want), m);
}
function assert_object_equals(a, b, m) {
  const ka = Object.keys(a), kb = Object.keys(b);
  assert_equals(JSON.stringify(ka.sort()), JSON.stringify(kb.sort()), (m ? m + ": " : "") + "keys");
  for (const k of kb) {
    if (b[k] !== null && typeof b[k] === "object") assert_object_equals(a[k], b[k], (m ? m + "." : "") + k);
    else assert_equals(a[k], b[k], (m ? m + "." : "") + k);
  }
}
function assert_throws_js(C, fn, m) {
  try { fn(); } catch (e) {
    if (!(e instanceof C)) throw new Error((m ? m + ": " : "") + "threw " + __fmt(e) + ", expected " + C.name);
    return e;
  }
  throw new Error((m ? m + ": " : "") + "did not throw");
}
function __run() {
  const out = {};
  for (const t of __tests) {
    let name = t.name;
    for (let i = 2; name in out; i++) name = t.name + " #" + i;
    try { t.fn(); out[name] = "PASS"; }
    catch (e) { out[name] = "FAIL: " + (e && e.message !== undefined ? e.message : String(e)); }
  }
  return out;
}
