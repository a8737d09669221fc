// node:stream for bext: Readable, Writable, Duplex, Transform, PassThrough,
// pipeline and finished, written from Node's documentation. Event order
// follows Node's (data/end/finish/close on later ticks, 'drain' when the
// buffer empties after write() returned false).
"use strict";
const EE = require("events");
const { Buffer } = require("buffer");
let StringDecoder;

function codeError(Ctor, code, msg) {
  const e = new Ctor(msg);
  e.code = code;
  return e;
}
const nextTick = (fn, ...args) => process.nextTick(fn, ...args);

function Stream(opts) { EE.call(this, opts); }
Object.setPrototypeOf(Stream.prototype, EE.prototype);
Object.setPrototypeOf(Stream, EE);
Stream.prototype.pipe = function (dest, options) {
  const source = this;
  function ondata(chunk) { if (dest.writable && dest.write(chunk) === false && source.pause) source.pause(); }
  source.on("data", ondata);
  function ondrain() { if (source.readable && source.resume) source.resume(); }
  dest.on("drain", ondrain);
  if (!dest._isStdio && (!options || options.end !== false)) source.on("end", () => dest.end());
  dest.emit("pipe", source);
  return dest;
};

let defaultHWM = 16 * 1024, defaultObjectHWM = 16;
function getHWM(opts, objectMode, key) {
  let h = opts ? (opts.highWaterMark !== undefined ? opts.highWaterMark : opts[key]) : undefined;
  if (h === undefined || h === null) return objectMode ? defaultObjectHWM : defaultHWM;
  if (!Number.isInteger(h) || h < 0) throw codeError(TypeError, "ERR_INVALID_ARG_VALUE", "The property 'options.highWaterMark' is invalid. Received " + h);
  return h;
}

function destroyImpl(stream, err, cb) {
  const r = stream._readableState, w = stream._writableState;
  const s = r || w;
  if (s.destroyed) {
    if (typeof cb === "function") cb(err);
    return stream;
  }
  if (err) {
    if (r && !r.errored) r.errored = err;
    if (w && !w.errored) w.errored = err;
  }
  if (w && w.onFinished && w.onFinished.length) {
    const cbs = w.onFinished;
    w.onFinished = [];
    const e = err || codeError(Error, "ERR_STREAM_DESTROYED", "Cannot call end after a stream was destroyed");
    nextTick(() => { for (const cb of cbs) cb(e); });
  }
  if (r) r.destroyed = true;
  if (w) w.destroyed = true;
  const done = (e) => {
    if (e) {
      if (r && !r.errored) r.errored = e;
      if (w && !w.errored) w.errored = e;
    }
    if (r) r.closed = true;
    if (w) w.closed = true;
    if (typeof cb === "function") cb(e);
    nextTick(() => {
      if (e && !(r && r.errorEmitted) && !(w && w.errorEmitted)) {
        if (r) r.errorEmitted = true;
        if (w) w.errorEmitted = true;
        stream.emit("error", e);
      }
      if ((r ? r.emitClose : true) && (w ? w.emitClose : true)) stream.emit("close");
    });
  };
  try {
    stream._destroy(err || null, done);
  } catch (e) {
    done(e);
  }
  return stream;
}

// ---- Readable ----
function ReadableState(opts, stream, isDuplex) {
  opts = opts || {};
  this.objectMode = !!(opts.objectMode || (isDuplex && opts.readableObjectMode));
  this.highWaterMark = getHWM(opts, this.objectMode, isDuplex ? "readableHighWaterMark" : "highWaterMark");
  this.buffer = [];
  this.length = 0;
  this.pipes = [];
  this.flowing = null;
  this.ended = false;
  this.endEmitted = false;
  this.reading = false;
  this.sync = true;
  this.needReadable = false;
  this.emittedReadable = false;
  this.readableListening = false;
  this.resumeScheduled = false;
  this.destroyed = false;
  this.closed = false;
  this.errored = null;
  this.errorEmitted = false;
  this.emitClose = opts.emitClose !== false;
  this.autoDestroy = opts.autoDestroy !== false;
  this.defaultEncoding = opts.defaultEncoding || "utf8";
  this.dataEmitted = false;
  this.decoder = null;
  this.encoding = null;
  if (opts.encoding) {
    StringDecoder = StringDecoder || require("string_decoder").StringDecoder;
    this.decoder = new StringDecoder(opts.encoding);
    this.encoding = opts.encoding;
  }
}

function Readable(opts) {
  if (!(this instanceof Readable)) return new Readable(opts);
  const isDuplex = this instanceof Duplex;
  this._readableState = new ReadableState(opts, this, isDuplex);
  if (opts) {
    if (typeof opts.read === "function") this._read = opts.read;
    if (typeof opts.destroy === "function") this._destroy = opts.destroy;
    if (typeof opts.construct === "function") this._construct = opts.construct;
    if (opts.signal) addAbortSignal(opts.signal, this);
  }
  Stream.call(this, opts);
}
Object.setPrototypeOf(Readable.prototype, Stream.prototype);
Object.setPrototypeOf(Readable, Stream);

Readable.prototype._read = function () {
  throw codeError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _read() method is not implemented");
};
Readable.prototype._destroy = function (err, cb) { cb(err); };
Readable.prototype.destroy = function (err, cb) { return destroyImpl(this, err, cb); };

function chunkLength(state, chunk) { return state.objectMode ? 1 : chunk.length; }

Readable.prototype.push = function (chunk, encoding) { return addChunk(this, chunk, encoding, false); };
Readable.prototype.unshift = function (chunk, encoding) { return addChunk(this, chunk, encoding, true); };

function addChunk(stream, chunk, encoding, front) {
  const state = stream._readableState;
  if (chunk === null) {
    state.reading = false;
    if (!state.ended) {
      if (state.decoder) {
        const rest = state.decoder.end();
        if (rest && rest.length) { state.buffer.push(rest); state.length += state.objectMode ? 1 : rest.length; }
      }
      state.ended = true;
      if (state.sync) emitReadable(stream);
      else { state.needReadable = false; state.emittedReadable = true; emitReadable_(stream); }
    }
    return false;
  }
  if (!state.objectMode) {
    if (typeof chunk === "string") {
      encoding = encoding || state.defaultEncoding;
      if (state.encoding !== encoding) {
        chunk = Buffer.from(chunk, encoding);
      }
    } else if (chunk instanceof Uint8Array && !(chunk instanceof Buffer)) {
      chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength);
    } else if (!(chunk instanceof Buffer) && chunk !== undefined) {
      const err = codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ' + typeof chunk);
      destroyImpl(stream, err);
      return false;
    }
  }
  if (chunk === undefined) return state.length < state.highWaterMark;
  if (state.ended && !front) {
    destroyImpl(stream, codeError(Error, "ERR_STREAM_PUSH_AFTER_EOF", "stream.push() after EOF"));
    return false;
  }
  if (state.destroyed) return false;
  state.reading = false;
  if (state.decoder && !state.objectMode && typeof chunk !== "string") {
    chunk = state.decoder.write(chunk);
    if (chunk.length === 0) { maybeReadMore(stream, state); return state.length < state.highWaterMark; }
  }
  if (!front && state.flowing && state.length === 0 && !state.sync && stream.listenerCount("data") > 0) {
    state.dataEmitted = true;
    stream.emit("data", chunk);
  } else {
    state.length += chunkLength(state, chunk);
    if (front) state.buffer.unshift(chunk);
    else state.buffer.push(chunk);
    if (state.needReadable) emitReadable(stream);
  }
  maybeReadMore(stream, state);
  return !state.ended && (state.length < state.highWaterMark || state.length === 0);
}

function fromList(n, state) {
  if (state.length === 0) return null;
  let ret;
  if (state.objectMode) ret = state.buffer.shift();
  else if (!n || n >= state.length) {
    if (state.decoder || state.encoding) ret = state.buffer.join("");
    else if (state.buffer.length === 1) ret = state.buffer[0];
    else ret = Buffer.concat(state.buffer);
    state.buffer = [];
  } else {
    const first = state.buffer[0];
    if (n < first.length) {
      ret = first.slice(0, n);
      state.buffer[0] = first.slice(n);
    } else if (n === first.length) {
      ret = state.buffer.shift();
    } else if (typeof first === "string") {
      ret = "";
      while (ret.length < n) {
        const c = state.buffer[0];
        const take = Math.min(n - ret.length, c.length);
        ret += c.slice(0, take);
        if (take === c.length) state.buffer.shift(); else state.buffer[0] = c.slice(take);
      }
    } else {
      ret = Buffer.allocUnsafe(n);
      let off = 0;
      while (off < n) {
        const c = state.buffer[0];
        const take = Math.min(n - off, c.length);
        ret.set(c.subarray(0, take), off);
        off += take;
        if (take === c.length) state.buffer.shift(); else state.buffer[0] = c.slice(take);
      }
    }
  }
  return ret;
}

function howMuchToRead(n, state) {
  if (n <= 0 || (state.length === 0 && state.ended)) return 0;
  if (state.objectMode) return 1;
  if (Number.isNaN(n) || n === undefined) {
    if (state.flowing && state.length) return state.buffer[0].length;
    return state.length;
  }
  if (n <= state.length) return n;
  return state.ended ? state.length : 0;
}

Readable.prototype.read = function (n) {
  const state = this._readableState;
  if (n === undefined) n = NaN;
  else if (typeof n !== "number") n = parseInt(n, 10);
  const nOrig = n;
  if (n > state.highWaterMark) state.highWaterMark = Math.max(state.highWaterMark, 2 ** Math.ceil(Math.log2(n)));
  if (n !== 0) state.emittedReadable = false;
  if (n === 0 && state.needReadable && ((state.highWaterMark !== 0 ? state.length >= state.highWaterMark : state.length > 0) || state.ended)) {
    if (state.length === 0 && state.ended) endReadable(this);
    else emitReadable(this);
    return null;
  }
  n = howMuchToRead(n, state);
  if (n === 0 && state.ended) {
    if (state.length === 0) endReadable(this);
    return null;
  }
  let doRead = state.needReadable;
  if (state.length === 0 || state.length - n < state.highWaterMark) doRead = true;
  if (state.ended || state.reading || state.destroyed || state.errored) doRead = false;
  else if (doRead) {
    state.reading = true;
    state.sync = true;
    if (state.length === 0) state.needReadable = true;
    try {
      this._read(state.highWaterMark);
    } catch (err) {
      destroyImpl(this, err);
    }
    state.sync = false;
    if (!state.reading) n = howMuchToRead(nOrig, state);
  }
  let ret = n > 0 ? fromList(n, state) : null;
  if (ret === null) {
    state.needReadable = state.length <= state.highWaterMark;
    n = 0;
  } else {
    state.length -= state.objectMode ? 1 : ret.length;
  }
  if (state.length === 0) {
    if (!state.ended) state.needReadable = true;
    if (nOrig !== n && state.ended) endReadable(this);
  }
  if (ret !== null && !state.errorEmitted && !state.closeEmitted) {
    state.dataEmitted = true;
    this.emit("data", ret);
  }
  return ret;
};

function emitReadable(stream) {
  const state = stream._readableState;
  state.needReadable = false;
  if (!state.emittedReadable) {
    state.emittedReadable = true;
    nextTick(emitReadable_, stream);
  }
}
function emitReadable_(stream) {
  const state = stream._readableState;
  if (!state.destroyed && !state.errored && (state.length || state.ended)) {
    stream.emit("readable");
    state.emittedReadable = false;
  }
  state.needReadable = !state.flowing && !state.ended && state.length <= state.highWaterMark;
  flow(stream);
}

function maybeReadMore(stream, state) {
  if (!state.readingMore && state.constructed !== false) {
    state.readingMore = true;
    nextTick(() => {
      while (!state.reading && !state.ended && (state.length < state.highWaterMark || (state.flowing && state.length === 0))) {
        const len = state.length;
        stream.read(0);
        if (len === state.length) break;
      }
      state.readingMore = false;
    });
  }
}

function flow(stream) {
  const state = stream._readableState;
  while (state.flowing && stream.read() !== null);
}

function endReadable(stream) {
  const state = stream._readableState;
  if (!state.endEmitted) {
    state.ended = true;
    nextTick(() => {
      if (!state.errored && !state.closeEmitted && !state.endEmitted && state.length === 0) {
        state.endEmitted = true;
        stream.emit("end");
        const w = stream._writableState;
        if (w && !w.ended && stream.allowHalfOpen === false) stream.end();
        else if (state.autoDestroy && (!w || (w.autoDestroy && (w.finished || w.writable === false)))) stream.destroy();
      }
    });
  }
}

Readable.prototype.on = function (ev, fn) {
  const res = Stream.prototype.on.call(this, ev, fn);
  const state = this._readableState;
  if (ev === "data") {
    state.readableListening = this.listenerCount("readable") > 0;
    if (state.flowing !== false) this.resume();
  } else if (ev === "readable") {
    if (!state.endEmitted && !state.readableListening) {
      state.readableListening = state.needReadable = true;
      state.flowing = false;
      state.emittedReadable = false;
      if (state.length) emitReadable(this);
      else if (!state.reading) nextTick(() => this.read(0));
    }
  }
  return res;
};
Readable.prototype.addListener = Readable.prototype.on;

Readable.prototype.resume = function () {
  const state = this._readableState;
  if (!state.flowing) {
    state.flowing = !state.readableListening;
    if (!state.resumeScheduled) {
      state.resumeScheduled = true;
      nextTick(() => {
        if (!state.reading) this.read(0);
        state.resumeScheduled = false;
        this.emit("resume");
        flow(this);
        if (state.flowing && !state.reading) this.read(0);
      });
    }
  }
  state.paused = false;
  return this;
};
Readable.prototype.pause = function () {
  const state = this._readableState;
  if (state.flowing !== false) {
    state.flowing = false;
    this.emit("pause");
  }
  state.paused = true;
  return this;
};
Readable.prototype.isPaused = function () { return this._readableState.paused === true || this._readableState.flowing === false; };
Readable.prototype.setEncoding = function (enc) {
  StringDecoder = StringDecoder || require("string_decoder").StringDecoder;
  const state = this._readableState;
  state.decoder = new StringDecoder(enc);
  state.encoding = state.decoder.encoding;
  let content = "";
  for (const c of state.buffer) content += state.decoder.write(c);
  state.buffer = content ? [content] : [];
  state.length = content.length;
  return this;
};

Readable.prototype.pipe = function (dest, pipeOpts) {
  const src = this;
  const state = this._readableState;
  state.pipes.push(dest);
  const doEnd = (!pipeOpts || pipeOpts.end !== false) && dest !== process.stdout && dest !== process.stderr;
  const onend = () => dest.end();
  const endFn = doEnd ? onend : unpipe;
  if (state.endEmitted) nextTick(endFn);
  else src.once("end", endFn);
  dest.on("unpipe", onunpipe);
  function onunpipe(readable) { if (readable === src) cleanup(); }
  let ondrain;
  let cleanedUp = false;
  function cleanup() {
    dest.removeListener("close", onclose);
    dest.removeListener("finish", onfinish);
    if (ondrain) dest.removeListener("drain", ondrain);
    dest.removeListener("error", onerror);
    dest.removeListener("unpipe", onunpipe);
    src.removeListener("end", onend);
    src.removeListener("end", unpipe);
    src.removeListener("data", ondata);
    cleanedUp = true;
  }
  function pause() {
    if (!cleanedUp) {
      state.awaitDrainWriters = dest;
      if (!ondrain) {
        ondrain = () => {
          state.awaitDrainWriters = null;
          if (src.listenerCount("data")) { state.flowing = true; flow(src); }
        };
        dest.on("drain", ondrain);
      }
    }
    src.pause();
  }
  src.on("data", ondata);
  function ondata(chunk) {
    const ret = dest.write(chunk);
    if (ret === false) pause();
  }
  function onerror(er) {
    unpipe();
    dest.removeListener("error", onerror);
    if (dest.listenerCount("error") === 0) {
      const s = dest._writableState || dest._readableState;
      if (s && !s.errorEmitted) destroyImpl(dest, er);
      else dest.emit("error", er);
    }
  }
  dest.prependListener("error", onerror);
  function onclose() { dest.removeListener("finish", onfinish); unpipe(); }
  dest.once("close", onclose);
  function onfinish() { dest.removeListener("close", onclose); unpipe(); }
  dest.once("finish", onfinish);
  function unpipe() { src.unpipe(dest); }
  dest.emit("pipe", src);
  if (dest.writableNeedDrain === true) pause();
  else if (!state.flowing) src.resume();
  return dest;
};
Readable.prototype.unpipe = function (dest) {
  const state = this._readableState;
  if (state.pipes.length === 0) return this;
  const dests = dest ? [dest] : state.pipes.slice();
  for (const d of dests) {
    const i = state.pipes.indexOf(d);
    if (i === -1) continue;
    state.pipes.splice(i, 1);
    if (state.pipes.length === 0) this.pause();
    d.emit("unpipe", this, { hasUnpiped: false });
  }
  return this;
};

Readable.prototype[Symbol.asyncIterator] = function () { return createAsyncIterator(this); };
Readable.prototype.iterator = function (opts) { return createAsyncIterator(this, opts); };

function createAsyncIterator(stream, opts) {
  const destroyOnReturn = !opts || opts.destroyOnReturn !== false;
  let error = null, done = false, waiting = null;
  const wake = () => { if (waiting) { const w = waiting; waiting = null; w(); } };
  stream.on("readable", wake);
  const cleanup = finished(stream, { writable: false }, (err) => {
    error = err && err.code !== "ERR_STREAM_PREMATURE_CLOSE" ? err : null;
    done = true;
    wake();
  });
  const it = {
    async next() {
      while (true) {
        if (error) { const e = error; error = null; throw e; }
        const chunk = stream.destroyed ? null : stream.read();
        if (chunk !== null) return { value: chunk, done: false };
        if (done || stream._readableState.endEmitted) { cleanup(); return { value: undefined, done: true }; }
        await new Promise((r) => { waiting = r; });
      }
    },
    async return() {
      done = true;
      cleanup();
      if (destroyOnReturn && !stream._readableState.endEmitted) stream.destroy();
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() { return this; },
  };
  return it;
}

Readable.prototype.toArray = async function () {
  const out = [];
  const it = createAsyncIterator(this);
  for (let r = await it.next(); !r.done; r = await it.next()) out.push(r.value);
  return out;
};
Readable.prototype.forEach = async function (fn) {
  const it = createAsyncIterator(this);
  for (let r = await it.next(); !r.done; r = await it.next()) await fn(r.value);
};

const rprops = {
  readable: { get() { const s = this._readableState; return !!s && !s.destroyed && !s.errored && !s.endEmitted && this._readableFlag !== false; }, set(v) { this._readableFlag = v; } },
  readableEnded: { get() { return this._readableState ? this._readableState.endEmitted : false; } },
  readableFlowing: { get() { return this._readableState.flowing; }, set(v) { this._readableState.flowing = v; } },
  readableLength: { get() { return this._readableState.length; } },
  readableHighWaterMark: { get() { return this._readableState.highWaterMark; } },
  readableObjectMode: { get() { return this._readableState ? this._readableState.objectMode : false; } },
  readableEncoding: { get() { return this._readableState ? this._readableState.encoding : null; } },
  readableAborted: { get() { const s = this._readableState; return !!(s.destroyed || s.errored) && !s.endEmitted; } },
  readableDidRead: { get() { return this._readableState.dataEmitted; } },
  destroyed: {
    get() { const s = this._readableState || this._writableState; return s ? s.destroyed : false; },
    set(v) { if (this._readableState) this._readableState.destroyed = v; if (this._writableState) this._writableState.destroyed = v; },
  },
  closed: { get() { const s = this._readableState || this._writableState; return s ? s.closed : false; } },
  errored: { get() { const s = this._readableState || this._writableState; return s ? s.errored : null; } },
};
Object.defineProperties(Readable.prototype, rprops);

Readable.from = function from(iterable, opts) {
  if (typeof iterable === "string" || iterable instanceof Uint8Array) {
    return new Readable(Object.assign({ objectMode: true }, opts, { read() { this.push(iterable); this.push(null); } }));
  }
  let iterator, isAsync;
  if (iterable && typeof iterable[Symbol.asyncIterator] === "function") { isAsync = true; iterator = iterable[Symbol.asyncIterator](); }
  else if (iterable && typeof iterable[Symbol.iterator] === "function") { isAsync = false; iterator = iterable[Symbol.iterator](); }
  else throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "iterable" argument must be an instance of Iterable. Received ' + typeof iterable);
  let reading = false;
  const readable = new Readable(Object.assign({ objectMode: true, highWaterMark: 1 }, opts, {
    read() {
      if (reading) return;
      reading = true;
      (async () => {
        try {
          while (true) {
            const r = isAsync ? await iterator.next() : iterator.next();
            const { value, done } = r;
            if (done) { readable.push(null); return; }
            const v = value && typeof value.then === "function" ? await value : value;
            if (v === null) throw codeError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
            if (!readable.push(v)) return;
          }
        } catch (err) {
          readable.destroy(err);
        } finally {
          reading = false;
        }
      })();
    },
    destroy(err, cb) {
      if (typeof iterator.return === "function" && err) {
        Promise.resolve(iterator.return()).then(() => cb(err), cb);
      } else cb(err);
    },
  }));
  return readable;
};

Readable.fromWeb = function fromWeb(rs, opts) {
  const reader = rs.getReader();
  let reading = false;
  return new Readable(Object.assign({}, opts, {
    read() {
      if (reading) return;
      reading = true;
      reader.read().then(({ value, done }) => {
        reading = false;
        if (done) this.push(null);
        else if (this.push(value)) this.read(0);
      }, (err) => this.destroy(err));
    },
    destroy(err, cb) { reader.cancel(err).then(() => cb(err), cb); },
  }));
};
Readable.toWeb = function toWeb(readable) {
  return new globalThis.ReadableStream({
    start(c) {
      readable.on("data", (chunk) => {
        c.enqueue(typeof chunk === "string" ? new TextEncoder().encode(chunk) : new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if (c.desiredSize <= 0) readable.pause();
      });
      readable.on("end", () => c.close());
      readable.on("error", (e) => c.error(e));
    },
    pull() { readable.resume(); },
    cancel(reason) { readable.destroy(reason); },
  });
};

// ---- Writable ----
function WritableState(opts, stream, isDuplex) {
  opts = opts || {};
  this.objectMode = !!(opts.objectMode || (isDuplex && opts.writableObjectMode));
  this.highWaterMark = getHWM(opts, this.objectMode, isDuplex ? "writableHighWaterMark" : "highWaterMark");
  this.decodeStrings = opts.decodeStrings !== false;
  this.defaultEncoding = opts.defaultEncoding || "utf8";
  this.length = 0;
  this.writing = false;
  this.corked = 0;
  this.sync = true;
  this.buffered = [];
  this.pendingcb = 0;
  this.needDrain = false;
  this.ending = false;
  this.ended = false;
  this.finished = false;
  this.finalCalled = false;
  this.prefinished = false;
  this.destroyed = false;
  this.closed = false;
  this.errored = null;
  this.errorEmitted = false;
  this.emitClose = opts.emitClose !== false;
  this.autoDestroy = opts.autoDestroy !== false;
  this.afterWritePending = 0;
}

function Writable(opts) {
  const isDuplex = this instanceof Duplex;
  if (!isDuplex && !(this instanceof Writable)) return new Writable(opts);
  this._writableState = new WritableState(opts, this, isDuplex);
  if (opts) {
    if (typeof opts.write === "function") this._write = opts.write;
    if (typeof opts.writev === "function") this._writev = opts.writev;
    if (typeof opts.destroy === "function") this._destroy = opts.destroy;
    if (typeof opts.final === "function") this._final = opts.final;
    if (typeof opts.construct === "function") this._construct = opts.construct;
    if (opts.signal) addAbortSignal(opts.signal, this);
  }
  Stream.call(this, opts);
}
Object.setPrototypeOf(Writable.prototype, Stream.prototype);
Object.setPrototypeOf(Writable, Stream);
Object.defineProperty(Writable, Symbol.hasInstance, {
  value(obj) {
    if (Function.prototype[Symbol.hasInstance].call(this, obj)) return true;
    if (this !== Writable) return false;
    return !!(obj && obj._writableState);
  },
});

Writable.prototype._write = function (chunk, encoding, cb) {
  if (this._writev) this._writev([{ chunk, encoding }], cb);
  else throw codeError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _write() method is not implemented");
};
Writable.prototype._writev = null;
Writable.prototype._destroy = function (err, cb) { cb(err); };
Writable.prototype.destroy = function (err, cb) { return destroyImpl(this, err, cb); };

Writable.prototype.write = function (chunk, encoding, cb) {
  const state = this._writableState;
  if (typeof encoding === "function") { cb = encoding; encoding = state.defaultEncoding; }
  else {
    if (!encoding) encoding = state.defaultEncoding;
    else if (encoding !== "buffer" && !Buffer.isEncoding(encoding)) throw codeError(TypeError, "ERR_UNKNOWN_ENCODING", "Unknown encoding: " + encoding);
    if (typeof cb !== "function") cb = undefined;
  }
  if (chunk === null) throw codeError(TypeError, "ERR_STREAM_NULL_VALUES", "May not write null values to stream");
  if (!state.objectMode) {
    if (typeof chunk === "string") {
      if (state.decodeStrings !== false) { chunk = Buffer.from(chunk, encoding); encoding = "buffer"; }
    } else if (chunk instanceof Buffer) encoding = "buffer";
    else if (chunk instanceof Uint8Array) { chunk = Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength); encoding = "buffer"; }
    else throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "chunk" argument must be of type string or an instance of Buffer or Uint8Array. Received ' + (chunk === undefined ? "undefined" : typeof chunk));
  }
  let err;
  if (state.ending) err = codeError(Error, "ERR_STREAM_WRITE_AFTER_END", "write after end");
  else if (state.destroyed) err = codeError(Error, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed");
  if (err) {
    nextTick(() => { if (cb) cb(err); });
    destroyImpl(this, err);
    return false;
  }
  state.pendingcb++;
  const len = state.objectMode ? 1 : chunk.length;
  state.length += len;
  const ret = state.length < state.highWaterMark;
  if (!ret) state.needDrain = true;
  if (state.writing || state.corked || state.errored) {
    state.buffered.push({ chunk, encoding, callback: cb || nop });
  } else {
    doWrite(this, state, len, chunk, encoding, cb || nop);
  }
  return ret && !state.errored && !state.destroyed;
};
function nop() {}

function doWrite(stream, state, len, chunk, encoding, cb) {
  state.writelen = len;
  state.writecb = cb;
  state.writing = true;
  state.sync = true;
  if (state.destroyed) onwrite(stream, codeError(Error, "ERR_STREAM_DESTROYED", "Cannot call write after a stream was destroyed"));
  else stream._write(chunk, encoding, (er) => onwrite(stream, er));
  state.sync = false;
}
function doWritev(stream, state, buffered) {
  state.writelen = buffered.reduce((n, b) => n + (state.objectMode ? 1 : b.chunk.length), 0);
  state.writecb = (err) => { for (const b of buffered) b.callback(err); };
  state.writing = true;
  state.sync = true;
  stream._writev(buffered, (er) => onwrite(stream, er));
  state.sync = false;
}

function onwrite(stream, er) {
  const state = stream._writableState;
  const sync = state.sync;
  const cb = state.writecb;
  if (typeof cb !== "function") {
    destroyImpl(stream, codeError(Error, "ERR_MULTIPLE_CALLBACK", "Callback called multiple times"));
    return;
  }
  state.writing = false;
  state.writecb = null;
  state.length -= state.writelen;
  state.writelen = 0;
  if (er) {
    if (!state.errored) state.errored = er;
    if (sync) nextTick(cb, er); else cb(er);
    destroyImpl(stream, er);
    return;
  }
  if (state.buffered.length > 0) clearBuffer(stream, state);
  if (sync) {
    state.afterWritePending++;
    if (state.afterWritePending === 1) {
      nextTick(() => {
        const n = state.afterWritePending;
        state.afterWritePending = 0;
        for (let i = 0; i < n; i++) afterWrite(stream, state, i === n - 1 ? cb : cb);
      });
      state.afterWriteCbs = [cb];
    } else {
      state.afterWriteCbs.push(cb);
    }
  } else {
    afterWrite(stream, state, cb);
  }
}

function afterWrite(stream, state, cb) {
  if (state.afterWriteCbs && state.afterWriteCbs.length) cb = state.afterWriteCbs.shift();
  const needDrain = !state.ending && !stream.destroyed && state.length === 0 && state.needDrain;
  if (needDrain) {
    state.needDrain = false;
    stream.emit("drain");
  }
  state.pendingcb--;
  cb(null);
  if (state.destroyed) return;
  finishMaybe(stream, state);
}

function clearBuffer(stream, state) {
  if (state.corked || state.destroyed || state.writing) return;
  const buffered = state.buffered;
  if (buffered.length > 1 && stream._writev) {
    state.buffered = [];
    state.pendingcb -= buffered.length - 1;
    doWritev(stream, state, buffered);
  } else {
    while (state.buffered.length > 0 && !state.writing) {
      const { chunk, encoding, callback } = state.buffered.shift();
      const len = state.objectMode ? 1 : chunk.length;
      doWrite(stream, state, len, chunk, encoding, callback);
    }
  }
}

Writable.prototype.cork = function () { this._writableState.corked++; };
Writable.prototype.uncork = function () {
  const state = this._writableState;
  if (state.corked) {
    state.corked--;
    if (!state.writing) clearBuffer(this, state);
  }
};
Writable.prototype.setDefaultEncoding = function (enc) {
  if (typeof enc === "string") enc = enc.toLowerCase();
  if (!Buffer.isEncoding(enc)) throw codeError(TypeError, "ERR_UNKNOWN_ENCODING", "Unknown encoding: " + enc);
  this._writableState.defaultEncoding = enc;
  return this;
};

Writable.prototype.end = function (chunk, encoding, cb) {
  const state = this._writableState;
  if (typeof chunk === "function") { cb = chunk; chunk = null; encoding = null; }
  else if (typeof encoding === "function") { cb = encoding; encoding = null; }
  if (chunk !== null && chunk !== undefined) this.write(chunk, encoding);
  if (state.corked) { state.corked = 1; this.uncork(); }
  let err;
  if (!state.errored && !state.ending) {
    state.ending = true;
    finishMaybe(this, state, true);
    state.ended = true;
  } else if (state.finished) {
    err = codeError(Error, "ERR_STREAM_ALREADY_FINISHED", "Cannot call end after a stream was finished");
  } else if (state.destroyed) {
    err = codeError(Error, "ERR_STREAM_DESTROYED", "Cannot call end after a stream was destroyed");
  }
  if (typeof cb === "function") {
    if (err || state.finished) nextTick(cb, err);
    else (state.onFinished || (state.onFinished = [])).push(cb);
  }
  return this;
};

function needFinish(state) {
  return state.ending && !state.destroyed && state.length === 0 && !state.errored &&
    state.buffered.length === 0 && !state.finished && !state.writing && !state.errorEmitted && !state.closeEmitted;
}

function finishMaybe(stream, state, sync) {
  if (!needFinish(state)) return;
  if (!state.prefinished && !state.finalCalled) {
    if (typeof stream._final === "function" && !state.destroyed) {
      state.finalCalled = true;
      state.sync = true;
      state.pendingcb++;
      const onFinal = (err) => {
        state.pendingcb--;
        if (err) {
          destroyImpl(stream, err);
          return;
        }
        state.prefinished = true;
        stream.emit("prefinish");
        state.pendingcb++;
        nextTick(finish, stream, state);
      };
      try { stream._final(onFinal); } catch (err) { onFinal(err); }
      state.sync = false;
      return;
    }
    state.prefinished = true;
    stream.emit("prefinish");
  }
  if (state.pendingcb === 0 && !state.finishScheduled) {
    state.finishScheduled = true;
    state.pendingcb++;
    nextTick(finish, stream, state);
  }
}

function finish(stream, state) {
  state.pendingcb--;
  if (state.errorEmitted || state.closeEmitted || state.finished) return;
  if (state.pendingcb !== 0) return;
  state.finished = true;
  const cbs = state.onFinished || [];
  state.onFinished = [];
  for (const cb of cbs) cb(null);
  stream.emit("finish");
  if (state.autoDestroy) {
    const r = stream._readableState;
    if (!r || (r.autoDestroy && (r.endEmitted || r.readable === false))) stream.destroy();
  }
}

Object.defineProperties(Writable.prototype, {
  writable: {
    get() { const w = this._writableState; return !!w && this._writableFlag !== false && !w.destroyed && !w.errored && !w.ending && !w.ended; },
    set(v) { this._writableFlag = v; },
  },
  writableFinished: { get() { return this._writableState ? this._writableState.finished : false; } },
  writableEnded: { get() { return this._writableState ? this._writableState.ending : false; } },
  writableLength: { get() { return this._writableState && this._writableState.length; } },
  writableHighWaterMark: { get() { return this._writableState && this._writableState.highWaterMark; } },
  writableObjectMode: { get() { return this._writableState ? this._writableState.objectMode : false; } },
  writableCorked: { get() { return this._writableState ? this._writableState.corked : 0; } },
  writableNeedDrain: { get() { const w = this._writableState; return !!w && !w.destroyed && !w.ending && w.needDrain; } },
  writableAborted: { get() { const w = this._writableState; return !!(w.destroyed || w.errored) && !w.finished; } },
  destroyed: rprops.destroyed,
  closed: rprops.closed,
  errored: rprops.errored,
});

// ---- Duplex, Transform, PassThrough ----
function Duplex(opts) {
  if (!(this instanceof Duplex)) return new Duplex(opts);
  Readable.call(this, opts);
  this._writableState = new WritableState(opts, this, true);
  if (opts) {
    if (typeof opts.write === "function") this._write = opts.write;
    if (typeof opts.writev === "function") this._writev = opts.writev;
    if (typeof opts.final === "function") this._final = opts.final;
    this.allowHalfOpen = opts.allowHalfOpen !== false;
    if (opts.readable === false) { this._readableState.readable = false; this._readableState.ended = true; this._readableState.endEmitted = true; }
    if (opts.writable === false) { this._writableState.writable = false; this._writableState.ending = true; this._writableState.ended = true; this._writableState.finished = true; }
  } else {
    this.allowHalfOpen = true;
  }
}
Object.setPrototypeOf(Duplex.prototype, Readable.prototype);
Object.setPrototypeOf(Duplex, Readable);
for (const m of ["write", "cork", "uncork", "setDefaultEncoding", "end", "_write"]) {
  if (!Object.prototype.hasOwnProperty.call(Duplex.prototype, m)) Duplex.prototype[m] = Writable.prototype[m];
}
Duplex.prototype._writev = null;
for (const p of ["writable", "writableFinished", "writableEnded", "writableLength", "writableHighWaterMark", "writableObjectMode", "writableCorked", "writableNeedDrain", "writableAborted"]) {
  Object.defineProperty(Duplex.prototype, p, Object.getOwnPropertyDescriptor(Writable.prototype, p));
}
Duplex.prototype.destroy = function (err, cb) { return destroyImpl(this, err, cb); };
Duplex.from = function from(body) {
  if (body instanceof Duplex) return body;
  if (body && (typeof body[Symbol.asyncIterator] === "function" || typeof body[Symbol.iterator] === "function" || typeof body === "string")) {
    return Readable.from(body);
  }
  throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", "Duplex.from: unsupported body");
};

function Transform(opts) {
  if (!(this instanceof Transform)) return new Transform(opts);
  Duplex.call(this, opts);
  this._readableState.sync = false;
  this._pendingCallback = null;
  if (opts) {
    if (typeof opts.transform === "function") this._transform = opts.transform;
    if (typeof opts.flush === "function") this._flush = opts.flush;
  }
}
Object.setPrototypeOf(Transform.prototype, Duplex.prototype);
Object.setPrototypeOf(Transform, Duplex);
Transform.prototype._final = function (cb) {
  if (typeof this._flush === "function" && !this.destroyed) {
    this._flush((er, data) => {
      if (er) { cb(er); return; }
      if (data != null) this.push(data);
      this.push(null);
      cb();
    });
  } else {
    this.push(null);
    cb();
  }
};
Transform.prototype._transform = function () {
  throw codeError(Error, "ERR_METHOD_NOT_IMPLEMENTED", "The _transform() method is not implemented");
};
Transform.prototype._write = function (chunk, encoding, callback) {
  const rState = this._readableState;
  const wState = this._writableState;
  const length = rState.length;
  this._transform(chunk, encoding, (err, val) => {
    if (err) { callback(err); return; }
    if (val != null) this.push(val);
    if (wState.ended || length === rState.length || rState.length < rState.highWaterMark) callback();
    else this._pendingCallback = callback;
  });
};
Transform.prototype._read = function () {
  if (this._pendingCallback) {
    const cb = this._pendingCallback;
    this._pendingCallback = null;
    cb();
  }
};

function PassThrough(opts) {
  if (!(this instanceof PassThrough)) return new PassThrough(opts);
  Transform.call(this, opts);
}
Object.setPrototypeOf(PassThrough.prototype, Transform.prototype);
Object.setPrototypeOf(PassThrough, Transform);
PassThrough.prototype._transform = function (chunk, enc, cb) { cb(null, chunk); };

// ---- finished, pipeline, helpers ----
function isReadableStream(s) { return s && typeof s.pipe === "function" && typeof s.on === "function" && (!s._writableState || (s._readableState && s._readableState.readable !== false)); }
function isWritableStream(s) { return s && typeof s.write === "function" && typeof s.on === "function"; }

function finished(stream, opts, callback) {
  if (typeof opts === "function") { callback = opts; opts = {}; }
  opts = opts || {};
  let called = false;
  const cb = (err) => { if (!called) { called = true; callback.call(stream, err); } };
  const rState = stream._readableState, wState = stream._writableState;
  const readable = opts.readable !== undefined ? opts.readable : !!rState && rState.readable !== false && isReadableStream(stream);
  const writable = opts.writable !== undefined ? opts.writable : !!wState && wState.writable !== false && isWritableStream(stream);
  let readableFinished = rState ? rState.endEmitted : false;
  let writableFinished = wState ? wState.finished : false;
  const onfinish = () => { writableFinished = true; if (!readable || readableFinished) cb(); };
  const onend = () => { readableFinished = true; if (!writable || writableFinished) cb(); };
  const onerror = (err) => cb(err);
  const onclose = () => {
    if (readable && !readableFinished && !(rState && rState.endEmitted)) return cb(codeError(Error, "ERR_STREAM_PREMATURE_CLOSE", "Premature close"));
    if (writable && !writableFinished && !(wState && wState.finished)) return cb(codeError(Error, "ERR_STREAM_PREMATURE_CLOSE", "Premature close"));
    cb();
  };
  stream.on("end", onend);
  stream.on("finish", onfinish);
  if (opts.error !== false) stream.on("error", onerror);
  stream.on("close", onclose);
  const errored = (rState && rState.errored) || (wState && wState.errored);
  if (errored && ((rState && rState.errorEmitted) || (wState && wState.errorEmitted))) nextTick(() => cb(errored));
  else if (((rState && rState.closed) || (wState && wState.closed)) ) nextTick(onclose);
  else if ((!readable || readableFinished) && (!writable || writableFinished) && (readableFinished || writableFinished)) nextTick(() => cb());
  return function cleanup() {
    stream.removeListener("end", onend);
    stream.removeListener("finish", onfinish);
    stream.removeListener("error", onerror);
    stream.removeListener("close", onclose);
  };
}

function pipeline(...streams) {
  let callback = typeof streams[streams.length - 1] === "function" ? streams.pop() : null;
  if (!callback) throw codeError(TypeError, "ERR_INVALID_ARG_TYPE", 'The "streams[stream.length - 1]" argument must be of type function.');
  if (streams.length === 1 && Array.isArray(streams[0])) streams = streams[0];
  let opts = {};
  if (streams.length > 0 && streams[streams.length - 1] && !isReadableStream(streams[streams.length - 1]) && !isWritableStream(streams[streams.length - 1]) &&
      typeof streams[streams.length - 1] === "object" && !(Symbol.asyncIterator in streams[streams.length - 1]) && !(Symbol.iterator in streams[streams.length - 1])) {
    opts = streams.pop();
  }
  if (streams.length < 2) throw codeError(TypeError, "ERR_MISSING_ARGS", 'The "streams" argument must be specified');
  let error, done = false;
  const list = [];
  let prev = null;
  for (let i = 0; i < streams.length; i++) {
    let s = streams[i];
    if (typeof s === "function") {
      const out = s(prev);
      if (i === streams.length - 1 && out && typeof out.then === "function") {
        list.push({ promise: out });
        prev = null;
        continue;
      }
      s = Readable.from(out);
    } else if (i === 0 && !isReadableStream(s) && s && (typeof s[Symbol.asyncIterator] === "function" || typeof s[Symbol.iterator] === "function" || typeof s === "string")) {
      s = Readable.from(s);
    }
    if (prev && typeof prev.pipe === "function") prev.pipe(s, { end: opts.end !== false || i < streams.length - 1 });
    list.push(s);
    prev = s;
  }
  const finish = (err) => {
    if (done) return;
    if (err && !error) error = err;
    if (err) {
      done = true;
      for (const s of list) if (s && typeof s.destroy === "function" && !s.destroyed) s.destroy(err);
      nextTick(callback, error);
    }
  };
  let remaining = list.length;
  for (let i = 0; i < list.length; i++) {
    const s = list[i];
    const last = i === list.length - 1;
    if (s.promise) {
      s.promise.then(() => { if (!done) { done = true; callback(); } }, finish);
      continue;
    }
    finished(s, { readable: !last || !isWritableStream(s) || s instanceof Duplex && !last, writable: i > 0 || !isReadableStream(s) }, (err) => {
      if (err && err.code === "ERR_STREAM_PREMATURE_CLOSE" && done) return;
      if (err) return finish(err);
      remaining--;
      if (last && !done) {
        done = true;
        callback();
      }
    });
  }
  if (opts.signal) addAbortSignal(opts.signal, list[0]);
  return list[list.length - 1];
}

function addAbortSignal(signal, stream) {
  const onAbort = () => {
    const e = new Error("The operation was aborted");
    e.name = "AbortError";
    e.code = "ABORT_ERR";
    e.cause = signal.reason;
    stream.destroy(e);
  };
  if (signal.aborted) onAbort();
  else signal.addEventListener("abort", onAbort, { once: true });
  return stream;
}

const promises = {
  pipeline(...streams) {
    return new Promise((resolve, reject) => {
      pipeline(...streams, (err, val) => (err ? reject(err) : resolve(val)));
    });
  },
  finished(stream, opts) {
    return new Promise((resolve, reject) => {
      finished(stream, opts, (err) => (err ? reject(err) : resolve()));
    });
  },
};

Stream.Stream = Stream;
Stream.Readable = Readable;
Stream.Writable = Writable;
Stream.Duplex = Duplex;
Stream.Transform = Transform;
Stream.PassThrough = PassThrough;
Stream.pipeline = pipeline;
Stream.finished = finished;
Stream.addAbortSignal = addAbortSignal;
Stream.promises = promises;
Stream.isReadable = (s) => !!(s && s._readableState && !s.destroyed && !s._readableState.endEmitted);
Stream.isWritable = (s) => !!(s && s._writableState && s.writable);
Stream.isErrored = (s) => !!(s && s.errored);
Stream.isDisturbed = (s) => !!(s && s._readableState && (s._readableState.dataEmitted || s._readableState.endEmitted));
Stream.getDefaultHighWaterMark = (objectMode) => (objectMode ? defaultObjectHWM : defaultHWM);
Stream.setDefaultHighWaterMark = (objectMode, v) => { if (objectMode) defaultObjectHWM = v; else defaultHWM = v; };
Stream.destroy = (s, err) => s.destroy(err);
Stream._isUint8Array = (v) => v instanceof Uint8Array;
Stream._uint8ArrayToBuffer = (v) => Buffer.from(v.buffer, v.byteOffset, v.byteLength);
module.exports = Stream;
