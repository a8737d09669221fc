// Web Crypto helpers for bext's own cases in this folder (written from the
// Web Cryptography API's text and the RFC and NIST known-answer vectors
// named beside them), added after webtest's shared harness.
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
