// PBKDF2 (RFC 6070 for SHA-1, RFC 7914 §11 for SHA-256), HKDF (RFC 5869
// appendix A), ECDH and X25519 (RFC 7748 §6.1), deriveBits and deriveKey.
const pbkdf2Vectors = [
  ["SHA-1", "password", "salt", 1, 20, "0c60c80f961f0e71f3a9b524af6012062fe037a6"],
  ["SHA-1", "password", "salt", 2, 20, "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"],
  ["SHA-1", "password", "salt", 4096, 20, "4b007901b765489abead49d926f721d065a429c1"],
  ["SHA-1", "passwordPASSWORDpassword", "saltSALTsaltSALTsaltSALTsaltSALTsalt", 4096, 25, "3d2eec4fe41c849b80c8d83662c0e44a8b291a964cf2f07038"],
  ["SHA-1", "pass\0word", "sa\0lt", 4096, 16, "56fa6aa75548099dcc37d7f03425e0c3"],
  ["SHA-256", "passwd", "salt", 1, 64, "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"],
  ["SHA-256", "Password", "NaCl", 80000, 64, "4ddcd8f60b98be21830cee5ef22701f9641a4418d04c0414aeff08876b34ab56a1d425a1225833549adb841b51c9b3176a272bdebba1d078478f62b397f33c8d"],
];
pbkdf2Vectors.forEach(([hash, p, salt, iterations, len, want], i) => {
  promise_test(async () => {
    const k = await subtle.importKey("raw", utf8(p), "PBKDF2", false, ["deriveBits"]);
    assert_equals(k.type, "secret");
    assert_equals(k.extractable, false);
    assert_equals(k.algorithm.name, "PBKDF2");
    const bits = await subtle.deriveBits({ name: "PBKDF2", hash, salt: utf8(salt), iterations }, k, len * 8);
    assert_equals(hex(bits), want);
  }, "PBKDF2 " + hash + " vector " + (i + 1));
});

const range = (a, b) => Uint8Array.from({ length: b - a + 1 }, (_, i) => a + i);
const hkdfVectors = [
  ["SHA-256", new Uint8Array(22).fill(0x0b), unhex("000102030405060708090a0b0c"), unhex("f0f1f2f3f4f5f6f7f8f9"), 42, "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"],
  ["SHA-256", range(0, 0x4f), range(0x60, 0xaf), range(0xb0, 0xff), 82, "b11e398dc80327a1c8e7f78c596a49344f012eda2d4efad8a050cc4c19afa97c59045a99cac7827271cb41c65e590e09da3275600c2f09b8367793a9aca3db71cc30c58179ec3e87c14c01d5c1f3434f1d87"],
  ["SHA-256", new Uint8Array(22).fill(0x0b), new Uint8Array(0), new Uint8Array(0), 42, "8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"],
  ["SHA-1", new Uint8Array(11).fill(0x0b), unhex("000102030405060708090a0b0c"), unhex("f0f1f2f3f4f5f6f7f8f9"), 42, "085a01ea1b10f36933068b56efa5ad81a4f14b822f5b091568a9cdd4f155fda2c22e422478d305f3f896"],
  ["SHA-1", new Uint8Array(22).fill(0x0c), new Uint8Array(0), new Uint8Array(0), 42, "2c91117204d745f3500d636a62f64f0ab3bae548aa53d423b0d1f27ebba6f5e5673a081d70cce7acfc48"],
];
hkdfVectors.forEach(([hash, ikm, salt, info, len, want], i) => {
  promise_test(async () => {
    const k = await subtle.importKey("raw", ikm, "HKDF", false, ["deriveBits", "deriveKey"]);
    const bits = await subtle.deriveBits({ name: "HKDF", hash, salt, info }, k, len * 8);
    assert_equals(hex(bits), want);
  }, "HKDF " + hash + " vector " + (i + 1));
});

promise_test(async () => {
  const k = await subtle.importKey("raw", utf8("password"), { name: "pbkdf2" }, false, ["deriveKey", "deriveBits"]);
  const p = { name: "PBKDF2", hash: "SHA-256", salt: utf8("salt"), iterations: 1000 };
  const aes = await subtle.deriveKey(p, k, { name: "AES-GCM", length: 256 }, true, ["encrypt", "decrypt"]);
  assert_equals(aes.algorithm.name, "AES-GCM");
  assert_equals(aes.algorithm.length, 256);
  assert_array_equals(aes.usages, ["encrypt", "decrypt"]);
  assert_equals(hex(await subtle.exportKey("raw", aes)), hex(await subtle.deriveBits(p, k, 256)));
  const mac = await subtle.deriveKey(p, k, { name: "HMAC", hash: "SHA-512" }, true, ["sign"]);
  assert_equals(mac.algorithm.length, 1024, "the hash's block size");
  assert_equals(hex(await subtle.exportKey("raw", mac)), hex(await subtle.deriveBits(p, k, 1024)));
  const mac2 = await subtle.deriveKey(p, k, { name: "HMAC", hash: "SHA-256", length: 128 }, true, ["sign"]);
  assert_equals((await subtle.exportKey("raw", mac2)).byteLength, 16);
}, "PBKDF2 deriveKey to AES and HMAC keys");

promise_test(async () => {
  const k = await subtle.importKey("raw", new Uint8Array(32), "HKDF", false, ["deriveKey"]);
  const p = { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(16), info: utf8("cookie key") };
  const aes = await subtle.deriveKey(p, k, { name: "AES-CBC", length: 128 }, false, ["encrypt"]);
  assert_equals(aes.extractable, false);
  await promise_rejects("InvalidAccessError", subtle.deriveBits(p, k, 128), "no deriveBits usage");
  await promise_rejects("SyntaxError", subtle.deriveKey(p, k, { name: "AES-CBC", length: 128 }, false, []), "no usages");
  await promise_rejects("OperationError", subtle.deriveKey(p, k, { name: "AES-CBC", length: 100 }, false, ["encrypt"]), "AES length");
  await promise_rejects(TypeError, subtle.deriveKey(p, k, { name: "AES-CBC" }, false, ["encrypt"]), "AES length is required");
  await promise_rejects("NotSupportedError", subtle.deriveKey(p, k, { name: "ECDSA", namedCurve: "P-256" }, false, ["sign"]), "not derivable");
}, "HKDF deriveKey and its errors");

promise_test(async () => {
  const pw = utf8("pw");
  await promise_rejects("SyntaxError", subtle.importKey("raw", pw, "PBKDF2", true, ["deriveBits"]), "extractable");
  await promise_rejects("SyntaxError", subtle.importKey("raw", pw, "HKDF", true, ["deriveBits"]), "extractable");
  await promise_rejects("SyntaxError", subtle.importKey("raw", pw, "PBKDF2", false, ["sign"]), "usage");
  await promise_rejects("SyntaxError", subtle.importKey("raw", pw, "PBKDF2", false, []), "no usage");
  await promise_rejects("NotSupportedError", subtle.importKey("jwk", { kty: "oct", k: "cHc" }, "PBKDF2", false, ["deriveBits"]), "jwk");
  await promise_rejects("NotSupportedError", subtle.generateKey({ name: "PBKDF2" }, false, ["deriveBits"]), "no generateKey");
  const k = await subtle.importKey("raw", pw, "PBKDF2", false, ["deriveBits"]);
  const p = { name: "PBKDF2", hash: "SHA-256", salt: utf8("salt"), iterations: 1 };
  await promise_rejects("OperationError", subtle.deriveBits(p, k, null), "null length");
  await promise_rejects("OperationError", subtle.deriveBits(p, k, 12), "not whole bytes");
  await promise_rejects("OperationError", subtle.deriveBits({ ...p, iterations: 0 }, k, 256), "zero iterations");
  await promise_rejects(TypeError, subtle.deriveBits({ ...p, salt: undefined }, k, 256), "salt is required");
  await promise_rejects(TypeError, subtle.deriveBits({ ...p, hash: undefined }, k, 256), "hash is required");
  await promise_rejects(TypeError, subtle.deriveBits({ ...p, iterations: -1 }, k, 256), "iterations is [EnforceRange]");
  await promise_rejects("NotSupportedError", subtle.deriveBits({ ...p, hash: "SHA-3" }, k, 256), "unknown hash");
  assert_equals((await subtle.deriveBits(p, k, 0)).byteLength, 0);
  const h = await subtle.importKey("raw", pw, "HKDF", false, ["deriveBits"]);
  const hp = { name: "HKDF", hash: "SHA-256", salt: new Uint8Array(0), info: new Uint8Array(0) };
  assert_equals((await subtle.deriveBits(hp, h, 255 * 32 * 8)).byteLength, 255 * 32);
  await promise_rejects("OperationError", subtle.deriveBits(hp, h, 255 * 32 * 8 + 8), "longer than HKDF allows");
  await promise_rejects("OperationError", subtle.deriveBits(hp, h, null), "null length");
  await promise_rejects(TypeError, subtle.deriveBits({ ...hp, info: undefined }, h, 256), "info is required");
}, "PBKDF2 and HKDF errors");

const x25519 = {
  alicePriv: "77076d0a7318a57d3c16c17251b26645df4c2f87ebc0992ab177fba51db92c2a",
  alicePub: "8520f0098930a754748b7ddcb43ef75a0dbf3a0d26381af4eba4a98eaa9b4e6a",
  bobPriv: "5dab087e624a8a4b79e17f8b83800ee66f3bb1292618b6fd1c2f8b27ff88e0eb",
  bobPub: "de9edb7d7b7dc1b4d35b61c2ece435373f8343c85b78674dadfc7e146f882b4f",
  shared: "4a5d9d5ba4ce2de1728e3bf480350f25e07e21c947d19e3376f09b3c1e161742",
};
promise_test(async () => {
  const alice = await subtle.importKey("jwk", { kty: "OKP", crv: "X25519", d: b64url(unhex(x25519.alicePriv)), x: b64url(unhex(x25519.alicePub)) }, "X25519", true, ["deriveBits"]);
  assert_equals(alice.type, "private");
  const bob = await subtle.importKey("raw", unhex(x25519.bobPub), { name: "x25519" }, true, []);
  assert_equals(bob.type, "public");
  assert_array_equals(bob.usages, []);
  assert_equals(hex(await subtle.deriveBits({ name: "X25519", public: bob }, alice, 256)), x25519.shared);
  assert_equals(hex(await subtle.deriveBits({ name: "X25519", public: bob }, alice, 128)), x25519.shared.slice(0, 32));
  await promise_rejects("OperationError", subtle.deriveBits({ name: "X25519", public: bob }, alice, 264), "longer than the secret");
  assert_equals(hex(await subtle.exportKey("raw", bob)), x25519.bobPub);
  const j = await subtle.exportKey("jwk", alice);
  assert_equals(j.kty, "OKP");
  assert_equals(j.crv, "X25519");
  assert_equals(j.d, b64url(unhex(x25519.alicePriv)));
  const spki = await subtle.exportKey("spki", bob);
  const pkcs8 = await subtle.exportKey("pkcs8", alice);
  assert_equals(hex(spki), "302a300506032b656e032100" + x25519.bobPub);
  assert_equals(hex(pkcs8), "302e020100300506032b656e04220420" + x25519.alicePriv);
  const bob2 = await subtle.importKey("spki", spki, "X25519", true, []);
  const alice2 = await subtle.importKey("pkcs8", pkcs8, "X25519", true, ["deriveKey"]);
  const aes = await subtle.deriveKey({ name: "X25519", public: bob2 }, alice2, { name: "AES-GCM", length: 256 }, true, ["encrypt"]);
  assert_equals(hex(await subtle.exportKey("raw", aes)), x25519.shared);
}, "X25519 RFC 7748 6.1");

promise_test(async () => {
  const a = await subtle.generateKey("X25519", true, ["deriveBits"]);
  const b = await subtle.generateKey("X25519", true, ["deriveBits"]);
  assert_array_equals(a.publicKey.usages, []);
  assert_array_equals(a.privateKey.usages, ["deriveBits"]);
  assert_equals(hex(await subtle.deriveBits({ name: "X25519", public: b.publicKey }, a.privateKey, 256)),
    hex(await subtle.deriveBits({ name: "X25519", public: a.publicKey }, b.privateKey, 256)));
  const zero = await subtle.importKey("raw", new Uint8Array(32), "X25519", true, []);
  await promise_rejects("OperationError", subtle.deriveBits({ name: "X25519", public: zero }, a.privateKey, 256), "an all-zero secret");
  await promise_rejects("InvalidAccessError", subtle.deriveBits({ name: "X25519", public: b.privateKey }, a.privateKey, 256), "public must be public");
  await promise_rejects(TypeError, subtle.deriveBits({ name: "X25519" }, a.privateKey, 256), "public is required");
  await promise_rejects(TypeError, subtle.deriveBits({ name: "X25519", public: {} }, a.privateKey, 256), "public is a CryptoKey");
  await promise_rejects("SyntaxError", subtle.importKey("raw", new Uint8Array(32), "X25519", true, ["deriveBits"]), "a public key has no usages");
  await promise_rejects("DataError", subtle.importKey("raw", new Uint8Array(31), "X25519", true, []), "31 bytes");
}, "X25519 generateKey and errors");

for (const crv of ["P-256", "P-384", "P-521"]) {
  promise_test(async () => {
    const a = await subtle.generateKey({ name: "ECDH", namedCurve: crv }, true, ["deriveBits", "deriveKey"]);
    const b = await subtle.generateKey({ name: "ECDH", namedCurve: crv }, false, ["deriveBits"]);
    assert_equals(a.privateKey.algorithm.namedCurve, crv);
    assert_array_equals(a.publicKey.usages, []);
    assert_equals(b.publicKey.extractable, true, "public keys are extractable");
    const ab = await subtle.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, null);
    const ba = await subtle.deriveBits({ name: "ECDH", public: a.publicKey }, b.privateKey, null);
    const size = { "P-256": 32, "P-384": 48, "P-521": 66 }[crv];
    assert_equals(ab.byteLength, size);
    assert_equals(hex(ab), hex(ba));
    const raw = await subtle.exportKey("raw", a.publicKey);
    assert_equals(raw.byteLength, 1 + 2 * size);
    const pub = await subtle.importKey("raw", raw, { name: "ECDH", namedCurve: crv }, true, []);
    assert_equals(hex(await subtle.deriveBits({ name: "ECDH", public: pub }, b.privateKey, 8 * size)), hex(ab));
  }, "ECDH " + crv);
}

promise_test(async () => {
  const a = await subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["deriveBits"]);
  const b = await subtle.generateKey({ name: "ECDH", namedCurve: "P-384" }, true, ["deriveBits"]);
  const e = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
  await promise_rejects("InvalidAccessError", subtle.deriveBits({ name: "ECDH", public: b.publicKey }, a.privateKey, 256), "another curve");
  await promise_rejects("InvalidAccessError", subtle.deriveBits({ name: "ECDH", public: e.publicKey }, a.privateKey, 256), "an ECDSA key");
  await promise_rejects("InvalidAccessError", subtle.deriveBits({ name: "ECDH", public: a.publicKey }, a.publicKey, 256), "a public base key");
  await promise_rejects("OperationError", subtle.deriveBits({ name: "ECDH", public: a.publicKey }, a.privateKey, 264), "too long");
  const half = await subtle.deriveBits({ name: "ECDH", public: a.publicKey }, a.privateKey, 128);
  assert_equals(half.byteLength, 16);
  await promise_rejects("NotSupportedError", subtle.generateKey({ name: "ECDH", namedCurve: "P-192" }, true, ["deriveBits"]));
  await promise_rejects(TypeError, subtle.generateKey({ name: "ECDH" }, true, ["deriveBits"]));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, ["sign"]));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "ECDH", namedCurve: "P-256" }, true, []));
}, "ECDH errors");
