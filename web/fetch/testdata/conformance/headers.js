// Headers (Fetch §5.2), cases written from the standard.
test(() => {
  const h = new Headers();
  assert_equals(Object.prototype.toString.call(h), "[object Headers]");
  assert_equals(Headers.length, 0);
  assert_equals(Headers.name, "Headers");
  assert_array_equals([...h], []);
}, "an empty Headers");

test(() => {
  assert_throws_js(TypeError, () => Headers());
}, "Headers needs new");

test(() => {
  const h = new Headers({ "Content-Type": "text/html", "X-A": "1" });
  assert_equals(h.get("content-type"), "text/html");
  assert_equals(h.get("CONTENT-TYPE"), "text/html");
  assert_equals(h.get("x-a"), "1");
  assert_equals(h.get("x-b"), null);
  assert_true(h.has("X-a"));
  assert_false(h.has("x-b"));
}, "names are case-insensitive");

test(() => {
  const h = new Headers([["a", "1"], ["b", "2"], ["a", "3"]]);
  assert_equals(h.get("a"), "1, 3");
  assert_deep([...h], [["a", "1, 3"], ["b", "2"]]);
}, "a sequence of pairs; repeated names combine");

test(() => {
  const src = new Headers([["z", "1"], ["a", "2"]]);
  const h = new Headers(src);
  src.set("z", "changed");
  assert_deep([...h], [["a", "2"], ["z", "1"]]);
}, "from another Headers (a copy)");

test(() => {
  assert_throws_js(TypeError, () => new Headers([["a"]]));
  assert_throws_js(TypeError, () => new Headers([["a", "b", "c"]]));
  assert_throws_js(TypeError, () => new Headers(["ab"]));
  assert_throws_js(TypeError, () => new Headers(5));
  assert_throws_js(TypeError, () => new Headers("a"));
}, "bad HeadersInit");

test(() => {
  new Headers(undefined);
  assert_throws_js(TypeError, () => new Headers(null));
}, "null is not a HeadersInit");

test(() => {
  for (const bad of ["", "a b", "a:b", "é", "a\n", "(x)", "[x]"]) {
    assert_throws_js(TypeError, () => new Headers({ [bad]: "v" }), JSON.stringify(bad));
    assert_throws_js(TypeError, () => new Headers().append(bad, "v"), JSON.stringify(bad));
    assert_throws_js(TypeError, () => new Headers().get(bad), JSON.stringify(bad));
    assert_throws_js(TypeError, () => new Headers().has(bad), JSON.stringify(bad));
    assert_throws_js(TypeError, () => new Headers().delete(bad), JSON.stringify(bad));
    assert_throws_js(TypeError, () => new Headers().set(bad, "v"), JSON.stringify(bad));
  }
  for (const good of ["!#$%&'*+-.^_`|~", "X-Custom-1", "a"]) {
    new Headers().append(good, "v");
  }
}, "names must be tokens");

test(() => {
  for (const bad of ["a\nb", "a\rb", "a\0b"]) {
    assert_throws_js(TypeError, () => new Headers().append("x", bad), JSON.stringify(bad));
    assert_throws_js(TypeError, () => new Headers().set("x", bad), JSON.stringify(bad));
  }
  const h = new Headers();
  h.append("x", "a\tb c\x7f\x80\xff");
  assert_equals(h.get("x"), "a\tb c\x7f\x80\xff");
}, "values must not hold NUL, CR or LF");

test(() => {
  const h = new Headers();
  h.append("a", " \t x \r\n");
  h.set("b", "\n\ny y ");
  h.append("c", "   ");
  assert_equals(h.get("a"), "x");
  assert_equals(h.get("b"), "y y");
  assert_equals(h.get("c"), "");
}, "values are normalised (leading and trailing HTTP whitespace stripped)");

test(() => {
  assert_throws_js(TypeError, () => new Headers().append("a", "\u0100"));
  assert_throws_js(TypeError, () => new Headers({ "a\u0100": "x" }));
  const h = new Headers({ a: "\u00e9" });
  assert_equals(h.get("a"), "\u00e9");
}, "names and values are ByteStrings");

test(() => {
  const h = new Headers([["a", "1"], ["A", "2"], ["b", "3"]]);
  h.set("a", "4");
  assert_deep([...h], [["a", "4"], ["b", "3"]]);
  h.set("c", "5");
  assert_equals(h.get("c"), "5");
  h.delete("A");
  assert_false(h.has("a"));
  h.delete("nothing");
}, "set replaces every value; delete removes them");

test(() => {
  const h = new Headers([["Set-Cookie", "a=1"], ["x", "y"], ["set-cookie", "b=2, c=3"]]);
  assert_deep(h.getSetCookie(), ["a=1", "b=2, c=3"]);
  assert_equals(h.get("set-cookie"), "a=1, b=2, c=3");
  assert_deep([...h], [["set-cookie", "a=1"], ["set-cookie", "b=2, c=3"], ["x", "y"]]);
  assert_deep(new Headers().getSetCookie(), []);
}, "set-cookie: getSetCookie and iteration keep values apart");

test(() => {
  const h = new Headers([["c", "1"], ["B", "2"], ["a", "3"], ["b", "4"]]);
  assert_deep([...h.keys()], ["a", "b", "c"]);
  assert_deep([...h.values()], ["3", "2, 4", "1"]);
  assert_deep([...h.entries()], [["a", "3"], ["b", "2, 4"], ["c", "1"]]);
  const seen = [];
  h.forEach(function (v, k, o) { seen.push([k, v, o === h, this == 7]); }, 7);
  assert_deep(seen, [["a", "3", true, true], ["b", "2, 4", true, true], ["c", "1", true, true]]);
  assert_equals(String(h.entries()), "[object Headers Iterator]");
  assert_equals(h[Symbol.iterator], h.entries);
}, "iteration sorts names and combines values");

test(() => {
  const h = new Headers([["a", "1"], ["b", "2"], ["c", "3"]]);
  const it = h.keys();
  assert_equals(it.next().value, "a");
  h.delete("b");
  assert_equals(it.next().value, "c");
  assert_true(it.next().done);
}, "iteration sees changes made meanwhile");

test(() => {
  const h = new Headers();
  assert_throws_js(TypeError, () => h.append("a"));
  assert_throws_js(TypeError, () => h.get());
  assert_throws_js(TypeError, () => Headers.prototype.get.call({}, "a"));
}, "missing arguments and wrong receivers");

test(() => {
  const names = Object.getOwnPropertyNames(Headers.prototype).sort();
  assert_deep(names, ["append", "constructor", "delete", "entries", "forEach", "get", "getSetCookie", "has", "keys", "set", "values"]);
}, "Headers.prototype members");

test(() => {
  const h = Response.error().headers;
  assert_throws_js(TypeError, () => h.set("a", "b"));
  assert_throws_js(TypeError, () => h.append("a", "b"));
  assert_throws_js(TypeError, () => h.delete("a"));
  assert_equals(h.get("a"), null);
}, "the headers of Response.error() are immutable");

test(() => {
  const r = Response.redirect("http://example.com/a", 301);
  assert_throws_js(TypeError, () => r.headers.set("location", "x"));
}, "the headers of Response.redirect() are immutable");

test(() => {
  const h = new Headers({ b: "1" });
  Object.defineProperty(h, "x", { value: 1, enumerable: true });
  const r = { a: "1" };
  Object.defineProperty(r, "hidden", { value: "2", enumerable: false });
  assert_deep([...new Headers(r)], [["a", "1"]]);
}, "spec: a record reads own enumerable properties (Node reads all own keys)");

test(() => {
  const h = new Headers({ "host": "x", "connection": "close", "cookie": "a=b", "content-length": "3" });
  assert_equals(h.get("host"), "x");
  assert_equals(h.get("cookie"), "a=b");
  const req = new Request("http://example.com/", { headers: { host: "y", "set-cookie": "z" } });
  assert_equals(req.headers.get("host"), "y");
}, "no forbidden header names on a server (as in Node)");
