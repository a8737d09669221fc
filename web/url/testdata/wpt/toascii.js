// toascii.json (__data): host parsing through new URL and the host and
// hostname setters, as WPT's toascii test runs it.
for (const t of __data) {
  if (typeof t === "string") continue;
  test(() => {
    if (t.output === null) {
      assert_throws_js(TypeError, () => new URL("https://" + t.input + "/x"));
      return;
    }
    const u = new URL("https://" + t.input + "/x");
    assert_equals(u.host, t.output, "host");
    assert_equals(u.hostname, t.output, "hostname");
    assert_equals(u.pathname, "/x", "pathname");
    assert_equals(u.href, "https://" + t.output + "/x", "href");
  }, "URL: " + t.input);
  for (const attr of ["host", "hostname"]) {
    test(() => {
      const u = new URL("https://x/x");
      u[attr] = t.input;
      assert_equals(u[attr], t.output !== null ? t.output : "x", attr);
    }, attr + " setter: " + t.input);
  }
}
