// urltestdata.json (__data) through new URL, URL.canParse, URL.parse and
// the origin getter, as WPT's url-constructor, url-statics-canparse,
// url-statics-parse and url-origin tests run it. Test names start with
// the API they check.
for (const t of __data) {
  if (typeof t === "string") continue;
  const base = t.base !== null ? t.base : undefined;
  const where = "<" + t.input + "> against <" + t.base + ">";
  const make = () => base !== undefined ? new URL(t.input, base) : new URL(t.input);
  test(() => {
    if (t.failure) {
      assert_throws_js(TypeError, make);
      return;
    }
    const u = make();
    for (const k of ["href", "protocol", "username", "password", "host", "hostname", "port", "pathname", "search", "hash"]) {
      assert_equals(u[k], t[k], k);
    }
    if ("searchParams" in t) assert_equals(u.searchParams.toString(), t.searchParams, "searchParams");
  }, "URL: " + where);
  if ("origin" in t) {
    test(() => assert_equals(make().origin, t.origin, "origin"), "URL.origin: " + where);
  }
  test(() => {
    assert_equals(base !== undefined ? URL.canParse(t.input, base) : URL.canParse(t.input), !t.failure);
  }, "URL.canParse: " + where);
  test(() => {
    const u = base !== undefined ? URL.parse(t.input, base) : URL.parse(t.input);
    if (t.failure) assert_equals(u, null);
    else assert_equals(u.href, t.href, "href");
  }, "URL.parse: " + where);
}
