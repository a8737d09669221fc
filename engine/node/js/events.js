// node:events — EventEmitter as Node documents it, written for bext.
"use strict";
const kCapture = Symbol("kCapture");
const kRejection = Symbol.for("nodejs.rejection");
const kErrorMonitor = Symbol("events.errorMonitor");
let defaultMaxListeners = 10;

function codeError(Ctor, code, message) {
  const e = new Ctor(message);
  e.code = code;
  return e;
}

function checkListener(listener) {
  if (typeof listener !== "function") {
    throw codeError(TypeError, "ERR_INVALID_ARG_TYPE",
      'The "listener" argument must be of type function. Received ' + received(listener));
  }
}

function received(v) {
  if (v == null) return String(v);
  if (typeof v === "function") return "function " + v.name;
  if (typeof v === "object") {
    if (v.constructor && v.constructor.name) return "an instance of " + v.constructor.name;
    return require("util").inspect(v, { depth: -1 });
  }
  let s = require("util").inspect(v);
  if (s.length > 28) s = s.slice(0, 25) + "...";
  return "type " + typeof v + " (" + s + ")";
}

function checkCount(n, name) {
  if (typeof n !== "number" || n < 0 || Number.isNaN(n)) {
    throw codeError(RangeError, "ERR_OUT_OF_RANGE",
      'The value of "' + name + '" is out of range. It must be a non-negative number. Received ' + require("util").inspect(n));
  }
}

function EventEmitter(opts) {
  EventEmitter.init.call(this, opts);
}

EventEmitter.prototype._events = undefined;
EventEmitter.prototype._eventsCount = 0;
EventEmitter.prototype._maxListeners = undefined;

EventEmitter.init = function (opts) {
  if (this._events === undefined || this._events === Object.getPrototypeOf(this)._events) {
    this._events = Object.create(null);
    this._eventsCount = 0;
  }
  this._maxListeners = this._maxListeners || undefined;
  if (opts && opts.captureRejections) {
    if (typeof opts.captureRejections !== "boolean") {
      throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "options.captureRejections" property must be of type boolean.');
    }
    this[kCapture] = true;
  } else {
    this[kCapture] = EventEmitter.prototype[kCapture];
  }
};

Object.defineProperty(EventEmitter, "defaultMaxListeners", {
  enumerable: true,
  get() { return defaultMaxListeners; },
  set(n) { checkCount(n, "defaultMaxListeners"); defaultMaxListeners = n; },
});
Object.defineProperty(EventEmitter, "captureRejections", {
  enumerable: true,
  get() { return EventEmitter.prototype[kCapture]; },
  set(v) {
    if (typeof v !== "boolean") throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "EventEmitter.captureRejections" property must be of type boolean.');
    EventEmitter.prototype[kCapture] = v;
  },
});
EventEmitter.prototype[kCapture] = false;
EventEmitter.errorMonitor = kErrorMonitor;
EventEmitter.captureRejectionSymbol = kRejection;
EventEmitter.usingDomains = false;

EventEmitter.prototype.setMaxListeners = function setMaxListeners(n) {
  checkCount(n, "n");
  this._maxListeners = n;
  return this;
};

function maxListeners(that) {
  return that._maxListeners === undefined ? defaultMaxListeners : that._maxListeners;
}

EventEmitter.prototype.getMaxListeners = function getMaxListeners() {
  return maxListeners(this);
};

function addCatch(that, promise, type, args) {
  if (!that[kCapture]) return;
  try {
    const then = promise.then;
    if (typeof then === "function") {
      then.call(promise, undefined, function (err) {
        process.nextTick(emitUnhandledRejectionOrErr, that, err, type, args);
      });
    }
  } catch (err) {
    that.emit("error", err);
  }
}

function emitUnhandledRejectionOrErr(ee, err, type, args) {
  if (typeof ee[kRejection] === "function") {
    ee[kRejection](err, type, ...args);
  } else {
    const prev = ee[kCapture];
    try {
      ee[kCapture] = false;
      ee.emit("error", err);
    } finally {
      ee[kCapture] = prev;
    }
  }
}

EventEmitter.prototype.emit = function emit(type, ...args) {
  let doError = type === "error";
  const events = this._events;
  if (events !== undefined) {
    if (doError && events[kErrorMonitor] !== undefined) this.emit(kErrorMonitor, ...args);
    doError = doError && events.error === undefined;
  } else if (!doError) {
    return false;
  }
  if (doError) {
    let er = args.length > 0 ? args[0] : undefined;
    if (er instanceof Error) throw er;
    let desc;
    try { desc = require("util").inspect(er); } catch { desc = String(er); }
    const err = codeError(Error, "ERR_UNHANDLED_ERROR", "Unhandled error. (" + desc + ")");
    err.context = er;
    throw err;
  }
  const handler = events[type];
  if (handler === undefined) return false;
  if (typeof handler === "function") {
    const result = handler.apply(this, args);
    if (result !== undefined && result !== null) addCatch(this, result, type, args);
  } else {
    const listeners = handler.slice();
    for (let i = 0; i < listeners.length; ++i) {
      const result = listeners[i].apply(this, args);
      if (result !== undefined && result !== null) addCatch(this, result, type, args);
    }
  }
  return true;
};

function addListener(target, type, listener, prepend) {
  checkListener(listener);
  let events = target._events;
  if (events === undefined) {
    events = target._events = Object.create(null);
    target._eventsCount = 0;
  } else {
    if (events.newListener !== undefined) {
      target.emit("newListener", type, listener.listener ? listener.listener : listener);
      events = target._events;
    }
  }
  let existing = events[type];
  if (existing === undefined) {
    events[type] = listener;
    ++target._eventsCount;
  } else {
    if (typeof existing === "function") {
      existing = events[type] = prepend ? [listener, existing] : [existing, listener];
    } else if (prepend) {
      existing.unshift(listener);
    } else {
      existing.push(listener);
    }
    const m = maxListeners(target);
    if (m > 0 && existing.length > m && !existing.warned) {
      existing.warned = true;
      const name = target.constructor && target.constructor.name || "EventEmitter";
      const w = new Error("Possible EventEmitter memory leak detected. " + existing.length + " " + String(type) +
        " listeners added to [" + name + "]. MaxListeners is " + m + ". Use emitter.setMaxListeners() to increase limit");
      w.name = "MaxListenersExceededWarning";
      w.emitter = target;
      w.type = type;
      w.count = existing.length;
      process.emitWarning(w);
    }
  }
  return target;
}

EventEmitter.prototype.addListener = function addListener_(type, listener) {
  return addListener(this, type, listener, false);
};
EventEmitter.prototype.on = EventEmitter.prototype.addListener;
EventEmitter.prototype.prependListener = function prependListener(type, listener) {
  return addListener(this, type, listener, true);
};

function onceWrapper() {
  if (!this.fired) {
    this.target.removeListener(this.type, this.wrapFn);
    this.fired = true;
    return this.listener.apply(this.target, arguments);
  }
}

function onceWrap(target, type, listener) {
  const state = { fired: false, wrapFn: undefined, target, type, listener };
  const wrapped = onceWrapper.bind(state);
  wrapped.listener = listener;
  state.wrapFn = wrapped;
  return wrapped;
}

EventEmitter.prototype.once = function once(type, listener) {
  checkListener(listener);
  this.on(type, onceWrap(this, type, listener));
  return this;
};
EventEmitter.prototype.prependOnceListener = function prependOnceListener(type, listener) {
  checkListener(listener);
  this.prependListener(type, onceWrap(this, type, listener));
  return this;
};

EventEmitter.prototype.removeListener = function removeListener(type, listener) {
  checkListener(listener);
  const events = this._events;
  if (events === undefined) return this;
  const list = events[type];
  if (list === undefined) return this;
  if (list === listener || list.listener === listener) {
    if (--this._eventsCount === 0) this._events = Object.create(null);
    else {
      delete events[type];
      if (events.removeListener) this.emit("removeListener", type, list.listener || listener);
    }
  } else if (typeof list !== "function") {
    let position = -1;
    for (let i = list.length - 1; i >= 0; i--) {
      if (list[i] === listener || list[i].listener === listener) {
        position = i;
        break;
      }
    }
    if (position < 0) return this;
    if (position === 0) list.shift();
    else list.splice(position, 1);
    if (list.length === 1) events[type] = list[0];
    if (events.removeListener !== undefined) this.emit("removeListener", type, listener);
  }
  return this;
};
EventEmitter.prototype.off = EventEmitter.prototype.removeListener;

EventEmitter.prototype.removeAllListeners = function removeAllListeners(type) {
  const events = this._events;
  if (events === undefined) return this;
  if (events.removeListener === undefined) {
    if (arguments.length === 0) {
      this._events = Object.create(null);
      this._eventsCount = 0;
    } else if (events[type] !== undefined) {
      if (--this._eventsCount === 0) this._events = Object.create(null);
      else delete events[type];
    }
    return this;
  }
  if (arguments.length === 0) {
    for (const key of Reflect.ownKeys(events)) {
      if (key === "removeListener") continue;
      this.removeAllListeners(key);
    }
    this.removeAllListeners("removeListener");
    this._events = Object.create(null);
    this._eventsCount = 0;
    return this;
  }
  const listeners = events[type];
  if (typeof listeners === "function") {
    this.removeListener(type, listeners);
  } else if (listeners !== undefined) {
    for (let i = listeners.length - 1; i >= 0; i--) this.removeListener(type, listeners[i]);
  }
  return this;
};

function listeners(target, type, unwrap) {
  const events = target._events;
  if (events === undefined) return [];
  const l = events[type];
  if (l === undefined) return [];
  if (typeof l === "function") return unwrap ? [l.listener || l] : [l];
  return unwrap ? l.map((f) => f.listener || f) : l.slice();
}

EventEmitter.prototype.listeners = function (type) { return listeners(this, type, true); };
EventEmitter.prototype.rawListeners = function (type) { return listeners(this, type, false); };

function listenerCount(type, listener) {
  const events = this._events;
  if (events !== undefined) {
    const l = events[type];
    if (typeof l === "function") {
      if (listener != null) return listener === l || listener === l.listener ? 1 : 0;
      return 1;
    }
    if (l !== undefined) {
      if (listener != null) {
        let n = 0;
        for (const f of l) if (f === listener || f.listener === listener) n++;
        return n;
      }
      return l.length;
    }
  }
  return 0;
}
EventEmitter.prototype.listenerCount = listenerCount;
EventEmitter.listenerCount = function (emitter, type) {
  if (typeof emitter.listenerCount === "function") return emitter.listenerCount(type);
  return listenerCount.call(emitter, type);
};

EventEmitter.prototype.eventNames = function eventNames() {
  return this._eventsCount > 0 ? Reflect.ownKeys(this._events) : [];
};

function isEventTarget(t) {
  return t && typeof t.addEventListener === "function" && typeof t.removeEventListener === "function";
}

function abortError(signal) {
  const e = new Error("The operation was aborted");
  e.name = "AbortError";
  e.code = "ABORT_ERR";
  if (signal && signal.reason !== undefined) e.cause = signal.reason;
  return e;
}

EventEmitter.once = function once(emitter, name, options = {}) {
  const signal = options ? options.signal : undefined;
  if (signal && signal.aborted) return Promise.reject(abortError(signal));
  return new Promise((resolve, reject) => {
    const errorListener = (err) => {
      emitter.removeListener(name, resolver);
      if (signal) signal.removeEventListener("abort", abortListener);
      reject(err);
    };
    const resolver = (...args) => {
      if (typeof emitter.removeListener === "function") emitter.removeListener("error", errorListener);
      if (signal) signal.removeEventListener("abort", abortListener);
      resolve(args);
    };
    const abortListener = () => {
      if (isEventTarget(emitter)) emitter.removeEventListener(name, resolver);
      else {
        emitter.removeListener(name, resolver);
        emitter.removeListener("error", errorListener);
      }
      reject(abortError(signal));
    };
    if (isEventTarget(emitter)) {
      emitter.addEventListener(name, (...a) => resolve(a), { once: true });
    } else {
      emitter.once(name, resolver);
      if (name !== "error") emitter.once("error", errorListener);
    }
    if (signal) signal.addEventListener("abort", abortListener, { once: true });
  });
};

EventEmitter.on = function on(emitter, event, options = {}) {
  const signal = options ? options.signal : undefined;
  if (signal && signal.aborted) throw abortError(signal);
  const unconsumed = [];
  const pending = [];
  let error = null;
  let finished = false;
  const eventHandler = (...args) => {
    const p = pending.shift();
    if (p) p.resolve({ value: args, done: false });
    else unconsumed.push(args);
  };
  const errorHandler = (err) => {
    finished = true;
    const p = pending.shift();
    if (p) p.reject(err);
    else error = err;
    iterator.return();
  };
  const close = () => {
    emitter.removeListener(event, eventHandler);
    emitter.removeListener("error", errorHandler);
    if (signal) signal.removeEventListener("abort", onAbort);
    finished = true;
    for (const p of pending) p.resolve({ value: undefined, done: true });
    pending.length = 0;
  };
  const onAbort = () => errorHandler(abortError(signal));
  const iterator = {
    next() {
      const value = unconsumed.shift();
      if (value) return Promise.resolve({ value, done: false });
      if (error) {
        const p = Promise.reject(error);
        error = null;
        return p;
      }
      if (finished) return Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => pending.push({ resolve, reject }));
    },
    return() {
      close();
      return Promise.resolve({ value: undefined, done: true });
    },
    throw(err) {
      error = err;
      close();
      return Promise.reject(err);
    },
    [Symbol.asyncIterator]() { return this; },
  };
  emitter.on(event, eventHandler);
  if (event !== "error") emitter.on("error", errorHandler);
  if (signal) signal.addEventListener("abort", onAbort, { once: true });
  return iterator;
};

EventEmitter.getEventListeners = function getEventListeners(emitter, type) {
  if (typeof emitter.listeners === "function") return emitter.listeners(type);
  return [];
};
EventEmitter.getMaxListeners = function getMaxListeners(emitter) {
  if (typeof emitter.getMaxListeners === "function") return emitter.getMaxListeners();
  return defaultMaxListeners;
};
EventEmitter.setMaxListeners = function setMaxListeners(n = defaultMaxListeners, ...targets) {
  checkCount(n, "n");
  if (targets.length === 0) defaultMaxListeners = n;
  for (const t of targets) if (typeof t.setMaxListeners === "function") t.setMaxListeners(n);
};
EventEmitter.addAbortListener = function addAbortListener(signal, listener) {
  checkListener(listener);
  if (signal.aborted) {
    queueMicrotask(() => listener());
  } else {
    signal.addEventListener("abort", listener, { once: true });
  }
  return { [Symbol.dispose || Symbol.for("nodejs.dispose")]() { signal.removeEventListener("abort", listener); } };
};
EventEmitter.EventEmitter = EventEmitter;
EventEmitter.EventEmitterAsyncResource = EventEmitter;
module.exports = EventEmitter;
