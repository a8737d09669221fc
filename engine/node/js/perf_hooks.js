// node:perf_hooks — the isolate's performance object.
"use strict";
Object.defineProperty(exports, "performance", { enumerable: true, get: () => globalThis.performance });
exports.constants = { NODE_PERFORMANCE_GC_MAJOR: 4, NODE_PERFORMANCE_GC_MINOR: 1, NODE_PERFORMANCE_GC_INCREMENTAL: 8, NODE_PERFORMANCE_GC_WEAKCB: 16 };
exports.PerformanceObserver = class PerformanceObserver {
  constructor(cb) { this._cb = cb; }
  observe() {}
  disconnect() {}
  static get supportedEntryTypes() { return []; }
};
exports.monitorEventLoopDelay = () => ({ enable() {}, disable() {}, percentile: () => 0, min: 0, max: 0, mean: 0, stddev: 0 });
exports.createHistogram = exports.monitorEventLoopDelay;
