// urlpatterntestdata.json (__data) through URLPattern: the constructor,
// the component getters, test and exec, with the expectations WPT's
// urlpatterntests.js derives for what an entry leaves out.
const __parts = ["protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"];
const __earlier = {
  protocol: [], username: [], password: [], hostname: ["protocol"], port: ["protocol", "hostname"],
  pathname: ["protocol", "hostname", "port"], search: ["protocol", "hostname", "port", "pathname"],
  hash: ["protocol", "hostname", "port", "pathname", "search"],
};
function __expectedPart(e, part) {
  const want = (e.expected_obj || {})[part];
  if (want !== undefined) return want;
  const first = e.pattern[0];
  let base = null;
  if (e.pattern.length > 0 && first && first.baseURL) base = new URL(first.baseURL);
  else if (e.pattern.length > 1 && typeof e.pattern[1] === "string") base = new URL(e.pattern[1]);
  if (e.exactly_empty_components && e.exactly_empty_components.includes(part)) return "";
  if (typeof first === "object" && first[part]) return first[part];
  if (typeof first === "object" && __earlier[part].some((c) => c in first)) return "*";
  if (base && part !== "username" && part !== "password") {
    const v = base[part];
    if (part === "protocol") return v.slice(0, -1);
    if (part === "search" || part === "hash") return v.slice(1);
    return v;
  }
  return "*";
}
for (const e of __data) {
  test(() => {
    if (e.expected_obj === "error") {
      assert_throws_js(TypeError, () => new URLPattern(...e.pattern), "constructor");
      return;
    }
    const p = new URLPattern(...e.pattern);
    for (const part of __parts) assert_equals(p[part], __expectedPart(e, part), "pattern." + part);
    if (e.expected_match === "error") {
      assert_throws_js(TypeError, () => p.test(...e.inputs), "test()");
      assert_throws_js(TypeError, () => p.exec(...e.inputs), "exec()");
      return;
    }
    assert_equals(p.test(...e.inputs), !!e.expected_match, "test()");
    const got = p.exec(...e.inputs);
    if (!e.expected_match || typeof e.expected_match !== "object") {
      assert_equals(got, e.expected_match, "exec()");
      return;
    }
    const inputs = e.expected_match.inputs || e.inputs;
    assert_equals(got.inputs.length, inputs.length, "exec().inputs.length");
    got.inputs.forEach((v, i) => {
      if (typeof v === "string") assert_equals(v, inputs[i], "exec().inputs[" + i + "]");
      else for (const part of __parts) assert_equals(v[part], inputs[i][part], "exec().inputs[" + i + "]." + part);
    });
    for (const part of __parts) {
      let want = e.expected_match[part];
      if (!want) {
        want = { input: "", groups: {} };
        if (!e.exactly_empty_components || !e.exactly_empty_components.includes(part)) want.groups["0"] = "";
      }
      const groups = {};
      for (const k in want.groups) groups[k] = want.groups[k] === null ? undefined : want.groups[k];
      assert_equals(got[part].input, want.input, "exec()." + part + ".input");
      assert_equals(JSON.stringify(Object.keys(got[part].groups)), JSON.stringify(Object.keys(groups)), "exec()." + part + ".groups keys");
      for (const k in groups) assert_equals(got[part].groups[k], groups[k], "exec()." + part + ".groups." + k);
    }
  }, "URLPattern: " + JSON.stringify(e.pattern) + " inputs " + JSON.stringify(e.inputs));
}
