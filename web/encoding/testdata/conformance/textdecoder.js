const u8 = (...a) => new Uint8Array(a);

test(() => {
  const d = new TextDecoder();
  assert_equals(d.encoding, "utf-8");
  assert_false(d.fatal); assert_false(d.ignoreBOM);
  assert_equals(TextDecoder.length, 0);
  assert_equals(Object.prototype.toString.call(d), "[object TextDecoder]");
  const f = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });
  assert_true(f.fatal); assert_true(f.ignoreBOM);
}, "TextDecoder basics");

test(() => {
  const d = new TextDecoder();
  assert_equals(d.decode(u8(0x68, 0xc3, 0xa9, 0xe2, 0x82, 0xac, 0xf0, 0x9f, 0x98, 0x80)), "h\u00e9\u20ac\ud83d\ude00");
  assert_equals(d.decode(), "");
  assert_equals(d.decode(undefined), "");
}, "decode UTF-8");

test(() => {
  const d = new TextDecoder();
  const bytes = u8(0x61, 0x62, 0x63, 0x64);
  assert_equals(d.decode(bytes.buffer), "abcd");
  assert_equals(d.decode(new DataView(bytes.buffer, 1, 2)), "bc");
  assert_equals(d.decode(bytes.subarray(2)), "cd");
  assert_equals(d.decode(new Uint16Array([0x6261])), "ab");
  assert_throws_js(TypeError, () => d.decode("abc"));
  assert_throws_js(TypeError, () => d.decode([0x61]));
}, "decode accepts ArrayBuffer and every view");

const replacements = [
  [[0xff], "\ufffd"],
  [[0x80], "\ufffd"],
  [[0xc0, 0xaf], "\ufffd\ufffd"],
  [[0xe0, 0x80, 0xaf], "\ufffd\ufffd\ufffd"],
  [[0xed, 0xa0, 0x80], "\ufffd\ufffd\ufffd"],
  [[0xf0, 0x9f, 0x98], "\ufffd"],
  [[0xf0, 0x9f, 0x98, 0x41], "\ufffdA"],
  [[0xe2, 0x82, 0x41], "\ufffdA"],
  [[0xf4, 0x90, 0x80, 0x80], "\ufffd\ufffd\ufffd\ufffd"],
  [[0xf8, 0x88, 0x80, 0x80, 0x80], "\ufffd\ufffd\ufffd\ufffd\ufffd"],
  [[0xc2], "\ufffd"],
  [[0x61, 0xc2, 0x62], "a\ufffdb"],
];
for (const [bytes, want] of replacements) {
  test(() => {
    assert_equals(new TextDecoder().decode(new Uint8Array(bytes)), want);
    assert_throws_js(TypeError, () => new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(bytes)));
  }, "malformed UTF-8 " + bytes.map((b) => b.toString(16)).join(" "));
}

test(() => {
  assert_equals(new TextDecoder().decode(u8(0xef, 0xbb, 0xbf, 0x41)), "A");
  assert_equals(new TextDecoder().decode(u8(0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf)), "\ufeff", "only one BOM is removed");
  assert_equals(new TextDecoder("utf-8", { ignoreBOM: true }).decode(u8(0xef, 0xbb, 0xbf, 0x41)), "\ufeffA");
  assert_equals(new TextDecoder().decode(u8(0x41, 0xef, 0xbb, 0xbf)), "A\ufeff", "not at the start");
}, "UTF-8 BOM handling");

test(() => {
  assert_equals(new TextDecoder("utf-16le").decode(u8(0xff, 0xfe, 0x41, 0x00)), "A");
  assert_equals(new TextDecoder("utf-16be").decode(u8(0xfe, 0xff, 0x00, 0x41)), "A");
  assert_equals(new TextDecoder("utf-16le").decode(u8(0xfe, 0xff, 0x41, 0x00)), "\ufffeA", "the other BOM is a character");
  assert_equals(new TextDecoder("utf-8").decode(u8(0xff, 0xfe, 0x41)), "\ufffd\ufffdA", "no BOM sniffing");
}, "UTF-16 BOM handling");

test(() => {
  const d = new TextDecoder();
  let out = "";
  const bytes = [0xf0, 0x9f, 0x98, 0x80, 0xe2, 0x82, 0xac, 0x41];
  for (const b of bytes) out += d.decode(u8(b), { stream: true });
  out += d.decode();
  assert_equals(out, "\ud83d\ude00\u20acA");
}, "stream: sequences split across calls");

test(() => {
  const d = new TextDecoder();
  assert_equals(d.decode(u8(0xef, 0xbb), { stream: true }), "");
  assert_equals(d.decode(u8(0xbf, 0x41), { stream: true }), "A");
  assert_equals(d.decode(u8(0xef, 0xbb, 0xbf)), "\ufeff", "a BOM later in the stream is kept");
  assert_equals(d.decode(u8(0xef, 0xbb, 0xbf, 0x42)), "B", "a new stream strips it again");
}, "stream: BOM split across calls, reset after the stream ends");

test(() => {
  const d = new TextDecoder();
  assert_equals(d.decode(u8(0x61, 0xe2, 0x82), { stream: true }), "a");
  assert_equals(d.decode(), "\ufffd", "an incomplete sequence at the end is one U+FFFD");
}, "stream: flushing an incomplete sequence");

test(() => {
  const d = new TextDecoder("utf-16le");
  let out = "";
  for (const b of [0x3d, 0xd8, 0x00, 0xde, 0x41]) out += d.decode(u8(b), { stream: true });
  out += d.decode(u8(0x00));
  assert_equals(out, "\ud83d\ude00A");
}, "stream: UTF-16LE byte by byte");

test(() => {
  assert_equals(new TextDecoder("utf-16le").decode(u8(0x00, 0xd8, 0x41, 0x00)), "\ufffdA");
  assert_equals(new TextDecoder("utf-16le").decode(u8(0x00, 0xdc)), "\ufffd");
  assert_equals(new TextDecoder("utf-16le").decode(u8(0x41, 0x00, 0x42)), "A\ufffd");
  assert_throws_js(TypeError, () => new TextDecoder("utf-16le", { fatal: true }).decode(u8(0x00, 0xd8)));
}, "UTF-16: lone surrogates and odd bytes");

test(() => {
  const d = new TextDecoder("utf-8", { fatal: true });
  assert_throws_js(TypeError, () => d.decode(u8(0xc3), { stream: false }));
  assert_equals(d.decode(u8(0x41)), "A", "usable after an error");
}, "fatal: a decoder is usable after an error");

test(() => {
  const src = new Uint8Array([0xc3, 0xa9]);
  const d = new TextDecoder();
  assert_equals(d.decode(src.subarray(0, 1), { stream: true }), "");
  src[0] = 0x41;
  assert_equals(d.decode(src.subarray(1)), "\u00e9", "the kept bytes are a copy");
}, "stream: kept bytes do not change with the buffer");

const legacy = [
  ["iso-8859-2", [0xa1, 0x80], "\u0104\u0080"],
  ["iso-8859-5", [0xb0], "\u0410"],
  ["koi8-r", [0xc1, 0xe1], "\u0430\u0410"],
  ["windows-1251", [0xc0], "\u0410"],
  ["macintosh", [0x80], "\u00c4"],
  ["shift_jis", [0x82, 0xa0, 0x41, 0xb1], "\u3042A\uff71"],
  ["euc-jp", [0xa4, 0xa2], "\u3042"],
  ["iso-2022-jp", [0x1b, 0x24, 0x42, 0x24, 0x22, 0x1b, 0x28, 0x42, 0x41], "\u3042A"],
  ["gbk", [0xc4, 0xe3, 0x80], "\u4f60\u20ac"],
  ["gb18030", [0xc4, 0xe3, 0x81, 0x30, 0x81, 0x30], "\u4f60\u0080"],
  ["big5", [0xa4, 0x40], "\u4e00"],
  ["euc-kr", [0xb0, 0xa1], "\uac00"],
];
for (const [label, bytes, want] of legacy) {
  test(() => {
    assert_equals(new TextDecoder(label).decode(new Uint8Array(bytes)), want);
  }, "legacy encoding " + label);
}

test(() => {
  const d = new TextDecoder("shift_jis");
  assert_equals(d.decode(u8(0x82), { stream: true }), "");
  assert_equals(d.decode(u8(0xa0)), "\u3042");
}, "stream: a legacy double-byte character split across calls");

test(() => {
  assert_throws_js(TypeError, () => new TextDecoder("shift_jis", { fatal: true }).decode(u8(0x82)));
}, "fatal with legacy encodings");

test(() => {
  assert_throws_js(TypeError, () => new TextDecoder("euc-kr", { fatal: true }).decode(u8(0xb0, 0x20)));
  assert_throws_js(TypeError, () => new TextDecoder("big5", { fatal: true }).decode(u8(0xff)));
}, "spec: fatal EUC-KR and Big5 (Node 20 replaces instead)");

test(() => {
  assert_throws_js(TypeError, () => new TextDecoder("windows-874", { fatal: true }).decode(u8(0xfc)));
  assert_equals(new TextDecoder("windows-874").decode(u8(0xfc)), "\ufffd");
  assert_equals(new TextDecoder("windows-1253").decode(u8(0xaa)), "\ufffd");
}, "spec: bytes the single-byte indexes leave undefined (Node 20's ICU maps some to private use)");

test(() => {
  assert_equals(new TextDecoder("windows-1252").decode(u8(0x81, 0x9f, 0xe9)), "\u0081\u0178\u00e9");
  assert_equals(new TextDecoder("iso-8859-2").decode(u8(0x80, 0x9f)), "\u0080\u009f");
}, "spec: windows-1252 and ISO-8859-2 map their C1 bytes as the indexes do");

test(() => {
  assert_equals(new TextDecoder("euc-kr").decode(u8(0xb0, 0x41)), "\uce9a");
}, "spec: EUC-KR is windows-949, with the extended Hangul rows (Node 20's ICU is not)");

test(() => {
  assert_equals(new TextDecoder("x-user-defined").decode(u8(0x41, 0x80, 0xff)), "A\uf780\uf7ff");
}, "spec: x-user-defined (Node 20 lacks it)");

test(() => {
  assert_equals(new TextDecoder("iso-8859-16").decode(u8(0xa4)), "\u20ac");
}, "spec: iso-8859-16 (Node 20 lacks it)");

test(() => {
  assert_equals(new TextDecoder("windows-1252").decode(u8(0x80)), "\u20ac");
  assert_equals(new TextDecoder("latin1").decode(u8(0x80)), "\u20ac");
}, "spec: windows-1252 maps 0x80 to the euro sign (Node 20 decodes Latin-1)");

test(() => {
  assert_equals(new TextDecoder("ibm866").decode(u8(0x1a, 0x1c, 0x7f, 0x80)), "\u001a\u001c\u007f\u0410");
}, "spec: ibm866 leaves ASCII alone (Node 20's ICU swaps three controls)");

test(() => {
  const enc = Object.getOwnPropertyDescriptor(TextDecoder.prototype, "encoding").get;
  assert_throws_js(TypeError, () => enc.call({}));
  assert_throws_js(TypeError, () => TextDecoder.prototype.decode.call(new TextEncoder()));
}, "TextDecoder checks its receiver");
