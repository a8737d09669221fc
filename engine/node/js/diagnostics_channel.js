// node:diagnostics_channel for bext: named channels with subscribers.
"use strict";
const channels = new Map();
class Channel {
  constructor(name) { this.name = name; this._subscribers = []; this._stores = new Map(); }
  get hasSubscribers() { return this._subscribers.length > 0 || this._stores.size > 0; }
  subscribe(fn) {
    if (typeof fn !== "function") {
      const e = new TypeError('The "subscription" argument must be of type function. Received ' + typeof fn);
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    this._subscribers.push(fn);
  }
  unsubscribe(fn) {
    const i = this._subscribers.indexOf(fn);
    if (i === -1) return false;
    this._subscribers.splice(i, 1);
    return true;
  }
  publish(data) {
    for (const fn of this._subscribers.slice()) {
      try { fn(data, this.name); } catch (err) { process.nextTick(() => { throw err; }); }
    }
  }
  bindStore(store, transform) { this._stores.set(store, transform); }
  unbindStore(store) { return this._stores.delete(store); }
  runStores(data, fn, thisArg, ...args) {
    let run = () => { this.publish(data); return Reflect.apply(fn, thisArg, args); };
    for (const [store, transform] of this._stores) {
      const next = run;
      run = () => store.run(transform ? transform(data) : data, next);
    }
    return run();
  }
}
function channel(name) {
  let c = channels.get(name);
  if (c === undefined) { c = new Channel(name); channels.set(name, c); }
  return c;
}
class TracingChannel {
  constructor(name) {
    for (const e of ["start", "end", "asyncStart", "asyncEnd", "error"]) this[e] = channel("tracing:" + name + ":" + e);
  }
  get hasSubscribers() { return ["start", "end", "asyncStart", "asyncEnd", "error"].some((e) => this[e].hasSubscribers); }
  subscribe(h) { for (const k of Object.keys(h)) this[k].subscribe(h[k]); }
  unsubscribe(h) { let ok = true; for (const k of Object.keys(h)) ok = this[k].unsubscribe(h[k]) && ok; return ok; }
  traceSync(fn, context = {}, thisArg, ...args) {
    return this.start.runStores(context, () => {
      try {
        const r = Reflect.apply(fn, thisArg, args);
        context.result = r;
        return r;
      } catch (err) {
        context.error = err;
        this.error.publish(context);
        throw err;
      } finally {
        this.end.publish(context);
      }
    });
  }
  tracePromise(fn, context = {}, thisArg, ...args) {
    return this.start.runStores(context, () => {
      try {
        const p = Reflect.apply(fn, thisArg, args);
        return Promise.resolve(p).then((r) => {
          context.result = r;
          this.asyncStart.publish(context);
          this.asyncEnd.publish(context);
          return r;
        }, (err) => {
          context.error = err;
          this.error.publish(context);
          this.asyncStart.publish(context);
          this.asyncEnd.publish(context);
          throw err;
        });
      } catch (err) {
        context.error = err;
        this.error.publish(context);
        throw err;
      } finally {
        this.end.publish(context);
      }
    });
  }
  traceCallback(fn, position = -1, context = {}, thisArg, ...args) {
    return this.traceSync(fn, context, thisArg, ...args);
  }
}
module.exports = {
  channel,
  hasSubscribers: (name) => channels.has(name) && channels.get(name).hasSubscribers,
  subscribe: (name, fn) => channel(name).subscribe(fn),
  unsubscribe: (name, fn) => channel(name).unsubscribe(fn),
  tracingChannel: (name) => new TracingChannel(name),
  Channel,
};
