// The Body mixin (Fetch §5.1) on Response and Request.
promise_test(async () => {
  assert_equals(await new Response("héllo").text(), "héllo");
  assert_deep(await new Response('{"a":[1]}').json(), { a: [1] });
  const ab = await new Response("ab").arrayBuffer();
  assert_true(ab instanceof ArrayBuffer);
  assert_array_equals(new Uint8Array(ab), [97, 98]);
  const u8 = await new Response("ab").bytes();
  assert_true(u8 instanceof Uint8Array);
  assert_array_equals(u8, [97, 98]);
  const b = await new Response("ab").blob();
  assert_true(b instanceof Blob);
  assert_equals(b.size, 2);
  assert_equals(b.type, "text/plain;charset=utf-8");
}, "text, json, arrayBuffer, bytes and blob of a string body");

promise_test(async () => {
  assert_equals(await new Response().text(), "");
  assert_equals((await new Response().arrayBuffer()).byteLength, 0);
  assert_equals((await new Response(null).blob()).size, 0);
  await promise_rejects_js(SyntaxError, new Response().json());
}, "a null body reads as empty");

promise_test(async () => {
  const r = new Response("x");
  assert_false(r.bodyUsed);
  await r.text();
  assert_true(r.bodyUsed);
  await promise_rejects_js(TypeError, r.text());
  await promise_rejects_js(TypeError, r.arrayBuffer());
  assert_true(r.body instanceof ReadableStream);
  assert_true(r.body.locked, "the body read from Go looks read");
}, "a body reads once");

promise_test(async () => {
  const r = new Response("x");
  const p1 = r.text();
  await promise_rejects_js(TypeError, r.text());
  assert_equals(await p1, "x");
}, "a second read while the first is pending fails");

promise_test(async () => {
  const r = new Response(new Uint8Array([0xef, 0xbb, 0xbf, 0x41, 0xe2, 0x82, 0x42, 0xff, 0xf0, 0x9f, 0x98]));
  assert_equals(await r.text(), "A\ufffdB\ufffd\ufffd");
}, "text() decodes UTF-8: BOM dropped, bad bytes replaced");

promise_test(async () => {
  await promise_rejects_js(SyntaxError, new Response("{").json());
  await promise_rejects_js(SyntaxError, new Response("").json());
}, "bad JSON rejects with a SyntaxError");

promise_test(async () => {
  const u8 = new Uint8Array([1, 2, 3]);
  const r = new Response(u8);
  u8[0] = 9;
  assert_array_equals(await r.bytes(), [1, 2, 3]);
  const buf = new Uint8Array([1, 2, 3, 4]).buffer;
  assert_array_equals(await new Response(new DataView(buf, 1, 2)).bytes(), [2, 3]);
  assert_array_equals(await new Response(buf).bytes(), [1, 2, 3, 4]);
  assert_array_equals(await new Response(new Uint16Array([0x0201])).bytes(), [1, 2]);
}, "a BufferSource body is copied");

promise_test(async () => {
  const blob = new Blob(["ab"], { type: "X/Y" });
  const r = new Response(blob);
  assert_equals(r.headers.get("content-type"), "x/y");
  const b = await r.blob();
  assert_equals(b.type, "x/y");
  assert_equals(await b.text(), "ab");
  assert_equals(new Response(new Blob(["x"])).headers.get("content-type"), null);
}, "a Blob body and its type");

promise_test(async () => {
  const r = new Response("x", { headers: { "content-type": "Text/HTML; Charset=\"UTF-8\"" } });
  assert_equals((await r.blob()).type, "text/html;charset=utf-8");
  const r2 = new Response("x", { headers: { "content-type": "not a type" } });
  assert_equals((await r2.blob()).type, "");
}, "blob() takes its type from Content-Type");

promise_test(async () => {
  const r = new Response(new URLSearchParams("a=1&b=x y"));
  assert_equals(r.headers.get("content-type"), "application/x-www-form-urlencoded;charset=UTF-8");
  assert_equals(await r.text(), "a=1&b=x+y");
}, "a URLSearchParams body");

promise_test(async () => {
  const fd = await new Response("a=1&b=%zz+c&&=e&f&%C3%A9=%E2%82%AC", { headers: { "content-type": "application/x-www-form-urlencoded" } }).formData();
  assert_deep([...fd], [["a", "1"], ["b", "%zz c"], ["", "e"], ["f", ""], ["é", "€"]]);
}, "formData() parses application/x-www-form-urlencoded");

promise_test(async () => {
  await promise_rejects_js(TypeError, new Response("a=b").formData());
  await promise_rejects_js(TypeError, new Response("x", { headers: { "content-type": "multipart/form-data; boundary=zz" } }).formData());
}, "formData() needs a form Content-Type and a good body");

promise_test(async () => {
  const fd = new FormData();
  fd.append("a", "x\ny");
  fd.append("f\"\n", new Blob(["hi"]), "a/b.txt");
  fd.append("g", new Blob(["z"], { type: "image/png" }));
  fd.append("u", "\u00e9\u20ac");
  const r = new Response(fd);
  const ct = r.headers.get("content-type");
  assert_true(/^multipart\/form-data; boundary=.+/.test(ct), ct);
  const back = await r.formData();
  const got = [...back].map(([k, v]) => [k, typeof v === "string" ? v : [v.name, v.type, v.size, v instanceof File]]);
  assert_deep(got, [["a", "x\r\ny"], ["f\"\r\n", ["a/b.txt", "application/octet-stream", 2, true]], ["g", ["blob", "image/png", 1, true]], ["u", "\u00e9\u20ac"]]);
}, "a FormData body round-trips through multipart/form-data");

promise_test(async () => {
  const fd = new FormData();
  fd.append("a", "1");
  fd.append("f", new File(["xy"], "n.txt", { type: "text/x" }));
  const text = await new Response(fd).text();
  const bnd = text.slice(2, text.indexOf("\r\n"));
  assert_equals(text, "--" + bnd + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n" +
    "--" + bnd + "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"n.txt\"\r\nContent-Type: text/x\r\n\r\nxy\r\n--" + bnd + "--\r\n");
}, "multipart/form-data as it goes on the wire");

promise_test(async () => {
  const body = "--b\r\nContent-Disposition: form-data; name=\"f\"; filename=\"dir/x.txt\"\r\n\r\nxx\r\n--b\r\nContent-Disposition: form-data; name=\"t\"\r\nContent-Type: text/x\r\n\r\nv\r\n--b--\r\n";
  const fd = await new Response(body, { headers: { "content-type": "multipart/form-data; boundary=b" } }).formData();
  const f = fd.get("f");
  assert_equals(f.name, "dir/x.txt");
  assert_equals(f.type, "text/plain");
  assert_equals(await f.text(), "xx");
  assert_equals(fd.get("t"), "v");
}, "formData() parses multipart/form-data");

promise_test(async () => {
  const r = new Response(new ReadableStream({ start(c) { c.enqueue(enc("a")); c.enqueue(enc("bc")); c.close(); } }));
  assert_equals(r.bodyUsed, false);
  assert_equals(await r.text(), "abc");
  assert_true(r.bodyUsed);
}, "a stream body");

promise_test(async () => {
  const r = new Response(new ReadableStream({ start(c) { c.enqueue("str"); c.close(); } }));
  await promise_rejects_js(TypeError, r.text());
}, "a stream body must give Uint8Arrays");

promise_test(async () => {
  const err = new Error("boom");
  const r = new Response(new ReadableStream({ start(c) { c.error(err); } }));
  await promise_rejects_exactly(err, r.text());
}, "a stream's error rejects the read");

promise_test(async () => {
  const r = new Response("abc");
  const s = r.body;
  assert_true(s instanceof ReadableStream);
  assert_equals(r.body, s);
  assert_false(r.bodyUsed);
  const chunks = await readAll(s);
  assert_equals(dec(chunks[0]), "abc");
  assert_true(r.bodyUsed);
  await promise_rejects_js(TypeError, r.text());
}, "body is a ReadableStream of the bytes");

promise_test(async () => {
  const r = new Response("abc");
  r.body.getReader();
  await promise_rejects_js(TypeError, r.text());
}, "a locked body cannot be read");

promise_test(async () => {
  await promise_rejects_js(TypeError, Response.prototype.text.call({}));
  await promise_rejects_js(TypeError, Request.prototype.json.call(new Response("1")));
}, "the mixin's methods reject for a wrong receiver");

promise_test(async () => {
  const r = new Request("http://example.com", { method: "POST", body: "{\"x\":1}" });
  assert_deep(await r.json(), { x: 1 });
  assert_true(r.bodyUsed);
  const r2 = new Request("http://example.com", { method: "POST", body: new Blob(["q"]) });
  assert_equals(await (await r2.blob()).text(), "q");
}, "a Request's body");

promise_test(async () => {
  const ab = await new Response("abc").arrayBuffer();
  new Uint8Array(ab)[0] = 0;
  const blob = new Blob(["abc"]);
  const r = new Response(blob);
  const ab2 = await r.arrayBuffer();
  new Uint8Array(ab2)[0] = 0;
  assert_equals(await blob.text(), "abc", "the blob is unchanged");
}, "bytes handed out are the caller's");

promise_test(async () => {
  const fd = new FormData();
  fd.append("\x00", "v\x00");
  fd.append("a\x01b", new File(["f"], "n\x02.txt"));
  const back = await new Response(fd).formData();
  const got = [...back].map(([k, v]) => [k, typeof v === "string" ? v : v.name]);
  assert_deep(got, [["\x00", "v\x00"], ["a\x01b", "n\x02.txt"]]);
}, "control characters in names survive multipart/form-data");

promise_test(async () => {
  const body = "preamble\r\n--b\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--b\r\ncontent-disposition: form-data; name=\"f\"; filename=\"x.bin\"\r\ncontent-type: Application/Octet-Stream\r\n\r\n\r\n\r\n--b--";
  const fd = await new Response(body, { headers: { "content-type": "multipart/form-data; boundary=\"b\"" } }).formData();
  assert_equals(fd.get("a"), "1");
  const f = fd.get("f");
  assert_equals(f.type, "application/octet-stream");
  assert_equals(f.size, 2);
}, "spec: multipart/form-data: a preamble (RFC 2046; undici refuses one), header case, quoted boundary, no final CRLF");
