// Crypto: getRandomValues and randomUUID (Web Cryptography API §10), and
// the shape of the interfaces.

for (const C of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, BigInt64Array, BigUint64Array]) {
  test(() => {
    const a = new C(8);
    const r = crypto.getRandomValues(a);
    assert_equals(r, a, "returns its argument");
    const b = crypto.getRandomValues(new C(1024));
    assert_true(Array.from(b).some((x) => x != 0), "fills it");
  }, "getRandomValues(" + C.name + ")");
}

for (const C of [Float32Array, Float64Array]) {
  test(() => {
    assert_throws_dom("TypeMismatchError", () => crypto.getRandomValues(new C(4)));
  }, "getRandomValues(" + C.name + ") is a TypeMismatchError");
}

test(() => {
  assert_throws_dom("TypeMismatchError", () => crypto.getRandomValues(new DataView(new ArrayBuffer(4))));
}, "getRandomValues(DataView) is a TypeMismatchError");

test(() => {
  assert_throws_js(TypeError, () => crypto.getRandomValues());
}, "getRandomValues() is a TypeError");

test(() => {
  for (const v of [new ArrayBuffer(4), [1, 2], {}, 1, "x", null, undefined]) {
    assert_throws_js(TypeError, () => crypto.getRandomValues(v), __fmt(v));
  }
}, "spec: getRandomValues of a non-view is a TypeError (Node 20: TypeMismatchError)");

test(() => {
  crypto.getRandomValues(new Uint8Array(65536));
  crypto.getRandomValues(new Uint32Array(16384));
  const e = assert_throws_dom("QuotaExceededError", () => crypto.getRandomValues(new Uint8Array(65537)));
  assert_equals(e.code, 22);
  assert_throws_dom("QuotaExceededError", () => crypto.getRandomValues(new Uint32Array(16385)));
  assert_throws_dom("QuotaExceededError", () => crypto.getRandomValues(new BigInt64Array(8193)));
}, "getRandomValues fills at most 65,536 bytes");

test(() => {
  const buf = new Uint8Array(32);
  const view = new Uint8Array(buf.buffer, 8, 8);
  crypto.getRandomValues(view);
  assert_true(buf.slice(0, 8).every((x) => x === 0) && buf.slice(16).every((x) => x === 0), "only the view is filled");
  assert_equals(crypto.getRandomValues(new Uint8Array(0)).length, 0);
}, "getRandomValues fills exactly the view");

test(() => {
  const re = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
  const seen = new Set();
  for (let i = 0; i < 1000; i++) {
    const u = crypto.randomUUID();
    assert_true(re.test(u), u);
    seen.add(u);
  }
  assert_equals(seen.size, 1000, "no repeats");
}, "randomUUID is a version 4 UUID");

test(() => {
  assert_equals(typeof crypto, "object");
  assert_equals(Object.prototype.toString.call(crypto), "[object Crypto]");
  assert_equals(Object.prototype.toString.call(crypto.subtle), "[object SubtleCrypto]");
  assert_true(crypto instanceof Crypto);
  assert_true(crypto.subtle instanceof SubtleCrypto);
  assert_equals(crypto.subtle, crypto.subtle, "[SameObject]");
  assert_throws_js(TypeError, () => new Crypto());
  assert_throws_js(TypeError, () => new SubtleCrypto());
  assert_throws_js(TypeError, () => new CryptoKey());
  for (const m of ["getRandomValues", "randomUUID"]) assert_equals(typeof Crypto.prototype[m], "function", m);
  for (const m of ["encrypt", "decrypt", "sign", "verify", "digest", "generateKey", "deriveKey", "deriveBits", "importKey", "exportKey", "wrapKey", "unwrapKey"]) {
    assert_equals(typeof SubtleCrypto.prototype[m], "function", m);
  }
  assert_equals(SubtleCrypto.prototype.digest.length, 2);
  assert_equals(SubtleCrypto.prototype.unwrapKey.length, 7);
  assert_equals(Crypto.prototype.getRandomValues.length, 1);
}, "interfaces");

test(() => {
  assert_throws_js(TypeError, () => Crypto.prototype.getRandomValues.call({}, new Uint8Array(1)));
  assert_throws_js(TypeError, () => Crypto.prototype.randomUUID.call({}));
}, "Crypto methods check their receiver");

promise_test(async () => {
  await promise_rejects(TypeError, () => SubtleCrypto.prototype.digest.call({}, "SHA-256", new Uint8Array(1)));
}, "SubtleCrypto methods reject on a wrong receiver");

promise_test(async () => {
  const k = await subtle.importKey("raw", utf8("Jefe"), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const c = structuredClone(k);
  assert_true(c instanceof CryptoKey);
  assert_true(c !== k, "a new object");
  assert_equals(c.extractable, false);
  assert_equals(c.algorithm.hash.name, "SHA-256");
  assert_array_equals(c.usages, ["sign", "verify"]);
  const data = utf8("what do ya want for nothing?");
  assert_equals(hex(await subtle.sign("HMAC", c, data)), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843");
  const kp = await subtle.generateKey("Ed25519", true, ["sign", "verify"]);
  const pair = structuredClone(kp);
  assert_true(await subtle.verify("Ed25519", pair.publicKey, await subtle.sign("Ed25519", kp.privateKey, data), data));
}, "CryptoKey is serializable (structuredClone)");
