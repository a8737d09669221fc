globalThis.render = function render(req) {
  if (req.path === "/object") {
    return { status: 201, headers: { "x-bext": "yes" }, html: "<p>object</p>" };
  }
  if (req.path === "/promise") {
    return Promise.resolve("<p>promise</p>");
  }
  return "<h1>hello " + req.path + "</h1>";
};
