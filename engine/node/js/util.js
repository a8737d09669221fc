// node:util for bext, written from Node's documentation.
"use strict";
const { inspect, format, formatWithOptions, classOf } = require("internal/inspect");
const types = require("util/types");

function codeError(Ctor, code, msg) {
  const e = new Ctor(msg);
  e.code = code;
  return e;
}

function inherits(ctor, superCtor) {
  if (ctor === undefined || ctor === null) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "ctor" argument must be of type function. Received ' + ctor);
  }
  if (superCtor === undefined || superCtor === null) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "superCtor" argument must be of type function. Received ' + superCtor);
  }
  if (superCtor.prototype === undefined) {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "superCtor.prototype" property must be of type object. Received undefined');
  }
  Object.defineProperty(ctor, "super_", { value: superCtor, writable: true, configurable: true });
  Object.setPrototypeOf(ctor.prototype, superCtor.prototype);
}

const kCustomPromisify = Symbol.for("nodejs.util.promisify.custom");
function promisify(original) {
  if (typeof original !== "function") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "original" argument must be of type function. Received ' + inspect(original));
  }
  if (original[kCustomPromisify]) {
    const fn = original[kCustomPromisify];
    if (typeof fn !== "function") {
      throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "util.promisify.custom" argument must be of type function.');
    }
    return Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  }
  function fn(...args) {
    return new Promise((resolve, reject) => {
      original.call(this, ...args, (err, ...values) => {
        if (err) return reject(err);
        resolve(values[0]);
      });
    });
  }
  Object.setPrototypeOf(fn, Object.getPrototypeOf(original));
  Object.defineProperty(fn, kCustomPromisify, { value: fn, enumerable: false, writable: false, configurable: true });
  return Object.defineProperties(fn, Object.getOwnPropertyDescriptors(original));
}
promisify.custom = kCustomPromisify;

function callbackify(original) {
  if (typeof original !== "function") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "original" argument must be of type function. Received ' + inspect(original));
  }
  function callbackified(...args) {
    const cb = args.pop();
    if (typeof cb !== "function") {
      throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The last argument must be of type function. Received ' + inspect(cb));
    }
    const onOk = (ret) => process.nextTick(cb, null, ret);
    const onErr = (rej) => {
      if (!rej) {
        const e = new Error("Promise was rejected with a falsy value");
        e.code = "ERR_FALSY_VALUE_REJECTION";
        e.reason = rej;
        rej = e;
      }
      process.nextTick(cb, rej);
    };
    Reflect.apply(original, this, args).then(onOk, onErr);
  }
  Object.setPrototypeOf(callbackified, Object.getPrototypeOf(original));
  Object.defineProperties(callbackified, Object.getOwnPropertyDescriptors(original));
  return callbackified;
}

const warned = new Set();
function deprecate(fn, msg, code) {
  if (typeof fn !== "function") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "fn" argument must be of type function. Received ' + inspect(fn));
  }
  if (process.noDeprecation === true) return fn;
  let done = false;
  function deprecated(...args) {
    if (!done && !(code !== undefined && warned.has(code))) {
      done = true;
      if (code !== undefined) warned.add(code);
      process.emitWarning(msg, "DeprecationWarning", code);
    }
    if (new.target) return Reflect.construct(fn, args, new.target);
    return Reflect.apply(fn, this, args);
  }
  Object.setPrototypeOf(deprecated, fn);
  if (fn.prototype) deprecated.prototype = fn.prototype;
  return deprecated;
}

function debuglog(section, cb) {
  const enabled = typeof process !== "undefined" && process.env && process.env.NODE_DEBUG &&
    new RegExp("^(" + String(process.env.NODE_DEBUG).replace(/[|\\{}()[\]^$+?.]/g, "\\$&").replace(/\*/g, ".*").replace(/,/g, "$|^") + ")$", "i").test(section);
  const log = function (...args) {
    if (enabled) console.error("%s %d: %s", section.toUpperCase(), process.pid, format(...args));
  };
  log.enabled = !!enabled;
  if (typeof cb === "function") cb(log);
  return log;
}

// isDeepStrictEqual: the comparison assert.deepStrictEqual makes.
function isDeepStrictEqual(a, b) { return deepEqual(a, b, true, new Map()); }

function deepEqual(a, b, strict, memo) {
  if (a === b) return a !== 0 || !strict || Object.is(a, b);
  if (strict) {
    if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
      return typeof a === "number" && typeof b === "number" && Number.isNaN(a) && Number.isNaN(b);
    }
    if (Object.getPrototypeOf(a) !== Object.getPrototypeOf(b)) return false;
  } else {
    if (a === null || typeof a !== "object") {
      if (b === null || typeof b !== "object") return a == b || (Number.isNaN(a) && Number.isNaN(b));
      return false;
    }
    if (b === null || typeof b !== "object") return false;
  }
  const ca = classOf(a), cb = classOf(b);
  if (ca !== cb) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (ca === "Date") { if (a.getTime() !== b.getTime()) return false; }
  else if (ca === "RegExp") { if (String(a) !== String(b) || a.lastIndex !== b.lastIndex) return false; }
  else if (ca === "Error" || a instanceof Error) { if (a.message !== b.message || a.name !== b.name) return false; }
  else if (ArrayBuffer.isView(a)) {
    if (a.length !== b.length || a.byteLength !== b.byteLength) return false;
    if (strict && Object.prototype.toString.call(a) !== Object.prototype.toString.call(b)) return false;
    for (let i = 0; i < a.length; i++) if (!Object.is(a[i], b[i]) && !(!strict && a[i] == b[i])) return false;
  } else if (ca === "Number" || ca === "String" || ca === "Boolean" || ca === "BigInt" || ca === "Symbol") {
    if (!Object.is(a.valueOf(), b.valueOf())) return false;
  }
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ArrayBuffer.isView(a)) {
    // indices compared above
  }
  const own = (o, ks) => ks.filter((k) => !(ArrayBuffer.isView(o) && /^\d+$/.test(k)));
  const ka2 = own(a, ka), kb2 = own(b, kb);
  if (ka2.length !== kb2.length) return false;
  for (const k of ka2) if (!Object.prototype.propertyIsEnumerable.call(b, k)) return false;
  if (strict) {
    const sa = Object.getOwnPropertySymbols(a).filter((s) => Object.prototype.propertyIsEnumerable.call(a, s));
    const sb = Object.getOwnPropertySymbols(b).filter((s) => Object.prototype.propertyIsEnumerable.call(b, s));
    if (sa.length !== sb.length) return false;
    for (const s of sa) {
      if (!Object.prototype.propertyIsEnumerable.call(b, s) || !deepEqual(a[s], b[s], strict, memo)) return false;
    }
  }
  const seen = memo.get(a);
  if (seen !== undefined && seen === b) return true;
  memo.set(a, b);
  for (const k of ka2) if (!deepEqual(a[k], b[k], strict, memo)) return false;
  if (ca === "Set") {
    if (a.size !== b.size) return false;
    outer: for (const v of a) {
      if (b.has(v)) continue;
      if (typeof v === "object" && v !== null) {
        for (const w of b) if (deepEqual(v, w, strict, memo)) continue outer;
      } else if (!strict) {
        for (const w of b) if (v == w) continue outer;
      }
      return false;
    }
  } else if (ca === "Map") {
    if (a.size !== b.size) return false;
    outer2: for (const [k, v] of a) {
      if (b.has(k)) {
        if (!deepEqual(v, b.get(k), strict, memo)) return false;
        continue;
      }
      if (typeof k === "object" && k !== null) {
        for (const [k2, v2] of b) if (deepEqual(k, k2, strict, memo) && deepEqual(v, v2, strict, memo)) continue outer2;
      }
      return false;
    }
  }
  memo.delete(a);
  return true;
}

function stripVTControlCharacters(str) {
  return String(str).replace(/[\u001B\u009B][[\]()#;?]*(?:(?:(?:(?:;[-a-zA-Z\d\/#&.:=?%@~_]+)*|[a-zA-Z\d]+(?:;[-a-zA-Z\d\/#&.:=?%@~_]*)*)?\u0007)|(?:(?:\d{1,4}(?:;\d{0,4})*)?[\dA-PR-TZcf-ntqry=><~]))/g, "");
}

function toUSVString(s) {
  return String(s).replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, "\ufffd");
}

function styleText(fmt, text) {
  const formats = Array.isArray(fmt) ? fmt : [fmt];
  let left = "", right = "";
  for (const f of formats) {
    const c = inspect.colors[f];
    if (c === undefined) throw codeError(TypeError, "ERR_INVALID_ARG_VALUE", "The argument 'format' must be one of: " + Object.keys(inspect.colors).join(", ") + ". Received " + inspect(f));
    left += "\u001b[" + c[0] + "m";
    right = "\u001b[" + c[1] + "m" + right;
  }
  return left + text + right;
}

function aborted(signal, resource) {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
    void resource;
  });
}

module.exports = {
  format,
  formatWithOptions,
  inspect,
  inherits,
  promisify,
  callbackify,
  deprecate,
  debuglog,
  debug: debuglog,
  isDeepStrictEqual,
  stripVTControlCharacters,
  toUSVString,
  styleText,
  aborted,
  types,
  get TextEncoder() { return globalThis.TextEncoder; },
  get TextDecoder() { return globalThis.TextDecoder; },
  isArray: Array.isArray,
  isBoolean: (v) => typeof v === "boolean",
  isBuffer: (v) => typeof Buffer === "function" && Buffer.isBuffer(v),
  isDate: (v) => types.isDate(v),
  isError: (v) => types.isNativeError(v) || v instanceof Error,
  isFunction: (v) => typeof v === "function",
  isNull: (v) => v === null,
  isNullOrUndefined: (v) => v === null || v === undefined,
  isNumber: (v) => typeof v === "number",
  isObject: (v) => v !== null && typeof v === "object",
  isPrimitive: (v) => v === null || (typeof v !== "object" && typeof v !== "function"),
  isRegExp: (v) => types.isRegExp(v),
  isString: (v) => typeof v === "string",
  isSymbol: (v) => typeof v === "symbol",
  isUndefined: (v) => v === undefined,
  log: (...args) => console.log(format(...args)),
  _extend(target, source) {
    if (source === null || typeof source !== "object") return target;
    for (const k of Object.keys(source)) target[k] = source[k];
    return target;
  },
};
