// Blob and File (File API), cases written from the standard.
promise_test(async () => {
  const b = new Blob(["ab", new Uint8Array([99]), new Blob(["d"]), new Uint16Array([0x6665]).buffer]);
  assert_equals(b.size, 6);
  assert_equals(b.type, "");
  assert_equals(await b.text(), "abcdef");
  assert_equals(Object.prototype.toString.call(b), "[object Blob]");
}, "parts: strings, BufferSources and Blobs");

test(() => {
  assert_equals(new Blob().size, 0);
  assert_equals(new Blob([]).size, 0);
  assert_throws_js(TypeError, () => new Blob("abc"));
  assert_throws_js(TypeError, () => new Blob({}));
  assert_throws_js(TypeError, () => Blob());
  assert_equals(new Blob([1, null, {}]).size, "1null[object Object]".length);
}, "the parts argument");

test(() => {
  assert_equals(new Blob([], { type: "Text/Plain;Charset=UTF-8" }).type, "text/plain;charset=utf-8");
  assert_equals(new Blob([], { type: "a\u0001b" }).type, "");
  assert_equals(new Blob([], { type: "é" }).type, "");
}, "type is lower-cased, or empty when not printable ASCII");

test(() => {
  assert_equals(new Blob(["a\r\nb\rc\n"], { endings: "native" }).size, 6);
  assert_equals(new Blob(["a\r\nb\rc\n"], { endings: "transparent" }).size, 7);
  assert_equals(new Blob(["a\r\nb"]).size, 4);
  assert_throws_js(TypeError, () => new Blob([], { endings: "bogus" }));
}, "endings");

test(() => {
  assert_equals(new Blob(["\u00ff"]).size, 2);
  assert_equals(new Blob(["\ud800"]).size, 3, "a lone surrogate becomes U+FFFD");
}, "strings are UTF-8 encoded");

promise_test(async () => {
  const b = new Blob(["abcdef"], { type: "x/y" });
  assert_equals(await b.slice().text(), "abcdef");
  assert_equals(b.slice().type, "");
  assert_equals(await b.slice(1, 3).text(), "bc");
  assert_equals(await b.slice(-2).text(), "ef");
  assert_equals(await b.slice(1, -1).text(), "bcde");
  assert_equals(await b.slice(4, 2).text(), "");
  assert_equals(await b.slice(-100, 100).text(), "abcdef");
  assert_equals(b.slice(0, 1, "A/B").type, "a/b");
  assert_equals(await b.slice(1).slice(1, 2).text(), "c");
}, "slice");

promise_test(async () => {
  const b = new Blob(["abc"]);
  const ab = await b.arrayBuffer();
  assert_true(ab instanceof ArrayBuffer);
  assert_array_equals(new Uint8Array(ab), [97, 98, 99]);
  const u8 = await b.bytes();
  assert_true(u8 instanceof Uint8Array);
  u8[0] = 0;
  assert_equals(await b.text(), "abc");
  const chunks = await readAll(b.stream());
  assert_equals(dec(chunks[0]), "abc");
}, "arrayBuffer, bytes, stream");

test(() => {
  const f = new File(["x"], "n.txt", { type: "Text/X", lastModified: 42 });
  assert_equals(f.name, "n.txt");
  assert_equals(f.lastModified, 42);
  assert_equals(f.size, 1);
  assert_equals(f.type, "text/x");
  assert_true(f instanceof Blob);
  assert_equals(Object.prototype.toString.call(f), "[object File]");
  const now = Date.now();
  const g = new File([], "g");
  assert_true(Math.abs(g.lastModified - now) < 10000);
  assert_throws_js(TypeError, () => new File(["x"]));
  assert_equals(File.length, 2);
  assert_equals(new File([], "a/b").name, "a/b");
}, "File");

test(() => {
  assert_throws_js(TypeError, () => Object.getOwnPropertyDescriptor(File.prototype, "name").get.call(new Blob()));
  assert_throws_js(TypeError, () => Blob.prototype.slice.call({}));
}, "brand checks");

promise_test(async () => {
  const b = new Blob(["abc"], { type: "x/y" });
  const c = structuredClone(b);
  assert_true(c instanceof Blob);
  assert_not_equals(c, b);
  assert_equals(c.type, "x/y");
  assert_equals(await c.text(), "abc");
}, "structuredClone of a Blob");

promise_test(async () => {
  const f = new File(["z"], "n.txt", { type: "t/z", lastModified: 9 });
  const g = structuredClone({ f, again: f });
  assert_true(g.f instanceof File);
  assert_equals(g.f, g.again, "shared references stay shared");
  assert_equals(g.f.name, "n.txt");
  assert_equals(g.f.lastModified, 9);
  assert_equals(g.f.type, "t/z");
  assert_equals(await g.f.text(), "z");
}, "spec: structuredClone of a File (Node 20 makes a Blob of it)");

test(() => {
  let threw = "";
  try { structuredClone(new Headers()); } catch (e) { threw = e.name; }
  assert_equals(threw, "DataCloneError");
  try { structuredClone(new FormData()); threw = ""; } catch (e) { threw = e.name; }
  assert_equals(threw, "DataCloneError");
}, "spec: Headers and FormData are not cloneable (Node 20 clones them as {})");
