function explode() {
  throw new Error("boom");
}
globalThis.render = function render(req) {
  if (req.path === "/boom") explode();
  if (req.path === "/reject") return Promise.reject(new TypeError("rejected on purpose"));
  return "ok " + req.path;
};
