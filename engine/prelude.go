package engine

import (
	"sync"

	"github.com/dop251/goja"
)

// preludeSrc is the part of the host environment that is simplest written in
// JS on top of the native pieces (goja's promise job queue). It runs once
// per isolate before the bundle.
const preludeSrc = `(function (g) {
  "use strict";
  // goja has no Symbol.asyncIterator; esbuild's lowered for-await falls
  // back to Symbol.for("Symbol.asyncIterator"), so native code, bundles and
  // libraries agree on this one.
  if (!Symbol.asyncIterator) {
    Object.defineProperty(Symbol, "asyncIterator", { value: Symbol.for("Symbol.asyncIterator") });
  }
  g.queueMicrotask = function queueMicrotask(cb) {
    if (typeof cb !== "function") throw new TypeError("queueMicrotask: callback must be a function");
    Promise.resolve().then(function () { cb(); });
  };
  g.process.nextTick = function nextTick(cb) {
    var args = Array.prototype.slice.call(arguments, 1);
    Promise.resolve().then(function () { cb.apply(undefined, args); });
  };
})(globalThis);
`

var prelude = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("bext:prelude", preludeSrc, true)
})
