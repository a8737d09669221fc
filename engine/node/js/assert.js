// node:assert for bext, from Node's documentation. Messages follow Node's
// first line; the diff Node appends for objects is left out.
"use strict";
const { inspect, isDeepStrictEqual } = require("util");

class AssertionError extends Error {
  constructor(options) {
    if (options === null || typeof options !== "object") {
      const e = new TypeError('The "options" argument must be of type object. Received ' + options);
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    const { message, actual, expected, operator } = options;
    let msg = message;
    if (msg === undefined) msg = generateMessage(actual, expected, operator);
    else if (msg instanceof Error) throw msg;
    super(String(msg));
    this.generatedMessage = message === undefined;
    this.code = "ERR_ASSERTION";
    this.actual = actual;
    this.expected = expected;
    this.operator = operator;
  }
  get name() { return "AssertionError"; }
  toString() { return "AssertionError [ERR_ASSERTION]: " + this.message; }
}

const kReadable = {
  deepStrictEqual: "Expected values to be strictly deep-equal:",
  strictEqual: "Expected values to be strictly equal:",
  deepEqual: "Expected values to be loosely deep-equal:",
  notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
  notStrictEqual: 'Expected "actual" to be strictly unequal to:',
  notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
  notIdentical: "Values identical but not reference-equal:",
};

function generateMessage(actual, expected, operator) {
  if (operator === "==" || operator === "!=") {
    return inspect(actual) + " " + operator + " " + inspect(expected);
  }
  const head = kReadable[operator];
  if (head === undefined) return inspect(actual) + " " + operator + " " + inspect(expected);
  const a = inspect(actual, { compact: false, sorted: true, getters: true, depth: 1000 });
  const e = inspect(expected, { compact: false, sorted: true, getters: true, depth: 1000 });
  if (operator.startsWith("not")) return head + "\n\n" + a + "\n";
  if (!a.includes("\n") && !e.includes("\n") && (typeof actual !== "object" || actual === null) && (typeof expected !== "object" || expected === null)) {
    return head + "\n\n" + a + " !== " + e + "\n";
  }
  return head + "\n+ actual - expected\n\n+ " + a.split("\n").join("\n+ ") + "\n- " + e.split("\n").join("\n- ");
}

function innerFail(obj) {
  if (obj.message instanceof Error) throw obj.message;
  throw new AssertionError(obj);
}

function ok(value, message) {
  if (arguments.length === 0) {
    innerFail({ actual: undefined, expected: true, operator: "==", message: "No value argument passed to `assert.ok()`" });
  }
  if (!value) innerFail({ actual: value, expected: true, operator: "==", message: message === undefined ? "The expression evaluated to a falsy value:\n\n  assert.ok(" + inspect(value) + ")\n" : message });
}

function assert(value, message) {
  if (arguments.length === 0) {
    innerFail({ actual: undefined, expected: true, operator: "==", message: "No value argument passed to `assert.ok()`" });
  }
  if (!value) innerFail({ actual: value, expected: true, operator: "==", message: message === undefined ? "The expression evaluated to a falsy value:\n\n  assert(" + inspect(value) + ")\n" : message });
}

function looseDeepEqual(a, b) {
  if (a == b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) {
    return Number.isNaN(a) && Number.isNaN(b);
  }
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (a instanceof Date && b instanceof Date) return a.getTime() === b.getTime();
  if (a instanceof RegExp && b instanceof RegExp) return String(a) === String(b);
  const ka = Object.keys(a), kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (const k of ka) if (!Object.prototype.hasOwnProperty.call(b, k) || !looseDeepEqual(a[k], b[k])) return false;
  if (a instanceof Map && b instanceof Map) return a.size === b.size && [...a].every(([k, v]) => b.has(k) && looseDeepEqual(v, b.get(k)));
  if (a instanceof Set && b instanceof Set) return a.size === b.size && [...a].every((v) => b.has(v));
  return true;
}

assert.ok = ok;
assert.AssertionError = AssertionError;
assert.fail = function fail(message) {
  if (message instanceof Error) throw message;
  innerFail({ message: message === undefined ? "Failed" : message, operator: "fail" });
};
assert.equal = function equal(actual, expected, message) {
  if (!(actual == expected || (Number.isNaN(actual) && Number.isNaN(expected)))) innerFail({ actual, expected, message, operator: "==" });
};
assert.notEqual = function notEqual(actual, expected, message) {
  if (actual == expected || (Number.isNaN(actual) && Number.isNaN(expected))) innerFail({ actual, expected, message, operator: "!=" });
};
assert.strictEqual = function strictEqual(actual, expected, message) {
  if (!Object.is(actual, expected)) innerFail({ actual, expected, message, operator: "strictEqual" });
};
assert.notStrictEqual = function notStrictEqual(actual, expected, message) {
  if (Object.is(actual, expected)) innerFail({ actual, expected, message, operator: "notStrictEqual" });
};
assert.deepEqual = function deepEqual(actual, expected, message) {
  if (!looseDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: "deepEqual" });
};
assert.notDeepEqual = function notDeepEqual(actual, expected, message) {
  if (looseDeepEqual(actual, expected)) innerFail({ actual, expected, message, operator: "notDeepEqual" });
};
assert.deepStrictEqual = function deepStrictEqual(actual, expected, message) {
  if (!isDeepStrictEqual(actual, expected)) innerFail({ actual, expected, message, operator: "deepStrictEqual" });
};
assert.notDeepStrictEqual = function notDeepStrictEqual(actual, expected, message) {
  if (isDeepStrictEqual(actual, expected)) innerFail({ actual, expected, message, operator: "notDeepStrictEqual" });
};

function matches(err, expected, message, fnName) {
  if (expected === undefined) return;
  if (typeof expected === "function") {
    if (expected.prototype !== undefined && err instanceof expected) return;
    if (Error.isPrototypeOf(expected) || expected === Error) throw err;
    if (expected.call({}, err) === true) return;
    innerFail({ actual: err, expected, message: message || "The " + (fnName === "rejects" ? "rejection" : "error") + " validation function is expected to return \"true\". Received " + inspect(expected.call({}, err)), operator: fnName });
  }
  if (expected instanceof RegExp) {
    if (expected.test(String(err))) return;
    innerFail({ actual: err, expected, message: message || "The input did not match the regular expression " + inspect(expected) + ". Input:\n\n" + inspect(String(err)) + "\n", operator: fnName });
  }
  if (typeof expected === "object" && expected !== null) {
    for (const k of Object.keys(expected)) {
      const ev = expected[k], av = err[k];
      const ok = ev instanceof RegExp && typeof av === "string" ? ev.test(av) : isDeepStrictEqual(av, ev);
      if (!ok) innerFail({ actual: err, expected, message: message || "Expected values to be strictly deep-equal:\n\n" + inspect(av) + " !== " + inspect(ev) + "\n", operator: fnName });
    }
  }
}

const NO_EXCEPTION = {};
function getActual(fn) {
  if (typeof fn !== "function") {
    const e = new TypeError('The "fn" argument must be of type function. Received ' + inspect(fn));
    e.code = "ERR_INVALID_ARG_TYPE";
    throw e;
  }
  try { fn(); } catch (e) { return e; }
  return NO_EXCEPTION;
}

assert.throws = function throws(fn, expected, message) {
  if (typeof expected === "string") { message = expected; expected = undefined; }
  const actual = getActual(fn);
  if (actual === NO_EXCEPTION) {
    let details = "";
    if (expected && expected.name) details += " (" + expected.name + ")";
    details += message ? ": " + message : ".";
    innerFail({ actual: undefined, expected, operator: "throws", message: "Missing expected exception" + details });
  }
  matches(actual, expected, message, "throws");
};
assert.doesNotThrow = function doesNotThrow(fn, expected, message) {
  if (typeof expected === "string") { message = expected; expected = undefined; }
  const actual = getActual(fn);
  if (actual === NO_EXCEPTION) return;
  innerFail({ actual, expected, operator: "doesNotThrow", message: "Got unwanted exception" + (message ? ": " + message : ".") + "\nActual message: \"" + (actual && actual.message) + "\"" });
};
assert.rejects = async function rejects(promiseFn, expected, message) {
  if (typeof expected === "string") { message = expected; expected = undefined; }
  let actual = NO_EXCEPTION;
  try { await (typeof promiseFn === "function" ? promiseFn() : promiseFn); } catch (e) { actual = e; }
  if (actual === NO_EXCEPTION) {
    let details = "";
    if (expected && expected.name) details += " (" + expected.name + ")";
    details += message ? ": " + message : ".";
    innerFail({ actual: undefined, expected, operator: "rejects", message: "Missing expected rejection" + details });
  }
  matches(actual, expected, message, "rejects");
};
assert.doesNotReject = async function doesNotReject(promiseFn, expected, message) {
  try { await (typeof promiseFn === "function" ? promiseFn() : promiseFn); } catch (actual) {
    innerFail({ actual, expected, operator: "doesNotReject", message: "Got unwanted rejection.\nActual message: \"" + (actual && actual.message) + "\"" });
  }
};
assert.ifError = function ifError(err) {
  if (err !== null && err !== undefined) {
    let m = "ifError got unwanted exception: ";
    m += typeof err === "object" && typeof err.message === "string" ? (err.message.length === 0 && err.constructor ? err.constructor.name : err.message) : inspect(err);
    const e = new AssertionError({ actual: err, expected: null, operator: "ifError", message: m });
    e.origStack = err && err.stack;
    throw e;
  }
};
assert.match = function match(string, regexp, message) {
  if (typeof string !== "string" || !regexp.test(string)) {
    innerFail({ actual: string, expected: regexp, operator: "match", message: message || (typeof string !== "string"
      ? 'The "string" argument must be of type string. Received type ' + typeof string + " (" + inspect(string) + ")"
      : "The input did not match the regular expression " + inspect(regexp) + ". Input:\n\n" + inspect(string) + "\n") });
  }
};
assert.doesNotMatch = function doesNotMatch(string, regexp, message) {
  if (typeof string !== "string" || regexp.test(string)) {
    innerFail({ actual: string, expected: regexp, operator: "doesNotMatch", message: message || "The input was expected to not match the regular expression " + inspect(regexp) + ". Input:\n\n" + inspect(string) + "\n" });
  }
};

function strict(value, message) {
  if (arguments.length === 0) innerFail({ actual: undefined, expected: true, operator: "==", message: "No value argument passed to `assert.ok()`" });
  if (!value) innerFail({ actual: value, expected: true, operator: "==", message: message === undefined ? "The expression evaluated to a falsy value:\n\n  assert.ok(" + inspect(value) + ")\n" : message });
}
Object.assign(strict, assert, {
  equal: assert.strictEqual,
  deepEqual: assert.deepStrictEqual,
  notEqual: assert.notStrictEqual,
  notDeepEqual: assert.notDeepStrictEqual,
});
assert.strict = strict;
strict.strict = strict;
module.exports = assert;
