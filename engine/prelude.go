package engine

import (
	"sync"

	"github.com/dop251/goja"
)

// preludeSrc is the part of the host environment that is simplest written in
// JS on top of the native pieces. It runs once per isolate before the
// bundle. It captures setImmediate so a bundle replacing the global cannot
// break MessageChannel.
const preludeSrc = `(function (g) {
  "use strict";
  var post = g.setImmediate;
  g.queueMicrotask = function queueMicrotask(cb) {
    if (typeof cb !== "function") throw new TypeError("queueMicrotask: callback must be a function");
    Promise.resolve().then(function () { cb(); });
  };
  g.process.nextTick = function nextTick(cb) {
    var args = Array.prototype.slice.call(arguments, 1);
    Promise.resolve().then(function () { cb.apply(undefined, args); });
  };
  function MessagePort() { this.onmessage = null; this._other = null; this._closed = false; this._listeners = []; }
  MessagePort.prototype.postMessage = function (data) {
    var to = this._other;
    if (!to || this._closed) return;
    post(function () {
      if (to._closed) return;
      var ev = { data: data, target: to, type: "message" };
      if (typeof to.onmessage === "function") to.onmessage(ev);
      var ls = to._listeners.slice();
      for (var k = 0; k < ls.length; k++) ls[k].call(to, ev);
    });
  };
  MessagePort.prototype.addEventListener = function (type, fn) { if (type === "message") this._listeners.push(fn); };
  MessagePort.prototype.removeEventListener = function (type, fn) {
    var k = this._listeners.indexOf(fn);
    if (type === "message" && k >= 0) this._listeners.splice(k, 1);
  };
  MessagePort.prototype.start = function () {};
  MessagePort.prototype.close = function () { this._closed = true; };
  function MessageChannel() {
    this.port1 = new MessagePort();
    this.port2 = new MessagePort();
    this.port1._other = this.port2;
    this.port2._other = this.port1;
  }
  g.MessagePort = MessagePort;
  g.MessageChannel = MessageChannel;
})(globalThis);
`

var prelude = sync.OnceValue(func() *goja.Program {
	return goja.MustCompile("bext:prelude", preludeSrc, true)
})
