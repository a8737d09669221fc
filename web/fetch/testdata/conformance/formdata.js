// FormData (XMLHttpRequest Standard), cases written from the standard.
test(() => {
  const fd = new FormData();
  fd.append("a", "1");
  fd.append("b", 2);
  fd.append("a", "3");
  assert_equals(fd.get("a"), "1");
  assert_deep(fd.getAll("a"), ["1", "3"]);
  assert_equals(fd.get("b"), "2");
  assert_equals(fd.get("c"), null);
  assert_deep(fd.getAll("c"), []);
  assert_true(fd.has("a"));
  assert_false(fd.has("c"));
  assert_deep([...fd], [["a", "1"], ["b", "2"], ["a", "3"]]);
  assert_equals(Object.prototype.toString.call(fd), "[object FormData]");
}, "append, get, getAll, has and order");

test(() => {
  const fd = new FormData();
  fd.append("a", "1");
  fd.append("b", "2");
  fd.append("a", "3");
  fd.set("a", "4");
  assert_deep([...fd], [["a", "4"], ["b", "2"]]);
  fd.set("c", "5");
  fd.delete("b");
  assert_deep([...fd], [["a", "4"], ["c", "5"]]);
}, "set replaces at the first place; delete");

test(() => {
  const fd = new FormData();
  fd.append("a", new Blob(["x"], { type: "t/x" }));
  const f = fd.get("a");
  assert_true(f instanceof File);
  assert_equals(f.name, "blob");
  assert_equals(f.type, "t/x");
  assert_equals(fd.get("a"), f, "the same object each time");
  fd.append("b", new Blob(["y"]), "n.txt");
  assert_equals(fd.get("b").name, "n.txt");
  const file = new File(["z"], "orig.txt", { lastModified: 7 });
  fd.append("c", file);
  assert_equals(fd.get("c"), file);
  fd.append("d", file, "renamed.txt");
  assert_equals(fd.get("d").name, "renamed.txt");
  assert_equals(fd.get("d").lastModified, 7);
}, "a Blob becomes a File; a filename renames");

test(() => {
  const fd = new FormData();
  assert_throws_js(TypeError, () => fd.append("a", "b", "c"));
  assert_throws_js(TypeError, () => fd.set("a", "b", "c"));
  assert_throws_js(TypeError, () => fd.append("a"));
  assert_throws_js(TypeError, () => new FormData(1));
  assert_throws_js(TypeError, () => FormData());
}, "bad arguments");

test(() => {
  const fd = new FormData();
  fd.append("x", "1");
  fd.append("y", "2");
  assert_deep([...fd.keys()], ["x", "y"]);
  assert_deep([...fd.values()], ["1", "2"]);
  const seen = [];
  fd.forEach((v, k) => seen.push(k + v));
  assert_deep(seen, ["x1", "y2"]);
  assert_equals(String(fd.entries()), "[object FormData Iterator]");
}, "iteration");

test(() => {
  const fd = new FormData();
  fd.append("\ud800", "\udc00");
  assert_deep([...fd], [["\ufffd", "\ufffd"]]);
}, "names and values are USVStrings");
