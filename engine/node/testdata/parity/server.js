// Node built-in behaviour cases: run by bext (engine/node) and by Node 20
// on the same bundle; engine/node/parity_test.go compares case by case.
import path from "node:path";
import EventEmitter, { once } from "events";
import { Buffer } from "buffer";
import util from "util";
import qs from "querystring";
import { StringDecoder } from "string_decoder";
import url from "url";
import crypto from "crypto";
import assert from "assert";
import { Readable, Writable, PassThrough, Transform, pipeline, finished } from "stream";
import { pipeline as pipelineP } from "stream/promises";
import { AsyncLocalStorage } from "async_hooks";
import { setTimeout as sleep } from "timers/promises";
import * as types from "util/types";

const cases = {};
const t = (name, fn) => { cases[name] = fn; };

// path
for (const p of ["/a/b/c", "a/b/../c", "/a//b/./c/", "", ".", "..", "/", "a/", "/a/b/..", "../../x", "./a/../../b", "//a", "a/./b/.."]) {
  t("path.normalize " + JSON.stringify(p), () => path.normalize(p));
  t("path.dirname " + JSON.stringify(p), () => path.dirname(p));
  t("path.basename " + JSON.stringify(p), () => path.basename(p));
  t("path.parse " + JSON.stringify(p), () => path.parse(p));
}
for (const p of ["index.html", "index.coffee.md", "index.", "index", ".index", ".index.md", "..", "...", "a..", "/a/b.c/", "..a"]) {
  t("path.extname " + JSON.stringify(p), () => path.extname(p));
}
t("path.join", () => [path.join("/foo", "bar", "baz/asdf", "quux", ".."), path.join("a", "", "b"), path.join(), path.join("", "")]);
t("path.resolve abs", () => [path.resolve("/foo/bar", "./baz"), path.resolve("/foo/bar", "/tmp/file/"), path.resolve("/a", "b", "../c")]);
t("path.relative", () => [path.relative("/data/orandea/test/aaa", "/data/orandea/impl/bbb"), path.relative("/a", "/a"), path.relative("/a/b", "/a"), path.relative("/", "/x/y")]);
t("path.format", () => [path.format({ root: "/ignored", dir: "/home/user/dir", base: "file.txt" }), path.format({ root: "/", base: "file.txt", ext: "ignored" }), path.format({ root: "/", name: "file", ext: ".txt" }), path.format({ name: "x", ext: "js" })]);
t("path.basename suffix", () => [path.basename("/a/b.html", ".html"), path.basename("/a/b.html", "b.html"), path.basename("aaa/bbb", "bbb")]);
t("path misc", () => [path.sep, path.delimiter, path.isAbsolute("/x"), path.isAbsolute("x"), path.posix === path]);
t("path.join type error", () => path.join(1));

// events
t("events order", () => {
  const e = new EventEmitter();
  const log = [];
  e.on("newListener", (n) => log.push("new:" + String(n)));
  e.on("x", (a) => log.push("x1:" + a));
  e.prependListener("x", (a) => log.push("x0:" + a));
  e.once("x", (a) => log.push("once:" + a));
  e.emit("x", 1);
  e.emit("x", 2);
  log.push(e.listenerCount("x"), e.eventNames().map(String).join("|"), e.rawListeners("x").length);
  return log;
});
t("events remove", () => {
  const e = new EventEmitter();
  const log = [];
  const f = () => log.push("f");
  e.on("removeListener", (n) => log.push("rm:" + n));
  e.on("a", f); e.on("a", f); e.once("b", f);
  e.off("a", f);
  log.push(e.listenerCount("a"));
  e.removeListener("b", f);
  e.removeAllListeners("a");
  log.push(e.eventNames().join(","));
  return log;
});
t("events error unhandled", () => { new EventEmitter().emit("error", new Error("boom")); });
t("events error non-error", () => { new EventEmitter().emit("error", { a: 1 }); });
t("events max listeners", () => { const e = new EventEmitter(); e.setMaxListeners(1); return [e.getMaxListeners(), EventEmitter.defaultMaxListeners]; });
t("events once promise", async () => { const e = new EventEmitter(); setTimeout(() => e.emit("go", 1, 2), 1); return await once(e, "go"); });
t("events listener type", () => new EventEmitter().on("x", 5));
t("events this", () => { const e = new EventEmitter(); let self; e.on("x", function () { self = this; }); e.emit("x"); return self === e; });

// buffer
const enc = ["utf8", "hex", "base64", "base64url", "latin1", "ascii", "utf16le", "binary", "ucs2"];
for (const s of ["héllo wörld", "€𝄞", "\u0000\u00ff\u0100", "", "a\ud800b"]) {
  for (const e of enc) t("Buffer.from " + JSON.stringify(s) + " " + e + " → hex", () => Buffer.from(s, e).toString("hex"));
  t("Buffer.byteLength " + JSON.stringify(s), () => enc.map((e) => Buffer.byteLength(s, e)));
}
t("Buffer decode", () => {
  const b = Buffer.from([0x68, 0xc3, 0xa9, 0xe2, 0x82, 0xff, 0xf0, 0x9f, 0x98, 0x80, 0x41]);
  return enc.map((e) => b.toString(e));
});
t("Buffer base64 loose", () => [Buffer.from("aGVsbG8", "base64").toString(), Buffer.from("aGV sbG8=\n", "base64").toString(), Buffer.from("_-8", "base64").toString("hex"), Buffer.from("zz1", "hex").length]);
t("Buffer.alloc fill", () => [Buffer.alloc(5, "ab").toString(), Buffer.alloc(4, 257).toString("hex"), Buffer.alloc(6, "aGk=", "base64").toString(), Buffer.alloc(0).length]);
t("Buffer concat compare", () => {
  const a = Buffer.from("abc"), b = Buffer.from("abd");
  return [Buffer.concat([a, b]).toString(), Buffer.concat([a, b], 4).toString(), Buffer.concat([a], 5).toString("hex"), Buffer.compare(a, b), a.compare(b), b.compare(a), a.equals(Buffer.from("abc"))];
});
t("Buffer slice shares", () => { const b = Buffer.from("hello"); const s = b.slice(1, 3); s[0] = 0x45; return [b.toString(), s.toString(), b.subarray(-2).toString(), b.slice(3, 1).length]; });
t("Buffer indexOf", () => { const b = Buffer.from("this is a buffer is"); return [b.indexOf("is"), b.indexOf("is", 3), b.lastIndexOf("is"), b.indexOf(Buffer.from("a buf")), b.indexOf(0x73), b.includes("zz"), b.indexOf("is", -4), b.indexOf("")]; });
t("Buffer write", () => { const b = Buffer.alloc(8); const n = b.write("€€€", 1); return [n, b.toString("hex"), b.write("ab", "latin1"), b.write("ff00", 6, "hex")]; });
t("Buffer ints", () => {
  const b = Buffer.alloc(16);
  b.writeUInt32BE(0xdeadbeef, 0); b.writeInt16LE(-2, 4); b.writeUInt8(255, 6); b.writeIntBE(-123456, 7, 3); b.writeDoubleLE(1.5, 8);
  return [b.toString("hex"), b.readUInt32LE(0), b.readInt32BE(0), b.readInt16LE(4), b.readIntBE(7, 3), b.readUIntLE(0, 6), b.readDoubleLE(8), b.readFloatBE(0)];
});
t("Buffer bigint", () => { const b = Buffer.alloc(8); b.writeBigInt64LE(-5n); return [b.toString("hex"), String(b.readBigUInt64LE()), String(b.readBigInt64BE())]; });
t("Buffer range error", () => Buffer.alloc(2).readUInt32LE(0));
t("Buffer write range", () => Buffer.alloc(2).writeUInt8(300));
t("Buffer toJSON", () => JSON.stringify(Buffer.from("hi")));
t("Buffer isBuffer/isEncoding", () => [Buffer.isBuffer(Buffer.alloc(1)), Buffer.isBuffer(new Uint8Array(1)), Buffer.isEncoding("UTF-8"), Buffer.isEncoding("nope"), Buffer.isEncoding("")]);
t("Buffer from array/arraybuffer", () => { const ab = new Uint8Array([1, 2, 3, 4]).buffer; return [Buffer.from([1, 256, -1]).toString("hex"), Buffer.from(ab, 1, 2).toString("hex"), Buffer.from(Buffer.from("x")).toString(), Buffer.from({ length: 2, 0: 7, 1: 8 }).toString("hex")]; });
t("Buffer copy/fill/swap", () => { const a = Buffer.from("abcdef"); const b = Buffer.alloc(4); return [a.copy(b, 1, 2), b.toString("hex"), Buffer.from("abcd").swap16().toString(), Buffer.alloc(5).fill("xy", 1, 4).toString("hex")]; });
t("Buffer inspect", () => util.inspect(Buffer.from("hello")));
t("Buffer global", () => typeof Buffer === "function" && globalThis.Buffer === Buffer);
t("Buffer toString range", () => { const b = Buffer.from("hello"); return [b.toString("utf8", 1, 3), b.toString(undefined, -1, 100), b.toString("utf8", 4, 2)]; });
t("Buffer map species", () => { const b = Buffer.from([1, 2]).map((x) => x * 2); return [b instanceof Buffer, b.toString("hex")]; });

// util.format / inspect
const fmt = [
  ["%s:%s", "a"], ["%d %i %f", "42.5", "42.5", "42.5"], ["%j", { a: [1, "x"] }], ["%o", [1]], ["%O", { a: { b: { c: { d: 1 } } } }],
  ["%s", 1n], ["%d", 1n], ["%%s %s", "x"], ["a", "b", 3, { c: 1 }], [1, 2, "x"], ["%s", null, undefined], ["%s", { a: 1 }], ["%s", [1, [2]]],
  ["%s", -0], ["%c%s", "color:red", "x"], ["%x", 1], [], ["%s", Symbol("q")],
];
fmt.forEach((args, i) => t("util.format " + i, () => util.format(...args)));
const circ = { name: "c" }; circ.self = circ;
class Foo { constructor() { this.x = 1; } }
const insp = [
  1, -0, "str", "it's", "both ' and \"", "line\nbreak\t\u0001", 12n, Symbol("s"), undefined, null, true,
  [], [1, 2, 3], [1, , 3], new Array(5), { a: 1, "b-c": 2, [Symbol("k")]: 3 }, {}, Object.create(null),
  new Map([["a", 1], [{ x: 1 }, [2]]]), new Set([1, "two"]), new Map(), new Set(),
  function named() {}, () => {}, class A {}, class B extends Foo {}, async function af() {}, function* gf() {},
  new Foo(), circ, { a: { b: { c: { d: { e: 1 } } } } }, [[[[1]]]],
  new Date(0), /re/gi, new Error("insp").message, new Uint8Array([1, 2, 3]), new Float64Array(2), new ArrayBuffer(3),
  Array.from({ length: 30 }, (_, i) => i * 3), Array.from({ length: 120 }, (_, i) => i), Array.from({ length: 26 }, (_, i) => String.fromCharCode(97 + i).repeat(i % 5 + 1)),
  { longKeyNumberOne: "value one", longKeyNumberTwo: "value two", longKeyNumberThree: "value three", four: 4 },
  "x".repeat(120), ["x".repeat(100)], { s: "a\nb".repeat(30) }, new Number(3), new String("ab"), Object(Symbol("bx")),
  Promise.resolve(42), Promise.reject(3).catch(() => {}) && new Promise(() => {}), new WeakMap(), { get g() { return 1; }, set s(v) {} , get gs() { return 1; }, set gs(v) {} },
  Object.assign(Object.create({ inherited: 1 }), { own: 2 }), { [Symbol.toStringTag]: "Tagged", v: 1 }, (() => { const o = new Foo(); o.arr = [o]; return o; })(),
  { __proto__: null, z: 1 }, [undefined, null], { "": 1, "1a": 2, a1: 3 }, new Map([[1, new Map([[2, new Map([[3, new Map()]])]])]]),
];
insp.forEach((v, i) => t("util.inspect " + i, () => util.inspect(v)));
t("util.inspect options", () => [util.inspect({ a: { b: { c: { d: 1 } } } }, { depth: 0 }), util.inspect({ a: [1, 2] }, { compact: false }), util.inspect([1, 2, 3], { breakLength: 3 }),
  util.inspect({ b: 1, a: 2 }, { sorted: true }), util.inspect("x".repeat(20), { maxStringLength: 5 }), util.inspect([1, 2, 3, 4], { maxArrayLength: 2 }), util.inspect({ a: 1 }, { depth: null })]);
t("util.inspect custom", () => util.inspect({ [util.inspect.custom](depth, opts) { return "CUSTOM " + depth + " " + typeof opts.stylize; } }));
t("util.inspect nested custom", () => util.inspect({ a: { [util.inspect.custom]() { return { replaced: true }; } } }));
t("util.types", () => [types.isPromise(Promise.resolve()), types.isDate(new Date()), types.isRegExp(/x/), types.isMap(new Map()), types.isSet(new Set()), types.isTypedArray(new Uint8Array()),
  types.isUint8Array(Buffer.alloc(1)), types.isAsyncFunction(async () => {}), types.isGeneratorFunction(function* () {}), types.isNativeError(new TypeError()), types.isBoxedPrimitive(new Number(1)),
  types.isArrayBuffer(new ArrayBuffer(1)), types.isAnyArrayBuffer(new ArrayBuffer(1)), types.isMap({}), types.isDate({ getTime() {} })]);
t("util.inherits", () => { function A() {} function B() {} util.inherits(B, A); return [new B() instanceof A, B.super_ === A]; });
t("util.promisify", async () => { const f = (a, b, cb) => setTimeout(() => cb(null, a + b), 1); const g = (cb) => cb(new Error("pf")); return [await util.promisify(f)(1, 2), await util.promisify(g)().catch((e) => e.message)]; });
t("util.callbackify", async () => new Promise((res) => util.callbackify(async (x) => x * 2)(21, (err, v) => res([err, v]))));
t("util.isDeepStrictEqual", () => [util.isDeepStrictEqual({ a: [1, { b: 2 }] }, { a: [1, { b: 2 }] }), util.isDeepStrictEqual([1], ["1"]), util.isDeepStrictEqual(new Set([1, 2]), new Set([2, 1])),
  util.isDeepStrictEqual(new Map([[1, { a: 1 }]]), new Map([[1, { a: 1 }]])), util.isDeepStrictEqual(NaN, NaN), util.isDeepStrictEqual(0, -0), util.isDeepStrictEqual({ a: undefined }, {})]);
t("util.TextEncoder", () => [typeof util.TextEncoder, Array.from(new util.TextEncoder().encode("é"))]);
t("util.deprecate", () => { const f = util.deprecate((x) => x + 1, "old", "DEP0"); return f(1); });

// querystring
t("qs.parse", () => [qs.parse("a=1&b=2&a=3&c&d=&=e&f=%20g+h&%E2%82%AC=%FF"), qs.parse("x:1;y:2", ";", ":"), qs.parse("a=1&b=2", null, null, { maxKeys: 1 })]);
t("qs.stringify", () => [qs.stringify({ a: [1, 2], b: "x y", c: "é€", d: null, e: true, f: {} }), qs.stringify({ w: "x" }, ";", ":"), qs.escape("a b&c/é"), qs.unescape("a%20b%zz")]);

// string_decoder
t("StringDecoder utf8", () => { const d = new StringDecoder("utf8"); const e = Buffer.from("€𝄞"); return [d.write(e.subarray(0, 1)), d.write(e.subarray(1, 4)), d.write(e.subarray(4, 6)), d.end(e.subarray(6)), d.write(Buffer.from([0xe2])), d.end()]; });
t("StringDecoder others", () => { const d = new StringDecoder("base64"); const h = new StringDecoder("hex"); const u = new StringDecoder("utf16le"); const b = Buffer.from("€a", "utf16le"); return [d.write(Buffer.from("ab")), d.write(Buffer.from("cde")), d.end(), h.write(Buffer.from([1, 255])), u.write(b.subarray(0, 1)), u.write(b.subarray(1)), u.end()]; });

// url (legacy helpers that do not need the URL global)
t("url.parse", () => {
  const keys = ["protocol", "slashes", "auth", "host", "port", "hostname", "hash", "search", "query", "pathname", "path", "href"];
  return ["http://user:pw@Host.COM:8080/p/a/t/h?query=string#hash", "/just/path?x=1", "mailto:a@b.c", "//x.com/y", "https://a.b"].map((u) => {
    const p = url.parse(u); return keys.map((k) => p[k]);
  });
});
t("url.parse query", () => url.parse("/p?a=1&a=2&b=", true).query);
t("url.format", () => [url.format({ protocol: "https", hostname: "example.com", pathname: "/some/path", query: { page: 1, format: "json" } }), url.format({ protocol: "http:", host: "a.com:80", hash: "x", search: "q=1" })]);

// crypto (deterministic parts)
t("crypto hashes", () => ["md5", "sha1", "sha256", "sha512", "sha384", "sha224"].map((h) => crypto.createHash(h).update("abc").update(Buffer.from("déf")).digest("hex")));
t("crypto digest encodings", () => { const h = () => crypto.createHash("sha256").update("x"); return [h().digest("base64"), h().digest("base64url"), h().digest().length, h().digest("latin1").length]; });
t("crypto hmac", () => [crypto.createHmac("sha256", "key").update("data").digest("hex"), crypto.createHmac("sha1", Buffer.from("k")).update("d").digest("base64")]);
t("crypto copy", () => { const h = crypto.createHash("sha256").update("a"); const c = h.copy(); c.update("b"); return [h.digest("hex"), c.digest("hex")]; });
t("crypto digest twice", () => { const h = crypto.createHash("sha256"); h.digest(); h.digest(); });
t("crypto bad hash", () => crypto.createHash("nope"));
t("crypto random shapes", () => [crypto.randomBytes(16).length, /^[0-9a-f-]{36}$/.test(crypto.randomUUID()), crypto.randomUUID()[14], typeof crypto.randomInt(10), crypto.randomInt(5, 6)]);
t("crypto timingSafeEqual", () => [crypto.timingSafeEqual(Buffer.from("ab"), Buffer.from("ab")), crypto.timingSafeEqual(Buffer.from("ab"), Buffer.from("ac"))]);
t("crypto timingSafeEqual length", () => crypto.timingSafeEqual(Buffer.from("a"), Buffer.from("ab")));
t("crypto pbkdf2/hkdf", () => [crypto.pbkdf2Sync("pw", "salt", 1000, 16, "sha256").toString("hex"), Buffer.from(crypto.hkdfSync("sha256", "key", "salt", "info", 16)).toString("hex")]);

// assert
t("assert passes", () => { assert(true); assert.equal(1, "1"); assert.deepStrictEqual({ a: [1] }, { a: [1] }); assert.throws(() => { throw new TypeError("x"); }, TypeError); assert.match("abc", /b/); return "ok"; });
t("assert.strictEqual fails", () => assert.strictEqual(1, 2));
t("assert.ok fails", () => assert.ok(0));
t("assert.equal fails", () => assert.equal(1, 2));
t("assert.throws missing", () => assert.throws(() => {}));
t("assert.fail", () => assert.fail("boom"));
t("assert.rejects", async () => { await assert.rejects(Promise.reject(new Error("r")), /r/); return "ok"; });
t("assert.strict.equal", () => assert.strict.equal(1, "1"));

// process
t("process shape", () => [typeof process.nextTick, typeof process.env, process.env.NODE_ENV, Array.isArray(process.argv), typeof process.version, process.version.startsWith("v20."), typeof process.hrtime.bigint(), process.hrtime().length, typeof process.cwd(), typeof process.memoryUsage().heapUsed, typeof process.on, Object.prototype.toString.call(process)]);
t("process.nextTick order", async () => {
  const log = [];
  Promise.resolve().then(() => log.push("p1"));
  process.nextTick(() => log.push("t1"));
  queueMicrotask(() => log.push("m1"));
  process.nextTick((a, b) => { log.push("t2:" + a + b); process.nextTick(() => log.push("t3")); }, "x", "y");
  setTimeout(() => log.push("timeout"), 0);
  await new Promise((r) => setTimeout(r, 5));
  return log;
});
t("process.nextTick in microtask", async () => {
  const log = [];
  await null;
  Promise.resolve().then(() => { log.push("a"); process.nextTick(() => log.push("tick")); Promise.resolve().then(() => log.push("a2")); });
  await new Promise((r) => setTimeout(r, 5));
  return log;
});
t("process events", () => { let got; process.once("bext-test", (v) => { got = v; }); process.emit("bext-test", 7); return got; });

// streams
const collect = (s) => new Promise((res, rej) => { const out = []; s.on("data", (c) => out.push(typeof c === "string" ? c : Buffer.isBuffer(c) ? c.toString() : c)); s.on("end", () => res(out)); s.on("error", rej); });
t("stream Readable.from + events", async () => {
  const log = [];
  const r = Readable.from(["a", "b", "c"]);
  r.on("end", () => log.push("end"));
  r.on("close", () => log.push("close"));
  const out = await collect(r);
  await sleep(1);
  return [out, log, r.readableEnded, r.destroyed];
});
t("stream Writable drain/finish", async () => {
  const log = [];
  const w = new Writable({ highWaterMark: 3, write(chunk, enc, cb) { log.push("w:" + chunk.toString() + ":" + enc); setTimeout(cb, 1); } });
  w.on("drain", () => log.push("drain"));
  w.on("finish", () => log.push("finish"));
  w.on("close", () => log.push("close"));
  log.push("r1:" + w.write("ab"));
  log.push("r2:" + w.write("cd"));
  w.end("e", () => log.push("endcb"));
  await new Promise((r) => w.on("close", r));
  return log;
});
t("stream Transform pipeline", async () => {
  const up = new Transform({ transform(c, e, cb) { cb(null, c.toString().toUpperCase()); }, flush(cb) { this.push("!"); cb(); } });
  const out = [];
  const sink = new Writable({ write(c, e, cb) { out.push(c.toString()); cb(); } });
  await new Promise((res, rej) => pipeline(Readable.from(["x", "y"]), up, sink, (err) => (err ? rej(err) : res())));
  return out;
});
t("stream pipeline error", async () => {
  const bad = new Transform({ transform(c, e, cb) { cb(new Error("tx fail")); } });
  return await new Promise((res) => pipeline(Readable.from(["x"]), bad, new PassThrough(), (err) => res(err && err.message)));
});
t("stream PassThrough objectMode + async iterator", async () => {
  const p = new PassThrough({ objectMode: true });
  p.write({ a: 1 }); p.write(2); p.end();
  const out = [];
  for await (const v of p) out.push(v);
  return out;
});
t("stream promises.pipeline + finished", async () => {
  const out = [];
  const w = new Writable({ write(c, e, cb) { out.push(c.toString()); cb(); } });
  await pipelineP(Readable.from(["1", "2"]), w);
  let fin = false;
  const w2 = new PassThrough();
  finished(w2, () => { fin = true; });
  w2.resume(); w2.end("z");
  await sleep(2);
  return [out, fin];
});
t("stream read(n) & setEncoding", async () => {
  const r = new Readable({ read() {} });
  r.push("hello "); r.push("world"); r.push(null);
  await sleep(1);
  const a = r.read(3), b = r.read(), c = r.read();
  const r2 = new Readable({ read() {} }); r2.setEncoding("utf8"); r2.push(Buffer.from([0xe2, 0x82])); r2.push(Buffer.from([0xac])); r2.push(null);
  const s = await collect(r2);
  return [String(a), String(b), c, s.join("")];
});
t("stream pipe backpressure", async () => {
  const log = [];
  const src = new Readable({ read() {} });
  const dst = new Writable({ highWaterMark: 2, write(c, e, cb) { log.push(c.toString()); setTimeout(cb, 1); } });
  src.pipe(dst);
  for (const c of ["a", "b", "c", "d"]) src.push(c);
  src.push(null);
  await new Promise((r) => dst.on("finish", r));
  return log;
});

// async_hooks
t("AsyncLocalStorage await", async () => {
  const als = new AsyncLocalStorage();
  const out = [];
  await als.run({ id: 1 }, async () => {
    out.push(als.getStore().id);
    await sleep(1);
    out.push(als.getStore().id);
    await Promise.all([1, 2].map(async (n) => { await null; out.push(als.getStore().id * 10 + n); }));
    setTimeout(() => out.push("timer:" + als.getStore().id), 0);
    process.nextTick(() => out.push("tick:" + als.getStore().id));
    await sleep(3);
  });
  out.push(als.getStore());
  return out;
});
t("AsyncLocalStorage nested/exit", () => {
  const als = new AsyncLocalStorage();
  return als.run(1, () => [als.getStore(), als.run(2, () => als.getStore()), als.getStore(), als.exit(() => als.getStore())]);
});
t("AsyncLocalStorage enterWith/bind", async () => {
  const als = new AsyncLocalStorage();
  const r = [];
  await als.run("outer", async () => {
    const bound = AsyncLocalStorage.bind(() => als.getStore());
    als.enterWith("entered");
    r.push(als.getStore());
    await null;
    r.push(als.getStore(), bound());
  });
  return r;
});

export async function runCases() {
  const out = {};
  for (const [name, fn] of Object.entries(cases)) {
    try {
      out[name] = { ok: enc2(await fn()) };
    } catch (e) {
      out[name] = { err: e && typeof e === "object" ? [e.name, e.code || null, String(e.message)] : ["thrown", String(e)] };
    }
  }
  return out;
}

function enc2(v) {
  return JSON.parse(JSON.stringify(v, (k, x) => {
    if (x === undefined) return "<undefined>";
    if (typeof x === "bigint") return x + "n";
    if (typeof x === "number" && !Number.isFinite(x)) return String(x);
    if (x instanceof Uint8Array) return "<bytes " + Array.from(x).join(",") + ">";
    if (x !== null && typeof x === "object" && x.type === "Buffer" && Array.isArray(x.data)) return "<bytes " + x.data.join(",") + ">";
    if (typeof x === "symbol") return String(x);
    return x;
  }));
}

globalThis.render = async () => JSON.stringify(await runCases());
