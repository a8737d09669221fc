// Cases from the HTML standard's StructuredSerializeInternal and
// StructuredDeserialize.
const sc = (v, o) => structuredClone(v, o);

test(() => {
  for (const v of [undefined, null, true, false, 0, -0, 1.5, NaN, Infinity, -Infinity, "", "s\u00e9\ud83d\ude00", "\ud800", 10n, -(2n ** 70n)]) {
    assert_equals(sc(v), v, String(v));
  }
}, "primitives are returned as they are");

test(() => {
  const n = sc(Object(5)), b = sc(Object(false)), s = sc(Object("ab")), g = sc(Object(3n));
  assert_equals(typeof n, "object"); assert_equals(n.valueOf(), 5);
  assert_equals(typeof b, "object"); assert_equals(b.valueOf(), false);
  assert_equals(typeof s, "object"); assert_equals(s.valueOf(), "ab"); assert_equals(s.length, 2);
  assert_equals(typeof g, "object"); assert_equals(g.valueOf(), 3n);
  assert_true(Object.is(sc(Object(-0)).valueOf(), -0));
  assert_true(Number.isNaN(sc(Object(NaN)).valueOf()));
}, "primitive wrappers");

test(() => {
  const d = new Date(1234567);
  const c = sc(d);
  assert_not_equals(c, d);
  assert_true(c instanceof Date);
  assert_equals(c.getTime(), 1234567);
  assert_true(Number.isNaN(sc(new Date(NaN)).getTime()));
}, "Date");

test(() => {
  const r = /a+b/giu;
  r.lastIndex = 3;
  r.extra = 1;
  const c = sc(r);
  assert_true(c instanceof RegExp);
  assert_equals(c.source, "a+b"); assert_equals(c.flags, "giu");
  assert_equals(c.lastIndex, 0); assert_equals(c.extra, undefined);
}, "RegExp: source and flags, not lastIndex or properties");

test(() => {
  const b = new Uint8Array([1, 2, 3]).buffer;
  const c = sc(b);
  assert_true(c instanceof ArrayBuffer);
  assert_not_equals(c, b);
  assert_array_equals(new Uint8Array(c), [1, 2, 3]);
  new Uint8Array(b)[0] = 9;
  assert_equals(new Uint8Array(c)[0], 1, "a copy");
}, "ArrayBuffer is copied");

test(() => {
  for (const C of [Int8Array, Uint8Array, Uint8ClampedArray, Int16Array, Uint16Array, Int32Array, Uint32Array, Float32Array, Float64Array]) {
    const a = new C([1, 2, 3, 4]);
    const c = sc(a.subarray(1, 3));
    assert_equals(c.constructor, C, C.name);
    assert_equals(c.length, 2); assert_equals(c[0], 2); assert_equals(c[1], 3);
    assert_equals(c.byteOffset, C.BYTES_PER_ELEMENT, "the offset is kept: the whole buffer is cloned");
    assert_equals(c.buffer.byteLength, 4 * C.BYTES_PER_ELEMENT);
  }
  const big = sc(new BigInt64Array([5n]));
  assert_equals(big[0], 5n);
}, "typed arrays keep their type, offset and length over a cloned buffer");

test(() => {
  const buf = new ArrayBuffer(8);
  const dv = new DataView(buf, 2, 4);
  dv.setUint8(0, 7);
  const c = sc(dv);
  assert_true(c instanceof DataView);
  assert_equals(c.byteOffset, 2); assert_equals(c.byteLength, 4); assert_equals(c.getUint8(0), 7);
}, "DataView");

test(() => {
  const buf = new ArrayBuffer(4);
  const c = sc({ a: new Uint8Array(buf), b: new Uint16Array(buf), buf });
  assert_equals(c.a.buffer, c.buf); assert_equals(c.b.buffer, c.buf);
}, "views of one buffer share the cloned buffer");

test(() => {
  const k = { k: 1 };
  const m = new Map([[k, { v: 1 }], ["s", k]]);
  const c = sc(m);
  assert_true(c instanceof Map);
  assert_equals(c.size, 2);
  const [ck] = c.keys();
  assert_equals(ck.k, 1);
  assert_equals(c.get("s"), ck, "identity is kept inside the clone");
  assert_equals(c.get(ck).v, 1);
}, "Map");

test(() => {
  const o = {};
  const s = new Set([1, o, "x", o]);
  const c = sc(s);
  assert_true(c instanceof Set);
  assert_equals(c.size, 3);
  assert_array_equals([...c].map((v) => typeof v), ["number", "object", "string"]);
}, "Set");

test(() => {
  const a = [1, , 3];
  a.foo = "bar";
  a[10] = 5;
  const c = sc(a);
  assert_true(Array.isArray(c));
  assert_equals(c.length, 11);
  assert_false(1 in c, "holes stay holes");
  assert_equals(c[10], 5);
  assert_equals(c.foo, "bar");
  const long = [];
  long.length = 5;
  assert_equals(sc(long).length, 5);
}, "arrays keep their length, holes and other properties");

test(() => {
  const proto = { inherited: 1 };
  const o = Object.create(proto);
  o.own = 2;
  Object.defineProperty(o, "hidden", { value: 3, enumerable: false });
  o[Symbol("s")] = 4;
  const c = sc(o);
  assert_equals(Object.getPrototypeOf(c), Object.prototype);
  assert_equals(c.own, 2);
  assert_equals(c.inherited, undefined);
  assert_equals(c.hidden, undefined);
  assert_equals(Object.getOwnPropertySymbols(c).length, 0);
}, "objects: own enumerable string keys only, plain prototype");

test(() => {
  class A { constructor() { this.x = 1; } m() {} }
  const c = sc(new A());
  assert_equals(c.x, 1);
  assert_equals(Object.getPrototypeOf(c), Object.prototype);
  assert_equals(Object.getPrototypeOf(sc(Object.create(null))), Object.prototype);
}, "class instances and null-prototype objects become plain objects");

test(() => {
  const o = { get g() { return { n: 1 }; } };
  const c = sc(o);
  const d = Object.getOwnPropertyDescriptor(c, "g");
  assert_equals(d.value.n, 1, "getters are called; the clone has data properties");
  assert_true(d.writable && d.enumerable && d.configurable);
}, "accessors become data properties");

test(() => {
  const o = { a: 1 };
  o.self = o;
  o.list = [o, { back: o }];
  const c = sc(o);
  assert_equals(c.self, c);
  assert_equals(c.list[0], c);
  assert_equals(c.list[1].back, c);
  const shared = {};
  const t = sc([shared, shared]);
  assert_equals(t[0], t[1]);
}, "circular and shared references");

test(() => {
  for (const C of [Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError, URIError]) {
    const c = sc(new C("msg"));
    assert_equals(Object.getPrototypeOf(c), C.prototype, C.name);
    assert_equals(c.message, "msg");
    assert_equals(c.name, C.name);
  }
}, "errors keep their standard type and message");

test(() => {
  class MyError extends RangeError {}
  const c = sc(new MyError("m"));
  assert_equals(Object.getPrototypeOf(c), RangeError.prototype);
  const e = new Error("x");
  e.name = "Custom";
  assert_equals(Object.getPrototypeOf(sc(e)), Error.prototype);
  const t = new Error("y");
  t.name = "TypeError";
  assert_equals(Object.getPrototypeOf(sc(t)), TypeError.prototype, "the name property decides");
}, "error names outside the standard list become Error");

test(() => {
  const e = new Error();
  const c = sc(e);
  assert_false(Object.prototype.hasOwnProperty.call(c, "message"));
  const d = Object.getOwnPropertyDescriptor(sc(new Error("m")), "message");
  assert_false(d.enumerable);
  const extra = new Error("m");
  extra.code = 1;
  assert_equals(sc(extra).code, undefined, "other properties are not cloned");
}, "error message: own data property only");

test(() => {
  const e = new Error("m", { cause: { c: 1 } });
  const c = sc(e);
  assert_equals(c.cause.c, 1);
  assert_equals(c.stack, e.stack);
}, "errors keep cause and stack, as V8 does");

test(() => {
  const e = sc(new DOMException("m", "AbortError"));
  assert_true(e instanceof DOMException);
  assert_equals(e.name, "AbortError"); assert_equals(e.message, "m"); assert_equals(e.code, 20);
}, "spec: DOMException is serializable (Node 20 clones it as {})");

const failures = [
  ["a function", () => function f() {}],
  ["an arrow function", () => () => 1],
  ["a class", () => class {}],
  ["a symbol", () => Symbol("s")],
  ["a Symbol wrapper", () => Object(Symbol("s"))],
  ["a WeakMap", () => new WeakMap()],
  ["a WeakSet", () => new WeakSet()],
  ["a Promise", () => Promise.resolve()],
  ["a Proxy", () => new Proxy({}, {})],
  ["an arguments object", function () { return arguments; }],
  ["an object with a function", () => ({ f() {} })],
  ["a Map with a symbol", () => new Map([[1, Symbol()]])],
];
for (const [what, mk] of failures) {
  test(() => {
    const v = mk();
    assert_throws_dom("DataCloneError", () => sc(v));
  }, "DataCloneError for " + what);
}

test(() => {
  assert_throws_dom("DataCloneError", () => sc(new EventTarget()));
  assert_throws_dom("DataCloneError", () => sc(AbortSignal.abort()));
  assert_throws_dom("DataCloneError", () => sc(new Event("x")));
}, "spec: platform objects that are not serializable throw (Node 20 clones them as {})");

test(() => {
  const e = (() => { try { sc(() => 1); } catch (x) { return x; } })();
  assert_equals(e.code, 25);
  assert_equals(e.message, "() => 1 could not be cloned.");
}, "DataCloneError code and message");

test(() => {
  const buf = new ArrayBuffer(8);
  new Uint8Array(buf)[0] = 42;
  const view = new Uint8Array(buf, 2, 3);
  const c = sc({ buf, view }, { transfer: [buf] });
  assert_equals(buf.byteLength, 0, "the original is detached");
  assert_equals(c.buf.byteLength, 8);
  assert_equals(new Uint8Array(c.buf)[0], 42);
  assert_equals(c.view.buffer, c.buf);
  assert_equals(c.view.byteOffset, 2);
}, "transfer moves an ArrayBuffer");

test(() => {
  const buf = new ArrayBuffer(4);
  const c = sc(5, { transfer: [buf] });
  assert_equals(c, 5);
  assert_equals(buf.byteLength, 0, "detached even when not referenced");
}, "transferred buffers are detached even when the value does not reach them");

test(() => {
  const buf = new ArrayBuffer(4);
  assert_throws_dom("DataCloneError", () => sc(1, { transfer: [buf, buf] }));
  assert_equals(buf.byteLength, 4, "nothing detached on failure");
  const gone = new ArrayBuffer(1);
  sc(1, { transfer: [gone] });
  assert_throws_dom("DataCloneError", () => sc(gone));
}, "transfer errors");

test(() => {
  const gone = new ArrayBuffer(1);
  sc(1, { transfer: [gone] });
  assert_throws_dom("DataCloneError", () => sc(1, { transfer: [gone] }));
}, "spec: transferring a detached buffer is a DataCloneError (Node 20 allows it)");

test(() => {
  assert_throws_dom("DataCloneError", () => sc(1, { transfer: [{}] }));
}, "spec: transferring a non-transferable object is a DataCloneError (Node 20 throws a TypeError)");

test(() => {
  const buf = new ArrayBuffer(4);
  assert_throws_dom("DataCloneError", () => sc({ buf, f() {} }, { transfer: [buf] }));
  assert_equals(buf.byteLength, 4, "a failed clone detaches nothing");
}, "a failed clone does not detach");

test(() => {
  assert_throws_js(TypeError, () => structuredClone());
  assert_throws_js(TypeError, () => sc(1, { transfer: [5] }));
  assert_throws_js(TypeError, () => sc(1, { transfer: 5 }));
  assert_throws_js(TypeError, () => sc(1, 5));
  assert_equals(sc(1, null), 1);
}, "argument conversions");

test(() => {
  assert_equals(structuredClone.length, 1);
}, "spec: structuredClone.length is 1 (Node 20 says 0)");

test(() => {
  const log = [];
  const o = { get a() { log.push("a"); return 1; }, get b() { log.push("b"); return 2; } };
  sc(o);
  assert_array_equals(log, ["a", "b"]);
  const thrower = { get x() { throw new RangeError("from getter"); } };
  assert_throws_js(RangeError, () => sc(thrower));
}, "getters run in property order; their exceptions propagate");

test(() => {
  const root = { children: [] };
  let level = [root];
  for (let d = 0; d < 4; d++) {
    const next = [];
    for (const n of level) for (let i = 0; i < 5; i++) { const c = { id: d * 10 + i, tags: ["t" + i], children: [] }; n.children.push(c); next.push(c); }
    level = next;
  }
  const c = sc(root);
  assert_equals(JSON.stringify(c), JSON.stringify(root));
}, "a tree of objects round-trips");

promise_test(async () => {
  const b = new Blob(["ab"], { type: "text/x" });
  const c = sc({ b, again: b });
  assert_true(c.b instanceof Blob);
  assert_not_equals(c.b, b);
  assert_equals(c.b, c.again, "identity is kept");
  assert_equals(c.b.size, 2);
  assert_equals(c.b.type, "text/x");
  assert_equals(await c.b.text(), "ab");
}, "Blob is serializable (through the fetch package's serializer)");

test(() => {
  const f = sc(new File(["x"], "n.txt", { lastModified: 5 }));
  assert_true(f instanceof File);
  assert_equals(f.name, "n.txt"); assert_equals(f.lastModified, 5);
}, "spec: File is serializable as a File (Node 20 clones it as a Blob)");
