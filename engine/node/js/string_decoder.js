// node:string_decoder for bext: decodes Buffers to strings across writes,
// keeping incomplete characters for the next write.
"use strict";
const { Buffer } = require("buffer");

function normalize(enc) {
  const e = String(enc === undefined || enc === null ? "utf8" : enc).toLowerCase();
  switch (e) {
    case "utf8": case "utf-8": case "": return "utf8";
    case "ucs2": case "ucs-2": case "utf16le": case "utf-16le": return "utf16le";
    case "latin1": case "binary": return "latin1";
    case "base64": case "base64url": case "hex": case "ascii": return e;
  }
  const err = new TypeError("Unknown encoding: " + enc);
  err.code = "ERR_UNKNOWN_ENCODING";
  throw err;
}

function utf8Need(b) {
  if (b <= 0x7f) return 0;
  if (b >> 5 === 0x06) return 2;
  if (b >> 4 === 0x0e) return 3;
  if (b >> 3 === 0x1e) return 4;
  return b >> 6 === 0x02 ? -1 : -2;
}

function toBuf(buf) {
  if (typeof buf === "string") return Buffer.from(buf);
  if (buf instanceof Uint8Array) return buf;
  if (ArrayBuffer.isView(buf)) return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  const e = new TypeError('The "buf" argument must be an instance of Buffer, TypedArray, or DataView. Received ' + (buf === null ? "null" : typeof buf));
  e.code = "ERR_INVALID_ARG_TYPE";
  throw e;
}

const decodeWith = (enc, bytes) => Buffer.prototype.toString.call(bytes, enc);

class StringDecoder {
  constructor(encoding) {
    this.encoding = normalize(encoding);
    this._pending = new Uint8Array(0);
  }
  get lastChar() { const b = Buffer.alloc(4); b.set(this._pending.subarray(0, 4)); return b; }
  get lastNeed() { return this._need(); }
  get lastTotal() { return this._pending.length + this._need(); }
  _need() {
    const p = this._pending;
    if (p.length === 0) return 0;
    if (this.encoding === "utf8") return Math.max(0, utf8Need(p[0]) - p.length);
    if (this.encoding === "utf16le") return p.length % 2 === 1 ? 1 : 2;
    if (this.encoding === "base64" || this.encoding === "base64url") return 3 - p.length;
    return 0;
  }
  write(buf) {
    buf = toBuf(buf);
    if (buf.length === 0) return "";
    let bytes = buf;
    if (this._pending.length > 0) {
      bytes = new Uint8Array(this._pending.length + buf.length);
      bytes.set(this._pending);
      bytes.set(buf, this._pending.length);
    }
    let keep = 0;
    switch (this.encoding) {
      case "utf8": {
        for (let k = 1; k <= Math.min(3, bytes.length); k++) {
          const b = bytes[bytes.length - k];
          const need = utf8Need(b);
          if (need === -1) continue; // continuation byte
          if (need > k) keep = k;
          break;
        }
        // a kept tail must be a valid prefix; otherwise decode it now
        for (let i = bytes.length - keep + 1; i < bytes.length; i++) {
          if (utf8Need(bytes[i]) !== -1) { keep = 0; break; }
        }
        break;
      }
      case "utf16le": {
        keep = bytes.length % 2;
        if (keep === 0 && bytes.length >= 2) {
          const hi = bytes[bytes.length - 1];
          if (hi >= 0xd8 && hi <= 0xdb) keep = 2;
        }
        break;
      }
      case "base64": case "base64url":
        keep = bytes.length % 3;
        break;
    }
    this._pending = bytes.slice(bytes.length - keep);
    return decodeWith(this.encoding, bytes.subarray(0, bytes.length - keep));
  }
  end(buf) {
    let r = buf === undefined ? "" : this.write(buf);
    const p = this._pending;
    this._pending = new Uint8Array(0);
    if (p.length > 0) {
      if (this.encoding === "utf8") r += "\ufffd";
      else r += decodeWith(this.encoding, p.length % 2 === 1 && this.encoding === "utf16le" ? p.subarray(0, p.length - 1) : p);
    }
    return r;
  }
  text(buf, offset) {
    this._pending = new Uint8Array(0);
    return this.write(toBuf(buf).subarray(offset));
  }
}

exports.StringDecoder = StringDecoder;
