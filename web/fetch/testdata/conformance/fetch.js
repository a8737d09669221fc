// fetch() against the loopback test server (SERVER), cases written from
// the Fetch Standard and checked against Node 20 (undici).
const echo = async (path, init) => (await fetch(SERVER + path, init)).json();

promise_test(async () => {
  const r = await fetch(SERVER + "/echo?q=1");
  assert_equals(r.status, 200);
  assert_equals(r.statusText, "OK");
  assert_equals(r.ok, true);
  assert_equals(r.type, "basic");
  assert_equals(r.url, SERVER + "/echo?q=1");
  assert_equals(r.redirected, false);
  assert_equals(r.headers.get("content-type"), "application/json");
  const j = await r.json();
  assert_equals(j.method, "GET");
  assert_equals(j.url, "/echo?q=1");
}, "a GET");

promise_test(async () => {
  const r = await fetch(new URL(SERVER + "/echo#frag"));
  assert_equals(r.url, SERVER + "/echo");
  const r2 = await fetch(new Request(SERVER + "/echo", { method: "PUT", body: "x" }));
  assert_equals((await r2.json()).method, "PUT");
}, "input: URL, Request; the response URL has no fragment");

promise_test(async () => {
  const j = await echo("/echo");
  assert_equals(j.headers["accept"], "*/*");
  assert_equals(j.headers["accept-language"], "*");
  assert_equals(j.headers["sec-fetch-mode"], "cors");
  assert_equals(j.headers["accept-encoding"], "gzip, deflate");
  assert_true(typeof j.headers["user-agent"] === "string" && j.headers["user-agent"].length > 0);
  assert_equals(j.headers["content-type"], undefined);
  assert_equals(j.headers["content-length"], undefined);
  assert_equals(j.headers["cookie"], undefined);
}, "the headers fetch adds");

promise_test(async () => {
  const j = await echo("/echo", { headers: { "User-Agent": "me", accept: "a/b", "Accept-Encoding": "identity", "Accept-Language": "de", "x-custom": "1" } });
  assert_equals(j.headers["user-agent"], "me");
  assert_equals(j.headers["accept"], "a/b");
  assert_equals(j.headers["accept-encoding"], "identity");
  assert_equals(j.headers["accept-language"], "de");
  assert_equals(j.headers["x-custom"], "1");
}, "the app's headers win");

promise_test(async () => {
  const j = await echo("/echo", { method: "POST", body: "hi \u00e9" });
  assert_equals(j.method, "POST");
  assert_equals(j.body, "hi \u00e9");
  assert_equals(j.headers["content-type"], "text/plain;charset=UTF-8");
  assert_equals(j.headers["content-length"], "5");
}, "a string body");

promise_test(async () => {
  const j = await echo("/echo", { method: "POST", body: JSON.stringify({ a: 1 }), headers: { "content-type": "application/json" } });
  assert_equals(j.body, '{"a":1}');
  assert_equals(j.headers["content-type"], "application/json");
}, "a JSON body");

promise_test(async () => {
  const j = await echo("/echo", { method: "POST", body: new URLSearchParams({ a: "1", b: "x y" }) });
  assert_equals(j.body, "a=1&b=x+y");
  assert_equals(j.headers["content-type"], "application/x-www-form-urlencoded;charset=UTF-8");
}, "a URLSearchParams body");

promise_test(async () => {
  const fd = new FormData();
  fd.append("a", "1");
  fd.append("f", new Blob(["file body"], { type: "text/x" }), "n.txt");
  const j = await echo("/echo", { method: "POST", body: fd });
  const m = /^multipart\/form-data; boundary=(.+)$/.exec(j.headers["content-type"]);
  assert_true(!!m, j.headers["content-type"]);
  const b = m[1];
  assert_equals(j.body, "--" + b + "\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n1\r\n--" + b +
    "\r\nContent-Disposition: form-data; name=\"f\"; filename=\"n.txt\"\r\nContent-Type: text/x\r\n\r\nfile body\r\n--" + b + "--\r\n");
  assert_equals(j.headers["content-length"], String(j.body.length));
}, "a FormData body goes as multipart/form-data");

promise_test(async () => {
  const j = await echo("/echo", { method: "POST", body: new Uint8Array([104, 105]) });
  assert_equals(j.body, "hi");
  assert_equals(j.headers["content-type"], undefined);
  const j2 = await echo("/echo", { method: "POST", body: new Blob(["bl"], { type: "x/y" }) });
  assert_equals(j2.body, "bl");
  assert_equals(j2.headers["content-type"], "x/y");
}, "BufferSource and Blob bodies");

promise_test(async () => {
  let n = 0;
  const rs = new ReadableStream({ pull(c) { if (n++ < 3) c.enqueue(enc("c" + n)); else c.close(); } });
  const j = await echo("/echo", { method: "POST", body: rs, duplex: "half" });
  assert_equals(j.body, "c1c2c3");
  assert_equals(j.headers["transfer-encoding"], "chunked");
  assert_equals(j.headers["content-length"], undefined);
}, "a stream body goes chunked");

promise_test(async () => {
  const j = await echo("/echo", { method: "POST" });
  assert_equals(j.headers["content-length"], "0");
  const j2 = await echo("/echo", { method: "DELETE" });
  assert_equals(j2.headers["content-length"], undefined);
}, "POST without a body sends Content-Length: 0");

promise_test(async () => {
  for (const code of [301, 302, 303, 307, 308]) {
    const r = await fetch(SERVER + "/redirect/" + code + "/2", { method: "POST", body: "data" });
    assert_equals(r.status, 200, String(code));
    assert_true(r.redirected, String(code));
    assert_equals(r.url, SERVER + "/redirect/" + code + "/0", String(code));
    const j = await r.json();
    const keeps = code === 307 || code === 308;
    assert_equals(j.method, keeps ? "POST" : "GET", String(code));
    assert_equals(j.body, keeps ? "data" : "", String(code));
    assert_equals(j.headers["content-type"], keeps ? "text/plain;charset=UTF-8" : undefined, String(code));
  }
}, "redirects: 301/302 turn POST into GET, 303 anything but HEAD, 307/308 keep it");

promise_test(async () => {
  const j = await echo("/redirect/302/1", { method: "PUT", body: "x" });
  assert_equals(j.method, "PUT");
  assert_equals(j.body, "x");
  const r = await fetch(SERVER + "/redirect/303/1", { method: "HEAD" });
  assert_equals(r.url, SERVER + "/redirect/303/0");
}, "redirects: 302 keeps PUT, 303 keeps HEAD");

promise_test(async () => {
  const r = await fetch(SERVER + "/redirect/302/1", { redirect: "manual" });
  assert_equals(r.status, 302);
  assert_equals(r.statusText, "Found");
  assert_equals(r.type, "basic");
  assert_equals(r.redirected, false);
  assert_equals(r.url, SERVER + "/redirect/302/1");
  assert_equals(r.headers.get("location"), "/redirect/302/0");
  assert_equals(await r.text(), "redirecting");
}, "redirect: manual returns the redirect itself (as Node does)");

promise_test(async () => {
  const e = await promise_rejects_js(TypeError, fetch(SERVER + "/redirect/302/1", { redirect: "error" }));
  assert_equals(e.cause.message, "unexpected redirect");
}, "redirect: error");

promise_test(async () => {
  const r = await fetch(SERVER + "/redirect/301/20");
  assert_equals(r.status, 200);
  const e = await promise_rejects_js(TypeError, fetch(SERVER + "/redirect/301/21"));
  assert_equals(e.cause.message, "redirect count exceeded");
}, "at most 20 redirects");

promise_test(async () => {
  const rs = new ReadableStream({ pull(c) { c.enqueue(enc("s")); c.close(); } });
  await promise_rejects_js(TypeError, fetch(SERVER + "/redirect/307/1", { method: "POST", body: rs, duplex: "half" }));
  const rs2 = new ReadableStream({ pull(c) { c.enqueue(enc("s")); c.close(); } });
  const j = await echo("/redirect/303/1", { method: "POST", body: rs2, duplex: "half" });
  assert_equals(j.method, "GET");
}, "a stream body cannot be sent twice: 307 fails, 303 drops it");

promise_test(async () => {
  const r = await fetch(SERVER + "/nolocation");
  assert_equals(r.status, 302);
  assert_equals(r.redirected, false);
}, "a redirect status without Location is the response");

promise_test(async () => {
  const r = await fetch(SERVER + "/status/404");
  assert_equals(r.status, 404);
  assert_equals(r.ok, false);
  assert_equals(r.statusText, "Not Found");
  const r2 = await fetch(SERVER + "/status/204");
  assert_equals(r2.body, null);
  assert_equals(await r2.text(), "");
  const r3 = await fetch(SERVER + "/status/599");
  assert_equals(r3.status, 599);
}, "statuses");

promise_test(async () => {
  const r = await fetch(SERVER + "/echo", { method: "HEAD" });
  assert_equals(r.status, 200);
  assert_equals(r.body, null);
  assert_equals(await r.text(), "");
}, "HEAD has no body");

promise_test(async () => {
  const r = await fetch(SERVER + "/cookies");
  assert_deep(r.headers.getSetCookie(), ["a=1", "b=2"]);
  assert_equals(r.headers.get("x-multi"), "1, 2");
  assert_throws_js(TypeError, () => r.headers.set("x", "y"));
  assert_throws_js(TypeError, () => r.headers.delete("x-multi"));
}, "response headers: Set-Cookie kept apart, repeated ones combined, immutable");

promise_test(async () => {
  for (const enc of ["gzip", "deflate", "deflate-raw"]) {
    const r = await fetch(SERVER + "/encoded/" + enc);
    assert_equals(await r.text(), "hello ".repeat(100), enc);
    assert_true(r.headers.has("content-encoding"), enc + ": the header stays, as in Node");
  }
  const r = await fetch(SERVER + "/encoded/gzip", { headers: { "accept-encoding": "gzip" } });
  assert_equals(await r.text(), "hello ".repeat(100), "decoded when the app asked too");
}, "gzip and deflate bodies are decoded");

promise_test(async () => {
  const r = await fetch(SERVER + "/encoded/gzip");
  const chunks = await readAll(r.body);
  assert_equals(dec(new Uint8Array(chunks.flatMap((c) => [...c]))), "hello ".repeat(100));
}, "a decoded body streams too");

promise_test(async () => {
  const r = await fetch(SERVER + "/echo");
  const b = r.body;
  assert_true(b instanceof ReadableStream);
  const chunks = await readAll(b);
  assert_true(chunks.every((c) => c instanceof Uint8Array));
  assert_equals(JSON.parse(dec(new Uint8Array(chunks.flatMap((c) => [...c])))).method, "GET");
  assert_true(r.bodyUsed);
  await promise_rejects_js(TypeError, r.text());
}, "the body as a ReadableStream");

promise_test(async () => {
  const r = await fetch(SERVER + "/echo");
  const c = r.clone();
  assert_equals((await r.json()).method, "GET");
  assert_equals((await c.json()).method, "GET");
}, "clone of a fetched response");

promise_test(async () => {
  const r = await fetch(SERVER + "/bytes/100000");
  const ab = await r.arrayBuffer();
  assert_equals(ab.byteLength, 100000);
  const u = new Uint8Array(ab);
  assert_equals(u[99999], 99999 % 251);
  const b = await (await fetch(SERVER + "/bytes/10")).blob();
  assert_equals(b.size, 10);
  assert_equals(b.type, "application/octet-stream");
}, "binary bodies");

promise_test(async () => {
  const e = await promise_rejects_js(TypeError, fetch("http://127.0.0.1:1/x"));
  assert_true(e.cause instanceof Error);
  await promise_rejects_js(TypeError, fetch("not a url"));
  await promise_rejects_js(TypeError, fetch("/relative"));
  await promise_rejects_js(TypeError, fetch(SERVER + "/echo", { method: "CONNECT" }));
  await promise_rejects_js(TypeError, fetch(SERVER + "/echo", { body: "x" }));
  await promise_rejects_js(TypeError, fetch("ftp://example.com/"));
}, "bad input rejects with a TypeError (never throws)");

promise_test(async () => {
  const e = await promise_rejects_js(TypeError, fetch(CLOSED + "/x"));
  assert_equals(e.cause.code, "ECONNREFUSED");
}, "a refused connection");

promise_test(async () => {
  const p = fetch(SERVER + "/echo");
  assert_true(p instanceof Promise);
  assert_equals(fetch.length, 1);
  assert_equals(fetch.name, "fetch");
  await p;
}, "fetch is a function returning a promise");

promise_test(async () => {
  const c = new AbortController();
  c.abort();
  await promise_rejects_dom("AbortError", fetch(SERVER + "/echo", { signal: c.signal }));
  const reason = new Error("mine");
  await promise_rejects_exactly(reason, fetch(SERVER + "/echo", { signal: AbortSignal.abort(reason) }));
}, "an aborted signal rejects at once with its reason");

promise_test(async () => {
  const c = new AbortController();
  const p = fetch(SERVER + "/hang", { signal: c.signal });
  await fetch(SERVER + "/wait-hang");
  c.abort();
  await promise_rejects_dom("AbortError", p);
}, "abort while waiting for the response");

promise_test(async () => {
  const c = new AbortController();
  const r = await fetch(SERVER + "/half", { signal: c.signal });
  const rd = r.body.getReader();
  const first = await rd.read();
  assert_equals(dec(first.value), "first");
  c.abort();
  await promise_rejects_dom("AbortError", rd.read());
}, "abort mid-body errors the stream");

promise_test(async () => {
  const c = new AbortController();
  const r = await fetch(SERVER + "/half", { signal: c.signal });
  const p = r.text();
  c.abort();
  await promise_rejects_dom("AbortError", p);
}, "abort mid-body rejects text()");

promise_test(async () => {
  const c = new AbortController();
  const req = new Request(SERVER + "/hang", { signal: c.signal });
  const p = fetch(req);
  await fetch(SERVER + "/wait-hang");
  c.abort("stop");
  await promise_rejects_exactly("stop", p);
}, "a Request's signal aborts its fetch");

promise_test(async () => {
  const r = await fetch(SERVER + "/chunks/3");
  const rd = r.body.getReader();
  const got = [];
  for (;;) {
    const { value, done } = await rd.read();
    if (done) break;
    got.push(dec(value));
    if (got.length < 3) await fetch(SERVER + "/next");
  }
  assert_deep(got, ["chunk 0;", "chunk 1;", "chunk 2;"]);
}, "a streamed body arrives chunk by chunk");

promise_test(async () => {
  const r = await fetch("data:,Hello%2C%20World!");
  assert_equals(r.status, 200);
  assert_equals(r.statusText, "OK");
  assert_equals(r.type, "basic");
  assert_equals(r.headers.get("content-type"), "text/plain;charset=US-ASCII");
  assert_equals(await r.text(), "Hello, World!");
  const b = await fetch("data:text/plain;base64,SGVsbG8=");
  assert_equals(b.headers.get("content-type"), "text/plain");
  assert_equals(await b.text(), "Hello");
  const c = await fetch("data: Text/HTML ;Charset=UTF-8,<b>x</b>#frag");
  assert_equals(c.headers.get("content-type"), "text/html;charset=UTF-8");
  assert_equals(c.url, "data: Text/HTML ;Charset=UTF-8,<b>x</b>");
  assert_equals(await c.text(), "<b>x</b>");
  assert_deep(await (await fetch("data:application/json,%7B%22a%22%3A1%7D")).json(), { a: 1 });
  await promise_rejects_js(TypeError, fetch("data:no-comma"));
  await promise_rejects_js(TypeError, fetch("data:;base64,S"));
}, "data: URLs");
