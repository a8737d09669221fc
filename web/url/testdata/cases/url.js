// URL: bext's own cases for what the WPT data does not cover — errors as
// Node throws them, the statics, the interface's shape, conversions and
// live setters. Names start with the member they exercise. Run in bext
// and in Node 20.

// --- errors ------------------------------------------------------------
test(() => {
  const e = assert_throws_js(TypeError, () => new URL("foo"));
  assert_equals(e.message, "Invalid URL");
  assert_equals(e.code, "ERR_INVALID_URL");
  assert_equals(e.input, "foo");
  assert_false("base" in e);
  assert_equals(e.name, "TypeError");
}, "constructor: invalid URL throws Node's TypeError");
test(() => {
  const e = assert_throws_js(TypeError, () => new URL("/x", "not a base"));
  assert_equals(e.message, "Invalid URL");
  assert_equals(e.code, "ERR_INVALID_URL");
  assert_equals(e.input, "/x");
  assert_equals(e.base, "not a base");
}, "constructor: invalid base throws with input and base");
test(() => {
  const e = assert_throws_js(TypeError, () => new URL("foo"));
  assert_equals(JSON.stringify(Object.keys(e)), JSON.stringify(["code", "input"]));
}, "constructor: the error's own enumerable properties");
test(() => {
  const e = assert_throws_js(TypeError, () => new URL());
  assert_equals(e.code, "ERR_MISSING_ARGS");
  assert_equals(e.message, 'The "url" argument must be specified');
}, "constructor: no argument");
test(() => assert_throws_js(TypeError, () => new URL(undefined)), "constructor: undefined is the string \"undefined\"");
test(() => assert_throws_js(TypeError, () => new URL("/b", null)), "constructor: a null base is the string \"null\"");
test(() => assert_equals(new URL("http://a/", undefined).href, "http://a/"), "constructor: an undefined base is no base");
test(() => assert_throws_js(TypeError, () => new URL("/x", "")), "constructor: an empty base is an invalid base");
test(() => assert_throws_js(TypeError, () => new URL(Symbol())), "constructor: a symbol");
test(() => assert_equals(new URL({ toString() { return "http://z/"; } }).href, "http://z/"), "constructor: objects are converted with toString");
test(() => assert_equals(new URL(new URL("http://a/b?c#d")).href, "http://a/b?c#d"), "constructor: from a URL");
test(() => assert_equals(new URL("../x", new URL("http://a/b/c")).href, "http://a/x"), "constructor: a URL object as base");
test(() => {
  const order = [];
  new URL({ toString() { order.push("input"); return "/p"; } }, { toString() { order.push("base"); return "http://h"; } });
  assert_equals(order.join(), "input,base");
}, "constructor: converts input before base");
test(() => {
  class MyURL extends URL { get extra() { return this.pathname + "!"; } }
  const u = new MyURL("http://h/p");
  assert_true(u instanceof URL);
  assert_equals(u.extra, "/p!");
  assert_equals(u.href, "http://h/p");
}, "constructor: subclassable");

// --- statics -----------------------------------------------------------
test(() => {
  assert_true(URL.canParse("http://a"));
  assert_false(URL.canParse("a"));
  assert_true(URL.canParse("a", "http://b/"));
  assert_false(URL.canParse("a", "b"));
  assert_true(URL.canParse("http://a", undefined));
  assert_equals(URL.canParse.length, 1);
}, "canParse: with and without a base");
test(() => {
  const e = assert_throws_js(TypeError, () => URL.canParse());
  assert_equals(e.code, "ERR_MISSING_ARGS");
}, "canParse: no argument");
test(() => {
  assert_equals(URL.parse("a"), null);
  assert_equals(URL.parse("a", "b"), null);
  const u = URL.parse("/x?y", "http://h/p");
  assert_true(u instanceof URL);
  assert_equals(u.href, "http://h/x?y");
  assert_true(URL.parse("http://h/") !== URL.parse("http://h/"));
  assert_equals(URL.parse.length, 1);
}, "parse: null or a new URL");
test(() => {
  const e = assert_throws_js(TypeError, () => URL.parse());
  assert_equals(e.code, "ERR_MISSING_ARGS");
}, "parse: no argument");
test(() => {
  assert_equals(typeof URL.createObjectURL, "function");
  assert_equals(typeof URL.revokeObjectURL, "function");
  assert_equals(URL.createObjectURL.length, 1);
  assert_equals(URL.revokeObjectURL.length, 1);
  assert_equals(URL.revokeObjectURL("blob:nodedata:0"), undefined);
}, "revokeObjectURL: exists and ignores unknown URLs");

// --- interface shape ---------------------------------------------------
test(() => {
  assert_equals(URL.length, 1);
  assert_equals(URL.name, "URL");
  assert_equals(Object.prototype.toString.call(new URL("http://a")), "[object URL]");
  assert_equals(JSON.stringify(Object.keys(new URL("http://a"))), "[]");
}, "interface: name, length, tag, no own properties");
test(() => {
  for (const a of ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]) {
    const d = Object.getOwnPropertyDescriptor(URL.prototype, a);
    assert_equals(typeof d.get, "function", a + " getter");
    assert_equals(typeof d.set, "function", a + " setter");
    assert_true(d.enumerable && d.configurable, a + " flags");
  }
  for (const a of ["origin", "searchParams"]) {
    const d = Object.getOwnPropertyDescriptor(URL.prototype, a);
    assert_equals(typeof d.get, "function", a + " getter");
    assert_equals(d.set, undefined, a + " is read-only");
  }
}, "interface: attributes");
test(() => {
  for (const m of ["toString", "toJSON"]) {
    const d = Object.getOwnPropertyDescriptor(URL.prototype, m);
    assert_true(d.writable && d.enumerable && d.configurable, m);
    assert_equals(d.value.length, 0, m + ".length");
  }
}, "interface: operations");
test(() => {
  const u = new URL("https://user:pw@example.com:8080/a/b?c=d#e");
  assert_equals(u.toString(), u.href);
  assert_equals(u.toJSON(), u.href);
  assert_equals(JSON.stringify({ u }), JSON.stringify({ u: u.href }));
  assert_equals(String(u), u.href);
  assert_equals(`${u}`, u.href);
}, "toJSON: the href, also through JSON.stringify and string conversion");
for (const a of ["href", "origin", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "searchParams", "hash"]) {
  test(() => {
    const d = Object.getOwnPropertyDescriptor(URL.prototype, a);
    assert_throws_js(TypeError, () => d.get.call({}));
    if (d.set) assert_throws_js(TypeError, () => d.set.call({}, "x"));
  }, a + ": on a non-URL");
}
for (const m of ["toString", "toJSON"]) {
  test(() => assert_throws_js(TypeError, () => URL.prototype[m].call({})), m + ": on a non-URL");
}

// --- getters -------------------------------------------------------------
test(() => {
  const u = new URL("https://user:pw@EXAMPLE.com:8080/a/../b/./c?q=1#frag");
  assert_equals(u.href, "https://user:pw@example.com:8080/b/c?q=1#frag");
  assert_equals(u.origin, "https://example.com:8080");
  assert_equals(u.protocol, "https:");
  assert_equals(u.username, "user");
  assert_equals(u.password, "pw");
  assert_equals(u.host, "example.com:8080");
  assert_equals(u.hostname, "example.com");
  assert_equals(u.port, "8080");
  assert_equals(u.pathname, "/b/c");
  assert_equals(u.search, "?q=1");
  assert_equals(u.hash, "#frag");
}, "href: every component of a full URL");
test(() => {
  const u = new URL("http://h/?#");
  assert_equals(u.href, "http://h/?#");
  assert_equals(u.search, "");
  assert_equals(u.hash, "");
}, "search: empty query and fragment read as empty strings");
for (const [href, origin] of [
  ["blob:https://example.com:443/uuid", "https://example.com"],
  ["blob:http://h:81/x", "http://h:81"],
  ["blob:ftp://h/x", "null"],
  ["blob:d3958f5c-0777-0845-9dcf-2cb28783acaf", "null"],
  ["file:///etc/passwd", "null"],
  ["data:text/plain,hi", "null"],
  ["ws://h:80/", "ws://h"],
  ["wss://h:444/", "wss://h:444"],
  ["ftp://u:p@h/", "ftp://h"],
  ["sc://h/", "null"],
  ["http://[::1]:3000/", "http://[::1]:3000"],
  ["http://xn--nxasmq6b.com/", "http://xn--nxasmq6b.com"],
  ["https://\u00E9xample.com/", "https://xn--xample-9ua.com"],
]) {
  test(() => assert_equals(new URL(href).origin, origin), "origin: " + href);
}

// --- setters -------------------------------------------------------------
test(() => {
  const u = new URL("http://a/b");
  u.href = "https://c/d?e";
  assert_equals(u.href, "https://c/d?e");
  assert_equals(u.host, "c");
  const e = assert_throws_js(TypeError, () => { u.href = "not a url"; });
  assert_equals(e.code, "ERR_INVALID_URL");
  assert_equals(e.input, "not a url");
  assert_equals(u.href, "https://c/d?e");
}, "href: setter parses or throws, leaving the URL as it was");
test(() => {
  const u = new URL("http://a/b");
  u.protocol = "https";
  assert_equals(u.href, "https://a/b");
  u.protocol = "foo";
  assert_equals(u.protocol, "https:");
  u.protocol = "wss:anything";
  assert_equals(u.protocol, "wss:");
}, "protocol: special schemes stay special");
test(() => {
  const u = new URL("http://h:8080/");
  u.protocol = "https";
  assert_equals(u.port, "8080");
  u.port = "443";
  assert_equals(u.port, "");
  assert_equals(u.host, "h");
}, "port: the scheme's default port reads as empty");
test(() => {
  const u = new URL("http://h/");
  u.port = 8080;
  assert_equals(u.port, "8080");
  u.port = "12ab";
  assert_equals(u.port, "12");
  u.port = "abc";
  assert_equals(u.port, "12");
  u.port = "";
  assert_equals(u.port, "");
  u.port = "99999";
  assert_equals(u.port, "");
}, "port: setter conversions");
test(() => {
  const u = new URL("http://h/");
  u.username = "us er";
  u.password = "p@ss:";
  assert_equals(u.href, "http://us%20er:p%40ss%3A@h/");
  const f = new URL("file:///x");
  f.username = "u";
  assert_equals(f.href, "file:///x");
}, "username: percent-encoded, not for file URLs");
test(() => {
  const u = new URL("http://h/a");
  u.host = "other:81";
  assert_equals(u.href, "http://other:81/a");
  u.hostname = "third";
  assert_equals(u.href, "http://third:81/a");
  u.host = "";
  assert_equals(u.host, "third:81");
}, "host: setter and hostname setter");
test(() => {
  const u = new URL("http://h/a?q#f");
  u.pathname = "x y/../z";
  assert_equals(u.pathname, "/z");
  u.pathname = "/é";
  assert_equals(u.pathname, "/%C3%A9");
  assert_equals(u.href, "http://h/%C3%A9?q#f");
  const m = new URL("mailto:someone@example.com");
  m.pathname = "other";
  assert_equals(m.href, "mailto:someone@example.com");
}, "pathname: setter normalizes; opaque paths stay");
test(() => {
  const u = new URL("http://h/a#f");
  u.search = "a b=c&d=é";
  assert_equals(u.search, "?a%20b=c&d=%C3%A9");
  assert_equals(u.searchParams.get("a b"), "c");
  u.search = "?'";
  assert_equals(u.search, "?%27");
  assert_equals(u.hash, "#f");
}, "search: setter encodes with the special-query set");
test(() => {
  const u = new URL("http://h/a?q");
  u.hash = "x y";
  assert_equals(u.hash, "#x%20y");
  u.hash = "#";
  assert_equals(u.href, "http://h/a?q#");
  u.hash = "";
  assert_equals(u.href, "http://h/a?q");
}, "hash: setter");
test(() => {
  const u = new URL("http://h/");
  u.pathname = { toString() { return "/obj"; } };
  assert_equals(u.pathname, "/obj");
  u.search = 42;
  assert_equals(u.search, "?42");
  u.hash = null;
  assert_equals(u.hash, "#null");
  assert_throws_js(TypeError, () => { u.hash = Symbol(); });
}, "hash: setters convert values to strings");
test(() => {
  const u = new URL("http://h/");
  u.origin = "http://other";
  assert_equals(u.origin, "http://h");
}, "origin: assignment is ignored");

// --- hot-path shapes ---------------------------------------------------------
test(() => {
  const u = new URL("/products/42?sort=price&page=2", "http://localhost:3000");
  assert_equals(u.pathname, "/products/42");
  assert_equals(u.searchParams.get("sort"), "price");
  assert_equals(u.searchParams.get("page"), "2");
  assert_equals(u.origin, "http://localhost:3000");
}, "searchParams: a router's request URL");
test(() => {
  assert_equals(new URL("https://example.com").href, "https://example.com/");
  assert_equals(new URL("https://example.com?x").href, "https://example.com/?x");
  assert_equals(new URL("https://example.com#x").href, "https://example.com/#x");
  assert_equals(new URL("http://example.com:80/").href, "http://example.com/");
  assert_equals(new URL("http://example.com:0080/").href, "http://example.com/");
  assert_equals(new URL("HTTP://EXAMPLE.COM/A").href, "http://example.com/A");
  assert_equals(new URL("http://h/a/./b/../c").href, "http://h/a/c");
  assert_equals(new URL("http://h/%2e%2E/x").href, "http://h/x");
  assert_equals(new URL("http://h/a b?c d#e f").href, "http://h/a%20b?c%20d#e%20f");
  assert_equals(new URL("  http://h/\t\n ").href, "http://h/");
  assert_equals(new URL("http://1.2.3.4:8080/").host, "1.2.3.4:8080");
  assert_equals(new URL("http://0x7f.1/").host, "127.0.0.1");
  assert_equals(new URL("?q", "http://h/p?old#f").href, "http://h/p?q");
  assert_equals(new URL("#g", "http://h/p?old#f").href, "http://h/p?old#g");
  assert_equals(new URL("", "http://h/p?old#f").href, "http://h/p?old");
  assert_equals(new URL("//other/x", "https://h/").href, "https://other/x");
}, "href: normalizations");
