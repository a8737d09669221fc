// AES-CBC and AES-CTR (NIST SP 800-38A F.2.1, F.5.1), AES-GCM (the test
// cases of McGrew and Viega's GCM specification), AES-KW (RFC 3394 §4),
// keys, and the errors the Web Cryptography API names.
const sp800Key = unhex("2b7e151628aed2a6abf7158809cf4f3c");
const sp800Plain = unhex("6bc1bee22e409f96e93d7e117393172aae2d8a571e03ac9c9eb76fac45af8e5130c81c46a35ce411e5fbc1191a0a52eff69f2445df4f9b17ad2b417be66c3710");
const aesKey = (name, raw, usages = ["encrypt", "decrypt"]) => subtle.importKey("raw", raw, name, true, usages);

promise_test(async () => {
  const k = await aesKey("AES-CBC", sp800Key);
  const iv = unhex("000102030405060708090a0b0c0d0e0f");
  const c = await subtle.encrypt({ name: "AES-CBC", iv }, k, sp800Plain);
  assert_equals(c.byteLength, 80, "a block of padding");
  assert_equals(hex(c).slice(0, 128), "7649abac8119b246cee98e9b12e9197d5086cb9b507219ee95db113a917678b273bed6b8e3c1743b7116e69e222295163ff1caa1681fac09120eca307586e1a7");
  assert_equals(hex(await subtle.decrypt({ name: "aes-cbc", iv }, k, c)), hex(sp800Plain));
}, "AES-CBC SP 800-38A F.2.1");

promise_test(async () => {
  const k = await aesKey("AES-CBC", new Uint8Array(32));
  const iv = new Uint8Array(16);
  for (const n of [0, 1, 15, 16, 17, 33]) {
    const p = new Uint8Array(n).fill(7);
    const c = await subtle.encrypt({ name: "AES-CBC", iv }, k, p);
    assert_equals(c.byteLength, (Math.floor(n / 16) + 1) * 16);
    assert_equals(hex(await subtle.decrypt({ name: "AES-CBC", iv }, k, c)), hex(p));
  }
  await promise_rejects("OperationError", subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(12) }, k, new Uint8Array(1)), "iv length");
  await promise_rejects("OperationError", subtle.decrypt({ name: "AES-CBC", iv }, k, new Uint8Array(15)), "partial block");
  await promise_rejects("OperationError", subtle.decrypt({ name: "AES-CBC", iv }, k, new Uint8Array(0)), "empty");
  const c = new Uint8Array(await subtle.encrypt({ name: "AES-CBC", iv }, k, new Uint8Array(16)));
  c[31] ^= 0x55;
  await promise_rejects("OperationError", subtle.decrypt({ name: "AES-CBC", iv }, k, c), "bad padding");
  await promise_rejects(TypeError, subtle.encrypt({ name: "AES-CBC" }, k, new Uint8Array(1)), "iv is required");
}, "AES-CBC padding and errors");

promise_test(async () => {
  const k = await aesKey("AES-CTR", sp800Key);
  const counter = unhex("f0f1f2f3f4f5f6f7f8f9fafbfcfdfeff");
  const want = "874d6191b620e3261bef6864990db6ce9806f66b7970fdff8617187bb9fffdff5ae4df3edbd5d35e5b4f09020db03eab1e031dda2fbe03d1792170a0f3009cee";
  for (const length of [64, 128]) {
    const c = await subtle.encrypt({ name: "AES-CTR", counter, length }, k, sp800Plain);
    assert_equals(hex(c), want, "length " + length);
    assert_equals(hex(await subtle.decrypt({ name: "AES-CTR", counter, length }, k, c)), hex(sp800Plain));
  }
  assert_equals(hex(await subtle.encrypt({ name: "AES-CTR", counter, length: 64 }, k, sp800Plain.slice(0, 20))), want.slice(0, 40), "a partial block");
}, "AES-CTR SP 800-38A F.5.1");

promise_test(async () => {
  const k = await aesKey("AES-CTR", sp800Key);
  const c0 = unhex("00000000000000000000000000000000");
  await promise_rejects("OperationError", subtle.encrypt({ name: "AES-CTR", counter: new Uint8Array(8), length: 64 }, k, new Uint8Array(1)), "counter length");
  await promise_rejects("OperationError", subtle.encrypt({ name: "AES-CTR", counter: c0, length: 0 }, k, new Uint8Array(1)), "length 0");
  await promise_rejects("OperationError", subtle.encrypt({ name: "AES-CTR", counter: c0, length: 129 }, k, new Uint8Array(1)), "length 129");
  await promise_rejects(TypeError, subtle.encrypt({ name: "AES-CTR", counter: c0, length: 256 }, k, new Uint8Array(1)), "length is an octet");
  await promise_rejects(TypeError, subtle.encrypt({ name: "AES-CTR", counter: c0 }, k, new Uint8Array(1)), "length is required");
}, "AES-CTR errors");

promise_test(async () => {
  const k = await aesKey("AES-CTR", sp800Key);
  // The counter is the rightmost 4 bits; it wraps to zero without carrying.
  const start = unhex("0102030405060708090a0b0c0d0e0f0f");
  const zero = unhex("0102030405060708090a0b0c0d0e0f00");
  const two = await subtle.encrypt({ name: "AES-CTR", counter: start, length: 4 }, k, new Uint8Array(32));
  const first = await subtle.encrypt({ name: "AES-CTR", counter: start, length: 4 }, k, new Uint8Array(16));
  const wrapped = await subtle.encrypt({ name: "AES-CTR", counter: zero, length: 4 }, k, new Uint8Array(16));
  assert_equals(hex(two), hex(first) + hex(wrapped));
  await subtle.encrypt({ name: "AES-CTR", counter: start, length: 4 }, k, new Uint8Array(16 * 16));
  await promise_rejects("OperationError", subtle.encrypt({ name: "AES-CTR", counter: start, length: 4 }, k, new Uint8Array(16 * 16 + 1)), "17 blocks repeat the counter");
}, "AES-CTR counter wraps within its length");

const gcmCases = [
  // [key, iv, plain, aad, cipher, tag]
  ["00000000000000000000000000000000", "000000000000000000000000", "", "", "", "58e2fccefa7e3061367f1d57a4e7455a"],
  ["00000000000000000000000000000000", "000000000000000000000000", "00000000000000000000000000000000", "", "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"],
  ["feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b391aafd255", "",
    "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091473f5985", "4d5c2af327cd64a62cf35abd2ba6fab4"],
  ["feffe9928665731c6d6a8f9467308308", "cafebabefacedbaddecaf888",
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
    "42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091", "5bc94fbc3221a5db94fae95ae7121a47"],
  ["feffe9928665731c6d6a8f9467308308", "cafebabefacedbad",
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
    "61353b4c2806934a777ff51fa22a4755699b2a714fcdc6f83766e5f97b6c742373806900e49f24b22b097544d4896b424989b5e1ebac0f07c23f4598", "3612d2e79e3b0785561be14aaca2fccb"],
  ["feffe9928665731c6d6a8f9467308308", "9313225df88406e555909c5aff5269aa6a7a9538534f7da1e4c303d2a318a728c3c0c95156809539fcf0e2429a6b525416aedbf5a0de6a57a637b39b",
    "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39", "feedfacedeadbeeffeedfacedeadbeefabaddad2",
    "8ce24998625615b603a033aca13fb894be9112a5c3a211a8ba262a3cca7e2ca701e4a9a4fba43c90ccdcb281d48c7c6fd62875d2aca417034c34aee5", "619cc5aefffe0bfa462af43c1699d050"],
];
gcmCases.forEach(([key, iv, plain, aad, ct, tag], i) => {
  promise_test(async () => {
    const k = await aesKey("AES-GCM", unhex(key));
    const p = { name: "AES-GCM", iv: unhex(iv) };
    if (aad) p.additionalData = unhex(aad);
    const c = await subtle.encrypt(p, k, unhex(plain));
    assert_equals(hex(c), ct + tag);
    assert_equals(hex(await subtle.decrypt(p, k, c)), plain);
    for (const tagLength of [32, 64, 96, 104, 112, 120]) {
      const q = { ...p, tagLength };
      const short = await subtle.encrypt(q, k, unhex(plain));
      assert_equals(hex(short), ct + tag.slice(0, tagLength / 4), "tagLength " + tagLength);
      assert_equals(hex(await subtle.decrypt(q, k, short)), plain, "tagLength " + tagLength);
      const bad = new Uint8Array(short); bad[bad.length - 1] ^= 1;
      await promise_rejects("OperationError", subtle.decrypt(q, k, bad), "a changed tag of " + tagLength);
    }
    const bad = new Uint8Array(c); bad[0] ^= 1;
    await promise_rejects("OperationError", subtle.decrypt(p, k, bad), "a changed ciphertext");
  }, (i === 4 ? "spec: " : "") + "AES-GCM test case " + (i + 1) + (i === 4 ? " (a 64-bit iv: Node 20 refuses ivs under 96 bits)" : ""));
});

promise_test(async () => {
  const k = await aesKey("AES-GCM", new Uint8Array(16));
  const iv = new Uint8Array(12);
  for (const tagLength of [0, 8, 33, 127, 136]) {
    await promise_rejects(tagLength > 255 ? TypeError : "OperationError", subtle.encrypt({ name: "AES-GCM", iv, tagLength }, k, new Uint8Array(1)), "tagLength " + tagLength);
  }
  await promise_rejects("OperationError", subtle.decrypt({ name: "AES-GCM", iv }, k, new Uint8Array(15)), "shorter than the tag");
  await promise_rejects(TypeError, subtle.encrypt({ name: "AES-GCM" }, k, new Uint8Array(1)), "iv is required");
  await promise_rejects(TypeError, subtle.encrypt({ name: "AES-GCM", iv: "abc" }, k, new Uint8Array(1)), "iv is a buffer");
  await promise_rejects("InvalidAccessError", subtle.encrypt({ name: "AES-CBC", iv: new Uint8Array(16) }, k, new Uint8Array(1)), "a GCM key for CBC");
}, "AES-GCM errors");

promise_test(async () => {
  for (const name of ["AES-GCM", "AES-CBC", "AES-CTR", "AES-KW"]) {
    for (const length of [128, 192, 256]) {
      const usages = name === "AES-KW" ? ["wrapKey", "unwrapKey"] : ["encrypt", "decrypt"];
      const k = await subtle.generateKey({ name, length }, true, usages);
      assert_equals(k.type, "secret");
      assert_equals(k.algorithm.name, name);
      assert_equals(k.algorithm.length, length);
      const raw = await subtle.exportKey("raw", k);
      assert_equals(raw.byteLength, length / 8);
      const j = await subtle.exportKey("jwk", k);
      assert_equals(j.alg, "A" + length + name.slice(4));
      assert_equals(j.kty, "oct");
      const k2 = await subtle.importKey("jwk", j, name, true, usages);
      assert_equals(hex(await subtle.exportKey("raw", k2)), hex(raw));
      assert_equals(k2.algorithm.length, length);
    }
  }
}, "AES generateKey, export and import as raw and jwk");

promise_test(async () => {
  await promise_rejects("OperationError", subtle.generateKey({ name: "AES-GCM", length: 100 }, true, ["encrypt"]));
  await promise_rejects(TypeError, subtle.generateKey({ name: "AES-GCM" }, true, ["encrypt"]));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "AES-GCM", length: 128 }, true, ["sign"]));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "AES-KW", length: 128 }, true, ["encrypt"]));
  await promise_rejects("SyntaxError", subtle.generateKey({ name: "AES-GCM", length: 128 }, true, []));
  await promise_rejects("DataError", aesKey("AES-GCM", new Uint8Array(20)));
  await promise_rejects("DataError", aesKey("AES-GCM", new Uint8Array(0)));
  await promise_rejects("SyntaxError", aesKey("AES-GCM", new Uint8Array(16), ["sign"]));
  await promise_rejects("NotSupportedError", subtle.importKey("spki", new Uint8Array(16), "AES-GCM", true, ["encrypt"]));
  const j = { kty: "oct", k: "AAAAAAAAAAAAAAAAAAAAAA" };
  await subtle.importKey("jwk", { ...j, alg: "A128GCM" }, "AES-GCM", true, ["encrypt"]);
  await promise_rejects("DataError", subtle.importKey("jwk", { ...j, alg: "A256GCM" }, "AES-GCM", true, ["encrypt"]), "alg of another length");
  await promise_rejects("DataError", subtle.importKey("jwk", { ...j, alg: "A128CBC" }, "AES-GCM", true, ["encrypt"]), "alg of another mode");
  await promise_rejects("DataError", subtle.importKey("jwk", { ...j, use: "sig" }, "AES-GCM", true, ["encrypt"]), "use");
  await promise_rejects("DataError", subtle.importKey("jwk", { ...j, kty: "RSA" }, "AES-GCM", true, ["encrypt"]), "kty");
}, "AES key errors");

promise_test(async () => {
  const kek = await subtle.importKey("raw", unhex("000102030405060708090a0b0c0d0e0f"), "AES-KW", true, ["wrapKey", "unwrapKey"]);
  const key = await subtle.importKey("raw", unhex("00112233445566778899aabbccddeeff"), "AES-GCM", true, ["encrypt"]);
  const w = await subtle.wrapKey("raw", key, kek, "AES-KW");
  assert_equals(hex(w), "1fa68b0a8112b447aef34bd8fb5a7b829d3e862371d2cfe5");
  const u = await subtle.unwrapKey("raw", w, kek, "AES-KW", "AES-GCM", true, ["encrypt", "decrypt"]);
  assert_equals(hex(await subtle.exportKey("raw", u)), "00112233445566778899aabbccddeeff");
  assert_array_equals(u.usages, ["encrypt", "decrypt"]);
  const bad = new Uint8Array(w); bad[3] ^= 1;
  await promise_rejects("OperationError", subtle.unwrapKey("raw", bad, kek, "AES-KW", "AES-GCM", true, ["encrypt"]));
}, "AES-KW RFC 3394 4.1");

promise_test(async () => {
  const kek = await subtle.importKey("raw", unhex("000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f"), "AES-KW", true, ["wrapKey"]);
  const key = await subtle.importKey("raw", unhex("00112233445566778899aabbccddeeff000102030405060708090a0b0c0d0e0f"), { name: "HMAC", hash: "SHA-256" }, true, ["sign"]);
  assert_equals(hex(await subtle.wrapKey("raw", key, kek, { name: "aes-kw" })), "28c9f404c4b810f4cbccb35cfb87f8263f5786e2d80ed326cbc7f0e71a99f43bfb988b9b7a02dd21");
}, "AES-KW RFC 3394 4.6");

promise_test(async () => {
  const kek = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["wrapKey", "unwrapKey"]);
  const key = await subtle.generateKey({ name: "HMAC", hash: "SHA-384" }, true, ["sign", "verify"]);
  const iv = new Uint8Array(12);
  const w = await subtle.wrapKey("jwk", key, kek, { name: "AES-GCM", iv });
  const u = await subtle.unwrapKey("jwk", w, kek, { name: "AES-GCM", iv }, { name: "HMAC", hash: "SHA-384" }, false, ["verify"]);
  assert_equals(u.extractable, false);
  assert_equals(u.algorithm.hash.name, "SHA-384");
  const data = utf8("wrapped");
  assert_true(await subtle.verify("HMAC", u, await subtle.sign("HMAC", key, data), data));
  const noWrap = await subtle.generateKey({ name: "AES-GCM", length: 128 }, false, ["encrypt"]);
  await promise_rejects("InvalidAccessError", subtle.wrapKey("raw", key, noWrap, { name: "AES-GCM", iv }), "no wrapKey usage");
}, "wrapKey and unwrapKey of a JWK with AES-GCM");

promise_test(async () => {
  const kek = await subtle.generateKey({ name: "AES-GCM", length: 256 }, false, ["wrapKey", "unwrapKey"]);
  const ne = await subtle.generateKey({ name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  await promise_rejects("InvalidAccessError", subtle.wrapKey("raw", ne, kek, { name: "AES-GCM", iv: new Uint8Array(12) }));
}, "spec: wrapKey of a non-extractable key is an InvalidAccessError (Node 20 names it InvalidAccessException)");
