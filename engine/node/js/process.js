// Completes the runtime's process object (exports) as Node's: it already
// holds env and argv. Runs once per runtime, on the first access to
// the process global.
"use strict";
const process = exports;
const define = (name, value) =>
  Object.defineProperty(process, name, { value, writable: true, configurable: true, enumerable: true });
define("nextTick", native.nextTick);
define("title", "bext");
define("version", native.version);
define("versions", Object.freeze({ node: native.node, bext: "1" }));
define("release", Object.freeze({ name: "node", lts: "Iron" }));
define("platform", native.platform);
define("arch", native.arch);
define("pid", native.pid);
define("ppid", native.ppid);
define("execPath", "/usr/local/bin/bext");
define("execArgv", []);
define("argv0", "bext");
if (!Array.isArray(process.argv)) define("argv", []);
if (process.argv.length === 0) process.argv.push("/usr/local/bin/bext", "server.js");
define("exitCode", undefined);
define("config", Object.freeze({ variables: {} }));
define("features", Object.freeze({ inspector: false, ipv6: true, tls: false, typescript: false }));
define("cwd", function cwd() { return native.cwd(); });
define("chdir", function chdir() { throw new Error("process.chdir() is not supported in a bext isolate"); });
define("umask", function umask() { return 0o22; });
define("uptime", function uptime() { return native.uptime(); });
function hrtime(prev) {
  const t = native.hrtime();
  if (prev !== undefined) {
    if (!Array.isArray(prev) || prev.length !== 2) {
      const e = new TypeError('The "time" argument must be an instance of Array. Received ' + typeof prev);
      e.code = "ERR_INVALID_ARG_TYPE";
      throw e;
    }
    let s = t[0] - prev[0], ns = t[1] - prev[1];
    if (ns < 0) { s -= 1; ns += 1e9; }
    return [s, ns];
  }
  return t;
}
hrtime.bigint = function bigint() { return native.hrtimeBigint(); };
define("hrtime", hrtime);
function memoryUsage() {
  const m = native.memory();
  return { rss: m.rss, heapTotal: m.heapTotal, heapUsed: m.heapUsed, external: 0, arrayBuffers: 0 };
}
memoryUsage.rss = function rss() { return native.memory().rss; };
define("memoryUsage", memoryUsage);
define("cpuUsage", function cpuUsage() { return { user: 0, system: 0 }; });
define("resourceUsage", function resourceUsage() { return {}; });
define("exit", function exit(code) {
  const e = new Error("process.exit(" + (code === undefined ? "" : code) + ") was called; a bext isolate cannot exit (throw an error or return a response instead)");
  e.code = "ERR_BEXT_PROCESS_EXIT";
  throw e;
});
define("abort", function abort() { throw new Error("process.abort() was called in a bext isolate"); });
define("kill", function kill() { throw new Error("process.kill() is not supported in a bext isolate"); });
define("binding", function binding(name) { throw new Error("No such module: " + name); });
define("emitWarning", function emitWarning(warning, type, code) {
  let name = "Warning", detail;
  if (type !== null && typeof type === "object" && !Array.isArray(type)) {
    ({ type: name = "Warning", code, detail } = type);
  } else if (typeof type === "string") {
    name = type;
  }
  if (typeof warning === "string") {
    warning = new Error(warning);
    warning.name = name;
    if (code !== undefined) warning.code = code;
    if (detail !== undefined) warning.detail = detail;
  }
  if (process.noDeprecation && warning.name === "DeprecationWarning") return;
  process.emit("warning", warning);
  if (typeof console !== "undefined") {
    console.warn("(bext) " + (warning.code ? "[" + warning.code + "] " : "") + warning.name + ": " + warning.message);
  }
});
const stream = (fd, log) => ({
  fd,
  isTTY: false,
  writable: true,
  write(chunk, enc, cb) {
    let s = typeof chunk === "string" ? chunk : String(chunk);
    if (s.endsWith("\n")) s = s.slice(0, -1);
    log(s);
    if (typeof enc === "function") cb = enc;
    if (typeof cb === "function") process.nextTick(cb);
    return true;
  },
  end() {},
  on() { return this; },
  once() { return this; },
  emit() { return false; },
});
define("stdout", stream(1, (s) => console.log(s)));
define("stderr", stream(2, (s) => console.error(s)));
define("stdin", { fd: 0, isTTY: false, on() { return this; }, read() { return null; } });
// process is an EventEmitter; node:events loads the first time a listener
// is added or an event emitted.
let emitter = false;
function becomeEmitter() {
  if (emitter) return;
  emitter = true;
  const EventEmitter = require("events");
  const proto = Object.create(EventEmitter.prototype);
  Object.setPrototypeOf(process, proto);
  for (const m of methods) delete process[m];
  EventEmitter.call(process);
}
const methods = ["on", "addListener", "once", "off", "removeListener", "removeAllListeners", "emit",
  "prependListener", "prependOnceListener", "listeners", "rawListeners", "listenerCount", "eventNames",
  "setMaxListeners", "getMaxListeners"];
for (const m of methods) {
  Object.defineProperty(process, m, {
    value: function () { becomeEmitter(); return process[m].apply(this, arguments); },
    writable: true, configurable: true, enumerable: false,
  });
}
Object.defineProperty(process, Symbol.toStringTag, { value: "process", configurable: true });
