test(() => {
  const e = new TextEncoder();
  assert_equals(e.encoding, "utf-8");
  assert_equals(TextEncoder.length, 0);
  assert_equals(TextEncoder.prototype.encode.length, 0);
  assert_equals(TextEncoder.prototype.encodeInto.length, 2);
  assert_equals(Object.prototype.toString.call(e), "[object TextEncoder]");
}, "TextEncoder basics");

test(() => {
  const e = new TextEncoder();
  const u = e.encode("a\u00e9\u20ac\ud83d\ude00");
  assert_true(u instanceof Uint8Array);
  assert_array_equals(u, [0x61, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80]);
}, "encode: one to four bytes");

test(() => {
  const e = new TextEncoder();
  assert_array_equals(e.encode(), []);
  assert_array_equals(e.encode(undefined), []);
  assert_array_equals(e.encode(null), [0x6e, 0x75, 0x6c, 0x6c]);
  assert_array_equals(e.encode(12), [0x31, 0x32]);
  assert_throws_js(TypeError, () => e.encode(Symbol()));
}, "encode converts its argument to a string; undefined is empty");

test(() => {
  const e = new TextEncoder();
  assert_array_equals(e.encode("\ud800"), [0xef, 0xbf, 0xbd]);
  assert_array_equals(e.encode("\udc00a"), [0xef, 0xbf, 0xbd, 0x61]);
  assert_array_equals(e.encode("\ud800\ud800\udc00"), [0xef, 0xbf, 0xbd, 0xf0, 0x90, 0x80, 0x80]);
}, "encode: lone surrogates become U+FFFD");

test(() => {
  const s = "x".repeat(20000) + "\u00e9";
  const u = new TextEncoder().encode(s);
  assert_equals(u.length, 20002);
  assert_equals(u[20000], 0xc3);
}, "encode of a long string");

test(() => {
  const e = new TextEncoder();
  const u = new Uint8Array(8);
  const r = e.encodeInto("ab\u00e9", u);
  assert_equals(r.read, 3); assert_equals(r.written, 4);
  assert_array_equals(u.subarray(0, 4), [0x61, 0x62, 0xc3, 0xa9]);
  assert_array_equals(Object.keys(r), ["read", "written"]);
}, "encodeInto writes and reports read/written");

test(() => {
  const e = new TextEncoder();
  const u = new Uint8Array(5);
  const r = e.encodeInto("a\ud83d\ude00b", u);
  assert_equals(r.read, 3, "a surrogate pair counts two code units");
  assert_equals(r.written, 5);
  const v = new Uint8Array(4);
  const q = e.encodeInto("ab\u20ac", v);
  assert_equals(q.read, 2, "a character that does not fit is not split");
  assert_equals(q.written, 2);
}, "encodeInto stops before a character that does not fit");

test(() => {
  const e = new TextEncoder();
  const buf = new Uint8Array(10).fill(7);
  const view = buf.subarray(2, 5);
  const r = e.encodeInto("abcd", view);
  assert_equals(r.written, 3);
  assert_array_equals(buf, [7, 7, 0x61, 0x62, 0x63, 7, 7, 7, 7, 7]);
}, "encodeInto respects the view's offset and length");

test(() => {
  const e = new TextEncoder();
  const r = e.encodeInto("\ud800x", new Uint8Array(10));
  assert_equals(r.read, 2); assert_equals(r.written, 4);
}, "encodeInto: a lone surrogate is written as U+FFFD");

test(() => {
  const e = new TextEncoder();
  assert_throws_js(TypeError, () => e.encodeInto("a", new Uint16Array(2)));
  assert_throws_js(TypeError, () => e.encodeInto("a", new ArrayBuffer(2)));
  assert_throws_js(TypeError, () => e.encodeInto("a", [0, 0]));
  assert_throws_js(TypeError, () => e.encodeInto("a"));
}, "encodeInto requires a Uint8Array");

test(() => {
  const enc = Object.getOwnPropertyDescriptor(TextEncoder.prototype, "encoding").get;
  assert_throws_js(TypeError, () => enc.call({}));
  assert_throws_js(TypeError, () => TextEncoder.prototype.encode.call({}, "a"));
}, "TextEncoder checks its receiver");

test(() => {
  assert_throws_js(TypeError, () => TextEncoder());
  assert_throws_js(TypeError, () => TextDecoder());
}, "TextEncoder and TextDecoder called without new throw");
