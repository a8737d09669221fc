// node:timers/promises for bext.
"use strict";
function abortError(signal) {
  const e = new Error("The operation was aborted");
  e.name = "AbortError";
  e.code = "ABORT_ERR";
  if (signal && signal.reason !== undefined) e.cause = signal.reason;
  return e;
}
function later(schedule, clear, delay, value, options = {}) {
  const signal = options && options.signal;
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const onAbort = () => { clear(id); reject(abortError(signal)); };
    const id = schedule(() => {
      if (signal) signal.removeEventListener("abort", onAbort);
      resolve(value);
    }, delay);
    if (signal) signal.addEventListener("abort", onAbort, { once: true });
  });
}
exports.setTimeout = (delay, value, options) => later((f, d) => globalThis.setTimeout(f, d), (id) => globalThis.clearTimeout(id), delay, value, options);
exports.setImmediate = (value, options) => later((f) => globalThis.setImmediate(f), (id) => globalThis.clearImmediate(id), 0, value, options);
exports.setInterval = function setInterval(delay, value, options = {}) {
  const signal = options && options.signal;
  let pending = 0, wake = null, done = false;
  const id = globalThis.setInterval(() => { pending++; if (wake) { const w = wake; wake = null; w(); } }, delay);
  const stop = () => { done = true; globalThis.clearInterval(id); };
  return {
    async next() {
      if (done) return { value: undefined, done: true };
      if (signal && signal.aborted) { stop(); throw abortError(signal); }
      if (pending === 0) await new Promise((r) => { wake = r; });
      pending--;
      return { value, done: false };
    },
    async return() { stop(); return { value: undefined, done: true }; },
    [Symbol.asyncIterator]() { return this; },
  };
};
exports.scheduler = {
  wait: (delay, options) => exports.setTimeout(delay, undefined, options),
  yield: () => exports.setImmediate(),
};
