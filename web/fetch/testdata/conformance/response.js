// Response (Fetch §5.5), cases written from the standard.
test(() => {
  const r = new Response();
  assert_equals(r.status, 200);
  assert_equals(r.statusText, "");
  assert_equals(r.ok, true);
  assert_equals(r.type, "default");
  assert_equals(r.url, "");
  assert_equals(r.redirected, false);
  assert_equals(r.body, null);
  assert_equals(r.bodyUsed, false);
  assert_array_equals([...r.headers], []);
  assert_equals(Object.prototype.toString.call(r), "[object Response]");
  assert_equals(Response.length, 0);
}, "defaults");

test(() => {
  for (const s of [200, 201, 299, 300, 404, 599]) assert_equals(new Response(null, { status: s }).status, s);
  for (const s of [0, 100, 199, 600, 1000]) assert_throws_js(RangeError, () => new Response(null, { status: s }), String(s));
  assert_equals(new Response(null, { status: 299 }).ok, true);
  assert_equals(new Response(null, { status: 300 }).ok, false);
  assert_equals(new Response(null, { status: 404 }).ok, false);
}, "status must be 200 to 599");

test(() => {
  assert_equals(new Response(null, { statusText: "Yay \t\x80" }).statusText, "Yay \t\x80");
  assert_throws_js(TypeError, () => new Response(null, { statusText: "a\nb" }));
  assert_throws_js(TypeError, () => new Response(null, { statusText: "a\rb" }));
  assert_throws_js(TypeError, () => new Response(null, { statusText: "\u0100" }));
}, "statusText must be a reason phrase");

test(() => {
  for (const s of [204, 205, 304]) {
    assert_throws_js(TypeError, () => new Response("x", { status: s }), String(s));
    assert_throws_js(TypeError, () => new Response("", { status: s }), String(s));
    assert_equals(new Response(null, { status: s }).status, s);
  }
}, "null body statuses have no body");

test(() => {
  const r = new Response("x", { headers: [["a", "1"]] });
  assert_equals(r.headers.get("a"), "1");
  assert_equals(r.headers.get("content-type"), "text/plain;charset=UTF-8");
  r.headers.set("b", "2");
  assert_equals(r.headers.get("b"), "2");
  assert_equals(r.headers, r.headers);
}, "headers; a string body's type");

test(() => {
  const r = Response.error();
  assert_equals(r.type, "error");
  assert_equals(r.status, 0);
  assert_equals(r.statusText, "");
  assert_equals(r.ok, false);
  assert_equals(r.body, null);
  assert_equals(r.url, "");
  assert_not_equals(Response.error(), r);
}, "Response.error()");

test(() => {
  const r = Response.redirect("http://example.com/x");
  assert_equals(r.status, 302);
  assert_equals(r.headers.get("location"), "http://example.com/x");
  assert_equals(r.type, "default");
  assert_equals(r.body, null);
  for (const s of [301, 302, 303, 307, 308]) assert_equals(Response.redirect("http://example.com/", s).status, s);
  for (const s of [200, 300, 304, 309]) assert_throws_js(RangeError, () => Response.redirect("http://example.com/", s), String(s));
  assert_throws_js(TypeError, () => Response.redirect("/relative"));
  assert_equals(Response.redirect(new URL("http://EXAMPLE.com/a b")).headers.get("location"), "http://example.com/a%20b");
}, "Response.redirect()");

promise_test(async () => {
  const r = Response.json({ a: [1, "x"] }, { status: 201, headers: { "x-y": "z" } });
  assert_equals(r.status, 201);
  assert_equals(r.headers.get("content-type"), "application/json");
  assert_equals(r.headers.get("x-y"), "z");
  assert_equals(await r.text(), '{"a":[1,"x"]}');
  const r2 = Response.json("s", { headers: { "content-type": "foo/bar" } });
  assert_equals(r2.headers.get("content-type"), "foo/bar");
  assert_throws_js(TypeError, () => Response.json(undefined));
  assert_throws_js(TypeError, () => Response.json(() => 1));
  assert_throws_js(TypeError, () => Response.json(1, { status: 204 }));
  assert_throws_js(RangeError, () => Response.json(1, { status: 700 }));
  const cyclic = {}; cyclic.self = cyclic;
  assert_throws_js(TypeError, () => Response.json(cyclic));
}, "Response.json()");

promise_test(async () => {
  const r = new Response("abc", { status: 201, statusText: "C", headers: { x: "1" } });
  const c = r.clone();
  assert_equals(c.status, 201);
  assert_equals(c.statusText, "C");
  assert_equals(c.headers.get("x"), "1");
  c.headers.set("x", "2");
  assert_equals(r.headers.get("x"), "1");
  assert_equals(await c.text(), "abc");
  assert_equals(await r.text(), "abc");
  assert_throws_js(TypeError, () => r.clone());
}, "clone copies and shares the body");

promise_test(async () => {
  const r = new Response(new ReadableStream({ start(c) { c.enqueue(enc("a")); c.enqueue(enc("b")); c.close(); } }));
  const c = r.clone();
  assert_equals(await r.text(), "ab");
  assert_equals(await c.text(), "ab");
}, "clone tees a stream body");

promise_test(async () => {
  const r = new Response("abc");
  const c = r.clone();
  assert_equals(dec((await readAll(c.body))[0]), "abc");
  assert_equals(await r.text(), "abc");
}, "a clone's stream and the original's text");

test(() => {
  const r = new Response("abc");
  r.body.getReader();
  assert_throws_js(TypeError, () => r.clone());
}, "a locked body cannot be cloned");

test(() => {
  const names = ["type", "url", "redirected", "status", "ok", "statusText", "headers", "body", "bodyUsed", "clone",
    "arrayBuffer", "blob", "bytes", "formData", "json", "text"];
  for (const n of names) assert_true(n in Response.prototype, n);
  for (const n of ["error", "json", "redirect"]) assert_equals(typeof Response[n], "function", n);
}, "Response members");

test(() => {
  assert_throws_js(TypeError, () => Object.getOwnPropertyDescriptor(Response.prototype, "status").get.call({}));
  assert_throws_js(TypeError, () => Response());
}, "brand checks");
