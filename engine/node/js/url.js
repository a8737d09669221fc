// node:url for bext: the WHATWG URL of the isolate plus Node's helpers and
// its legacy API (parse, format, resolve), written from Node's documentation.
"use strict";
const querystring = require("querystring");
const g = globalThis;

function codeError(Ctor, code, msg) {
  const e = new Ctor(msg);
  e.code = code;
  return e;
}

function Url() {
  this.protocol = null; this.slashes = null; this.auth = null; this.host = null; this.port = null;
  this.hostname = null; this.hash = null; this.search = null; this.query = null; this.pathname = null;
  this.path = null; this.href = null;
}

const slashedProtocol = new Set(["http", "http:", "https", "https:", "ftp", "ftp:", "gopher", "gopher:", "file", "file:", "ws", "ws:", "wss", "wss:"]);
const hostlessProtocol = new Set(["javascript", "javascript:"]);

function urlParse(url, parseQueryString, slashesDenoteHost) {
  if (url instanceof Url) return url;
  if (typeof url !== "string") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "url" argument must be of type string. Received ' + (url === null ? "null" : typeof url));
  }
  const u = new Url();
  let rest = url.trim();
  rest = rest.replace(/\\/g, "/");
  const hashIdx = rest.indexOf("#");
  if (hashIdx !== -1) { u.hash = rest.slice(hashIdx); rest = rest.slice(0, hashIdx); }
  const qIdx = rest.indexOf("?");
  if (qIdx !== -1) {
    u.search = rest.slice(qIdx);
    u.query = rest.slice(qIdx + 1);
    rest = rest.slice(0, qIdx);
  } else if (parseQueryString) {
    u.search = "";
    u.query = {};
  }
  const proto = /^([a-z0-9.+-]+:)/i.exec(rest);
  let lowerProto;
  if (proto) {
    lowerProto = proto[0].toLowerCase();
    u.protocol = lowerProto;
    rest = rest.slice(proto[0].length);
  }
  let slashes = false;
  if (slashesDenoteHost || proto || /^\/\/[^@/]+@[^@/]+/.test(rest)) {
    slashes = rest.startsWith("//");
    if (slashes && !(lowerProto && hostlessProtocol.has(lowerProto))) {
      rest = rest.slice(2);
      u.slashes = true;
    }
  }
  if (!hostlessProtocol.has(lowerProto) && (slashes || (lowerProto && !slashedProtocol.has(lowerProto)))) {
    let hostEnd = rest.search(/[/?#]/);
    if (hostEnd === -1) hostEnd = rest.length;
    let hostPart = rest.slice(0, hostEnd);
    const at = hostPart.lastIndexOf("@");
    if (at !== -1) {
      u.auth = decodeURIComponent(hostPart.slice(0, at));
      hostPart = hostPart.slice(at + 1);
    }
    rest = rest.slice(hostEnd);
    u.host = hostPart;
    const portM = /:([0-9]*)$/.exec(hostPart);
    let hostname = hostPart;
    if (portM) {
      if (portM[1] !== "") u.port = portM[1];
      hostname = hostPart.slice(0, hostPart.length - portM[0].length);
    }
    if (hostname.startsWith("[") && hostname.endsWith("]")) hostname = hostname.slice(1, -1);
    u.hostname = hostname.toLowerCase();
    u.host = (hostname.includes(":") ? "[" + u.hostname + "]" : u.hostname) + (u.port ? ":" + u.port : "");
  }
  if (rest) u.pathname = rest;
  if (slashedProtocol.has(lowerProto) && u.hostname && !u.pathname) u.pathname = "/";
  if (u.pathname || u.search) u.path = (u.pathname || "") + (u.search || "");
  if (parseQueryString && typeof u.query === "string") u.query = querystring.parse(u.query);
  u.href = urlFormat(u);
  return u;
}

function urlFormat(obj, options) {
  if (typeof obj === "string") obj = urlParse(obj);
  else if (typeof obj !== "object" || obj === null) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "urlObject" argument must be one of type object or string. Received ' + (obj === null ? "null" : typeof obj));
  } else if (typeof g.URL === "function" && obj instanceof g.URL) {
    return formatWhatwg(obj, options);
  }
  let auth = obj.auth || "";
  if (auth) auth = encodeURIComponent(auth).replace(/%3A/i, ":") + "@";
  let protocol = obj.protocol || "";
  let pathname = obj.pathname || "";
  let hash = obj.hash || "";
  let host = "";
  let query = "";
  if (obj.host) host = auth + obj.host;
  else if (obj.hostname) {
    host = auth + (obj.hostname.includes(":") && !obj.hostname.startsWith("[") ? "[" + obj.hostname + "]" : obj.hostname);
    if (obj.port) host += ":" + obj.port;
  }
  if (obj.query !== null && typeof obj.query === "object") query = querystring.stringify(obj.query);
  let search = obj.search || (query && "?" + query) || "";
  if (protocol && protocol.charCodeAt(protocol.length - 1) !== 58) protocol += ":";
  pathname = pathname.replace(/[?#]/g, (c) => encodeURIComponent(c));
  search = search.replace(/#/g, "%23");
  if (obj.slashes || slashedProtocol.has(protocol)) {
    if (obj.slashes || host) {
      if (pathname && pathname[0] !== "/") pathname = "/" + pathname;
      host = "//" + host;
    } else if (protocol.length >= 4 && protocol.startsWith("file")) {
      host = "//";
    }
  }
  if (hash && hash[0] !== "#") hash = "#" + hash;
  if (search && search[0] !== "?") search = "?" + search;
  return protocol + host + pathname + search + hash;
}

function formatWhatwg(url, options) {
  const o = Object.assign({ auth: true, fragment: true, search: true, unicode: false }, options);
  let s = url.protocol;
  if (url.host !== "" || url.protocol === "file:") {
    s += "//";
    if (o.auth && (url.username || url.password)) s += url.username + (url.password ? ":" + url.password : "") + "@";
    s += o.unicode ? domainToUnicode(url.hostname) + (url.port ? ":" + url.port : "") : url.host;
  }
  s += url.pathname;
  if (o.search) s += url.search;
  if (o.fragment) s += url.hash;
  return s;
}

function urlResolve(source, relative) {
  if (typeof g.URL === "function") {
    try {
      const base = new g.URL(source);
      return new g.URL(relative, base).href;
    } catch {}
  }
  const s = urlParse(source, false, true);
  const r = urlParse(relative, false, true);
  if (r.protocol) return urlFormat(r);
  if (r.host) { r.protocol = s.protocol; return urlFormat(r); }
  const out = Object.assign(new Url(), s);
  out.hash = r.hash;
  if (r.pathname) {
    if (r.pathname.startsWith("/")) out.pathname = r.pathname;
    else {
      const dir = (s.pathname || "/").replace(/[^/]*$/, "");
      out.pathname = require("path").posix.normalize(dir + r.pathname);
    }
    out.search = r.search;
  } else if (r.search) {
    out.search = r.search;
  }
  out.query = null;
  return urlFormat(out);
}

function fileURLToPath(path) {
  let u = path;
  if (typeof path === "string") u = new g.URL(path);
  else if (!(typeof g.URL === "function" && path instanceof g.URL)) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "path" argument must be of type string or an instance of URL. Received ' + (path === null ? "null" : typeof path));
  }
  if (u.protocol !== "file:") throw codeError(TypeError, "ERR_INVALID_URL_SCHEME", "The URL must be of scheme file");
  if (u.hostname !== "") throw codeError(TypeError, "ERR_INVALID_FILE_URL_HOST", 'File URL host must be "localhost" or empty on linux');
  const p = u.pathname;
  if (/%2f/i.test(p)) throw codeError(TypeError, "ERR_INVALID_FILE_URL_PATH", "File URL path must not include encoded / characters");
  return decodeURIComponent(p);
}

function pathToFileURL(filepath) {
  let resolved = require("path").resolve(filepath);
  if (filepath.endsWith("/") && !resolved.endsWith("/")) resolved += "/";
  const enc = resolved.replace(/%/g, "%25").replace(/\\/g, "%5C").replace(/\n/g, "%0A").replace(/\r/g, "%0D").replace(/\t/g, "%09").replace(/#/g, "%23").replace(/\?/g, "%3F");
  return new g.URL("file://" + enc);
}

function domainToASCII(domain) {
  try { return new g.URL("http://" + domain).hostname; } catch { return ""; }
}
function domainToUnicode(domain) {
  const ascii = domainToASCII(domain);
  if (ascii === "") return "";
  return ascii.split(".").map((label) => label.startsWith("xn--") ? punyDecode(label.slice(4)) : label).join(".");
}

function punyDecode(input) {
  const base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700;
  let n = 128, i = 0, bias = 72;
  const out = [];
  let b = input.lastIndexOf("-");
  if (b < 0) b = 0;
  for (let j = 0; j < b; j++) out.push(input.charCodeAt(j));
  const adapt = (delta, numPoints, first) => {
    let k = 0;
    delta = first ? Math.floor(delta / damp) : delta >> 1;
    delta += Math.floor(delta / numPoints);
    for (; delta > ((base - tMin) * tMax) >> 1; k += base) delta = Math.floor(delta / (base - tMin));
    return Math.floor(k + ((base - tMin + 1) * delta) / (delta + skew));
  };
  for (let idx = b > 0 ? b + 1 : 0; idx < input.length;) {
    const oldi = i;
    for (let w = 1, k = base; ; k += base) {
      const c = input.charCodeAt(idx++);
      const digit = c - 48 < 10 ? c - 22 : c - 65 < 26 ? c - 65 : c - 97 < 26 ? c - 97 : base;
      i += digit * w;
      const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
      if (digit < t) break;
      w *= base - t;
    }
    bias = adapt(i - oldi, out.length + 1, oldi === 0);
    n += Math.floor(i / (out.length + 1));
    i %= out.length + 1;
    out.splice(i++, 0, n);
  }
  return String.fromCodePoint(...out);
}

function urlToHttpOptions(url) {
  const o = {
    protocol: url.protocol,
    hostname: url.hostname.startsWith("[") ? url.hostname.slice(1, -1) : url.hostname,
    hash: url.hash, search: url.search, pathname: url.pathname,
    path: (url.pathname || "") + (url.search || ""), href: url.href,
  };
  if (url.port !== "") o.port = Number(url.port);
  if (url.username || url.password) o.auth = decodeURIComponent(url.username) + ":" + decodeURIComponent(url.password);
  return o;
}

Url.prototype.parse = function (url, pq, sdh) { return Object.assign(this, urlParse(url, pq, sdh)); };
Url.prototype.format = function () { return urlFormat(this); };
Url.prototype.resolve = function (rel) { return urlResolve(urlFormat(this), rel); };

module.exports = {
  Url,
  parse: urlParse,
  format: urlFormat,
  resolve: urlResolve,
  resolveObject: (s, r) => urlParse(urlResolve(s, r)),
  fileURLToPath,
  pathToFileURL,
  domainToASCII,
  domainToUnicode,
  urlToHttpOptions,
  get URL() { return g.URL; },
  get URLSearchParams() { return g.URLSearchParams; },
};
