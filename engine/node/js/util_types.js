// node:util/types for bext: brand checks, as Node's are (not instanceof).
"use strict";
const { classOf } = require("internal/inspect");
const TypedArrayProto = Object.getPrototypeOf(Uint8Array.prototype);
const taTag = Object.getOwnPropertyDescriptor(TypedArrayProto, Symbol.toStringTag).get;
const is = (name) => (v) => v !== null && (typeof v === "object" || typeof v === "function") && classOf(v) === name;
const isTA = (name) => (v) => taTag.call(v) === name;
const fnKind = (v) => {
  if (typeof v !== "function") return "";
  const t = Object.getPrototypeOf(v)[Symbol.toStringTag];
  return t || "";
};
module.exports = {
  isAnyArrayBuffer: (v) => is("ArrayBuffer")(v) || is("SharedArrayBuffer")(v),
  isArrayBuffer: is("ArrayBuffer"),
  isSharedArrayBuffer: is("SharedArrayBuffer"),
  isArrayBufferView: (v) => ArrayBuffer.isView(v),
  isArgumentsObject: is("Arguments"),
  isAsyncFunction: (v) => fnKind(v) === "AsyncFunction" || fnKind(v) === "AsyncGeneratorFunction",
  isGeneratorFunction: (v) => fnKind(v) === "GeneratorFunction" || fnKind(v) === "AsyncGeneratorFunction",
  isGeneratorObject: (v) => v !== null && typeof v === "object" && Object.prototype.toString.call(v) === "[object Generator]",
  isBigInt64Array: isTA("BigInt64Array"),
  isBigUint64Array: isTA("BigUint64Array"),
  isBooleanObject: is("Boolean"),
  isNumberObject: is("Number"),
  isStringObject: is("String"),
  isSymbolObject: is("Symbol"),
  isBigIntObject: is("BigInt"),
  isBoxedPrimitive: (v) => ["Boolean", "Number", "String", "Symbol", "BigInt"].includes(v !== null && typeof v === "object" ? classOf(v) : ""),
  isDataView: is("DataView"),
  isDate: is("Date"),
  isExternal: () => false,
  isFloat32Array: isTA("Float32Array"),
  isFloat64Array: isTA("Float64Array"),
  isInt8Array: isTA("Int8Array"),
  isInt16Array: isTA("Int16Array"),
  isInt32Array: isTA("Int32Array"),
  isUint8Array: isTA("Uint8Array"),
  isUint8ClampedArray: isTA("Uint8ClampedArray"),
  isUint16Array: isTA("Uint16Array"),
  isUint32Array: isTA("Uint32Array"),
  isTypedArray: (v) => taTag.call(v) !== undefined,
  isMap: is("Map"),
  isSet: is("Set"),
  isWeakMap: is("WeakMap"),
  isWeakSet: is("WeakSet"),
  isMapIterator: is("Map Iterator"),
  isSetIterator: is("Set Iterator"),
  isModuleNamespaceObject: () => false,
  isNativeError: is("Error"),
  isPromise: is("Promise"),
  isProxy: (v) => v !== null && (typeof v === "object" || typeof v === "function") && classOf(v) !== undefined && require("internal/inspect").isProxy(v),
  isRegExp: is("RegExp"),
  isWeakRef: () => false,
  isKeyObject: () => false,
  isCryptoKey: (v) => typeof CryptoKey === "function" && v instanceof CryptoKey,
};
