// node:buffer — Buffer as a Uint8Array subclass, written for bext from
// Node's documentation; string codecs and byte loops are native (Go).
"use strict";
const kMaxLength = 2 ** 32;
const kStringMaxLength = 2 ** 29 - 24;
const INSPECT_MAX_BYTES = { value: 50 };

class FastBuffer extends Uint8Array {
  constructor(a, b, c) { super(a, b, c); }
}

function codeError(Ctor, code, msg) {
  const e = new Ctor(msg);
  e.code = code;
  return e;
}

function describe(v) {
  if (v == null) return String(v);
  if (typeof v === "function") return "function " + v.name;
  if (typeof v === "object") return v.constructor && v.constructor.name ? "an instance of " + v.constructor.name : "an instance of Object";
  let s = typeof v === "string" ? "'" + v + "'" : typeof v === "bigint" ? v + "n" : String(v);
  if (s.length > 28) s = s.slice(0, 25) + "...";
  return "type " + typeof v + " (" + s + ")";
}

function normalizeEncoding(enc) {
  if (enc == null || enc === "utf8" || enc === "utf-8") return "utf8";
  switch (String(enc).toLowerCase()) {
    case "utf8": case "utf-8": return "utf8";
    case "ucs2": case "ucs-2": case "utf16le": case "utf-16le": return "utf16le";
    case "latin1": case "binary": return "latin1";
    case "base64": return "base64";
    case "base64url": return "base64url";
    case "hex": return "hex";
    case "ascii": return "ascii";
    case "": return "utf8";
  }
  return undefined;
}

function getEncoding(enc) {
  const e = normalizeEncoding(enc);
  if (e === undefined) throw codeError(TypeError, "ERR_UNKNOWN_ENCODING", "Unknown encoding: " + enc);
  return e;
}

function checkSize(size) {
  if (typeof size !== "number") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "size" argument must be of type number. Received ' + describe(size));
  }
  if (!(size >= 0 && size <= kMaxLength)) {
    throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "size" is out of range. It must be >= 0 && <= ' + kMaxLength + ". Received " + String(size).replace(/\B(?=(\d{3})+(?!\d))/g, "_"));
  }
}

function Buffer(arg, encodingOrOffset, length) {
  if (typeof arg === "number") {
    if (typeof encodingOrOffset === "string") {
      throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "string" argument must be of type string. Received type number (' + arg + ")");
    }
    return Buffer.alloc(arg);
  }
  return Buffer.from(arg, encodingOrOffset, length);
}
Object.setPrototypeOf(Buffer, Uint8Array);
Object.defineProperty(Buffer, "prototype", { value: FastBuffer.prototype, writable: false });
Object.defineProperty(FastBuffer.prototype, "constructor", { value: Buffer, writable: true, configurable: true });
Buffer.poolSize = 8192;

function fromString(string, encoding) {
  const enc = getEncoding(encoding);
  return new FastBuffer(native.encode(string, enc));
}

function fromArrayLike(obj) {
  const n = obj.length >>> 0;
  const b = new FastBuffer(n);
  for (let i = 0; i < n; i++) b[i] = obj[i];
  return b;
}

Buffer.from = function from(value, encodingOrOffset, length) {
  if (typeof value === "string") return fromString(value, encodingOrOffset);
  if (typeof value === "object" && value !== null) {
    if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer !== "undefined" && value instanceof SharedArrayBuffer)) {
      const off = encodingOrOffset === undefined ? 0 : +encodingOrOffset || 0;
      if (off > value.byteLength) throw codeError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"offset" is outside of buffer bounds');
      const len = length === undefined ? value.byteLength - off : +length || 0;
      if (off + len > value.byteLength) throw codeError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"length" is outside of buffer bounds');
      return new FastBuffer(value, off, len);
    }
    if (ArrayBuffer.isView(value)) {
      if (value instanceof Uint8Array) {
        const b = new FastBuffer(value.length);
        b.set(value);
        return b;
      }
      return fromArrayLike(value);
    }
    const prim = value.valueOf && value.valueOf();
    if (prim != null && prim !== value && (typeof prim === "string" || typeof prim === "object")) {
      return Buffer.from(prim, encodingOrOffset, length);
    }
    if (typeof value.length === "number" || Array.isArray(value)) return fromArrayLike(value);
    if (value.type === "Buffer" && Array.isArray(value.data)) return fromArrayLike(value.data);
    if (typeof value[Symbol.toPrimitive] === "function") {
      const p = value[Symbol.toPrimitive]("string");
      if (typeof p === "string") return fromString(p, encodingOrOffset);
    }
  }
  throw codeError(TypeError, "ERR_INVALID_ARG_TYPE",
    "The first argument must be of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object. Received " + describe(value));
};

Buffer.of = function of(...items) { return fromArrayLike(items); };

Buffer.copyBytesFrom = function copyBytesFrom(view, offset = 0, length) {
  const start = Math.min(offset, view.length);
  const end = length === undefined ? view.length : Math.min(start + length, view.length);
  const bytes = new Uint8Array(view.buffer, view.byteOffset + start * view.BYTES_PER_ELEMENT, (end - start) * view.BYTES_PER_ELEMENT);
  return Buffer.from(bytes);
};

Buffer.alloc = function alloc(size, fill, encoding) {
  checkSize(size);
  const b = new FastBuffer(size);
  if (fill !== undefined && fill !== 0 && size > 0) b.fill(fill, encoding);
  return b;
};
Buffer.allocUnsafe = function allocUnsafe(size) { checkSize(size); return new FastBuffer(size); };
Buffer.allocUnsafeSlow = Buffer.allocUnsafe;

Buffer.isBuffer = function isBuffer(b) { return b instanceof Buffer; };
Buffer.isEncoding = function isEncoding(enc) { return typeof enc === "string" && enc.length !== 0 && normalizeEncoding(enc) !== undefined; };

Buffer.byteLength = function byteLength(string, encoding) {
  if (typeof string !== "string") {
    if (ArrayBuffer.isView(string) || string instanceof ArrayBuffer) return string.byteLength;
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE",
      'The "string" argument must be of type string or an instance of Buffer or ArrayBuffer. Received ' + describe(string));
  }
  return native.byteLength(string, normalizeEncoding(encoding) || "utf8");
};

function checkU8(v, name) {
  if (!(v instanceof Uint8Array)) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "' + name + '" argument must be an instance of Buffer or Uint8Array. Received ' + describe(v));
  }
}

Buffer.compare = function compare(a, b) {
  checkU8(a, "buf1");
  checkU8(b, "buf2");
  return native.compare(a, b);
};

Buffer.concat = function concat(list, totalLength) {
  if (!Array.isArray(list)) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "list" argument must be an instance of Array. Received ' + describe(list));
  }
  if (list.length === 0) return new FastBuffer(0);
  if (totalLength === undefined) {
    totalLength = 0;
    for (let i = 0; i < list.length; i++) {
      checkU8(list[i], "list[" + i + "]");
      totalLength += list[i].length;
    }
  }
  const out = Buffer.allocUnsafe(totalLength);
  let pos = 0;
  for (let i = 0; i < list.length; i++) {
    const b = list[i];
    checkU8(b, "list[" + i + "]");
    if (pos + b.length > totalLength) {
      out.set(b.subarray(0, totalLength - pos), pos);
      pos = totalLength;
      break;
    }
    out.set(b, pos);
    pos += b.length;
  }
  if (pos < totalLength) out.fill(0, pos);
  return out;
};

const proto = Buffer.prototype;

proto.toString = function toString(encoding, start, end) {
  if (arguments.length === 0) return native.decode(this, "utf8", 0, this.length);
  const len = this.length;
  if (start === undefined || start <= 0) start = 0;
  else if (start >= len) return "";
  else start = Math.trunc(start) || 0;
  if (end === undefined || end > len) end = len;
  else end = Math.trunc(end) || 0;
  if (end <= start) return "";
  return native.decode(this, encoding === undefined ? "utf8" : getEncoding(encoding), start, end);
};
proto.toLocaleString = proto.toString;

proto.toJSON = function toJSON() {
  return { type: "Buffer", data: Array.prototype.slice.call(this) };
};

proto.equals = function equals(other) {
  checkU8(other, "otherBuffer");
  return this === other || native.equals(this, other);
};

proto.compare = function compare(target, targetStart = 0, targetEnd = target && target.length, sourceStart = 0, sourceEnd = this.length) {
  checkU8(target, "target");
  return native.compare(this.subarray(sourceStart, sourceEnd), target.subarray(targetStart, targetEnd));
};

proto.copy = function copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
  checkU8(target, "target");
  targetStart = Math.trunc(targetStart) || 0;
  sourceStart = Math.trunc(sourceStart) || 0;
  sourceEnd = Math.trunc(sourceEnd) || 0;
  if (targetStart < 0) throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "targetStart" is out of range. It must be >= 0. Received ' + targetStart);
  if (sourceStart < 0 || sourceStart > this.length) throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "sourceStart" is out of range. It must be >= 0 && <= ' + this.length + ". Received " + sourceStart);
  if (sourceEnd > this.length) sourceEnd = this.length;
  if (targetStart >= target.length || sourceStart >= sourceEnd) return 0;
  const n = Math.min(sourceEnd - sourceStart, target.length - targetStart);
  target.set(this.subarray(sourceStart, sourceStart + n), targetStart);
  return n;
};

function adjustOffset(offset, length) {
  offset = Math.trunc(offset);
  if (offset === 0 || Number.isNaN(offset)) return 0;
  if (offset < 0) return Math.max(offset + length, 0);
  return Math.min(offset, length);
}

proto.subarray = function subarray(start, end) {
  const len = this.length;
  start = start === undefined ? 0 : adjustOffset(start, len);
  end = end === undefined ? len : adjustOffset(end, len);
  const n = end > start ? end - start : 0;
  return new FastBuffer(this.buffer, this.byteOffset + start, n);
};
proto.slice = proto.subarray;

proto.write = function write(string, offset, length, encoding) {
  if (typeof string !== "string") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "string" argument must be of type string. Received ' + describe(string));
  }
  if (offset === undefined) {
    encoding = "utf8"; length = this.length; offset = 0;
  } else if (length === undefined && typeof offset === "string") {
    encoding = offset; length = this.length; offset = 0;
  } else {
    offset = offset >>> 0;
    if (typeof length === "string") { encoding = length; length = this.length - offset; }
    else if (length === undefined) length = this.length - offset;
    else length = length >>> 0;
  }
  if (offset > this.length) throw codeError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"offset" is outside of buffer bounds');
  return native.write(this, string, offset, Math.min(length, this.length - offset), getEncoding(encoding));
};

function toBytes(value, encoding) {
  if (typeof value === "string") return native.encode(value, getEncoding(encoding));
  if (value instanceof Uint8Array) return value;
  if (ArrayBuffer.isView(value)) return new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
  return null;
}

proto.fill = function fill(value, offset, end, encoding) {
  if (typeof offset === "string") { encoding = offset; offset = 0; end = this.length; }
  else if (typeof end === "string") { encoding = end; end = this.length; }
  offset = offset === undefined ? 0 : offset;
  end = end === undefined ? this.length : end;
  if (offset < 0 || offset > this.length) throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "offset" is out of range. It must be >= 0 && <= ' + this.length + ". Received " + offset);
  if (end < 0 || end > this.length) throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "end" is out of range. It must be >= 0 && <= ' + this.length + ". Received " + end);
  if (end <= offset) return this;
  if (typeof value === "number") {
    Uint8Array.prototype.fill.call(this, value & 255, offset, end);
    return this;
  }
  if (typeof value === "boolean") {
    Uint8Array.prototype.fill.call(this, +value, offset, end);
    return this;
  }
  const bytes = toBytes(value, encoding);
  if (bytes === null) {
    Uint8Array.prototype.fill.call(this, (+value || 0) & 255, offset, end);
    return this;
  }
  if (bytes.byteLength === 0) {
    if (typeof value === "string" && value.length > 0) throw codeError(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'value' is invalid. Received '" + value + "'");
    Uint8Array.prototype.fill.call(this, 0, offset, end);
    return this;
  }
  native.fill(this, bytes, offset, end);
  return this;
};

function indexOf(buf, value, byteOffset, encoding, last) {
  if (typeof byteOffset === "string") { encoding = byteOffset; byteOffset = undefined; }
  byteOffset = +byteOffset;
  if (Number.isNaN(byteOffset)) byteOffset = last ? buf.length : 0;
  byteOffset = Math.trunc(byteOffset);
  if (typeof value === "number") {
    const b = new Uint8Array(1);
    b[0] = value & 255;
    value = b;
  }
  const bytes = toBytes(value, encoding);
  if (bytes === null) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "value" argument must be one of type number or string or an instance of Buffer or Uint8Array. Received ' + describe(value));
  }
  return native.indexOf(buf, bytes, byteOffset, last);
}
proto.indexOf = function (value, byteOffset, encoding) { return indexOf(this, value, byteOffset, encoding, false); };
proto.lastIndexOf = function (value, byteOffset, encoding) { return indexOf(this, value, byteOffset, encoding, true); };
proto.includes = function (value, byteOffset, encoding) { return this.indexOf(value, byteOffset, encoding) !== -1; };

for (const [name, enc] of [["utf8", "utf8"], ["latin1", "latin1"], ["ascii", "ascii"], ["hex", "hex"], ["base64", "base64"], ["base64url", "base64url"], ["ucs2", "utf16le"], ["utf16le", "utf16le"]]) {
  proto[name + "Slice"] = function (start = 0, end = this.length) { return native.decode(this, enc, start, end); };
  proto[name + "Write"] = function (string, offset = 0, length = this.length - offset) { return native.write(this, string, offset, length, enc); };
}

function swap(b, n) {
  if (b.length % n !== 0) throw codeError(RangeError, "ERR_INVALID_BUFFER_SIZE", "Buffer size must be a multiple of " + n * 8 + "-bits");
  for (let i = 0; i < b.length; i += n) {
    for (let j = 0; j < n / 2; j++) {
      const t = b[i + j]; b[i + j] = b[i + n - 1 - j]; b[i + n - 1 - j] = t;
    }
  }
  return b;
}
proto.swap16 = function () { return swap(this, 2); };
proto.swap32 = function () { return swap(this, 4); };
proto.swap64 = function () { return swap(this, 8); };

// Numbers: bounds-checked reads and writes, as Node's.
function boundsError(value, length, type) {
  if (Math.floor(value) !== value) {
    return codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "' + (type || "offset") + '" is out of range. It must be an integer. Received ' + value);
  }
  if (length < 0) return codeError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", "Attempt to access memory outside buffer bounds");
  return codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "' + (type || "offset") + '" is out of range. It must be >= 0 and <= ' + length + ". Received " + value);
}
function checkOffset(buf, offset, byteLength) {
  if (offset === undefined) offset = 0;
  if (typeof offset !== "number") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "offset" argument must be of type number. Received ' + describe(offset));
  }
  const last = buf.length - byteLength;
  if (!(offset >= 0 && offset <= last) || Math.floor(offset) !== offset) throw boundsError(offset, last);
  return offset;
}
function checkInt(value, min, max, byteLength) {
  if (typeof value !== "number") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "value" argument must be of type number. Received ' + describe(value));
  }
  if (value > max || value < min) {
    let range;
    if (byteLength > 3) {
      range = min === 0 ? ">= 0 and < 2 ** " + byteLength * 8 : ">= -(2 ** " + (byteLength * 8 - 1) + ") and < 2 ** " + (byteLength * 8 - 1);
    } else {
      range = ">= " + min + " and <= " + max;
    }
    throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "value" is out of range. It must be ' + range + ". Received " + String(value).replace(/\B(?=(\d{3})+(?!\d))/g, "_"));
  }
}

function readU(buf, offset, n, le) {
  offset = checkOffset(buf, offset, n);
  let v = 0;
  if (le) for (let i = n - 1; i >= 0; i--) v = v * 256 + buf[offset + i];
  else for (let i = 0; i < n; i++) v = v * 256 + buf[offset + i];
  return v;
}
function readS(buf, offset, n, le) {
  const v = readU(buf, offset, n, le);
  const lim = 2 ** (8 * n - 1);
  return v >= lim ? v - 2 * lim : v;
}
function writeU(buf, value, offset, n, le, min, max) {
  checkInt(value, min, max, n);
  offset = checkOffset(buf, offset, n);
  let v = value < 0 ? value + 2 ** (8 * n) : value;
  for (let i = 0; i < n; i++) {
    const b = v % 256;
    buf[le ? offset + i : offset + n - 1 - i] = b;
    v = (v - b) / 256;
  }
  return offset + n;
}
function checkByteLength(n) {
  if (typeof n !== "number" || !(n >= 1 && n <= 6) || Math.floor(n) !== n) {
    throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "byteLength" is out of range. It must be >= 1 and <= 6. Received ' + n);
  }
}

const alias = (names, fn) => { for (const n of names) proto[n] = fn; };
for (const [bits, n] of [[8, 1], [16, 2], [32, 4]]) {
  for (const le of n === 1 ? [true] : [true, false]) {
    const sfx = n === 1 ? "" : le ? "LE" : "BE";
    alias(["readUInt" + bits + sfx, "readUint" + bits + sfx], function (offset) { return readU(this, offset, n, le); });
    proto["readInt" + bits + sfx] = function (offset) { return readS(this, offset, n, le); };
    alias(["writeUInt" + bits + sfx, "writeUint" + bits + sfx], function (value, offset) {
      return writeU(this, value, offset, n, le, 0, 2 ** bits - 1);
    });
    proto["writeInt" + bits + sfx] = function (value, offset) {
      return writeU(this, value, offset, n, le, -(2 ** (bits - 1)), 2 ** (bits - 1) - 1);
    };
  }
}
for (const le of [true, false]) {
  const sfx = le ? "LE" : "BE";
  alias(["readUInt" + sfx, "readUint" + sfx], function (offset, byteLength) { checkByteLength(byteLength); return readU(this, offset, byteLength, le); });
  proto["readInt" + sfx] = function (offset, byteLength) { checkByteLength(byteLength); return readS(this, offset, byteLength, le); };
  alias(["writeUInt" + sfx, "writeUint" + sfx], function (value, offset, byteLength) {
    checkByteLength(byteLength);
    return writeU(this, value, offset, byteLength, le, 0, 2 ** (8 * byteLength) - 1);
  });
  proto["writeInt" + sfx] = function (value, offset, byteLength) {
    checkByteLength(byteLength);
    return writeU(this, value, offset, byteLength, le, -(2 ** (8 * byteLength - 1)), 2 ** (8 * byteLength - 1) - 1);
  };
}

const f32 = new Float32Array(1), f32b = new Uint8Array(f32.buffer);
const f64 = new Float64Array(1), f64b = new Uint8Array(f64.buffer);
function readF(buf, offset, arr, bytes, le) {
  const n = bytes.length;
  offset = checkOffset(buf, offset, n);
  for (let i = 0; i < n; i++) bytes[le ? i : n - 1 - i] = buf[offset + i];
  return arr[0];
}
function writeF(buf, value, offset, arr, bytes, le) {
  const n = bytes.length;
  if (typeof value !== "number") value = +value;
  offset = checkOffset(buf, offset, n);
  arr[0] = value;
  for (let i = 0; i < n; i++) buf[offset + i] = bytes[le ? i : n - 1 - i];
  return offset + n;
}
proto.readFloatLE = function (o) { return readF(this, o, f32, f32b, true); };
proto.readFloatBE = function (o) { return readF(this, o, f32, f32b, false); };
proto.readDoubleLE = function (o) { return readF(this, o, f64, f64b, true); };
proto.readDoubleBE = function (o) { return readF(this, o, f64, f64b, false); };
proto.writeFloatLE = function (v, o) { return writeF(this, v, o, f32, f32b, true); };
proto.writeFloatBE = function (v, o) { return writeF(this, v, o, f32, f32b, false); };
proto.writeDoubleLE = function (v, o) { return writeF(this, v, o, f64, f64b, true); };
proto.writeDoubleBE = function (v, o) { return writeF(this, v, o, f64, f64b, false); };

function readBig(buf, offset, le, signed) {
  offset = checkOffset(buf, offset, 8);
  let v = 0n;
  for (let i = 0; i < 8; i++) v = (v << 8n) | BigInt(buf[le ? offset + 7 - i : offset + i]);
  return signed ? BigInt.asIntN(64, v) : v;
}
function writeBig(buf, value, offset, le, signed) {
  if (typeof value !== "bigint") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "value" argument must be of type bigint. Received ' + describe(value));
  }
  const min = signed ? -(2n ** 63n) : 0n, max = signed ? 2n ** 63n - 1n : 2n ** 64n - 1n;
  if (value < min || value > max) {
    throw codeError(RangeError, "ERR_OUT_OF_RANGE", 'The value of "value" is out of range. It must be ' +
      (signed ? ">= -(2n ** 63n) and < 2n ** 63n" : ">= 0n and < 2n ** 64n") + ". Received " + value + "n");
  }
  offset = checkOffset(buf, offset, 8);
  let v = BigInt.asUintN(64, value);
  for (let i = 0; i < 8; i++) {
    buf[le ? offset + i : offset + 7 - i] = Number(v & 255n);
    v >>= 8n;
  }
  return offset + 8;
}
alias(["readBigUInt64LE", "readBigUint64LE"], function (o) { return readBig(this, o, true, false); });
alias(["readBigUInt64BE", "readBigUint64BE"], function (o) { return readBig(this, o, false, false); });
proto.readBigInt64LE = function (o) { return readBig(this, o, true, true); };
proto.readBigInt64BE = function (o) { return readBig(this, o, false, true); };
alias(["writeBigUInt64LE", "writeBigUint64LE"], function (v, o) { return writeBig(this, v, o, true, false); });
alias(["writeBigUInt64BE", "writeBigUint64BE"], function (v, o) { return writeBig(this, v, o, false, false); });
proto.writeBigInt64LE = function (v, o) { return writeBig(this, v, o, true, true); };
proto.writeBigInt64BE = function (v, o) { return writeBig(this, v, o, false, true); };

Object.defineProperty(proto, "parent", { enumerable: true, configurable: true, get() { return this instanceof Buffer ? this.buffer : undefined; } });
Object.defineProperty(proto, "offset", { enumerable: true, configurable: true, get() { return this instanceof Buffer ? this.byteOffset : undefined; } });

proto[Symbol.for("nodejs.util.inspect.custom")] = function inspect(recurseTimes, ctx) {
  const max = INSPECT_MAX_BYTES.value;
  const n = Math.min(max, this.length);
  let str = native.decode(this, "hex", 0, n).replace(/(.{2})/g, "$1 ").trim();
  const remaining = this.length - max;
  if (remaining > 0) str += " ... " + remaining + " more byte" + (remaining > 1 ? "s" : "");
  return "<" + this.constructor.name + " " + str + ">";
};
proto.inspect = proto[Symbol.for("nodejs.util.inspect.custom")];

function SlowBuffer(size) { return Buffer.allocUnsafe(size); }
SlowBuffer.prototype = proto;

const g = globalThis;
module.exports = {
  Buffer,
  SlowBuffer,
  kMaxLength,
  kStringMaxLength,
  constants: Object.freeze({ MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength }),
  get INSPECT_MAX_BYTES() { return INSPECT_MAX_BYTES.value; },
  set INSPECT_MAX_BYTES(v) { INSPECT_MAX_BYTES.value = v; },
  get Blob() { return g.Blob; },
  get File() { return g.File; },
  atob: (s) => g.atob(s),
  btoa: (s) => g.btoa(s),
  isUtf8: (b) => native.isUtf8(b),
  isAscii: (b) => native.isAscii(b),
  transcode() { throw new Error("buffer.transcode is not available in a bext isolate"); },
  resolveObjectURL() { return undefined; },
};
