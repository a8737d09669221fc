// Request (Fetch §5.4), cases written from the standard; where Node (undici)
// reflects something a browser would not, the cases follow Node.
test(() => {
  const r = new Request("http://example.com/a?b#c");
  assert_equals(r.url, "http://example.com/a?b#c");
  assert_equals(r.method, "GET");
  assert_equals(r.mode, "cors");
  assert_equals(r.credentials, "same-origin");
  assert_equals(r.cache, "default");
  assert_equals(r.redirect, "follow");
  assert_equals(r.referrer, "about:client");
  assert_equals(r.referrerPolicy, "");
  assert_equals(r.integrity, "");
  assert_equals(r.keepalive, false);
  assert_equals(r.destination, "");
  assert_equals(r.duplex, "half");
  assert_equals(r.isHistoryNavigation, false);
  assert_equals(r.isReloadNavigation, false);
  assert_equals(r.body, null);
  assert_equals(r.bodyUsed, false);
  assert_equals(Object.prototype.toString.call(r), "[object Request]");
  assert_equals(Request.length, 1);
}, "defaults");

test(() => {
  assert_equals(new Request("HTTP://EXAMPLE.com").url, "http://example.com/");
  assert_equals(new Request(new URL("http://example.com/x?y")).url, "http://example.com/x?y");
}, "the URL is parsed and serialised");

test(() => {
  assert_throws_js(TypeError, () => new Request("/relative"));
  assert_throws_js(TypeError, () => new Request("http://"));
  assert_throws_js(TypeError, () => new Request());
  assert_throws_js(TypeError, () => Request("http://example.com"));
}, "bad input");

test(() => {
  assert_throws_js(TypeError, () => new Request("http://user:pass@example.com/"));
  assert_throws_js(TypeError, () => new Request("http://user@example.com/"));
}, "URLs with credentials are rejected");

test(() => {
  for (const [m, want] of [["get", "GET"], ["post", "POST"], ["Put", "PUT"], ["delete", "DELETE"], ["options", "OPTIONS"], ["head", "HEAD"], ["patch", "patch"], ["PATCH", "PATCH"], ["custom", "custom"]]) {
    assert_equals(new Request("http://example.com", { method: m }).method, want, m);
  }
}, "methods are normalised (only the six the standard names)");

test(() => {
  for (const m of ["CONNECT", "connect", "TRACE", "trace", "TRACK", "track"]) {
    assert_throws_js(TypeError, () => new Request("http://example.com", { method: m }), m);
  }
  for (const m of ["", "a b", "get\n", "G(T", "\u0100"]) {
    assert_throws_js(TypeError, () => new Request("http://example.com", { method: m }), JSON.stringify(m));
  }
}, "forbidden and invalid methods are TypeErrors");

test(() => {
  assert_throws_js(TypeError, () => new Request("http://example.com", { body: "a" }));
  assert_throws_js(TypeError, () => new Request("http://example.com", { method: "HEAD", body: "a" }));
  new Request("http://example.com", { body: null });
  new Request("http://example.com", { body: undefined });
}, "GET and HEAD have no body");

test(() => {
  const r = new Request("http://example.com", { method: "POST", body: "x" });
  assert_equals(r.headers.get("content-type"), "text/plain;charset=UTF-8");
  const r2 = new Request("http://example.com", { method: "POST", body: "x", headers: { "Content-Type": "a/b" } });
  assert_equals(r2.headers.get("content-type"), "a/b");
  const r3 = new Request("http://example.com", { method: "POST", body: new Uint8Array(1) });
  assert_equals(r3.headers.get("content-type"), null);
  const r4 = new Request("http://example.com", { method: "POST", body: new Blob([], { type: "A/B" }) });
  assert_equals(r4.headers.get("content-type"), "a/b");
  const r5 = new Request("http://example.com", { method: "POST", body: new URLSearchParams("a=b") });
  assert_equals(r5.headers.get("content-type"), "application/x-www-form-urlencoded;charset=UTF-8");
  const r6 = new Request("http://example.com", { method: "POST", body: new FormData() });
  assert_true(/^multipart\/form-data; boundary=/.test(r6.headers.get("content-type")));
}, "the body's type becomes Content-Type unless set");

test(() => {
  const rs = new ReadableStream();
  assert_throws_js(TypeError, () => new Request("http://example.com", { method: "POST", body: rs }));
  const r = new Request("http://example.com", { method: "POST", body: rs, duplex: "half" });
  assert_equals(r.body, rs);
  assert_throws_js(TypeError, () => new Request("http://example.com", { method: "POST", body: new ReadableStream(), duplex: "full" }));
}, "a stream body needs duplex: half");

test(() => {
  const rs = new ReadableStream();
  rs.getReader();
  assert_throws_js(TypeError, () => new Request("http://example.com", { method: "POST", body: rs, duplex: "half" }));
}, "a locked stream is no body");

test(() => {
  const e = (init) => assert_throws_js(TypeError, () => new Request("http://example.com", init), JSON.stringify(init));
  e({ mode: "navigate" });
  e({ mode: "bogus" });
  e({ credentials: "bogus" });
  e({ cache: "bogus" });
  e({ redirect: "bogus" });
  e({ referrerPolicy: "bogus" });
  e({ cache: "only-if-cached" });
  e({ window: {} });
  e({ signal: {} });
  e({ mode: "no-cors", method: "PUT" });
  new Request("http://example.com", { cache: "only-if-cached", mode: "same-origin" });
  new Request("http://example.com", { window: null });
  new Request("http://example.com", { signal: null });
}, "RequestInit enums and checks");

test(() => {
  const r = new Request("http://example.com", { mode: "same-origin", credentials: "include", cache: "no-store", redirect: "manual",
    referrerPolicy: "no-referrer", integrity: "sha256-x", keepalive: true, method: "POST", body: "x" });
  assert_equals(r.mode, "same-origin");
  assert_equals(r.credentials, "include");
  assert_equals(r.cache, "no-store");
  assert_equals(r.redirect, "manual");
  assert_equals(r.referrerPolicy, "no-referrer");
  assert_equals(r.integrity, "sha256-x");
  assert_equals(r.keepalive, true);
}, "RequestInit members are reflected");

test(() => {
  assert_equals(new Request("http://example.com", { referrer: "" }).referrer, "");
  assert_equals(new Request("http://example.com", { referrer: "about:client" }).referrer, "about:client");
  assert_equals(new Request("http://example.com", { referrer: "http://other.example/x" }).referrer, "http://other.example/x");
}, "referrer");

test(() => {
  const a = new Request("http://example.com/a", { method: "PUT", headers: { x: "1" }, redirect: "manual", body: "b" });
  const b = new Request(a);
  assert_equals(b.url, "http://example.com/a");
  assert_equals(b.method, "PUT");
  assert_equals(b.headers.get("x"), "1");
  assert_equals(b.redirect, "manual");
  assert_true(a.bodyUsed, "the input's body moved");
}, "a Request from a Request");

promise_test(async () => {
  const a = new Request("http://example.com/a", { method: "POST", body: "data" });
  const b = new Request(a, { headers: { y: "2" } });
  assert_equals(b.headers.get("y"), "2");
  assert_equals(b.headers.get("content-type"), null, "init.headers replace the input's");
  assert_equals(await b.text(), "data");
  assert_throws_js(TypeError, () => new Request(a));
}, "init.headers replace the input's; a used body cannot be reused");

promise_test(async () => {
  const a = new Request("http://example.com/a", { method: "POST", body: "data" });
  const b = new Request(a, { method: "PUT", body: "other" });
  assert_false(a.bodyUsed);
  assert_equals(await b.text(), "other");
  assert_equals(await a.text(), "data");
}, "an init body leaves the input's alone");

test(() => {
  const a = new Request("http://example.com/a", { method: "POST", body: "data" });
  assert_throws_js(TypeError, () => new Request(a, { method: "GET" }));
}, "a body cannot become a GET's");

promise_test(async () => {
  const a = new Request("http://example.com/a", { method: "POST", body: "data", headers: { x: "1" } });
  const b = a.clone();
  assert_equals(b.method, "POST");
  assert_equals(b.headers.get("x"), "1");
  b.headers.set("x", "2");
  assert_equals(a.headers.get("x"), "1");
  assert_equals(await a.text(), "data");
  assert_equals(await b.text(), "data");
  assert_throws_js(TypeError, () => a.clone());
}, "clone");

promise_test(async () => {
  const a = new Request("http://example.com/a", { method: "POST", body: new ReadableStream({ start(c) { c.enqueue(enc("s1")); c.close(); } }), duplex: "half" });
  const b = a.clone();
  assert_equals(await a.text(), "s1");
  assert_equals(await b.text(), "s1");
}, "clone tees a stream body");

test(() => {
  const r = new Request("http://example.com");
  assert_true(r.signal instanceof AbortSignal);
  assert_false(r.signal.aborted);
  assert_equals(r.signal, r.signal);
}, "a Request always has a signal");

test(() => {
  const c = new AbortController();
  const r = new Request("http://example.com", { signal: c.signal });
  assert_not_equals(r.signal, c.signal, "a signal of its own");
  const r2 = new Request(r);
  const r3 = r.clone();
  assert_false(r.signal.aborted);
  c.abort("why");
  assert_true(r.signal.aborted);
  assert_equals(r.signal.reason, "why");
  assert_true(r2.signal.aborted);
  assert_true(r3.signal.aborted);
}, "the signal follows init.signal, and copies and clones follow it");

test(() => {
  const r = new Request("http://example.com", { signal: AbortSignal.abort("early") });
  assert_true(r.signal.aborted);
  assert_equals(r.signal.reason, "early");
}, "an aborted init.signal makes an aborted request signal");

test(() => {
  const names = ["method", "url", "headers", "destination", "referrer", "referrerPolicy", "mode", "credentials", "cache", "redirect",
    "integrity", "keepalive", "isReloadNavigation", "isHistoryNavigation", "signal", "body", "bodyUsed", "duplex", "clone",
    "arrayBuffer", "blob", "bytes", "formData", "json", "text"];
  for (const n of names) assert_true(n in Request.prototype, n);
}, "Request.prototype members");

test(() => {
  assert_throws_js(TypeError, () => new Request("http://example.com", { priority: "urgent" }));
  assert_equals(new Request("http://example.com", { priority: "low" }).url, "http://example.com/");
}, "spec: priority is an enum (Node 20 ignores it)");
