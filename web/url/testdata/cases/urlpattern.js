// URLPattern: bext's own cases for the interface around the matching
// that urlpatterntestdata.json checks. Node 20 has no URLPattern: these
// follow the URL Pattern Standard.
test(() => {
  const p = new URLPattern();
  for (const k of ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"]) assert_equals(p[k], "*", k);
  assert_true(p.test("https://anything/at/all?x#y"));
  assert_false(p.hasRegExpGroups);
}, "constructor: no argument matches everything");
test(() => {
  const p = new URLPattern("/books/:id", "https://example.com");
  assert_equals(p.protocol, "https");
  assert_equals(p.hostname, "example.com");
  assert_equals(p.pathname, "/books/:id");
  const m = p.exec("https://example.com/books/42");
  assert_equals(m.pathname.groups.id, "42");
  assert_equals(m.pathname.input, "/books/42");
  assert_equals(JSON.stringify(m.inputs), JSON.stringify(["https://example.com/books/42"]));
  assert_equals(p.exec("https://example.com/films/42"), null);
}, "exec: a router's pattern");
test(() => {
  const p = new URLPattern({ pathname: "/books/:id" });
  const m = p.exec("/books/7", "https://h");
  assert_equals(JSON.stringify(m.inputs), JSON.stringify(["/books/7", "https://h"]));
  const n = p.exec({ pathname: "/books/8" });
  assert_equals(n.inputs.length, 1);
  assert_equals(n.inputs[0].pathname, "/books/8");
  assert_equals(JSON.stringify(Object.keys(n)), JSON.stringify(["inputs", "protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"]));
}, "exec: the result's inputs and keys");
test(() => {
  assert_false(new URLPattern({ pathname: "/:id" }).hasRegExpGroups);
  assert_true(new URLPattern({ pathname: "/:id(\\d+)" }).hasRegExpGroups);
  assert_true(new URLPattern({ pathname: "/(\\d+)" }).hasRegExpGroups);
}, "hasRegExpGroups: only for custom regexps");
test(() => {
  const p = new URLPattern({ pathname: "/Books" }, { ignoreCase: true });
  assert_true(p.test({ pathname: "/books" }));
  assert_false(new URLPattern({ pathname: "/Books" }).test({ pathname: "/books" }));
  assert_true(new URLPattern("/Books", "https://h", { ignoreCase: true }).test("https://h/BOOKS"));
}, "constructor: ignoreCase");
test(() => {
  assert_throws_js(TypeError, () => new URLPattern({ pathname: "/(" }));
  assert_throws_js(TypeError, () => new URLPattern("/relative"));
  assert_throws_js(TypeError, () => new URLPattern({ pathname: "/x" }, "https://base"));
  assert_throws_js(TypeError, () => new URLPattern("/x", ""));
}, "constructor: TypeErrors");
test(() => {
  const p = new URLPattern({ pathname: "/x" });
  assert_throws_js(TypeError, () => p.test({ pathname: "/x" }, "https://base"));
  assert_throws_js(TypeError, () => p.exec({ pathname: "/x" }, "https://base"));
  assert_false(p.test("not a url"));
  assert_equals(p.exec("/x", ""), null);
  assert_true(p.test({ pathname: "/x" }));
  assert_false(p.test(), "no input is the empty init");
  assert_true(new URLPattern().test());
}, "test: inputs, bases and errors");
test(() => {
  assert_equals(URLPattern.name, "URLPattern");
  assert_equals(Object.prototype.toString.call(new URLPattern()), "[object URLPattern]");
  const d = Object.getOwnPropertyDescriptor(URLPattern.prototype, "pathname");
  assert_equals(typeof d.get, "function");
  assert_equals(d.set, undefined);
  assert_throws_js(TypeError, () => d.get.call({}));
  assert_throws_js(TypeError, () => URLPattern.prototype.test.call({}, "https://h/"));
}, "interface: shape and brand checks");
