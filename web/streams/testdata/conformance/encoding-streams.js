promise_test(async () => {
  const ts = new TextEncoderStream();
  assert_equals(ts.encoding, "utf-8");
  const w = ts.writable.getWriter();
  w.write("h\u00e9"); w.write("\ud83d"); w.write("\ude00!"); w.close();
  const chunks = await readAll(ts.readable);
  const all = [].concat(...chunks.map((c) => Array.from(c)));
  assert_array_equals(all, [0x68, 0xc3, 0xa9, 0xf0, 0x9f, 0x98, 0x80, 0x21]);
  assert_true(chunks.every((c) => c instanceof Uint8Array));
}, "TextEncoderStream joins a surrogate pair split across chunks");

promise_test(async () => {
  const ts = new TextEncoderStream();
  const w = ts.writable.getWriter();
  w.write("a\ud800"); w.close();
  const all = [].concat(...(await readAll(ts.readable)).map((c) => Array.from(c)));
  assert_array_equals(all, [0x61, 0xef, 0xbf, 0xbd]);
}, "TextEncoderStream flushes a lone high surrogate as U+FFFD");

promise_test(async () => {
  const ts = new TextEncoderStream();
  const w = ts.writable.getWriter();
  w.write(""); w.write(12); w.close();
  const chunks = await readAll(ts.readable);
  assert_equals(chunks.length, 1, "an empty chunk produces nothing");
  assert_array_equals(chunks[0], [0x31, 0x32]);
}, "TextEncoderStream converts chunks to strings and skips empty output");

promise_test(async () => {
  const ts = new TextDecoderStream();
  assert_equals(ts.encoding, "utf-8");
  assert_false(ts.fatal);
  assert_false(ts.ignoreBOM);
  const w = ts.writable.getWriter();
  w.write(bytes(0xef, 0xbb, 0xbf, 0x68, 0xc3)); w.write(bytes(0xa9, 0xf0, 0x9f)); w.write(bytes(0x98, 0x80)); w.close();
  assert_equals((await readAll(ts.readable)).join(""), "h\u00e9\ud83d\ude00");
}, "TextDecoderStream decodes sequences split across chunks and drops the BOM");

promise_test(async () => {
  const ts = new TextDecoderStream("utf-8", { ignoreBOM: true });
  const w = ts.writable.getWriter();
  w.write(bytes(0xef, 0xbb, 0xbf, 0x41)); w.close();
  assert_equals((await readAll(ts.readable)).join(""), "\ufeffA");
}, "TextDecoderStream keeps the BOM with ignoreBOM");

promise_test(async () => {
  const ts = new TextDecoderStream();
  const w = ts.writable.getWriter();
  w.write(bytes(0x41, 0xff, 0xe2, 0x82)); w.close();
  assert_equals((await readAll(ts.readable)).join(""), "A\ufffd\ufffd");
}, "TextDecoderStream replaces invalid and truncated sequences");

promise_test(async () => {
  const ts = new TextDecoderStream("utf8", { fatal: true });
  assert_true(ts.fatal);
  const w = ts.writable.getWriter();
  const r = ts.readable.getReader();
  w.write(bytes(0xff)).catch(() => {});
  await promise_rejects_js(TypeError, r.read());
}, "a fatal TextDecoderStream errors on invalid input");

promise_test(async () => {
  const ts = new TextDecoderStream();
  const w = ts.writable.getWriter();
  const r = ts.readable.getReader();
  w.write("not bytes").catch(() => {});
  await promise_rejects_js(TypeError, r.read());
  assert_throws_js(RangeError, () => new TextDecoderStream("nope"));
}, "TextDecoderStream rejects non-buffer chunks and unknown labels");

promise_test(async () => {
  const ts = new TextDecoderStream();
  const w = ts.writable.getWriter();
  w.write(new Uint16Array([0x6968]).buffer); w.write(new DataView(bytes(0x21).buffer)); w.close();
  assert_equals((await readAll(ts.readable)).join(""), "hi!");
}, "TextDecoderStream takes ArrayBuffers and DataViews");
