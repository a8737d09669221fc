// node:querystring for bext, from Node's documentation.
"use strict";
const noEscape = new Int8Array(128);
for (const c of "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()") noEscape[c.charCodeAt(0)] = 1;
const hex = [];
for (let i = 0; i < 256; i++) hex.push("%" + (i < 16 ? "0" : "") + i.toString(16).toUpperCase());

function qsEscape(str) {
  if (typeof str !== "string") {
    if (typeof str === "object") str = String(str);
    else str += "";
  }
  let out = "";
  let last = 0;
  for (let i = 0; i < str.length; i++) {
    let c = str.charCodeAt(i);
    if (c < 0x80) {
      if (noEscape[c] === 1) continue;
      out += str.slice(last, i) + hex[c];
      last = i + 1;
      continue;
    }
    out += str.slice(last, i);
    if (c < 0x800) {
      out += hex[0xc0 | (c >> 6)] + hex[0x80 | (c & 0x3f)];
    } else if (c < 0xd800 || c >= 0xe000) {
      out += hex[0xe0 | (c >> 12)] + hex[0x80 | ((c >> 6) & 0x3f)] + hex[0x80 | (c & 0x3f)];
    } else {
      const d = i + 1 < str.length ? str.charCodeAt(i + 1) : 0;
      if (c > 0xdbff || d < 0xdc00 || d > 0xdfff) {
        const e = new URIError("URI malformed");
        e.code = "ERR_INVALID_URI";
        throw e;
      }
      i++;
      c = 0x10000 + (((c & 0x3ff) << 10) | (d & 0x3ff));
      out += hex[0xf0 | (c >> 18)] + hex[0x80 | ((c >> 12) & 0x3f)] + hex[0x80 | ((c >> 6) & 0x3f)] + hex[0x80 | (c & 0x3f)];
    }
    last = i + 1;
  }
  if (last === 0) return str;
  return out + str.slice(last);
}

// unescapeBuffer-like decoding: %XX sequences to bytes, then UTF-8.
function qsUnescape(s, decodeSpaces) {
  try {
    return decodeURIComponent(s);
  } catch {
    return unescapeLoose(s, decodeSpaces);
  }
}

function unescapeLoose(s) {
  const bytes = [];
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c === 37 && i + 2 < s.length + 0 && /^[0-9a-fA-F]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      const enc = new TextEncoder().encode(s[i]);
      for (const b of enc) bytes.push(b);
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function stringifyPrimitive(v) {
  if (typeof v === "string") return v;
  if (typeof v === "number" && isFinite(v)) return "" + v;
  if (typeof v === "bigint") return "" + v;
  if (typeof v === "boolean") return v ? "true" : "false";
  return "";
}

function stringify(obj, sep, eq, options) {
  sep = sep || "&";
  eq = eq || "=";
  let encode = qsEscape;
  if (options && typeof options.encodeURIComponent === "function") encode = options.encodeURIComponent;
  const convert = (v) => encode(stringifyPrimitive(v));
  if (obj !== null && typeof obj === "object") {
    const keys = Object.keys(obj);
    const fields = [];
    for (const k of keys) {
      const v = obj[k];
      const ks = convert(k) + eq;
      if (Array.isArray(v)) {
        for (const item of v) fields.push(ks + convert(item));
      } else {
        fields.push(ks + convert(v));
      }
    }
    return fields.join(sep);
  }
  return "";
}

function parse(qs, sep, eq, options) {
  const obj = Object.create(null);
  if (typeof qs !== "string" || qs.length === 0) return obj;
  sep = sep ? String(sep) : "&";
  eq = eq ? String(eq) : "=";
  let maxKeys = 1000;
  if (options && typeof options.maxKeys === "number") maxKeys = options.maxKeys;
  let decode = qsUnescape;
  if (options && typeof options.decodeURIComponent === "function") decode = options.decodeURIComponent;
  let parts = qs.split(sep);
  if (maxKeys > 0 && parts.length > maxKeys) parts = parts.slice(0, maxKeys);
  for (const part of parts) {
    if (part.length === 0 && parts.length > 1) continue;
    const idx = part.indexOf(eq);
    let k, v;
    if (idx >= 0) { k = part.slice(0, idx); v = part.slice(idx + eq.length); }
    else { k = part; v = ""; }
    k = decodeStr(k.replace(/\+/g, " "), decode);
    v = decodeStr(v.replace(/\+/g, " "), decode);
    if (k in obj) {
      const cur = obj[k];
      if (Array.isArray(cur)) cur.push(v);
      else obj[k] = [cur, v];
    } else {
      obj[k] = v;
    }
  }
  return obj;
}

function decodeStr(s, decoder) {
  try { return decoder(s); } catch { return exports.unescape(s, true); }
}

exports.escape = qsEscape;
exports.unescape = qsUnescape;
exports.unescapeBuffer = (s) => Buffer.from(unescapeLoose(s));
exports.stringify = stringify;
exports.encode = stringify;
exports.parse = parse;
exports.decode = parse;
