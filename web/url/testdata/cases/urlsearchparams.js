// URLSearchParams: bext's own cases, written from the URL Standard's
// application/x-www-form-urlencoded parser and serializer and the
// behaviours WPT's url/urlsearchparams-*.any.js check. Names start with
// the member they exercise. Run in bext and in Node 20.

// --- constructor -----------------------------------------------------
const parseTable = [
  // [input, expected pairs]
  ["", []],
  ["a=b", [["a", "b"]]],
  ["?a=b", [["a", "b"]]],
  ["??a=b", [["?a", "b"]]],
  ["a=b&c", [["a", "b"], ["c", ""]]],
  ["&a&&& &&&&&a+b=& c&m%c3%b8%c3%b8", [["a", ""], [" ", ""], ["a b", ""], [" c", ""], ["møø", ""]]],
  ["a==b", [["a", "=b"]]],
  ["=b", [["", "b"]]],
  ["=", [["", ""]]],
  ["a=b+c", [["a", "b c"]]],
  ["a+b=c", [["a b", "c"]]],
  ["a=b c", [["a", "b c"]]],
  ["a=b%20c", [["a", "b c"]]],
  ["a=%2B", [["a", "+"]]],
  ["a=b\0c", [["a", "b\0c"]]],
  ["a=b%00c", [["a", "b\0c"]]],
  ["a=b\u2384", [["a", "b\u2384"]]],
  ["a=b%e2%8e%84", [["a", "b\u2384"]]],
  ["a=b\uD83D\uDCA9c", [["a", "b\uD83D\uDCA9c"]]],
  ["a=b%f0%9f%92%a9c", [["a", "b\uD83D\uDCA9c"]]],
  ["id=0&value=%", [["id", "0"], ["value", "%"]]],
  ["b=%2sf%2a", [["b", "%2sf*"]]],
  ["b=%2%2af%2a", [["b", "%2*f*"]]],
  ["b=%%2a", [["b", "%*"]]],
  ["a=%zz", [["a", "%zz"]]],
  ["a=%4", [["a", "%4"]]],
  ["a=%FF", [["a", "\uFFFD"]]],
  ["a=%FF%FE", [["a", "\uFFFD\uFFFD"]]],
  ["a=%C3%28", [["a", "\uFFFD("]]],
  ["a=%E2%82(", [["a", "\uFFFD("]]],
  ["a=%F0%9F%92", [["a", "\uFFFD"]]],
  ["a=%ED%A0%80", [["a", "\uFFFD\uFFFD\uFFFD"]]],
  ["a=%EF%BB%BFx", [["a", "\uFEFFx"]]],
  ["%EF%BB%BF=1", [["\uFEFF", "1"]]],
  ["a=b&a=c", [["a", "b"], ["a", "c"]]],
  ["a\nb=c\rd", [["a\nb", "c\rd"]]],
  ["a=1;b=2", [["a", "1;b=2"]]],
];
for (const [input, want] of parseTable) {
  test(() => assert_pairs(new URLSearchParams(input), want), "constructor: string " + JSON.stringify(input));
}
test(() => assert_pairs(new URLSearchParams(), []), "constructor: no argument");
test(() => assert_pairs(new URLSearchParams(undefined), []), "constructor: undefined");
test(() => assert_pairs(new URLSearchParams({}), []), "constructor: empty record");
test(() => assert_pairs(new URLSearchParams([]), []), "constructor: empty sequence");
test(() => assert_pairs(new URLSearchParams([["a", "b"], ["c", "d"], ["a", "e"]]), [["a", "b"], ["c", "d"], ["a", "e"]]), "constructor: sequence of pairs");
test(() => assert_pairs(new URLSearchParams([[1, 2], [true, null]]), [["1", "2"], ["true", "null"]]), "constructor: sequence converts to strings");
test(() => assert_pairs(new URLSearchParams(new Map([["a", "1"], ["b", "2"]])), [["a", "1"], ["b", "2"]]), "constructor: a Map is a sequence of pairs");
test(() => assert_pairs(new URLSearchParams([new Set(["x", "y"])]), [["x", "y"]]), "constructor: any iterable pair");
test(() => assert_throws_js(TypeError, () => new URLSearchParams([["a"]])), "constructor: pair of one");
test(() => assert_throws_js(TypeError, () => new URLSearchParams([["a", "b", "c"]])), "constructor: pair of three");
test(() => assert_throws_js(TypeError, () => new URLSearchParams([1])), "constructor: pair not an object");
test(() => assert_throws_js(TypeError, () => new URLSearchParams(["ab"])), "constructor: pair a string");
test(() => {
  const e = assert_throws_js(TypeError, () => new URLSearchParams([["a"]]));
  assert_equals(e.code, "ERR_INVALID_TUPLE");
}, "constructor: Node's tuple error code");
test(() => assert_pairs(new URLSearchParams({ a: "1", b: 2, c: [3, 4] }), [["a", "1"], ["b", "2"], ["c", "3,4"]]), "constructor: record");
test(() => assert_pairs(new URLSearchParams({ "+": "%C2" }), [["+", "%C2"]]), "constructor: record values are not decoded");
test(() => assert_pairs(new URLSearchParams({ c: "x", a: "?" }), [["c", "x"], ["a", "?"]]), "constructor: record keeps property order");
test(() => assert_pairs(new URLSearchParams({ "\uD835x": "1", xx: "2", "\uD83Dx": "3" }), [["\uFFFDx", "3"], ["xx", "2"]]), "constructor: record keys with lone surrogates merge");
test(() => assert_pairs(new URLSearchParams({ "a\0b": "42", "c\uD83D": "23", "d\u1234": "foo" }), [["a\0b", "42"], ["c\uFFFD", "23"], ["d\u1234", "foo"]]), "constructor: record with NUL, lone surrogate and non-ASCII keys");
test(() => {
  const o = Object.create({ inherited: "x" });
  o.own = "y";
  Object.defineProperty(o, "hidden", { value: "z", enumerable: false });
  assert_pairs(new URLSearchParams(o), [["own", "y"]]);
}, "constructor: record takes own enumerable properties only");
test(() => assert_throws_js(TypeError, () => new URLSearchParams({ [Symbol()]: 1 })), "constructor: record with a symbol key");
test(() => assert_throws_js(TypeError, () => new URLSearchParams(Symbol())), "constructor: a symbol");
test(() => assert_pairs(new URLSearchParams(42), [["42", ""]]), "constructor: a number is a string");
test(() => {
  const seed = new URLSearchParams("a=b&c=d");
  const p = new URLSearchParams(seed);
  assert_pairs(p, [["a", "b"], ["c", "d"]]);
  seed.append("e", "f");
  p.append("g", "h");
  assert_false(p.has("e"));
  assert_false(seed.has("g"));
}, "constructor: from a URLSearchParams copies its list");
test(() => {
  const p = new URLSearchParams("a=1");
  p[Symbol.iterator] = function* () { yield ["x", "y"]; };
  assert_pairs(new URLSearchParams(p), [["x", "y"]]);
}, "constructor: a URLSearchParams with its own iterator is a sequence");
test(() => assert_pairs(new URLSearchParams(new URL("http://h/?q=1&r").searchParams), [["q", "1"], ["r", ""]]), "constructor: from a URL's searchParams");
test(() => {
  class Sub extends URLSearchParams {}
  const s = new Sub("a=1");
  assert_true(s instanceof URLSearchParams);
  assert_equals(s.get("a"), "1");
  assert_equals(Object.getPrototypeOf(s), Sub.prototype);
}, "constructor: subclassable");
test(() => assert_throws_js(TypeError, () => URLSearchParams("a=b")), "constructor: needs new");
test(() => {
  const p = new URLSearchParams(null);
  assert_equals(p.toString(), "");
}, "constructor: null as in Node (no pairs)");

// --- serializer ------------------------------------------------------
const serializeTable = [
  // [pairs, expected string]
  [[["a", "b c"]], "a=b+c"],
  [[["a b", "c"]], "a+b=c"],
  [[["a", ""]], "a="],
  [[["a", ""], ["a", ""]], "a=&a="],
  [[["", "b"]], "=b"],
  [[["", ""]], "="],
  [[["a", "b+c"]], "a=b%2Bc"],
  [[["=", "a"], ["b", "="]], "%3D=a&b=%3D"],
  [[["&", "a"], ["b", "&"]], "%26=a&b=%26"],
  [[["a", "*-._"], ["*-._", "c"]], "a=*-._&*-._=c"],
  [[["a", "b%c"]], "a=b%25c"],
  [[["a", "b\0c"]], "a=b%00c"],
  [[["a", "b\uD83D\uDCA9c"]], "a=b%F0%9F%92%A9c"],
  [[["a\nb", "c\rd"], ["e\n\rf", "g\r\nh"]], "a%0Ab=c%0Dd&e%0A%0Df=g%0D%0Ah"],
  [[["~", "!'()"]], "%7E=%21%27%28%29"],
  [[["a", "é"]], "a=%C3%A9"],
  [[["a", "\uD800"]], "a=%EF%BF%BD"],
  [[["q", "/?#[]@$,;:"]], "q=%2F%3F%23%5B%5D%40%24%2C%3B%3A"],
];
for (const [pairs, want] of serializeTable) {
  test(() => {
    const p = new URLSearchParams();
    for (const [n, v] of pairs) p.append(n, v);
    assert_equals(p.toString(), want);
    assert_equals(String(p), want);
  }, "toString: " + JSON.stringify(pairs));
}
test(() => assert_equals(new URLSearchParams("a=b&c=d&&e&&").toString(), "a=b&c=d&e="), "toString: empty sequences dropped");
test(() => assert_equals(new URLSearchParams("a = b &a=b&c=d%20").toString(), "a+=+b+&a=b&c=d+"), "toString: spaces become +");
test(() => assert_equals(new URLSearchParams("a=&a=b").toString(), "a=&a=b"), "toString: lone = kept");
test(() => assert_equals(new URLSearchParams("b=%2sf%2a").toString(), "b=%252sf*"), "toString: bad escape re-encoded");
test(() => assert_equals(new URLSearchParams("id=0&value=%").toString(), "id=0&value=%25"), "toString: lone % re-encoded");
test(() => {
  const p = new URLSearchParams();
  p.set("query", "+15555555555");
  assert_equals(p.toString(), "query=%2B15555555555");
  assert_equals(new URLSearchParams(p.toString()).get("query"), "+15555555555");
}, "toString: + round-trips");

// --- append / delete / get / getAll / has / set / size ------------------
test(() => {
  const p = new URLSearchParams();
  p.append("a", "b");
  p.append("a", "c");
  p.append("first", 1);
  p.append(null, undefined);
  assert_pairs(p, [["a", "b"], ["a", "c"], ["first", "1"], ["null", "undefined"]]);
}, "append: adds at the end, converting to strings");
test(() => {
  const p = new URLSearchParams("a=b&c=d");
  p.delete("a");
  assert_equals(p.toString(), "c=d");
  const q = new URLSearchParams("a=a&b=b&a=a&c=c");
  q.delete("a");
  assert_equals(q.toString(), "b=b&c=c");
  const r = new URLSearchParams("a=a&=&b=b");
  r.delete("");
  assert_equals(r.toString(), "a=a&b=b");
  const s = new URLSearchParams("a=a&null=null&undefined=undefined");
  s.delete(null);
  s.delete(undefined);
  assert_equals(s.toString(), "a=a");
}, "delete: every pair with the name");
test(() => {
  const p = new URLSearchParams("a=b&a=c&a=b&d=e");
  p.delete("a", "b");
  assert_equals(p.toString(), "a=c&d=e");
}, "delete: with a value");
test(() => {
  const p = new URLSearchParams("a=b&a=undefined&a=c");
  p.delete("a", undefined);
  assert_equals(p.toString(), "");
}, "delete: an undefined value counts as none");
test(() => {
  const p = new URLSearchParams("a=1&a=2&b=3");
  assert_equals(p.get("a"), "1");
  assert_equals(p.get("b"), "3");
  assert_equals(p.get("c"), null);
  assert_equals(new URLSearchParams("a=&b").get("b"), "");
  assert_equals(new URLSearchParams("first=second&third&&").get("third"), "");
}, "get: the first value, or null");
test(() => {
  const p = new URLSearchParams("a=1&a=2&b=3&a=");
  assert_array_equals(p.getAll("a"), ["1", "2", ""]);
  assert_array_equals(p.getAll("z"), []);
  assert_true(Array.isArray(p.getAll("a")));
}, "getAll: every value in order");
test(() => {
  const p = new URLSearchParams("a=b&c=d&null=x");
  assert_true(p.has("a"));
  assert_false(p.has("b"));
  assert_true(p.has(null));
  assert_false(p.has("A"));
}, "has: by name");
test(() => {
  const p = new URLSearchParams("a=b&a=d&c&e&");
  assert_true(p.has("a", "b"));
  assert_false(p.has("a", "c"));
  assert_true(p.has("a", "d"));
  assert_true(p.has("e", ""));
  p.append("first", null);
  assert_true(p.has("first", "null"));
  assert_true(p.has("a", undefined));
}, "has: with a value");
test(() => {
  const p = new URLSearchParams("a=1&b=2&a=3&c=4&a=5");
  p.set("a", "x");
  assert_equals(p.toString(), "a=x&b=2&c=4");
  p.set("d", "y");
  assert_equals(p.toString(), "a=x&b=2&c=4&d=y");
  p.set("b", 7);
  assert_equals(p.toString(), "a=x&b=7&c=4&d=y");
}, "set: replaces the first, removes the others, or appends");
test(() => {
  const p = new URLSearchParams("a=1&b=2&a=3");
  assert_equals(p.size, 3);
  p.delete("a");
  assert_equals(p.size, 1);
  p.append("b", "4");
  assert_equals(p.size, 2);
}, "size: follows the list");
test(() => {
  const d = Object.getOwnPropertyDescriptor(URLSearchParams.prototype, "size");
  assert_equals(typeof d.get, "function");
  assert_equals(d.set, undefined);
  assert_true(d.enumerable);
}, "size: a read-only attribute");

// --- sort ------------------------------------------------------------
const sortTable = [
  ["z=b&a=b&z=a&a=a", [["a", "b"], ["a", "a"], ["z", "b"], ["z", "a"]]],
  ["\uFFFD=x&\uFFFC&\uFFFD=a", [["\uFFFC", ""], ["\uFFFD", "x"], ["\uFFFD", "a"]]],
  ["\uFB03&\uD83C\uDF08", [["\uD83C\uDF08", ""], ["\uFB03", ""]]],
  ["é&e\uFFFD&e\u0301", [["e\u0301", ""], ["e\uFFFD", ""], ["é", ""]]],
  ["z=z&a=a&z=y&a=b&z=x&a=c&z=w&a=d&z=v&a=e&z=u&a=f&z=t&a=g", [["a", "a"], ["a", "b"], ["a", "c"], ["a", "d"], ["a", "e"], ["a", "f"], ["a", "g"], ["z", "z"], ["z", "y"], ["z", "x"], ["z", "w"], ["z", "v"], ["z", "u"], ["z", "t"]]],
  ["bbb&bb&aaa&aa=x&aa=y", [["aa", "x"], ["aa", "y"], ["aaa", ""], ["bb", ""], ["bbb", ""]]],
  ["z=z&=f&=t&=x", [["", "f"], ["", "t"], ["", "x"], ["z", "z"]]],
  ["a\uD83C\uDF08&a\uD83D\uDCA9", [["a\uD83C\uDF08", ""], ["a\uD83D\uDCA9", ""]]],
  ["\uE000&\uD800\uDC00", [["\uD800\uDC00", ""], ["\uE000", ""]]],
];
for (const [input, want] of sortTable) {
  test(() => {
    const p = new URLSearchParams(input);
    p.sort();
    assert_pairs(p, want);
  }, "sort: " + JSON.stringify(input));
  test(() => {
    const u = new URL("?" + input, "https://example/");
    u.searchParams.sort();
    assert_pairs(new URLSearchParams(u.search), want);
  }, "sort: through a URL, " + JSON.stringify(input));
}
test(() => {
  const u = new URL("http://example.com/?");
  u.searchParams.sort();
  assert_equals(u.href, "http://example.com/");
  assert_equals(u.search, "");
}, "sort: an empty query goes");

// --- iteration -------------------------------------------------------
test(() => {
  const p = new URLSearchParams("a=1&b=2&c=3");
  const seen = [];
  p.forEach(function (value, key, obj) { seen.push([key, value, obj === p, this.t]); }, { t: "this" });
  assert_equals(JSON.stringify(seen), JSON.stringify([["a", "1", true, "this"], ["b", "2", true, "this"], ["c", "3", true, "this"]]));
}, "forEach: value, key, object and thisArg");
test(() => {
  const p = new URLSearchParams("a=1&b=2");
  assert_array_equals([...p.keys()], ["a", "b"]);
  assert_array_equals([...p.values()], ["1", "2"]);
  assert_equals(JSON.stringify([...p.entries()]), JSON.stringify([["a", "1"], ["b", "2"]]));
  assert_equals(URLSearchParams.prototype[Symbol.iterator], URLSearchParams.prototype.entries);
}, "entries: keys, values and the default iterator");
test(() => {
  const it = new URLSearchParams("a=1").entries();
  assert_equals(Object.prototype.toString.call(it), "[object URLSearchParams Iterator]");
  assert_equals(typeof it.next, "function");
  assert_equals(it[Symbol.iterator](), it);
  assert_equals(JSON.stringify(it.next()), JSON.stringify({ value: ["a", "1"], done: false }));
  assert_equals(JSON.stringify(it.next()), JSON.stringify({ done: true }));
}, "entries: the iterator object");
test(() => {
  const u = new URL("http://a.b/c?a=1&b=2&c=3&d=4");
  const seen = [];
  for (const pair of u.searchParams) {
    u.search = "x=1&y=2&z=3";
    seen.push(pair.join("="));
  }
  assert_array_equals(seen, ["a=1", "y=2", "z=3"]);
}, "entries: sees the list change under it");
test(() => {
  const p = new URL("http://localhost/query?param0=0&param1=1&param2=2").searchParams;
  const seen = [];
  for (const pair of p) {
    seen.push(pair[0]);
    p.delete(pair[0]);
  }
  assert_array_equals(seen, ["param0", "param2"]);
  assert_equals(String(p), "param1=1");
}, "entries: deleting what was seen skips the next");
test(() => {
  const seen = [];
  for (const pair of new URL("http://a.b/c").searchParams) seen.push(pair);
  assert_equals(seen.length, 0);
}, "entries: empty");

// --- live binding with the URL ------------------------------------------
test(() => {
  const u = new URL("http://example.org/?a=b");
  assert_equals(u.searchParams, u.searchParams);
}, "URL binding: searchParams is the same object every time");
test(() => {
  const u = new URL("http://example.org/file?a=b&c=d");
  const p = u.searchParams;
  u.search = "e=f&g=h";
  assert_equals(u.search, "?e=f&g=h");
  assert_equals(p.toString(), "e=f&g=h");
  u.search = "?e=f&g=h";
  assert_equals(p.toString(), "e=f&g=h");
  p.append("i", " j ");
  assert_equals(u.search, "?e=f&g=h&i=+j+");
  p.set("e", "updated");
  assert_equals(u.search, "?e=updated&g=h&i=+j+");
  assert_equals(u.href, "http://example.org/file?e=updated&g=h&i=+j+");
}, "URL binding: search and searchParams update each other");
test(() => {
  const u = new URL("http://example.org/file??a=b&c=d");
  assert_equals(u.search, "??a=b&c=d");
  assert_equals(u.searchParams.toString(), "%3Fa=b&c=d");
  u.href = "http://example.org/file??a=b";
  assert_equals(u.search, "??a=b");
  assert_equals(u.searchParams.toString(), "%3Fa=b");
}, "URL binding: href setter reparses the list");
test(() => {
  const u = new URL("http://example.org/?a=b");
  const p = u.searchParams;
  p.set("a", "b");
  assert_equals(u.search, "?a=b");
  u.search = "";
  assert_equals(p.toString(), "");
  assert_equals(u.search, "");
  assert_equals(u.href, "http://example.org/");
}, "URL binding: clearing search empties the list");
test(() => {
  const u = new URL("http://example.com/?param1&param2");
  u.searchParams.delete("param1");
  u.searchParams.delete("param2");
  assert_equals(u.href, "http://example.com/");
  assert_equals(u.search, "");
  const v = new URL("http://example.com/?");
  v.searchParams.delete("x");
  assert_equals(v.href, "http://example.com/");
}, "URL binding: an emptied list removes the ?");
test(() => {
  const u = new URL("http://www.example.com/?a=b,c");
  const p = u.searchParams;
  assert_equals(u.toString(), "http://www.example.com/?a=b,c");
  assert_equals(p.toString(), "a=b%2Cc");
  p.append("x", "y");
  assert_equals(u.toString(), "http://www.example.com/?a=b%2Cc&x=y");
}, "URL binding: a change re-serializes the whole query");
test(() => {
  const u = new URL("http://h/p#frag");
  u.searchParams.append("a", "1");
  assert_equals(u.href, "http://h/p?a=1#frag");
  u.searchParams.delete("a");
  assert_equals(u.href, "http://h/p#frag");
}, "URL binding: the fragment stays");
test(() => {
  const u = new URL("data:space    ?query");
  u.searchParams.delete("query");
  assert_equals(u.href, "data:space");
  const v = new URL("data:space    ?query#frag");
  v.searchParams.delete("query");
  assert_equals(v.href, "data:space    #frag");
}, "URL binding: an opaque path loses its trailing spaces when query and fragment go");
test(() => {
  const u = new URL("http://localhost/query?a=1&b=2&a=3");
  assert_equals(u.searchParams.size, 3);
  u.search = "?";
  assert_equals(u.searchParams.size, 0);
  assert_equals(u.href, "http://localhost/query?");
}, "URL binding: size after search = '?'");
test(() => {
  const u = new URL("http://h/");
  assert_throws_js(TypeError, () => { "use strict"; u.searchParams = new URLSearchParams("a=b"); });
}, "URL binding: searchParams is read-only");
test(() => {
  const u = new URL("http://h/?a=1");
  const p = u.searchParams;
  u.href = "http://other/?b=2";
  assert_equals(p.get("b"), "2");
  assert_equals(p.get("a"), null);
  assert_equals(u.searchParams, p);
}, "URL binding: href keeps the same searchParams object");

// --- errors as Node gives them ---------------------------------------------
for (const [m, args, msg] of [
  ["append", ["a"], 'The "name" and "value" arguments must be specified'],
  ["set", [], 'The "name" and "value" arguments must be specified'],
  ["get", [], 'The "name" argument must be specified'],
  ["getAll", [], 'The "name" argument must be specified'],
  ["has", [], 'The "name" argument must be specified'],
  ["delete", [], 'The "name" argument must be specified'],
]) {
  test(() => {
    const e = assert_throws_js(TypeError, () => new URLSearchParams()[m](...args));
    assert_equals(e.message, msg);
    assert_equals(e.code, "ERR_MISSING_ARGS");
  }, m + ": missing arguments");
}
for (const m of ["append", "delete", "get", "getAll", "has", "set", "sort", "toString", "entries", "keys", "values", "forEach"]) {
  test(() => {
    const e = assert_throws_js(TypeError, () => URLSearchParams.prototype[m].call({}, "a", "b"));
    if (m !== "forEach") assert_equals(e.code, "ERR_INVALID_THIS");
  }, m + ": on a non-URLSearchParams");
}
test(() => assert_throws_js(TypeError, () => new URLSearchParams().forEach(1)), "forEach: not a function");

// --- interface shape -----------------------------------------------------
test(() => {
  assert_equals(URLSearchParams.length, 0);
  assert_equals(URLSearchParams.name, "URLSearchParams");
  assert_equals(Object.prototype.toString.call(new URLSearchParams()), "[object URLSearchParams]");
  const lengths = { append: 2, delete: 1, get: 1, getAll: 1, has: 1, set: 2, sort: 0, toString: 0, entries: 0, keys: 0, values: 0, forEach: 1 };
  for (const m in lengths) assert_equals(URLSearchParams.prototype[m].length, lengths[m], m + ".length");
  const d = Object.getOwnPropertyDescriptor(URLSearchParams.prototype, "append");
  assert_true(d.writable && d.enumerable && d.configurable, "append is a regular operation");
}, "interface: lengths and property shapes");
