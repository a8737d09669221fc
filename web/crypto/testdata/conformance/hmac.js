// HMAC: RFC 4231 (SHA-256/384/512) and RFC 2202 (SHA-1) known answers;
// import (raw, jwk), generateKey, exportKey, sign, verify, and the errors
// the Web Cryptography API names.
const aa131 = new Uint8Array(131).fill(0xaa);
const hmacVectors = [
  // [key, data, {hash: mac}]
  [new Uint8Array(20).fill(0x0b), utf8("Hi There"), {
    "SHA-1": "b617318655057264e28bc0b6fb378c8ef146be00",
    "SHA-256": "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    "SHA-384": "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6",
    "SHA-512": "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
  }],
  [utf8("Jefe"), utf8("what do ya want for nothing?"), {
    "SHA-1": "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79",
    "SHA-256": "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    "SHA-384": "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649",
    "SHA-512": "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
  }],
  [new Uint8Array(20).fill(0xaa), new Uint8Array(50).fill(0xdd), {
    "SHA-1": "125d7342b9ac11cd91a39af48aa17b4f63f175d3",
    "SHA-256": "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
    "SHA-384": "88062608d3e6ad8a0aa2ace014c8a86f0aa635d947ac9febe83ef4e55966144b2a5ab39dc13814b94e3ab6e101a34f27",
    "SHA-512": "fa73b0089d56a284efb0f0756c890be9b1b5dbdd8ee81a3655f83e33b2279d39bf3e848279a722c806b485a47e67c807b946a337bee8942674278859e13292fb",
  }],
  [Uint8Array.from({ length: 25 }, (_, i) => i + 1), new Uint8Array(50).fill(0xcd), {
    "SHA-256": "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
    "SHA-384": "3e8a69b7783c25851933ab6290af6ca77a9981480850009cc5577c6e1f573b4e6801dd23c4a7d679ccf8a386c674cffb",
    "SHA-512": "b0ba465637458c6990e5a8c5f61d4af7e576d97ff94b872de76f8050361ee3dba91ca5c11aa25eb4d679275cc5788063a5f19741120c4f2de2adebeb10a298dd",
  }],
  [aa131, utf8("Test Using Larger Than Block-Size Key - Hash Key First"), {
    "SHA-256": "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    "SHA-384": "4ece084485813e9088d2c63a041bc5b44f9ef1012a2b588f3cd11f05033ac4c60c2ef6ab4030fe8296248df163f44952",
    "SHA-512": "80b24263c7c1a3ebb71493c1dd7be8b49b46d1f41b4aeec1121b013783f8f3526b56d037e05f2598bd0fd2215d6a1e5295e64f73f63f0aec8b915a985d786598",
  }],
  [aa131, utf8("This is a test using a larger than block-size key and a larger than block-size data. The key needs to be hashed before being used by the HMAC algorithm."), {
    "SHA-256": "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
    "SHA-384": "6617178e941f020d351e2f254e8fd32c602420feb0b8fb9adccebb82461e99c5a678cc31e799176d3860e6110c46523e",
    "SHA-512": "e37b6a775dc87dbaa4dfa9f96e5e3ffddebd71f8867289865df5a32d20cdc944b6022cac3c4982b10d5eeb55c3e4de15134676fb6de0446065c97440fa8c6a58",
  }],
];
hmacVectors.forEach(([key, data, macs], i) => {
  for (const [hash, mac] of Object.entries(macs)) {
    promise_test(async () => {
      const k = await subtle.importKey("raw", key, { name: "HMAC", hash }, false, ["sign", "verify"]);
      const sig = await subtle.sign("HMAC", k, data);
      assert_true(sig instanceof ArrayBuffer);
      assert_equals(hex(sig), mac);
      assert_true(await subtle.verify({ name: "hmac" }, k, unhex(mac), data), "verifies");
      const bad = unhex(mac); bad[0] ^= 1;
      assert_false(await subtle.verify("HMAC", k, bad, data), "a changed MAC");
      assert_false(await subtle.verify("HMAC", k, unhex(mac).slice(1), data), "a short MAC");
      assert_false(await subtle.verify("HMAC", k, new Uint8Array(0), data), "an empty MAC");
    }, "HMAC " + hash + " vector " + (i + 1));
  }
});

promise_test(async () => {
  const k = await subtle.importKey("raw", utf8("Jefe"), { name: "HMAC", hash: { name: "sha-256" } }, true, ["verify", "sign", "verify"]);
  assert_equals(Object.prototype.toString.call(k), "[object CryptoKey]");
  assert_true(k instanceof CryptoKey);
  assert_equals(k.type, "secret");
  assert_equals(k.extractable, true);
  assert_equals(k.algorithm.name, "HMAC");
  assert_equals(k.algorithm.hash.name, "SHA-256");
  assert_equals(k.algorithm.length, 32);
  assert_equals(k.algorithm, k.algorithm, "algorithm is cached");
  assert_equals(k.usages, k.usages, "usages is cached");
  assert_true(Array.isArray(k.usages));
  assert_equals(hex(await subtle.exportKey("raw", k)), hex(utf8("Jefe")));
  const j = await subtle.exportKey("jwk", k);
  assert_equals(j.kty, "oct");
  assert_equals(j.k, "SmVmZQ");
  assert_equals(j.alg, "HS256");
  assert_equals(j.ext, true);
}, "HMAC key attributes and export");

promise_test(async () => {
  const k = await subtle.importKey("raw", utf8("Jefe"), { name: "HMAC", hash: "SHA-256" }, true, ["verify", "sign", "verify"]);
  assert_array_equals(k.usages, ["sign", "verify"]);
}, "spec: key usages are deduplicated and in KeyUsage order (as browsers; Node 20 keeps them as given)");

for (const [hash, alg, bits] of [["SHA-1", "HS1", 512], ["SHA-256", "HS256", 512], ["SHA-384", "HS384", 1024], ["SHA-512", "HS512", 1024]]) {
  promise_test(async () => {
    const k = await subtle.generateKey({ name: "HMAC", hash }, true, ["sign", "verify"]);
    assert_equals(k.algorithm.length, bits, "default length is the hash's block size");
    assert_equals(k.algorithm.hash.name, hash);
    const raw = await subtle.exportKey("raw", k);
    assert_equals(raw.byteLength, bits / 8);
    const j = await subtle.exportKey("jwk", k);
    assert_equals(j.alg, alg);
    assert_array_equals(j.key_ops, ["sign", "verify"]);
    const k2 = await subtle.importKey("jwk", j, { name: "HMAC", hash }, true, ["sign", "verify"]);
    assert_equals(hex(await subtle.exportKey("raw", k2)), hex(raw));
    const data = utf8("cookie=value");
    assert_true(await subtle.verify("HMAC", k2, await subtle.sign("HMAC", k, data), data));
  }, "HMAC " + hash + " generateKey, export and import as jwk");
}

promise_test(async () => {
  const k = await subtle.generateKey({ name: "HMAC", hash: "SHA-256", length: 256 }, false, ["sign"]);
  assert_equals(k.algorithm.length, 256);
  assert_equals(k.extractable, false);
  assert_array_equals(k.usages, ["sign"]);
  await promise_rejects("InvalidAccessError", subtle.verify("HMAC", k, new Uint8Array(32), new Uint8Array(1)), "no verify usage");
  await promise_rejects("OperationError", subtle.generateKey({ name: "HMAC", hash: "SHA-256", length: 0 }, true, ["sign"]));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, []));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, ["encrypt"]));
  await promise_rejects(TypeError, subtle.generateKey({ name: "HMAC" }, true, ["sign"]));
  await promise_rejects(TypeError, subtle.generateKey("HMAC", true, ["sign"]));
}, "HMAC generateKey options and errors");

promise_test(async () => {
  const k = await subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  await promise_rejects("InvalidAccessError", subtle.exportKey("raw", k));
  await promise_rejects("InvalidAccessError", subtle.exportKey("jwk", k));
}, "spec: exporting a non-extractable key is an InvalidAccessError (Node 20 names it InvalidAccessException)");

promise_test(async () => {
  const key = new Uint8Array(16);
  const imp = (alg, usages = ["sign"], format = "raw", data = key) => subtle.importKey(format, data, alg, true, usages);
  await promise_rejects(TypeError, imp({ name: "HMAC" }), "hash is required");
  await promise_rejects("NotSupportedError", imp({ name: "HMAC", hash: "SHA-3" }), "unknown hash");
  await promise_rejects("NotSupportedError", imp({ name: "HMAC", hash: "MD5" }), "unknown hash");
  await promise_rejects("SyntaxError", imp({ name: "HMAC", hash: "SHA-256" }, ["encrypt"]), "usage");
  await promise_rejects("SyntaxError", imp({ name: "HMAC", hash: "SHA-256" }, []), "no usage");
  await promise_rejects(TypeError, imp({ name: "HMAC", hash: "SHA-256" }, ["bogus"]), "not a KeyUsage");
  await promise_rejects(TypeError, imp({ name: "HMAC", hash: "SHA-256" }, "sign"), "not a sequence");
  await promise_rejects(TypeError, imp({ name: "HMAC", hash: "SHA-256" }, ["sign"], "foo"), "not a KeyFormat");
  await promise_rejects("DataError", imp({ name: "HMAC", hash: "SHA-256" }, ["sign"], "raw", new Uint8Array(0)), "empty key");
  await promise_rejects("DataError", imp({ name: "HMAC", hash: "SHA-256", length: 136 }), "length over the key");
  await promise_rejects(TypeError, imp({ name: "HMAC", hash: "SHA-256" }, ["sign"], "raw", { kty: "oct" }), "raw with a JWK");
  const k = await imp({ name: "HMAC", hash: "SHA-256", length: 128 });
  assert_equals(k.algorithm.length, 128);
}, "HMAC importKey errors");

promise_test(async () => {
  const key = new Uint8Array(16);
  await promise_rejects("NotSupportedError", subtle.importKey("pkcs8", key, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));
  await promise_rejects("NotSupportedError", subtle.importKey("spki", key, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));
  await promise_rejects(TypeError, subtle.importKey("jwk", key, { name: "HMAC", hash: "SHA-256" }, true, ["sign"]));
  const k = await subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256", length: 124 }, true, ["sign"]);
  assert_equals(k.algorithm.length, 124);
  await promise_rejects("DataError", subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256", length: 120 }, true, ["sign"]));
  const g = await subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
  await promise_rejects("NotSupportedError", subtle.exportKey("spki", g));
}, "spec: HMAC import errors by format, and a length within the last byte (Node 20: other names, exact length only)");

promise_test(async () => {
  const hs = { name: "HMAC", hash: "SHA-256" };
  const good = { kty: "oct", k: "AAAAAAAAAAAAAAAAAAAAAA" };
  const imp = (j, usages = ["sign"], extractable = true) => subtle.importKey("jwk", j, hs, extractable, usages);
  await imp(good);
  await imp({ ...good, alg: "HS256", use: "sig", key_ops: ["sign", "verify"], ext: true });
  await promise_rejects("DataError", imp({ ...good, kty: "EC" }), "kty");
  await promise_rejects("DataError", imp({ kty: "oct" }), "no k");
  await promise_rejects("DataError", imp({ ...good, alg: "HS512" }), "alg");
  await promise_rejects("DataError", imp({ ...good, use: "enc" }), "use");
  await promise_rejects("DataError", imp({ ...good, key_ops: ["verify"] }), "key_ops");
  await promise_rejects("DataError", imp({ ...good, ext: false }), "ext");
  await imp({ ...good, ext: false }, ["sign"], false);
}, "HMAC jwk import checks kty, k, alg, use, key_ops and ext");

promise_test(async () => {
  const k = await subtle.importKey("raw", new Uint8Array(16), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
  const a = await subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
  await promise_rejects("InvalidAccessError", subtle.sign("HMAC", a, new Uint8Array(1)), "an AES key");
  await promise_rejects("NotSupportedError", subtle.sign("AES-GCM", k, new Uint8Array(1)), "AES cannot sign");
  await promise_rejects("InvalidAccessError", subtle.sign({ name: "ECDSA", hash: "SHA-256" }, k, new Uint8Array(1)), "wrong algorithm");
  await promise_rejects(TypeError, subtle.sign("HMAC", {}, new Uint8Array(1)), "not a key");
  await promise_rejects(TypeError, subtle.sign("HMAC", k, "abc"), "not a buffer");
  await promise_rejects(TypeError, subtle.sign("HMAC", k), "too few arguments");
  await promise_rejects(TypeError, subtle.verify("HMAC", k, new Uint8Array(1)), "too few arguments");
}, "HMAC sign and verify errors");

promise_test(async () => {
  // A cookie signed the way routers sign them: base64url(HMAC-SHA256(secret, value)).
  const secret = utf8("s3cr3t");
  const k = await subtle.importKey("raw", secret, { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);
  const mac = await subtle.sign("HMAC", k, utf8("user=42"));
  assert_equals(b64url(mac).length, 43);
  assert_true(await subtle.verify("HMAC", k, mac, utf8("user=42")));
  assert_false(await subtle.verify("HMAC", k, mac, utf8("user=43")));
}, "HMAC cookie signing round trip");
