async function roundTrip(format, input, chunking) {
  const cs = new CompressionStream(format);
  const w = cs.writable.getWriter();
  for (const c of chunking(input)) w.write(c);
  w.close();
  const compressed = concat(await readAll(cs.readable));
  const ds = new DecompressionStream(format);
  const dw = ds.writable.getWriter();
  for (let i = 0; i < compressed.length; i += 7) dw.write(compressed.slice(i, i + 7));
  dw.close();
  return { compressed, out: concat(await readAll(ds.readable)) };
}
function concat(chunks) {
  const n = chunks.reduce((a, c) => a + c.byteLength, 0);
  const out = new Uint8Array(n);
  let o = 0;
  for (const c of chunks) { out.set(c, o); o += c.byteLength; }
  return out;
}
const sample = new TextEncoder().encode("hello hello hello compression streams \u{1F375} ".repeat(200));

for (const format of ["gzip", "deflate", "deflate-raw"]) {
  promise_test(async () => {
    const { compressed, out } = await roundTrip(format, sample, (b) => [b.slice(0, 100), b.slice(100)]);
    assert_true(compressed.length < sample.length / 4, "it compresses");
    assert_array_equals(out, sample);
  }, format + " round-trips through CompressionStream and DecompressionStream");
}

promise_test(async () => {
  const { compressed } = await roundTrip("gzip", bytes(1), (b) => [b]);
  assert_equals(compressed[0], 0x1f);
  assert_equals(compressed[1], 0x8b);
  const z = await roundTrip("deflate", bytes(1), (b) => [b]);
  assert_equals(z.compressed[0] & 0x0f, 8, "zlib header says deflate");
}, "gzip and deflate write their headers");

test(() => {
  assert_throws_js(TypeError, () => new CompressionStream("brotli"));
  assert_throws_js(TypeError, () => new DecompressionStream());
  assert_throws_js(TypeError, () => new CompressionStream());
}, "the format must be gzip, deflate or deflate-raw");

promise_test(async () => {
  const ds = new DecompressionStream("gzip");
  const w = ds.writable.getWriter();
  w.write(bytes(1, 2, 3, 4)).catch(() => {});
  w.close().catch(() => {});
  await promise_rejects_js(TypeError, ds.readable.getReader().read());
}, "spec: corrupt input errors a DecompressionStream");

promise_test(async () => {
  const cs = new CompressionStream("gzip");
  const w = cs.writable.getWriter();
  w.write(bytes(1, 2, 3)); w.close();
  const good = concat(await readAll(cs.readable));
  const ds = new DecompressionStream("gzip");
  const dw = ds.writable.getWriter();
  dw.write(good.slice(0, good.length - 3)).catch(() => {});
  dw.close().catch(() => {});
  await promise_rejects_js(TypeError, readAll(ds.readable));
}, "spec: truncated input errors a DecompressionStream at the end");

promise_test(async () => {
  const cs = new CompressionStream("deflate");
  const w = cs.writable.getWriter();
  w.write(bytes(9, 9)); w.close();
  const good = concat(await readAll(cs.readable));
  const ds = new DecompressionStream("deflate");
  const dw = ds.writable.getWriter();
  dw.write(concat([good, bytes(0, 1)])).catch(() => {});
  dw.close().catch(() => {});
  await promise_rejects_js(TypeError, readAll(ds.readable));
}, "spec: trailing data after the end errors a DecompressionStream");

promise_test(async () => {
  const cs = new CompressionStream("gzip");
  const w = cs.writable.getWriter();
  w.write("text").catch(() => {});
  await promise_rejects_js(TypeError, cs.readable.getReader().read());
}, "spec: CompressionStream rejects non-buffer chunks");

promise_test(async () => {
  const body = new ReadableStream({ start(c) { c.enqueue(sample); c.close(); } });
  const back = body.pipeThrough(new CompressionStream("gzip")).pipeThrough(new DecompressionStream("gzip")).pipeThrough(new TextDecoderStream());
  assert_equals((await readAll(back)).join(""), new TextDecoder().decode(sample));
}, "a pipeline of compression and text streams");
