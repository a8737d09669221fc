// SubtleCrypto.digest: FIPS 180-4 known answers (the "abc", empty and
// 448-bit messages of the NIST examples), BufferSource kinds,
// normalization and errors.
const digestVectors = {
  "SHA-1": ["a9993e364706816aba3e25717850c26c9cd0d89d", "da39a3ee5e6b4b0d3255bfef95601890afd80709", "84983e441c3bd26ebaae4aa1f95129e5e54670f1"],
  "SHA-256": ["ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"],
  "SHA-384": ["cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7", "38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b", "3391fdddfc8dc7393707a65b1b4709397cf8b1d162af05abfe8f450de5f36bc6b0455a8520bc4e6f5fe95b1fe3c8452b"],
  "SHA-512": ["ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f", "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e", "204a8fc6dda82f0a0ced7beb8e08a41657c16ef468b228a8279be331a703c33596fd15c13b1b07f9aa1d3bea57789ca031ad85c7a71dd70354ec631238ca3445"],
};
const digestInputs = ["abc", "", "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"];
for (const [alg, want] of Object.entries(digestVectors)) {
  digestInputs.forEach((input, i) => {
    promise_test(async () => {
      const d = await subtle.digest(alg, utf8(input));
      assert_true(d instanceof ArrayBuffer, "an ArrayBuffer");
      assert_equals(hex(d), want[i]);
    }, "digest " + alg + " of " + JSON.stringify(input));
  });
}

promise_test(async () => {
  const d = await subtle.digest("SHA-256", utf8("a".repeat(1000000)));
  assert_equals(hex(d), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}, "digest SHA-256 of a million a's");

promise_test(async () => {
  const bytes = utf8("abc");
  const want = digestVectors["SHA-256"][0];
  const buf = new ArrayBuffer(7);
  new Uint8Array(buf).set(bytes, 2);
  for (const v of [bytes.buffer, bytes, new Uint8ClampedArray(bytes), new DataView(buf, 2, 3), new Uint8Array(buf, 2, 3), new Int8Array(bytes.buffer)]) {
    assert_equals(hex(await subtle.digest("SHA-256", v)), want, Object.prototype.toString.call(v));
  }
  const u16 = new Uint16Array([0x6261, 0x0063]);
  assert_equals(hex(await subtle.digest("SHA-256", u16)), hex(await subtle.digest("SHA-256", new Uint8Array([0x61, 0x62, 0x63, 0]))));
}, "digest accepts every BufferSource");

promise_test(async () => {
  const want = digestVectors["SHA-384"][0];
  for (const alg of ["sha-384", "Sha-384", { name: "SHA-384" }, { name: "sHa-384", extra: 1 }]) {
    assert_equals(hex(await subtle.digest(alg, utf8("abc"))), want, __fmt(alg));
  }
}, "digest algorithm names are case-insensitive, as strings or dictionaries");

promise_test(async () => {
  await promise_rejects("NotSupportedError", subtle.digest("SHA-3", new Uint8Array(1)));
  await promise_rejects("NotSupportedError", subtle.digest("MD5", new Uint8Array(1)));
  await promise_rejects("NotSupportedError", subtle.digest("SHA256", new Uint8Array(1)));
  await promise_rejects("NotSupportedError", subtle.digest("HMAC", new Uint8Array(1)));
  await promise_rejects("NotSupportedError", subtle.digest({ name: "SHA-\u017f" }, new Uint8Array(1)));
  await promise_rejects(TypeError, subtle.digest({}, new Uint8Array(1)));
  await promise_rejects(TypeError, subtle.digest("SHA-256", "abc"));
  await promise_rejects(TypeError, subtle.digest("SHA-256", [1, 2]));
  await promise_rejects(TypeError, subtle.digest("SHA-256"));
  await promise_rejects(TypeError, subtle.digest());
}, "digest rejects unknown algorithms and non-buffers");

promise_test(async () => {
  const data = utf8("abc");
  const p = subtle.digest("SHA-256", data);
  data[0] = 0;
  assert_equals(hex(await p), digestVectors["SHA-256"][0]);
}, "digest reads its data when called");

promise_test(async () => {
  const big = new Uint8Array(2 << 20).fill(7);
  const p = subtle.digest("SHA-256", big);
  big.fill(0);
  const a = hex(await p);
  assert_equals(a, hex(await subtle.digest("SHA-256", new Uint8Array(2 << 20).fill(7))));
  assert_true(a !== hex(await subtle.digest("SHA-256", big)));
}, "digest of 2 MB (off the JS thread) reads its data when called");
