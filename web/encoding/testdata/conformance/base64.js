// Cases from the HTML standard's forgiving-base64 decode and btoa.
const decodes = [
  ["", ""], ["abcd", "i\xb7\x1d"], [" abcd", "i\xb7\x1d"], ["abcd ", "i\xb7\x1d"], ["ab\tcd", "i\xb7\x1d"],
  ["ab\ncd", "i\xb7\x1d"], ["ab\fcd", "i\xb7\x1d"], ["ab\rcd", "i\xb7\x1d"], ["ab  cd", "i\xb7\x1d"],
  ["ab==", "i"], ["abc=", "i\xb7"], ["ab", "i"], ["abc", "i\xb7"], ["ab=\n=", "i"], [" a b = = ", "i"],
  ["/w==", "\xff"], ["+/+/", "\xfb\xff\xbf"], ["AA", "\x00"], ["YQ", "a"], ["YR", "a"], ["YWJj", "abc"],
  ["AAAAAA==", "\x00\x00\x00\x00"], ["AAAAAAA=", "\x00\x00\x00\x00\x00"],
];
for (const [input, want] of decodes) {
  test(() => { assert_equals(atob(input), want); }, "atob(" + JSON.stringify(input) + ")");
}
const failures = [
  "a", "abcde", "ab=", "ab===", "abc==", "a===", "=", "==", "===", "====", "ab=c", "a=bc", "ab=cd", "abcd=",
  "abcd==", "ab\vcd", "ab\u00a0cd", "ab-cd", "ab_cd", "ab.cd", "\u00ff", "ab\u3000cd", "abc\u0000", "abcd=e", "ab==c",
];
for (const input of failures) {
  test(() => {
    assert_throws_dom("InvalidCharacterError", () => atob(input));
  }, "atob(" + JSON.stringify(input) + ") fails");
}

test(() => {
  assert_equals(atob(undefined === 1 ? "" : "YWJj"), "abc");
  assert_throws_dom("InvalidCharacterError", () => atob(undefined), "'undefined' has 9 characters");
  assert_equals(atob(null), "\x9e\xe9e", "'null' decodes");
  assert_equals(atob(12), "\xd7", "'12' decodes");
  assert_throws_js(TypeError, () => atob());
}, "atob converts its argument to a string");

const encodes = [
  ["", ""], ["a", "YQ=="], ["ab", "YWI="], ["abc", "YWJj"], ["\xff\xfe", "//4="], ["\x00", "AA=="],
  ["\u00e9t\u00e9", "6XTp"],
];
for (const [input, want] of encodes) {
  test(() => { assert_equals(btoa(input), want); }, "btoa(" + JSON.stringify(input) + ")");
}

test(() => {
  assert_throws_dom("InvalidCharacterError", () => btoa("\u0100"));
  assert_throws_dom("InvalidCharacterError", () => btoa("\u20ac"));
  assert_throws_dom("InvalidCharacterError", () => btoa("\ud800"));
  assert_equals(btoa(undefined), "dW5kZWZpbmVk");
  assert_equals(btoa(null), "bnVsbA==");
  assert_throws_js(TypeError, () => btoa());
}, "btoa rejects code units above 0xFF and converts its argument");

test(() => {
  let all = "";
  for (let i = 0; i < 256; i++) all += String.fromCharCode(i);
  assert_equals(atob(btoa(all)), all);
  const long = all.repeat(100);
  assert_equals(atob(btoa(long)), long);
}, "btoa and atob round-trip every byte");

test(() => {
  const e = (() => { try { atob("a"); } catch (x) { return x; } })();
  assert_equals(e.code, 5);
  assert_true(e instanceof Error);
  assert_equals(atob.length, 1);
  assert_equals(btoa.length, 1);
}, "the InvalidCharacterError is a DOMException with code 5");
