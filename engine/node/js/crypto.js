// node:crypto for bext: random values, hashes, HMAC, PBKDF2/HKDF and
// timingSafeEqual natively; webcrypto is the isolate's crypto global.
"use strict";
const { Buffer } = require("buffer");

function codeError(Ctor, code, msg) {
  const e = new Ctor(msg);
  e.code = code;
  return e;
}

function toBytes(data, encoding, name) {
  if (typeof data === "string") return Buffer.from(data, encoding);
  if (data instanceof Uint8Array) return data;
  if (ArrayBuffer.isView(data)) return new Uint8Array(data.buffer, data.byteOffset, data.byteLength);
  if (data instanceof ArrayBuffer) return new Uint8Array(data);
  throw codeError(TypeError, "ERR_INVALID_ARG_TYPE",
    'The "' + (name || "data") + '" argument must be of type string or an instance of Buffer, TypedArray, or DataView. Received ' +
    (data === null ? "null" : data === undefined ? "undefined" : typeof data));
}

function output(ab, encoding) {
  const b = Buffer.from(ab);
  return encoding === undefined || encoding === "buffer" ? b : b.toString(encoding);
}

class Hash {
  constructor(algorithm, handle) {
    if (handle === undefined) {
      if (typeof algorithm !== "string") throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "algorithm" argument must be of type string. Received ' + typeof algorithm);
      if (!native.hasHash(algorithm)) throw new Error("Digest method not supported");
      handle = native.hashNew(algorithm);
    }
    this._alg = algorithm;
    this._h = handle;
    this._done = false;
  }
  update(data, encoding) {
    if (this._done) throw codeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    native.hashUpdate(this._h, toBytes(data, encoding));
    return this;
  }
  digest(encoding) {
    if (this._done) throw codeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    this._done = true;
    return output(native.hashDigest(this._h), encoding);
  }
  copy() {
    if (this._done) throw codeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    return new Hash(this._alg, native.hashCopy(this._h, this._alg));
  }
}

class Hmac {
  constructor(algorithm, key) {
    if (!native.hasHash(algorithm)) throw codeError(Error, "ERR_OSSL_EVP_UNSUPPORTED", "Invalid digest: " + algorithm);
    if (key && typeof key === "object" && key.type === "secret" && typeof key.export === "function") key = key.export();
    this._h = native.hmacNew(algorithm, toBytes(key, undefined, "key"));
    this._done = false;
  }
  update(data, encoding) {
    if (this._done) throw codeError(Error, "ERR_CRYPTO_HASH_FINALIZED", "Digest already called");
    native.hashUpdate(this._h, toBytes(data, encoding));
    return this;
  }
  digest(encoding) {
    if (this._done) return encoding === undefined || encoding === "buffer" ? Buffer.alloc(0) : "";
    this._done = true;
    return output(native.hashDigest(this._h), encoding);
  }
}

function randomBytes(size, cb) {
  if (typeof size !== "number" || !(size >= 0 && size <= 2 ** 31 - 1) || Math.floor(size) !== size) {
    if (typeof size !== "number") throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "size" argument must be of type number. Received ' + typeof size);
    throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "size" is out of range. It must be >= 0 && <= 2147483647. Received ' + size);
  }
  const b = Buffer.from(native.randomBytes(size));
  if (typeof cb === "function") {
    process.nextTick(cb, null, b);
    return undefined;
  }
  return b;
}

function randomFillSync(buf, offset = 0, size) {
  const view = ArrayBuffer.isView(buf) ? new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength) : new Uint8Array(buf);
  const end = size === undefined ? view.length : offset + size;
  native.randomFill(view.subarray(offset, end));
  return buf;
}

function randomInt(min, max, cb) {
  if (max === undefined || typeof max === "function") { cb = max; max = min; min = 0; }
  if (!Number.isSafeInteger(min)) throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "min" argument must be a safe integer. Received ' + min);
  if (!Number.isSafeInteger(max)) throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "max" argument must be a safe integer. Received ' + max);
  if (max <= min) throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "max" is out of range. It must be greater than the value of "min" (' + min + "). Received " + max);
  const range = max - min;
  const limit = 2 ** 48 - (2 ** 48 % range);
  let x;
  do {
    const b = new Uint8Array(native.randomBytes(6));
    x = b[0] * 2 ** 40 + b[1] * 2 ** 32 + b[2] * 2 ** 24 + b[3] * 2 ** 16 + b[4] * 2 ** 8 + b[5];
  } while (x >= limit);
  const n = min + (x % range);
  if (typeof cb === "function") { process.nextTick(cb, null, n); return undefined; }
  return n;
}

function timingSafeEqual(a, b) {
  a = toBytes(a, undefined, "buf1");
  b = toBytes(b, undefined, "buf2");
  if (a.byteLength !== b.byteLength) throw codeError(RangeError, "ERR_CRYPTO_TIMING_SAFE_EQUAL_LENGTH", "Input buffers must have the same byte length");
  return native.timingSafeEqual(a, b);
}

function pbkdf2Sync(password, salt, iterations, keylen, digest) {
  if (!native.hasHash(digest)) throw codeError(TypeError, "ERR_CRYPTO_INVALID_DIGEST", "Invalid digest: " + digest);
  return Buffer.from(native.pbkdf2(toBytes(password, undefined, "password"), toBytes(salt, undefined, "salt"), iterations, keylen, digest));
}
function pbkdf2(password, salt, iterations, keylen, digest, cb) {
  let r, err = null;
  try { r = pbkdf2Sync(password, salt, iterations, keylen, digest); } catch (e) { err = e; }
  process.nextTick(cb, err, r);
}
function hkdfSync(digest, ikm, salt, info, keylen) {
  if (!native.hasHash(digest)) throw codeError(TypeError, "ERR_CRYPTO_INVALID_DIGEST", "Invalid digest: " + digest);
  return native.hkdf(digest, toBytes(ikm, undefined, "ikm"), toBytes(salt, undefined, "salt"), toBytes(info, undefined, "info"), keylen);
}
function hkdf(digest, ikm, salt, info, keylen, cb) {
  let r, err = null;
  try { r = hkdfSync(digest, ikm, salt, info, keylen); } catch (e) { err = e; }
  process.nextTick(cb, err, r);
}

// webcryptoFallback is crypto.webcrypto while the isolate has no Web
// Crypto global: random values only.
const webcryptoFallback = {
  getRandomValues(arr) {
    if (!ArrayBuffer.isView(arr) || arr instanceof Float32Array || arr instanceof Float64Array || arr instanceof DataView) {
      const e = new TypeError("The data argument must be an integer-type TypedArray");
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    if (arr.byteLength > 65536) {
      const e = new Error("The ArrayBufferView's byte length (" + arr.byteLength + ") exceeds the number of bytes of entropy available via this API (65536)");
      e.name = "QuotaExceededError";
      throw e;
    }
    return randomFillSync(arr);
  },
  randomUUID() { return native.randomUUID(); },
  subtle: undefined,
};

const hashNames = ["md5", "sha1", "sha224", "sha256", "sha384", "sha512", "sha512-224", "sha512-256", "sha3-224", "sha3-256", "sha3-384", "sha3-512"];

function unsupported(name) {
  return function () {
    throw codeError(Error, "ERR_BEXT_UNSUPPORTED", "crypto." + name + " is not available in a bext isolate; use crypto.subtle (Web Crypto) instead");
  };
}

module.exports = {
  createHash: (alg, opts) => new Hash(alg),
  createHmac: (alg, key) => new Hmac(alg, key),
  Hash,
  Hmac,
  hash: (alg, data, enc = "hex") => new Hash(alg).update(data).digest(enc),
  randomBytes,
  pseudoRandomBytes: randomBytes,
  prng: randomBytes,
  rng: randomBytes,
  randomFillSync,
  randomFill(buf, offset, size, cb) {
    if (typeof offset === "function") { cb = offset; offset = 0; size = undefined; }
    else if (typeof size === "function") { cb = size; size = undefined; }
    randomFillSync(buf, offset, size);
    process.nextTick(cb, null, buf);
  },
  randomInt,
  randomUUID: () => native.randomUUID(),
  getRandomValues: (arr) => randomFillSync(arr),
  timingSafeEqual,
  pbkdf2Sync,
  pbkdf2,
  hkdfSync,
  hkdf,
  getHashes: () => hashNames.slice(),
  getCiphers: () => [],
  getCurves: () => [],
  constants: {},
  get webcrypto() { return globalThis.crypto || webcryptoFallback; },
  get subtle() { return globalThis.crypto ? globalThis.crypto.subtle : undefined; },
  createCipheriv: unsupported("createCipheriv"),
  createDecipheriv: unsupported("createDecipheriv"),
  createSign: unsupported("createSign"),
  createVerify: unsupported("createVerify"),
  createPrivateKey: unsupported("createPrivateKey"),
  createPublicKey: unsupported("createPublicKey"),
  createSecretKey: unsupported("createSecretKey"),
  generateKeyPairSync: unsupported("generateKeyPairSync"),
  generateKeyPair: unsupported("generateKeyPair"),
  scryptSync: unsupported("scryptSync"),
  scrypt: unsupported("scrypt"),
  sign: unsupported("sign"),
  verify: unsupported("verify"),
  publicEncrypt: unsupported("publicEncrypt"),
  privateDecrypt: unsupported("privateDecrypt"),
  createECDH: unsupported("createECDH"),
  createDiffieHellman: unsupported("createDiffieHellman"),
};
