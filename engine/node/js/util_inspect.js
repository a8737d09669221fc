// util.inspect and util.format for bext, following the layout rules Node
// documents (compact = 3, breakLength = 80 for inspect, grouping of
// long arrays of short items). Loaded by util.js; native gives the few
// facts JS cannot see (a promise's state, a proxy's target, class names).
"use strict";
const customSym = Symbol.for("nodejs.util.inspect.custom");
const defaults = {
  showHidden: false, depth: 2, colors: false, customInspect: true, showProxy: false,
  maxArrayLength: 100, maxStringLength: 10000, breakLength: 80, compact: 3,
  sorted: false, getters: false, numericSeparator: false,
};
const kObjectType = 0, kArrayType = 1, kArrayExtrasType = 2;
const keyIdent = /^[a-zA-Z_][a-zA-Z_0-9]*$/;
const hasOwn = (o, k) => Object.prototype.hasOwnProperty.call(o, k);
const isEnum = (o, k) => Object.prototype.propertyIsEnumerable.call(o, k);

function inspect(value, opts) {
  const ctx = {
    budget: {}, indentationLvl: 0, seen: [], currentDepth: 0, stylize: stylizeNoColor,
    showHidden: defaults.showHidden, depth: defaults.depth, colors: defaults.colors,
    customInspect: defaults.customInspect, showProxy: defaults.showProxy,
    maxArrayLength: defaults.maxArrayLength, maxStringLength: defaults.maxStringLength,
    breakLength: defaults.breakLength, compact: defaults.compact, sorted: defaults.sorted,
    getters: defaults.getters, numericSeparator: defaults.numericSeparator,
  };
  if (arguments.length > 1) {
    if (arguments.length > 2) {
      if (arguments[2] !== undefined) ctx.depth = arguments[2];
      if (arguments.length > 3 && arguments[3] !== undefined) ctx.colors = arguments[3];
    }
    if (typeof opts === "boolean") ctx.showHidden = opts;
    else if (opts) {
      for (const key of Object.keys(opts)) {
        if (hasOwn(defaults, key) || key === "stylize") ctx[key] = opts[key];
        else if (ctx.userOptions === undefined) ctx.userOptions = opts;
      }
    }
  }
  if (ctx.colors) ctx.stylize = stylizeWithColor;
  if (ctx.maxArrayLength === null) ctx.maxArrayLength = Infinity;
  if (ctx.maxStringLength === null) ctx.maxStringLength = Infinity;
  return formatValue(ctx, value, 0);
}
inspect.custom = customSym;
Object.defineProperty(inspect, "defaultOptions", {
  get() { return defaults; },
  set(o) { Object.assign(defaults, o); },
});
inspect.colors = Object.assign(Object.create(null), {
  reset: [0, 0], bold: [1, 22], dim: [2, 22], italic: [3, 23], underline: [4, 24], blink: [5, 25],
  inverse: [7, 27], hidden: [8, 28], strikethrough: [9, 29], doubleunderline: [21, 24],
  black: [30, 39], red: [31, 39], green: [32, 39], yellow: [33, 39], blue: [34, 39], magenta: [35, 39],
  cyan: [36, 39], white: [37, 39], bgBlack: [40, 49], bgRed: [41, 49], bgGreen: [42, 49],
  bgYellow: [43, 49], bgBlue: [44, 49], bgMagenta: [45, 49], bgCyan: [46, 49], bgWhite: [47, 49],
  framed: [51, 54], overlined: [53, 55], gray: [90, 39], redBright: [91, 39], greenBright: [92, 39],
  yellowBright: [93, 39], blueBright: [94, 39], magentaBright: [95, 39], cyanBright: [96, 39],
  whiteBright: [97, 39],
});
inspect.styles = Object.assign(Object.create(null), {
  special: "cyan", number: "yellow", bigint: "yellow", boolean: "yellow", undefined: "grey",
  null: "bold", string: "green", symbol: "green", date: "magenta", regexp: "red", module: "underline",
});

function stylizeNoColor(str) { return str; }
function stylizeWithColor(str, styleType) {
  const style = inspect.styles[styleType];
  if (style !== undefined) {
    const color = inspect.colors[style === "grey" ? "gray" : style];
    if (color !== undefined) return "\u001b[" + color[0] + "m" + str + "\u001b[" + color[1] + "m";
  }
  return str;
}

const meta = [];
for (let i = 0; i < 0x20; i++) meta.push("\\x" + i.toString(16).toUpperCase().padStart(2, "0"));
meta[8] = "\\b"; meta[9] = "\\t"; meta[10] = "\\n"; meta[12] = "\\f"; meta[13] = "\\r";

function strEscape(str) {
  let quote = "'";
  if (str.includes("'")) {
    if (!str.includes('"')) quote = '"';
    else if (!str.includes("`") && !str.includes("${")) quote = "`";
  }
  let out = "";
  for (let i = 0; i < str.length; i++) {
    const c = str.charCodeAt(i);
    if (c === quote.charCodeAt(0) || c === 92 || c < 0x20 || c === 0x7f) {
      if (c === 92) out += "\\\\";
      else if (c === 0x7f) out += "\\x7F";
      else if (c < 0x20) out += meta[c];
      else out += "\\" + quote;
    } else if (c >= 0xd800 && c <= 0xdfff) {
      if (c <= 0xdbff && i + 1 < str.length) {
        const d = str.charCodeAt(i + 1);
        if (d >= 0xdc00 && d <= 0xdfff) {
          out += str[i] + str[i + 1];
          i++;
          continue;
        }
      }
      out += "\\u" + c.toString(16).toUpperCase();
    } else {
      out += str[i];
    }
  }
  return quote + out + quote;
}

function formatNumber(fn, n) {
  if (Object.is(n, -0)) return fn("-0", "number");
  return fn(String(n), "number");
}

function formatPrimitive(fn, value, ctx) {
  if (typeof value === "string") {
    let trailer = "";
    if (value.length > ctx.maxStringLength) {
      const remaining = value.length - ctx.maxStringLength;
      value = value.slice(0, ctx.maxStringLength);
      trailer = "... " + remaining + " more character" + (remaining > 1 ? "s" : "");
    }
    if (ctx.compact !== true && value.length > 16 && value.length > ctx.breakLength - ctx.indentationLvl - 4) {
      const lines = [];
      let start = 0;
      for (let i = 0; i < value.length; i++) {
        if (value.charCodeAt(i) === 10) {
          lines.push(value.slice(start, i + 1));
          start = i + 1;
        }
      }
      if (start < value.length || lines.length === 0) lines.push(value.slice(start));
      return lines.map((l) => fn(strEscape(l), "string")).join(" +\n" + " ".repeat(ctx.indentationLvl + 2)) + trailer;
    }
    return fn(strEscape(value), "string") + trailer;
  }
  if (typeof value === "number") return formatNumber(fn, value);
  if (typeof value === "bigint") return fn(value + "n", "bigint");
  if (typeof value === "boolean") return fn("" + value, "boolean");
  if (typeof value === "undefined") return fn("undefined", "undefined");
  return fn(symbolToString(value), "symbol");
}

function symbolToString(s) {
  const d = s.description;
  if (d === undefined) return "Symbol()";
  return "Symbol(" + d + ")";
}

function formatValue(ctx, value, recurseTimes, typedArray) {
  if (typeof value !== "object" && typeof value !== "function") return formatPrimitive(ctx.stylize, value, ctx);
  if (value === null) return ctx.stylize("null", "null");
  const context = value;
  const proxy = native.proxyTarget(value);
  if (proxy !== undefined) {
    if (proxy === null || proxy[0] === null) return ctx.stylize("<Revoked Proxy>", "special");
    if (ctx.showProxy) {
      return "Proxy [" + formatValue(ctx, proxy[0], recurseTimes) + ", " + formatValue(ctx, proxy[1], recurseTimes) + "]";
    }
    value = proxy[0];
  }
  if (ctx.customInspect) {
    let maybeCustom;
    try { maybeCustom = value[customSym]; } catch { maybeCustom = undefined; }
    if (typeof maybeCustom === "function" && maybeCustom !== inspect &&
        !(Object.getOwnPropertyDescriptor(value, "constructor") && Object.getOwnPropertyDescriptor(value, "constructor").value &&
          Object.getOwnPropertyDescriptor(value, "constructor").value.prototype === value)) {
      const depth = ctx.depth === null ? null : ctx.depth - recurseTimes;
      const opts = Object.assign({}, ctx, ctx.userOptions || {});
      opts.depth = depth;
      delete opts.budget; delete opts.indentationLvl; delete opts.seen; delete opts.currentDepth; delete opts.userOptions;
      opts.stylize = ctx.stylize;
      const ret = maybeCustom.call(context, depth, opts, inspect);
      if (ret !== context) {
        if (typeof ret !== "string") return formatValue(ctx, ret, recurseTimes);
        return ret.replaceAll("\n", "\n" + " ".repeat(ctx.indentationLvl));
      }
    }
  }
  if (ctx.seen.includes(value)) {
    let index = 1;
    if (ctx.circular === undefined) {
      ctx.circular = new Map();
      ctx.circular.set(value, index);
    } else {
      index = ctx.circular.get(value);
      if (index === undefined) {
        index = ctx.circular.size + 1;
        ctx.circular.set(value, index);
      }
    }
    return ctx.stylize("[Circular *" + index + "]", "special");
  }
  return formatRaw(ctx, value, recurseTimes, typedArray);
}

function getConstructorName(obj) {
  let o = obj;
  while (o !== null && o !== undefined) {
    const d = Object.getOwnPropertyDescriptor(o, "constructor");
    if (d !== undefined && typeof d.value === "function" && d.value.name !== "" && isInstanceof(obj, d.value)) {
      return String(d.value.name);
    }
    o = Object.getPrototypeOf(o);
  }
  return null;
}

function isInstanceof(o, C) {
  try { return o instanceof C; } catch { return false; }
}

function getPrefix(constructor, tag, fallback, size = "") {
  if (constructor === null) {
    if (tag !== "" && fallback !== tag) return "[" + fallback + size + ": null prototype] [" + tag + "] ";
    return "[" + fallback + size + ": null prototype] ";
  }
  if (tag !== "" && constructor !== tag) return constructor + size + " [" + tag + "] ";
  return constructor + size + " ";
}

function getKeys(value, showHidden) {
  let keys;
  const symbols = Object.getOwnPropertySymbols(value);
  if (showHidden) {
    keys = Object.getOwnPropertyNames(value);
    if (symbols.length !== 0) keys.push(...symbols);
  } else {
    keys = Object.keys(value);
    for (const s of symbols) if (isEnum(value, s)) keys.push(s);
  }
  return keys;
}

function nonIndexKeys(value, showHidden) {
  const keys = getKeys(value, showHidden);
  return keys.filter((k) => typeof k !== "string" || !/^(0|[1-9][0-9]*)$/.test(k) || Number(k) >= 4294967295 || (showHidden && k === "length" && false));
}

const typedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const getter = (C, name) => Object.getOwnPropertyDescriptor(C.prototype, name).get;
const brand = (C, name) => { const g = getter(C, name); return (v) => g.call(v); };
const brands = [
  ["Map", brand(Map, "size")],
  ["Set", brand(Set, "size")],
  ["WeakMap", (v) => WeakMap.prototype.has.call(v, {})],
  ["WeakSet", (v) => WeakSet.prototype.has.call(v, {})],
  ["ArrayBuffer", brand(ArrayBuffer, "byteLength")],
  ["DataView", brand(DataView, "byteLength")],
  ["Number", (v) => Number.prototype.valueOf.call(v)],
  ["String", (v) => String.prototype.valueOf.call(v)],
  ["Boolean", (v) => Boolean.prototype.valueOf.call(v)],
  ["Symbol", (v) => Symbol.prototype.valueOf.call(v)],
  ["BigInt", (v) => BigInt.prototype.valueOf.call(v)],
  ["Date", (v) => Date.prototype.getTime.call(v)],
];
if (typeof SharedArrayBuffer === "function") brands.push(["SharedArrayBuffer", brand(SharedArrayBuffer, "byteLength")]);
const mapIterProto = Object.getPrototypeOf(new Map().entries());
const setIterProto = Object.getPrototypeOf(new Set().values());
const arrayIterProto = Object.getPrototypeOf([].values());
// classOf names the built-in a value is (by brand checks, not by its
// prototype or Symbol.toStringTag, which a program may change).
function classOf(v) {
  const c = native.className(v);
  if (c === "Error" || c === "Arguments" || c === "RegExp" || c === "Function") return c;
  if (native.isPromise(v)) return "Promise";
  for (const [name, check] of brands) {
    try { check(v); return name; } catch {}
  }
  if (mapIterProto.isPrototypeOf(v)) return "Map Iterator";
  if (setIterProto.isPrototypeOf(v)) return "Set Iterator";
  if (arrayIterProto.isPrototypeOf(v)) return "Array Iterator";
  return c;
}
const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayProto, Symbol.toStringTag).get;

function formatRaw(ctx, value, recurseTimes, typedArray) {
  let keys;
  let protoProps;
  const constructor = getConstructorName(value);
  let tag = value[Symbol.toStringTag];
  if (typeof tag !== "string" || (tag !== "" && (ctx.showHidden ? hasOwn : isEnum)(value, Symbol.toStringTag))) tag = "";
  let base = "";
  let formatter = getEmptyFormatArray;
  let braces;
  let noIterator = true;
  let i = 0;
  let extrasType = kObjectType;
  const cls = classOf(value);
  const ta = typedArrayTag.call(value);

  if (Symbol.iterator in value || constructor === null) {
    noIterator = false;
    if (Array.isArray(value)) {
      const prefix = constructor !== "Array" || tag !== "" ? getPrefix(constructor, tag, "Array", "(" + value.length + ")") : "";
      keys = nonIndexKeys(value, ctx.showHidden);
      braces = [prefix + "[", "]"];
      if (value.length === 0 && keys.length === 0 && protoProps === undefined) return braces[0] + "]";
      extrasType = kArrayExtrasType;
      formatter = formatArray;
    } else if (cls === "Set") {
      const size = getter(Set, "size").call(value);
      const prefix = getPrefix(constructor, tag, "Set", "(" + size + ")");
      keys = getKeys(value, ctx.showHidden);
      formatter = formatSet.bind(null, value);
      if (size === 0 && keys.length === 0 && protoProps === undefined) return prefix + "{}";
      braces = [prefix + "{", "}"];
    } else if (cls === "Map") {
      const size = getter(Map, "size").call(value);
      const prefix = getPrefix(constructor, tag, "Map", "(" + size + ")");
      keys = getKeys(value, ctx.showHidden);
      formatter = formatMap.bind(null, value);
      if (size === 0 && keys.length === 0 && protoProps === undefined) return prefix + "{}";
      braces = [prefix + "{", "}"];
    } else if (ta !== undefined) {
      keys = nonIndexKeys(value, ctx.showHidden);
      let bound = value;
      let fallback = "";
      if (constructor === null) { fallback = ta; bound = new globalThis[ta](value); }
      const size = value.length;
      const prefix = getPrefix(constructor, tag, fallback, "(" + size + ")");
      braces = [prefix + "[", "]"];
      if (value.length === 0 && keys.length === 0 && !ctx.showHidden) return braces[0] + "]";
      formatter = formatTypedArray.bind(null, bound, size);
      extrasType = kArrayExtrasType;
    } else if (cls === "Map Iterator" || cls === "Set Iterator" || cls === "Array Iterator") {
      keys = getKeys(value, ctx.showHidden);
      braces = ["[" + (tag || cls) + "] {", "}"];
      formatter = () => [];
    } else {
      noIterator = true;
    }
  }
  if (noIterator) {
    keys = getKeys(value, ctx.showHidden);
    braces = ["{", "}"];
    if (constructor === "Object") {
      if (cls === "Arguments") {
        braces[0] = "[Arguments] [";
      } else if (tag !== "") {
        braces[0] = getPrefix(constructor, tag, "Object") + "{";
      }
      if (cls === "Arguments") {
        keys = nonIndexKeys(value, ctx.showHidden);
        braces[1] = "]";
        extrasType = kArrayExtrasType;
        formatter = formatArray;
        if (value.length === 0 && keys.length === 0) return braces[0] + "]";
      } else if (keys.length === 0 && protoProps === undefined) {
        return braces[0] + "}";
      }
    } else if (typeof value === "function") {
      base = getFunctionBase(value, constructor, tag);
      if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, "special");
    } else if (cls === "RegExp") {
      base = RegExp.prototype.toString.call(constructor !== null ? value : new RegExp(value));
      const prefix = getPrefix(constructor, tag, "RegExp");
      if (prefix !== "RegExp ") base = prefix + base;
      if ((keys.length === 0 && protoProps === undefined) || (recurseTimes > ctx.depth && ctx.depth !== null)) return ctx.stylize(base, "regexp");
    } else if (cls === "Date") {
      base = Number.isNaN(Date.prototype.getTime.call(value)) ? Date.prototype.toString.call(value) : Date.prototype.toISOString.call(value);
      const prefix = getPrefix(constructor, tag, "Date");
      if (prefix !== "Date ") base = prefix + base;
      if (keys.length === 0 && protoProps === undefined) return ctx.stylize(base, "date");
    } else if (cls === "Error" || value instanceof Error) {
      base = formatError(value, constructor, tag, ctx, keys);
      if (keys.length === 0 && protoProps === undefined) return base;
    } else if (cls === "ArrayBuffer" || cls === "SharedArrayBuffer") {
      const arrayType = cls;
      const prefix = getPrefix(constructor, tag, arrayType);
      if (typedArray === undefined) {
        formatter = formatArrayBuffer;
      } else if (keys.length === 0 && protoProps === undefined) {
        return prefix + "{ byteLength: " + formatNumber(ctx.stylize, value.byteLength) + " }";
      }
      braces[0] = prefix + "{";
      keys.unshift("byteLength");
    } else if (cls === "DataView") {
      braces[0] = getPrefix(constructor, tag, "DataView") + "{";
      keys.unshift("byteLength", "byteOffset", "buffer");
    } else if (cls === "Promise") {
      braces[0] = getPrefix(constructor, tag, "Promise") + "{";
      formatter = formatPromise;
    } else if (cls === "WeakSet") {
      braces[0] = getPrefix(constructor, tag, "WeakSet") + "{";
      formatter = ctx.showHidden ? formatWeakCollection : formatWeakUnknown;
    } else if (cls === "WeakMap") {
      braces[0] = getPrefix(constructor, tag, "WeakMap") + "{";
      formatter = ctx.showHidden ? formatWeakCollection : formatWeakUnknown;
    } else if (cls === "Number" || cls === "String" || cls === "Boolean" || cls === "Symbol" || cls === "BigInt") {
      let type, prim;
      if (cls === "String") {
        prim = String.prototype.valueOf.call(value);
        type = "string";
        keys = keys.filter((k) => typeof k !== "string" || !/^(0|[1-9][0-9]*)$/.test(k) || Number(k) >= prim.length);
      } else if (cls === "Number") { prim = Number.prototype.valueOf.call(value); type = "number"; }
      else if (cls === "Boolean") { prim = Boolean.prototype.valueOf.call(value); type = "boolean"; }
      else if (cls === "BigInt") { prim = BigInt.prototype.valueOf.call(value); type = "bigint"; }
      else { prim = Symbol.prototype.valueOf.call(value); type = "symbol"; }
      let b = "[" + cls;
      if (cls !== constructor) b += constructor === null ? " (null prototype)" : " (" + constructor + ")";
      b += ": " + formatPrimitive(stylizeNoColor, prim, ctx) + "]";
      if (tag !== "" && tag !== constructor) b += " [" + tag + "]";
      base = ctx.stylize(b, type);
      if (keys.length === 0 && protoProps === undefined) return base;
    } else {
      if (keys.length === 0 && protoProps === undefined) {
        return getCtxName(constructor, tag, "Object") + "{}";
      }
      braces[0] = getCtxName(constructor, tag, "Object") + "{";
    }
  }

  if (recurseTimes > ctx.depth && ctx.depth !== null) {
    let name = getCtxName(constructor, tag, "Object").slice(0, -1);
    if (constructor !== null) name = "[" + name + "]";
    return ctx.stylize(name, "special");
  }
  recurseTimes += 1;
  ctx.seen.push(value);
  ctx.currentDepth = recurseTimes;
  let output;
  try {
    output = formatter(ctx, value, recurseTimes);
    for (i = 0; i < keys.length; i++) {
      output.push(formatProperty(ctx, value, recurseTimes, keys[i], extrasType));
    }
  } finally {
    ctx.seen.pop();
  }
  if (ctx.circular !== undefined) {
    const index = ctx.circular.get(value);
    if (index !== undefined) {
      const reference = ctx.stylize("<ref *" + index + ">", "special");
      if (ctx.compact !== true) base = base === "" ? reference : reference + " " + base;
      else braces[0] = reference + " " + braces[0];
    }
  }
  if (ctx.sorted) {
    const cmp = ctx.sorted === true ? undefined : ctx.sorted;
    if (extrasType === kObjectType) output.sort(cmp);
    else if (keys.length > 1) {
      const sorted = output.slice(output.length - keys.length).sort(cmp);
      output.splice(output.length - keys.length, keys.length, ...sorted);
    }
  }
  return reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value);
}

function getCtxName(constructor, tag, fallback) {
  return getPrefix(constructor, tag, fallback);
}

function getFunctionBase(value, constructor, tag) {
  const src = Function.prototype.toString.call(value);
  if (src.startsWith("class") && src.endsWith("}")) {
    const slice = src.slice(5, -1);
    const bracket = slice.indexOf("{");
    if (bracket !== -1 && (!slice.slice(0, bracket).includes("(") || /^\s*(?:extends\s+)?[^(]*\{/.test(slice))) {
      let base = "[class";
      if (value.name !== "" && typeof value.name === "string") base += " " + value.name;
      else base += " (anonymous)";
      if (constructor !== "Function" && constructor !== null) base += " [" + constructor + "]";
      if (tag !== "" && constructor !== tag) base += " [" + tag + "]";
      if (constructor !== null) {
        const sup = Object.getPrototypeOf(value);
        if (sup && sup.name) base += " extends " + sup.name;
      } else {
        base += " extends [null prototype]";
      }
      return base + "]";
    }
  }
  let type = "Function";
  const kind = native.functionKind(value);
  if (kind === "generator") type = "GeneratorFunction";
  else if (kind === "async") type = "AsyncFunction";
  else if (kind === "asyncGenerator") type = "AsyncGeneratorFunction";
  let base = "[" + type;
  if (constructor === null) base += " (null prototype)";
  if (value.name === "") base += " (anonymous)";
  else base += ": " + value.name;
  base += "]";
  if (constructor !== type && constructor !== null) base += " " + constructor;
  if (tag !== "" && constructor !== tag) base += " [" + tag + "]";
  return base;
}

function formatError(err, constructor, tag, ctx, keys) {
  const name = err.name != null ? String(err.name) : "Error";
  const message = err.message != null ? String(err.message) : "";
  let stack = typeof err.stack === "string" ? err.stack : Error.prototype.toString.call(err);
  if (!ctx.showHidden && keys.length !== 0) {
    for (const k of ["name", "message", "stack"]) {
      const idx = keys.indexOf(k);
      if (idx !== -1 && stack.includes(err[k])) keys.splice(idx, 1);
    }
  }
  if (constructor === null || (name.endsWith("Error") && stack.startsWith(name) &&
      (stack.length === name.length || stack[name.length] === ":" || stack[name.length] === "\n"))) {
    let fallback = "Error";
    if (constructor === null) {
      const start = /^([A-Z][a-z_ A-Z0-9[\]()-]+)(?::|\n\s+at)/.exec(stack) || /^([a-z_A-Z0-9-]*Error)$/.exec(stack);
      fallback = (start && start[1]) || "";
      stack = "[" + fallback + ": null prototype]" + stack.slice(fallback.length);
    } else if (constructor !== name && name.length > 0 && !constructor.includes(name) && stack.startsWith(name)) {
      stack = constructor + " [" + name + "]" + stack.slice(name.length);
    }
  }
  if ("cause" in err && (keys.length === 0 || !keys.includes("cause"))) {
    keys.push("cause");
  }
  if (Array.isArray(err.errors) && (keys.length === 0 || !keys.includes("errors"))) keys.push("errors");
  void message;
  const pos = (err.message && stack.indexOf(err.message)) || -1;
  void pos;
  const lines = stack.split("\n");
  if (ctx.indentationLvl !== 0) {
    const indent = " ".repeat(ctx.indentationLvl);
    stack = lines.join("\n" + indent);
  }
  if (!stack.includes("\n    at") && !stack.includes("\n\tat") && stack === Error.prototype.toString.call(err)) {
    stack = "[" + stack + "]";
  }
  return stack;
}

function formatArray(ctx, value, recurseTimes) {
  const valLen = value.length;
  const len = Math.min(Math.max(0, ctx.maxArrayLength), valLen);
  const remaining = valLen - len;
  const output = [];
  for (let i = 0; i < len; i++) {
    if (!hasOwn(value, i)) return formatArrayHoles(ctx, value, recurseTimes, len, output, i);
    output.push(formatProperty(ctx, value, recurseTimes, i, kArrayType));
  }
  if (remaining > 0) output.push("... " + remaining + " more item" + (remaining > 1 ? "s" : ""));
  return output;
}

function formatArrayHoles(ctx, value, recurseTimes, outputLength, output, i) {
  const keys = Object.keys(value);
  let index = i;
  for (; i < keys.length && output.length < outputLength; i++) {
    const key = keys[i];
    const tmp = +key;
    if (tmp > 2 ** 32 - 2) break;
    if (String(index) !== key) {
      if (!/^(0|[1-9][0-9]*)$/.test(key)) break;
      const emptyItems = tmp - index;
      const ending = emptyItems > 1 ? "s" : "";
      output.push(ctx.stylize("<" + emptyItems + " empty item" + ending + ">", "undefined"));
      index = tmp;
      if (output.length === outputLength) break;
    }
    output.push(formatProperty(ctx, value, recurseTimes, key, kArrayType));
    index++;
  }
  const remaining = value.length - index;
  if (output.length !== outputLength) {
    if (remaining > 0) {
      output.push(ctx.stylize("<" + remaining + " empty item" + (remaining > 1 ? "s" : "") + ">", "undefined"));
    }
  } else if (remaining > 0) {
    output.push("... " + remaining + " more item" + (remaining > 1 ? "s" : ""));
  }
  return output;
}

function formatTypedArray(value, length, ctx, ignored, recurseTimes) {
  const maxLength = Math.min(Math.max(0, ctx.maxArrayLength), length);
  const remaining = value.length - maxLength;
  const output = new Array(maxLength);
  const big = typeof value[0] === "bigint";
  for (let i = 0; i < maxLength; ++i) {
    output[i] = big ? ctx.stylize(value[i] + "n", "bigint") : formatNumber(ctx.stylize, value[i]);
  }
  if (remaining > 0) output[maxLength] = "... " + remaining + " more item" + (remaining > 1 ? "s" : "");
  if (ctx.showHidden) {
    ctx.indentationLvl += 2;
    for (const key of ["BYTES_PER_ELEMENT", "length", "byteLength", "byteOffset", "buffer"]) {
      output.push("[" + key + "]: " + formatValue(ctx, value[key], recurseTimes, true));
    }
    ctx.indentationLvl -= 2;
  }
  return output;
}

function formatArrayBuffer(ctx, value) {
  const bytes = new Uint8Array(value);
  let str = "";
  const n = Math.min(50, bytes.length);
  for (let i = 0; i < n; i++) str += (i ? " " : "") + bytes[i].toString(16).padStart(2, "0");
  const remaining = bytes.length - 50;
  if (remaining > 0) str += " ... " + remaining + " more byte" + (remaining > 1 ? "s" : "");
  return [ctx.stylize("[Uint8Contents]", "special") + ": <" + str + ">"];
}

function formatSet(set, ctx, ignored, recurseTimes) {
  const output = [];
  ctx.indentationLvl += 2;
  for (const v of set) output.push(formatValue(ctx, v, recurseTimes));
  ctx.indentationLvl -= 2;
  return output;
}

function formatMap(map, ctx, ignored, recurseTimes) {
  const output = [];
  ctx.indentationLvl += 2;
  for (const [k, v] of map) output.push(formatValue(ctx, k, recurseTimes) + " => " + formatValue(ctx, v, recurseTimes));
  ctx.indentationLvl -= 2;
  return output;
}

function formatPromise(ctx, value, recurseTimes) {
  const [state, result] = native.promiseState(value);
  if (state === "pending") return [ctx.stylize("<pending>", "special")];
  ctx.indentationLvl += 2;
  const str = formatValue(ctx, result, recurseTimes);
  ctx.indentationLvl -= 2;
  return [state === "rejected" ? ctx.stylize("<rejected>", "special") + " " + str : str];
}

function formatWeakUnknown(ctx) { return [ctx.stylize("<items unknown>", "special")]; }
function formatWeakCollection(ctx) { return [ctx.stylize("<items unknown>", "special")]; }
function getEmptyFormatArray() { return []; }

function formatProperty(ctx, value, recurseTimes, key, type, desc) {
  let name, str;
  let extra = " ";
  desc = desc || Object.getOwnPropertyDescriptor(value, key) || { value: value[key], enumerable: true };
  if (desc.value !== undefined) {
    const diff = ctx.compact !== true || type !== kObjectType ? 2 : 3;
    ctx.indentationLvl += diff;
    str = formatValue(ctx, desc.value, recurseTimes);
    if (diff === 3 && ctx.breakLength < str.length + ctx.indentationLvl) {
      extra = "\n" + " ".repeat(ctx.indentationLvl);
    }
    ctx.indentationLvl -= diff;
  } else if (desc.get !== undefined) {
    const label = desc.set !== undefined ? "Getter/Setter" : "Getter";
    const s = ctx.stylize;
    const sp = "special";
    if (ctx.getters && (ctx.getters === true || (ctx.getters === "get" && desc.set === undefined) || (ctx.getters === "set" && desc.set !== undefined))) {
      try {
        const tmp = desc.get.call(value);
        ctx.indentationLvl += 2;
        if (tmp === null) str = s("[" + label + ":", sp) + " " + s("null", "null") + s("]", sp);
        else if (typeof tmp === "object") str = s("[" + label + "]", sp) + " " + formatValue(ctx, tmp, recurseTimes);
        else str = s("[" + label + ":", sp) + " " + formatPrimitive(s, tmp, ctx) + s("]", sp);
        ctx.indentationLvl -= 2;
      } catch (err) {
        str = s("[" + label + ": <Inspection threw (" + err.message + ")>]", sp);
      }
    } else {
      str = ctx.stylize("[" + label + "]", sp);
    }
  } else if (desc.set !== undefined) {
    str = ctx.stylize("[Setter]", "special");
  } else {
    str = ctx.stylize("undefined", "undefined");
  }
  if (type === kArrayType) return str;
  if (typeof key === "symbol") {
    name = "[" + ctx.stylize(strEscapeSymbol(key), "symbol") + "]";
  } else if (key === "__proto__") {
    name = "['__proto__']";
  } else if (desc.enumerable === false) {
    name = "[" + (keyIdent.test(key) ? key : strEscape(key)) + "]";
  } else if (keyIdent.test(key)) {
    name = ctx.stylize(key, "name");
  } else {
    name = ctx.stylize(strEscape(key), "string");
  }
  return name + ":" + extra + str;
}

function strEscapeSymbol(sym) {
  const s = symbolToString(sym);
  return s;
}

function isBelowBreakLength(ctx, output, start, base) {
  let totalLength = output.length + start;
  if (totalLength + output.length > ctx.breakLength) return false;
  for (let i = 0; i < output.length; i++) {
    totalLength += output[i].length;
    if (totalLength > ctx.breakLength) return false;
  }
  return base === "" || !base.includes("\n");
}

function reduceToSingleString(ctx, output, base, braces, extrasType, recurseTimes, value) {
  if (ctx.compact !== true) {
    if (typeof ctx.compact === "number" && ctx.compact >= 1) {
      const entries = output.length;
      if (extrasType === kArrayExtrasType && entries > 6) output = groupArrayElements(ctx, output, value);
      if (ctx.currentDepth - recurseTimes < ctx.compact && entries === output.length) {
        const start = output.length + ctx.indentationLvl + braces[0].length + base.length + 10;
        if (isBelowBreakLength(ctx, output, start, base)) {
          const joined = output.join(", ");
          if (!joined.includes("\n")) {
            return (base ? base + " " : "") + braces[0] + " " + joined + " " + braces[1];
          }
        }
      }
    }
    const indentation = "\n" + " ".repeat(ctx.indentationLvl);
    return (base ? base + " " : "") + braces[0] + indentation + "  " + output.join("," + indentation + "  ") + indentation + braces[1];
  }
  if (isBelowBreakLength(ctx, output, 0, base)) {
    return braces[0] + (base ? " " + base : "") + " " + output.join(", ") + " " + braces[1];
  }
  const indentation = "\n" + " ".repeat(ctx.indentationLvl);
  const ln = base === "" && braces[0].length === 1 ? " " : (base ? " " + base : "") + indentation + "  ";
  return braces[0] + ln + output.join("," + indentation + "  ") + " " + braces[1];
}

function groupArrayElements(ctx, output, value) {
  let totalLength = 0;
  let maxLength = 0;
  let i = 0;
  let outputLength = output.length;
  if (ctx.maxArrayLength < output.length) outputLength--;
  const separatorSpace = 2;
  const dataLen = new Array(outputLength);
  for (; i < outputLength; i++) {
    const len = output[i].length;
    dataLen[i] = len;
    totalLength += len + separatorSpace;
    if (maxLength < len) maxLength = len;
  }
  const actualMax = maxLength + separatorSpace;
  if (actualMax * 3 + ctx.indentationLvl < ctx.breakLength &&
      (totalLength / actualMax > 5 || maxLength <= 6)) {
    const approxCharHeights = 2.5;
    const averageBias = Math.sqrt(actualMax - totalLength / output.length);
    const biasedMax = Math.max(actualMax - 3 - averageBias, 1);
    const columns = Math.min(
      Math.round(Math.sqrt(approxCharHeights * biasedMax * outputLength) / biasedMax),
      Math.floor((ctx.breakLength - ctx.indentationLvl) / actualMax),
      ctx.compact * 4,
      15,
    );
    if (columns <= 1) return output;
    const tmp = [];
    const maxLineLength = [];
    for (let i = 0; i < columns; i++) {
      let lineLength = 0;
      for (let j = i; j < output.length; j += columns) {
        if (dataLen[j] > lineLength) lineLength = dataLen[j];
      }
      maxLineLength.push(lineLength + separatorSpace);
    }
    let padStart = true;
    if (value !== undefined) {
      for (let i = 0; i < output.length; i++) {
        if (typeof value[i] !== "number" && typeof value[i] !== "bigint") {
          padStart = false;
          break;
        }
      }
    }
    for (let i = 0; i < outputLength; i += columns) {
      const max = Math.min(i + columns, outputLength);
      let str = "";
      let j = i;
      for (; j < max - 1; j++) {
        const padding = maxLineLength[j - i] + output[j].length - dataLen[j];
        str += padStart ? (output[j] + ", ").padStart(padding, " ") : (output[j] + ", ").padEnd(padding, " ");
      }
      if (padStart) {
        const padding = maxLineLength[j - i] + output[j].length - dataLen[j] - separatorSpace;
        str += output[j].padStart(padding, " ");
      } else {
        str += output[j];
      }
      tmp.push(str);
    }
    if (ctx.maxArrayLength < output.length) tmp.push(output[outputLength]);
    output = tmp;
  }
  return output;
}

// format: printf-like, as util.format.
function format(...args) { return formatWithOptions(undefined, ...args); }

function formatWithOptions(inspectOptions, ...args) {
  const first = args[0];
  let a = 0;
  let str = "";
  let join = "";
  const opts = inspectOptions || {};
  if (typeof first === "string") {
    if (args.length === 1) return first;
    let tempStr;
    let lastPos = 0;
    for (let i = 0; i < first.length - 1; i++) {
      if (first.charCodeAt(i) === 37) { // %
        const nextChar = first.charCodeAt(++i);
        if (a + 1 !== args.length) {
          switch (nextChar) {
            case 115: { // s
              const arg = args[++a];
              if (typeof arg === "number") tempStr = formatNumber(stylizeNoColor, arg);
              else if (typeof arg === "bigint") tempStr = arg + "n";
              else if (typeof arg !== "object" || arg === null || !hasBuiltInToString(arg)) tempStr = String(arg);
              else tempStr = inspect(arg, Object.assign({}, opts, { depth: 0, colors: false, compact: 3 }));
              break;
            }
            case 106: // j
              tempStr = tryStringify(args[++a]);
              break;
            case 100: { // d
              const n = args[++a];
              if (typeof n === "bigint") tempStr = n + "n";
              else if (typeof n === "symbol") tempStr = "NaN";
              else tempStr = formatNumber(stylizeNoColor, Number(n));
              break;
            }
            case 79: // O
              tempStr = inspect(args[++a], opts);
              break;
            case 111: // o
              tempStr = inspect(args[++a], Object.assign({}, opts, { showHidden: true, showProxy: true, depth: 4 }));
              break;
            case 105: { // i
              const n = args[++a];
              if (typeof n === "bigint") tempStr = n + "n";
              else if (typeof n === "symbol") tempStr = "NaN";
              else tempStr = formatNumber(stylizeNoColor, Number.parseInt(n));
              break;
            }
            case 102: { // f
              const n = args[++a];
              if (typeof n === "symbol") tempStr = "NaN";
              else tempStr = formatNumber(stylizeNoColor, Number.parseFloat(n));
              break;
            }
            case 99: // c
              a += 1;
              tempStr = "";
              break;
            case 37: // %
              str += first.slice(lastPos, i);
              lastPos = i + 1;
              continue;
            default:
              continue;
          }
          if (lastPos !== i - 1) str += first.slice(lastPos, i - 1);
          str += tempStr;
          lastPos = i + 1;
        } else if (nextChar === 37) {
          str += first.slice(lastPos, i);
          lastPos = i + 1;
        }
      }
    }
    if (lastPos !== 0) {
      a++;
      join = " ";
      if (lastPos < first.length) str += first.slice(lastPos);
    }
  }
  while (a < args.length) {
    const value = args[a];
    str += join;
    str += typeof value !== "string" ? inspect(value, opts) : value;
    join = " ";
    a++;
  }
  return str;
}

function hasBuiltInToString(value) {
  const proxy = native.proxyTarget(value);
  if (proxy !== undefined) {
    if (proxy === null || proxy[0] === null) return true;
    value = proxy[0];
  }
  if (typeof value.toString !== "function") return true;
  if (Object.prototype.hasOwnProperty.call(value, "toString")) return false;
  let p = value;
  do { p = Object.getPrototypeOf(p); } while (p !== null && !Object.prototype.hasOwnProperty.call(p, "constructor"));
  if (p === null) return true;
  const d = Object.getOwnPropertyDescriptor(p, "constructor");
  return d !== undefined && typeof d.value === "function" && builtInCtors.has(d.value);
}
const builtInCtors = new Set([Object, Array, Error, TypeError, RangeError, SyntaxError, ReferenceError, EvalError, URIError,
  Map, Set, WeakMap, WeakSet, Promise, RegExp, Date, Function, Number, String, Boolean, Symbol, ArrayBuffer, DataView,
  Uint8Array, Int8Array, Uint16Array, Int16Array, Uint32Array, Int32Array, Float32Array, Float64Array, Uint8ClampedArray]);

function tryStringify(arg) {
  try {
    return JSON.stringify(arg);
  } catch (err) {
    if (err instanceof TypeError && /circular/i.test(err.message)) return "[Circular]";
    throw err;
  }
}

module.exports = { inspect, format, formatWithOptions, strEscape, classOf, isProxy: (v) => native.proxyTarget(v) !== undefined };
