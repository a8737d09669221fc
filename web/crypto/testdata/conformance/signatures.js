// ECDSA (RFC 6979 A.2.5 signatures), Ed25519 (RFC 8032 §7.1 tests 1 and
// 2), RSASSA-PKCS1-v1_5, RSA-PSS and RSA-OAEP: generateKey, import and
// export in every format, sign/verify, encrypt/decrypt, and errors.
const rfc6979 = {
  d: "c9afa9d845ba75166b5c215767b1d6934e50c3db36e89b127b8a622b120f6721",
  x: "60fed4ba255a9d31c961eb74c6356d68c049b8923b61fa6ce669622e60f29fb6",
  y: "7903fe1008b8bc99a41ae9e95628bc64f2f1b20c2d7e9f5177a3c294d4462299",
  sigs: {
    sample: "efd48b2aacb6a8fd1140dd9cd45e81d69d2c877b56aaf991c34d0ea84eaf3716f7cb1c942d657c41d436c7a1b6e29f65f3e900dbb9aff4064dc4ab2f843acda8",
    test: "f1abb023518351cd71d881567b1ea663ed3efcf6c5132b354f28d3b0b7d38367019f4113742a2b14bd25926b49c649155f267e60d3814b4c0cc84250e46f0083",
  },
};
promise_test(async () => {
  const jwk = { kty: "EC", crv: "P-256", x: b64url(unhex(rfc6979.x)), y: b64url(unhex(rfc6979.y)) };
  const pub = await subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]);
  assert_equals(pub.type, "public");
  const p = { name: "ECDSA", hash: "SHA-256" };
  for (const [msg, sig] of Object.entries(rfc6979.sigs)) {
    assert_true(await subtle.verify(p, pub, unhex(sig), utf8(msg)), msg);
    assert_false(await subtle.verify(p, pub, unhex(sig), utf8(msg + ".")), msg + " changed");
    assert_false(await subtle.verify({ name: "ECDSA", hash: "SHA-384" }, pub, unhex(sig), utf8(msg)), msg + " with SHA-384");
  }
  assert_equals(hex(await subtle.exportKey("raw", pub)), "04" + rfc6979.x + rfc6979.y);
  const priv = await subtle.importKey("jwk", { ...jwk, d: b64url(unhex(rfc6979.d)) }, { name: "ECDSA", namedCurve: "P-256" }, true, ["sign"]);
  assert_equals(priv.type, "private");
  const sig = await subtle.sign(p, priv, utf8("sample"));
  assert_equals(sig.byteLength, 64);
  assert_true(await subtle.verify(p, pub, sig, utf8("sample")));
  const j = await subtle.exportKey("jwk", priv);
  assert_equals(j.d, b64url(unhex(rfc6979.d)));
  assert_equals(j.crv, "P-256");
}, "ECDSA P-256 RFC 6979 signatures");

for (const [crv, size] of [["P-256", 32], ["P-384", 48], ["P-521", 66]]) {
  promise_test(async () => {
    const kp = await subtle.generateKey({ name: "ECDSA", namedCurve: crv }, true, ["sign", "verify"]);
    assert_equals(kp.privateKey.type, "private");
    assert_equals(kp.publicKey.type, "public");
    assert_array_equals(kp.privateKey.usages, ["sign"]);
    assert_array_equals(kp.publicKey.usages, ["verify"]);
    assert_equals(kp.publicKey.algorithm.namedCurve, crv);
    assert_equals(kp.privateKey.algorithm.name, "ECDSA");
    assert_array_equals(Object.keys(kp), ["publicKey", "privateKey"]);
    const data = utf8("signed data");
    for (const hash of ["SHA-1", "SHA-256", "SHA-384", "SHA-512"]) {
      const sig = await subtle.sign({ name: "ECDSA", hash }, kp.privateKey, data);
      assert_equals(sig.byteLength, 2 * size, hash);
      assert_true(await subtle.verify({ name: "ECDSA", hash }, kp.publicKey, sig, data), hash);
      assert_false(await subtle.verify({ name: "ECDSA", hash }, kp.publicKey, sig.slice(1), data), hash + " short");
    }
    const spki = await subtle.exportKey("spki", kp.publicKey);
    const pkcs8 = await subtle.exportKey("pkcs8", kp.privateKey);
    const raw = await subtle.exportKey("raw", kp.publicKey);
    const jwk = await subtle.exportKey("jwk", kp.privateKey);
    const alg = { name: "ECDSA", namedCurve: crv };
    const pub2 = await subtle.importKey("spki", spki, alg, true, ["verify"]);
    const priv2 = await subtle.importKey("pkcs8", pkcs8, alg, true, ["sign"]);
    const pub3 = await subtle.importKey("raw", raw, alg, true, ["verify"]);
    const priv3 = await subtle.importKey("jwk", jwk, alg, true, ["sign"]);
    assert_equals(hex(await subtle.exportKey("raw", pub2)), hex(raw));
    assert_equals(hex(await subtle.exportKey("pkcs8", priv3)), hex(pkcs8));
    assert_equals(hex(await subtle.exportKey("spki", pub3)), hex(spki));
    assert_equals(JSON.stringify(await subtle.exportKey("jwk", priv2)), JSON.stringify(jwk));
    const sig = await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, priv3, data);
    assert_true(await subtle.verify({ name: "ECDSA", hash: "SHA-256" }, pub3, sig, data));
  }, "ECDSA " + crv + " generateKey, sign, verify, export and import");
}

promise_test(async () => {
  const kp = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"]);
  const other = await subtle.generateKey({ name: "ECDSA", namedCurve: "P-384" }, true, ["sign", "verify"]);
  const spki = await subtle.exportKey("spki", kp.publicKey);
  const pkcs8 = await subtle.exportKey("pkcs8", kp.privateKey);
  const p256 = { name: "ECDSA", namedCurve: "P-256" };
  await promise_rejects("DataError", subtle.importKey("spki", spki, { name: "ECDSA", namedCurve: "P-384" }, true, ["verify"]), "another curve");
  await promise_rejects("DataError", subtle.importKey("spki", new Uint8Array(10), p256, true, ["verify"]), "not DER");
  await promise_rejects("DataError", subtle.importKey("raw", new Uint8Array(65), p256, true, ["verify"]), "not a point");
  await promise_rejects("SyntaxError", subtle.importKey("spki", spki, p256, true, ["sign"]), "sign with a public key");
  await promise_rejects("SyntaxError", subtle.importKey("pkcs8", pkcs8, p256, true, ["verify"]), "verify with a private key");
  await promise_rejects("SyntaxError", subtle.importKey("pkcs8", pkcs8, p256, true, []), "no usages");
  await promise_rejects("InvalidAccessError", subtle.exportKey("raw", kp.privateKey), "raw private");
  await promise_rejects("InvalidAccessError", subtle.exportKey("pkcs8", kp.publicKey), "pkcs8 of a public key");
  await promise_rejects("InvalidAccessError", subtle.exportKey("spki", kp.privateKey), "spki of a private key");
  await promise_rejects("InvalidAccessError", subtle.sign({ name: "ECDSA", hash: "SHA-256" }, kp.publicKey, new Uint8Array(1)), "sign with a public key");
  await promise_rejects(TypeError, subtle.sign("ECDSA", kp.privateKey, new Uint8Array(1)), "hash is required");
  await promise_rejects("NotSupportedError", subtle.generateKey({ name: "ECDSA", namedCurve: "P-192" }, true, ["sign"]));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["verify"]), "no private usage");
  assert_false(await subtle.verify({ name: "ECDSA", hash: "SHA-256" }, other.publicKey, await subtle.sign({ name: "ECDSA", hash: "SHA-256" }, kp.privateKey, new Uint8Array(1)), new Uint8Array(1)));
  const jwk = await subtle.exportKey("jwk", kp.privateKey);
  await promise_rejects("DataError", subtle.importKey("jwk", { ...jwk, crv: "P-384" }, p256, true, ["sign"]), "crv");
  await promise_rejects("DataError", subtle.importKey("jwk", { ...jwk, alg: "ES384" }, p256, true, ["sign"]), "alg");
  await promise_rejects("DataError", subtle.importKey("jwk", { ...jwk, x: jwk.y }, p256, true, ["sign"]), "x is not d's");
}, "ECDSA errors");

const ed25519Vectors = [
  ["9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60", "d75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a", "",
    "e5564300c360ac729086e2cc806e828a84877f1eb8e5d974d873e065224901555fb8821590a33bacc61e39701cf9b46bd25bf5f0595bbe24655141438e7a100b"],
  ["4ccd089b28ff96da9db6c346ec114e0f5b8a319f35aba624da8cf6ed4fb8a6fb", "3d4017c3e843895a92b70aa74d1b7ebc9c982ccf2ec4968cc0cd55f12af4660c", "72",
    "92a009a9f0d4cab8720e820b5f642540a2b27b5416503f8fb3762223ebdb69da085ac1e43e15996e458f3613d0f11d8c387b2eaeb4302aeeb00d291612bb0c00"],
];
ed25519Vectors.forEach(([seed, pubHex, msg, sigHex], i) => {
  promise_test(async () => {
    const priv = await subtle.importKey("pkcs8", unhex("302e020100300506032b657004220420" + seed), "Ed25519", true, ["sign"]);
    const pub = await subtle.importKey("raw", unhex(pubHex), { name: "ed25519" }, true, ["verify"]);
    const sig = await subtle.sign("Ed25519", priv, unhex(msg));
    assert_equals(hex(sig), sigHex);
    assert_true(await subtle.verify("Ed25519", pub, sig, unhex(msg)));
    assert_false(await subtle.verify("Ed25519", pub, sig, unhex(msg + "00")));
    assert_false(await subtle.verify("Ed25519", pub, sig.slice(1), unhex(msg)));
    assert_equals(hex(await subtle.exportKey("spki", pub)), "302a300506032b6570032100" + pubHex);
    const j = await subtle.exportKey("jwk", priv);
    assert_equals(j.kty, "OKP");
    assert_equals(j.crv, "Ed25519");
    assert_equals(j.x, b64url(unhex(pubHex)));
    assert_equals(j.d, b64url(unhex(seed)));
    const priv2 = await subtle.importKey("jwk", j, "Ed25519", false, ["sign"]);
    assert_equals(hex(await subtle.sign("Ed25519", priv2, unhex(msg))), sigHex);
  }, "Ed25519 RFC 8032 test " + (i + 1));
});

promise_test(async () => {
  const kp = await subtle.generateKey("Ed25519", true, ["sign", "verify"]);
  assert_equals(kp.publicKey.algorithm.name, "Ed25519");
  assert_array_equals(kp.privateKey.usages, ["sign"]);
  const pub = await subtle.exportKey("raw", kp.publicKey);
  assert_equals(pub.byteLength, 32);
  await promise_rejects("InvalidAccessError", subtle.exportKey("raw", kp.privateKey));
  await promise_rejects("DataError", subtle.importKey("raw", new Uint8Array(31), "Ed25519", true, ["verify"]));
  await promise_rejects("SyntaxError", subtle.importKey("raw", pub, "Ed25519", true, ["sign"]));
  const jwk = await subtle.exportKey("jwk", kp.privateKey);
  await promise_rejects("DataError", subtle.importKey("jwk", { ...jwk, crv: "X25519" }, "Ed25519", true, ["sign"]), "crv");
  await promise_rejects("DataError", subtle.importKey("jwk", { ...jwk, kty: "EC" }, "Ed25519", true, ["sign"]), "kty");
  await promise_rejects("InvalidAccessError", subtle.sign("Ed25519", kp.publicKey, new Uint8Array(1)));
}, "Ed25519 generateKey and errors");

const rsaAlgs = [ // [name, [private usage, public usage], params]
  ["RSASSA-PKCS1-v1_5", ["sign", "verify"], {}],
  ["RSA-PSS", ["sign", "verify"], { saltLength: 32 }],
  ["RSA-OAEP", ["decrypt", "encrypt"], {}],
];
for (const [name, usages, params] of rsaAlgs) {
  promise_test(async () => {
    const kp = await subtle.generateKey({ name, modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, usages);
    const a = kp.privateKey.algorithm;
    assert_equals(a.name, name);
    assert_equals(a.modulusLength, 1024);
    assert_true(a.publicExponent instanceof Uint8Array);
    assert_array_equals(a.publicExponent, [1, 0, 1]);
    assert_equals(a.hash.name, "SHA-256");
    assert_array_equals(kp.publicKey.usages, [usages[1] === "verify" ? "verify" : "encrypt"]);
    const data = utf8("rsa data");
    const run = async (priv, pub) => {
      if (usages[0] === "sign") {
        const sig = await subtle.sign({ name, ...params }, priv, data);
        assert_equals(sig.byteLength, 128);
        assert_true(await subtle.verify({ name, ...params }, pub, sig, data));
        assert_false(await subtle.verify({ name, ...params }, pub, sig, utf8("other")));
      } else {
        const c = await subtle.encrypt({ name }, pub, data);
        assert_equals(c.byteLength, 128);
        assert_equals(hex(await subtle.decrypt({ name }, priv, c)), hex(data));
      }
    };
    await run(kp.privateKey, kp.publicKey);
    const imp = { name, hash: "SHA-256" };
    const spki = await subtle.exportKey("spki", kp.publicKey);
    const pkcs8 = await subtle.exportKey("pkcs8", kp.privateKey);
    const jwk = await subtle.exportKey("jwk", kp.privateKey);
    assert_equals(jwk.alg, { "RSASSA-PKCS1-v1_5": "RS256", "RSA-PSS": "PS256", "RSA-OAEP": "RSA-OAEP-256" }[name]);
    const pubJwk = await subtle.exportKey("jwk", kp.publicKey);
    assert_equals(pubJwk.d, undefined);
    const pub2 = await subtle.importKey("spki", spki, imp, true, [usages[1]]);
    const priv2 = await subtle.importKey("pkcs8", pkcs8, imp, true, [usages[0]]);
    const priv3 = await subtle.importKey("jwk", jwk, imp, true, [usages[0]]);
    const pub3 = await subtle.importKey("jwk", pubJwk, imp, true, [usages[1]]);
    await run(priv2, pub3);
    await run(priv3, pub2);
    assert_equals(hex(await subtle.exportKey("pkcs8", priv3)), hex(pkcs8));
    assert_equals(hex(await subtle.exportKey("spki", pub3)), hex(spki));
    assert_equals(priv3.algorithm.modulusLength, 1024);
    await promise_rejects("DataError", subtle.importKey("jwk", { ...jwk, alg: "RS1" }, imp, true, [usages[0]]), "alg");
    await promise_rejects("SyntaxError", subtle.importKey("spki", spki, imp, true, [usages[0]]), "a private usage on a public key");
  }, name + " generateKey, export, import and use");
}

promise_test(async () => {
  const kp = await subtle.generateKey({ name: "RSA-PSS", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign", "verify"]);
  const data = utf8("pss");
  for (const saltLength of [0, 20, 32, 62]) {
    const sig = await subtle.sign({ name: "RSA-PSS", saltLength }, kp.privateKey, data);
    assert_true(await subtle.verify({ name: "RSA-PSS", saltLength }, kp.publicKey, sig, data), "salt " + saltLength);
    assert_false(await subtle.verify({ name: "RSA-PSS", saltLength: saltLength + 1 }, kp.publicKey, sig, data), "salt " + saltLength + " read as " + (saltLength + 1));
  }
  const zero1 = await subtle.sign({ name: "RSA-PSS", saltLength: 0 }, kp.privateKey, data);
  const zero2 = await subtle.sign({ name: "RSA-PSS", saltLength: 0 }, kp.privateKey, data);
  assert_equals(hex(zero1), hex(zero2), "no salt: deterministic");
  await promise_rejects("OperationError", subtle.sign({ name: "RSA-PSS", saltLength: 100 }, kp.privateKey, data), "salt too long");
  await promise_rejects(TypeError, subtle.sign({ name: "RSA-PSS" }, kp.privateKey, data), "saltLength is required");
}, "RSA-PSS salt lengths");

promise_test(async () => {
  const kp = await subtle.generateKey({ name: "RSA-OAEP", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-1" }, true, ["encrypt", "decrypt", "wrapKey", "unwrapKey"]);
  assert_array_equals(kp.publicKey.usages, ["encrypt", "wrapKey"]);
  assert_array_equals(kp.privateKey.usages, ["decrypt", "unwrapKey"]);
  const label = utf8("label");
  const c = await subtle.encrypt({ name: "RSA-OAEP", label }, kp.publicKey, utf8("secret"));
  assert_equals(hex(await subtle.decrypt({ name: "RSA-OAEP", label }, kp.privateKey, c)), hex(utf8("secret")));
  await promise_rejects("OperationError", subtle.decrypt({ name: "RSA-OAEP", label: utf8("other") }, kp.privateKey, c), "another label");
  await promise_rejects("OperationError", subtle.encrypt({ name: "RSA-OAEP" }, kp.publicKey, new Uint8Array(100)), "too long for the key");
  assert_equals((await subtle.exportKey("jwk", kp.publicKey)).alg, "RSA-OAEP");
  const aes = await subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["encrypt"]);
  const w = await subtle.wrapKey("raw", aes, kp.publicKey, { name: "RSA-OAEP" });
  const u = await subtle.unwrapKey("raw", w, kp.privateKey, { name: "RSA-OAEP" }, "AES-GCM", true, ["encrypt"]);
  assert_equals(hex(await subtle.exportKey("raw", u)), hex(await subtle.exportKey("raw", aes)));
}, "RSA-OAEP labels, limits and key wrapping");

promise_test(async () => {
  const gen = (o) => subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256", ...o }, true, ["sign", "verify"]);
  await promise_rejects(TypeError, gen({ publicExponent: [1, 0, 1] }), "publicExponent is a Uint8Array");
  await promise_rejects(TypeError, gen({ hash: undefined }), "hash is required");
  await promise_rejects(TypeError, gen({ modulusLength: undefined }), "modulusLength is required");
  await promise_rejects("SyntaxError", gen({}).then(() => subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["encrypt"])), "usage");
  await promise_rejects("DataError", subtle.importKey("spki", new Uint8Array(5), { name: "RSA-PSS", hash: "SHA-256" }, true, ["verify"]));
  await promise_rejects("NotSupportedError", subtle.importKey("raw", new Uint8Array(5), { name: "RSA-PSS", hash: "SHA-256" }, true, ["verify"]));
}, "RSA errors");

promise_test(async () => {
  const kp = await subtle.generateKey({ name: "RSA-PSS", modulusLength: 1024, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-256" }, true, ["sign", "verify"]);
  await promise_rejects("NotSupportedError", subtle.exportKey("raw", kp.publicKey));
}, "spec: exporting an RSA key as raw is a NotSupportedError (Node 20: InvalidAccessError)");

promise_test(async () => {
  const kp = await subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]), hash: "SHA-512" }, false, ["sign", "verify"]);
  assert_equals(kp.privateKey.algorithm.modulusLength, 2048);
  const sig = await subtle.sign("RSASSA-PKCS1-v1_5", kp.privateKey, utf8("x"));
  assert_equals(sig.byteLength, 256);
  assert_true(await subtle.verify("RSASSA-PKCS1-v1_5", kp.publicKey, sig, utf8("x")));
}, "RSASSA-PKCS1-v1_5 2048-bit key");

promise_test(async () => {
  const kp = await subtle.generateKey({ name: "RSASSA-PKCS1-v1_5", modulusLength: 1024, publicExponent: new Uint8Array([3]), hash: "SHA-256" }, true, ["sign", "verify"]);
  assert_array_equals(kp.publicKey.algorithm.publicExponent, [3]);
}, "RSA generateKey with the public exponent 3");
