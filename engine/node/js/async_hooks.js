// node:async_hooks for bext: AsyncLocalStorage and AsyncResource over the
// runtime's async context (see async.go). createHook returns a hook whose
// callbacks are never called: bext does not expose resource lifecycles.
"use strict";
let wrapped = false;
function propagateThroughTimers() {
  if (wrapped) return;
  wrapped = true;
  const g = globalThis;
  for (const name of ["setTimeout", "setInterval", "setImmediate"]) {
    const orig = g[name];
    if (typeof orig !== "function") continue;
    const w = {
      [name](cb, ...rest) {
        if (typeof cb !== "function") return orig(cb, ...rest);
        const snap = native.snapshot();
        return orig(function (...args) { return native.runSnapshot(snap, cb, this, args); }, ...rest);
      },
    }[name];
    g[name] = w;
  }
}

class AsyncLocalStorage {
  constructor() {
    this._enabled = false;
    propagateThroughTimers();
  }
  static bind(fn) {
    const snap = native.snapshot();
    return function (...args) { return native.runSnapshot(snap, fn, this, args); };
  }
  static snapshot() {
    const snap = native.snapshot();
    return (fn, ...args) => native.runSnapshot(snap, fn, undefined, args);
  }
  disable() {
    this._enabled = false;
    native.enter(this, undefined);
  }
  getStore() {
    if (!this._enabled) return undefined;
    return native.get(this);
  }
  enterWith(store) {
    this._enabled = true;
    native.enter(this, store);
  }
  run(store, callback, ...args) {
    this._enabled = true;
    return native.run(this, store, callback, undefined, args);
  }
  exit(callback, ...args) {
    if (!this._enabled) return Reflect.apply(callback, undefined, args);
    return native.exit(this, callback, undefined, args);
  }
}

let nextId = 1;
class AsyncResource {
  constructor(type, opts) {
    this._type = type;
    this._id = ++nextId;
    this._trigger = (opts && typeof opts === "object" ? opts.triggerAsyncId : opts) || 1;
    this._snap = native.snapshot();
  }
  runInAsyncScope(fn, thisArg, ...args) { return native.runSnapshot(this._snap, fn, thisArg, args); }
  emitDestroy() { return this; }
  asyncId() { return this._id; }
  triggerAsyncId() { return this._trigger; }
  bind(fn, thisArg) {
    const self = this;
    const bound = function (...args) { return self.runInAsyncScope(fn, thisArg === undefined ? this : thisArg, ...args); };
    Object.defineProperty(bound, "length", { value: fn.length, configurable: true });
    Object.defineProperty(bound, "asyncResource", { value: this, configurable: true, enumerable: true, writable: true });
    return bound;
  }
  static bind(fn, type, thisArg) {
    return new AsyncResource(type || fn.name || "bound-anonymous-fn").bind(fn, thisArg);
  }
}

module.exports = {
  AsyncLocalStorage,
  AsyncResource,
  createHook() { return { enable() { return this; }, disable() { return this; } }; },
  executionAsyncId() { return 1; },
  triggerAsyncId() { return 0; },
  executionAsyncResource() { return {}; },
  asyncWrapProviders: Object.freeze({}),
};
