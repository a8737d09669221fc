// node:path — the POSIX flavour, written for bext from Node's documentation.
// path.win32 is the same object: bext isolates run POSIX paths only.
"use strict";

function assertPath(p, name) {
  if (typeof p !== "string") {
    const e = new TypeError('The "' + name + '" argument must be of type string. Received ' + describe(p));
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }
}

function describe(v) {
  if (v == null) return String(v);
  if (typeof v === "function") return "function " + v.name;
  if (typeof v === "object") return v.constructor && v.constructor.name ? "an instance of " + v.constructor.name : "an instance of Object";
  let s = typeof v === "string" ? "'" + v + "'" : String(v);
  if (s.length > 28) s = s.slice(0, 25) + "...";
  return "type " + typeof v + " (" + s + ")";
}

// normalizeString resolves . and .. segments of p (no leading slash).
function normalizeString(p, allowAboveRoot) {
  const out = [];
  for (const seg of p.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (allowAboveRoot) out.push("..");
    } else {
      out.push(seg);
    }
  }
  return out.join("/");
}

const posix = {
  sep: "/",
  delimiter: ":",

  resolve(...args) {
    let resolved = "";
    let absolute = false;
    for (let i = args.length - 1; i >= -1 && !absolute; i--) {
      const p = i >= 0 ? args[i] : process.cwd();
      assertPath(p, "paths[" + i + "]");
      if (p.length === 0) continue;
      resolved = p + "/" + resolved;
      absolute = p.charCodeAt(0) === 47;
    }
    resolved = normalizeString(resolved, !absolute);
    if (absolute) return "/" + resolved;
    return resolved.length > 0 ? resolved : ".";
  },

  normalize(p) {
    assertPath(p, "path");
    if (p.length === 0) return ".";
    const absolute = p.charCodeAt(0) === 47;
    const trailing = p.charCodeAt(p.length - 1) === 47;
    let out = normalizeString(p, !absolute);
    if (out.length === 0) {
      if (absolute) return "/";
      return trailing ? "./" : ".";
    }
    if (trailing) out += "/";
    return absolute ? "/" + out : out;
  },

  isAbsolute(p) {
    assertPath(p, "path");
    return p.length > 0 && p.charCodeAt(0) === 47;
  },

  join(...args) {
    if (args.length === 0) return ".";
    let joined;
    for (let i = 0; i < args.length; i++) {
      const a = args[i];
      assertPath(a, "path");
      if (a.length > 0) joined = joined === undefined ? a : joined + "/" + a;
    }
    if (joined === undefined) return ".";
    return posix.normalize(joined);
  },

  relative(from, to) {
    assertPath(from, "from");
    assertPath(to, "to");
    if (from === to) return "";
    from = posix.resolve(from);
    to = posix.resolve(to);
    if (from === to) return "";
    const f = from === "/" ? [] : from.slice(1).split("/");
    const t = to === "/" ? [] : to.slice(1).split("/");
    let i = 0;
    while (i < f.length && i < t.length && f[i] === t[i]) i++;
    const up = f.slice(i).map(() => "..");
    return up.concat(t.slice(i)).join("/");
  },

  toNamespacedPath(p) { return p; },

  dirname(p) {
    assertPath(p, "path");
    if (p.length === 0) return ".";
    const hasRoot = p.charCodeAt(0) === 47;
    let end = -1;
    let matchedSlash = true;
    for (let i = p.length - 1; i >= 1; --i) {
      if (p.charCodeAt(i) === 47) {
        if (!matchedSlash) { end = i; break; }
      } else {
        matchedSlash = false;
      }
    }
    if (end === -1) return hasRoot ? "/" : ".";
    if (hasRoot && end === 1) return "//";
    return p.slice(0, end);
  },

  basename(p, suffix) {
    if (suffix !== undefined) assertPath(suffix, "suffix");
    assertPath(p, "path");
    let end = p.length;
    while (end > 0 && p.charCodeAt(end - 1) === 47) end--;
    if (end === 0) return "";
    let start = p.lastIndexOf("/", end - 1) + 1;
    let base = p.slice(start, end);
    if (suffix !== undefined && suffix.length > 0 && suffix.length <= base.length) {
      if (base === suffix) return base;
      if (base.endsWith(suffix)) base = base.slice(0, base.length - suffix.length);
    }
    return base;
  },

  extname(p) {
    assertPath(p, "path");
    const base = posix.basename(p);
    const dot = base.lastIndexOf(".");
    if (dot <= 0 || base === "..") return "";
    return base.slice(dot);
  },

  format(obj) {
    if (obj === null || typeof obj !== "object") {
      const e = new TypeError('The "pathObject" argument must be of type object. Received ' + describe(obj));
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    const dir = obj.dir || obj.root;
    const base = obj.base || ((obj.name || "") + (obj.ext ? (obj.ext[0] === "." ? "" : ".") + obj.ext : ""));
    if (!dir) return base;
    return dir === obj.root ? dir + base : dir + "/" + base;
  },

  parse(p) {
    assertPath(p, "path");
    const ret = { root: "", dir: "", base: "", ext: "", name: "" };
    if (p.length === 0) return ret;
    const isAbsolute = p.charCodeAt(0) === 47;
    if (isAbsolute) ret.root = "/";
    let end = p.length;
    while (end > 1 && p.charCodeAt(end - 1) === 47) end--;
    const trimmed = p.slice(0, end);
    if (trimmed === "/") { ret.dir = "/"; return ret; }
    ret.base = posix.basename(trimmed);
    ret.ext = posix.extname(ret.base);
    ret.name = ret.ext ? ret.base.slice(0, ret.base.length - ret.ext.length) : ret.base;
    const slash = trimmed.lastIndexOf("/");
    if (slash > 0) ret.dir = trimmed.slice(0, slash);
    else if (isAbsolute) ret.dir = "/";
    return ret;
  },

  matchesGlob() {
    throw new Error("path.matchesGlob is not available in a bext isolate");
  },
};
posix.posix = posix;
posix.win32 = posix;
posix._makeLong = posix.toNamespacedPath;
module.exports = posix;
