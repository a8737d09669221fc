// setters_tests.json (__data) through the URL attribute setters, as WPT's
// url-setters test runs it; names start with the attribute.
for (const attr of Object.keys(__data)) {
  if (attr === "comment") continue;
  for (const t of __data[attr]) {
    test(() => {
      const u = new URL(t.href);
      u[attr] = t.new_value;
      for (const k in t.expected) assert_equals(u[k], t.expected[k], k);
    }, attr + ": <" + t.href + "> = " + JSON.stringify(t.new_value) + (t.comment ? " (" + t.comment + ")" : ""));
  }
}
