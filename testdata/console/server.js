globalThis.render = function render(req) {
  const n = Number(req.query.n ?? 0);
  for (let k = 0; k < n; k++) console.log("noise", k);
  console.log("log line", { a: 1 });
  console.info("info line");
  console.warn("warn line");
  console.error("error line %s=%d", "x", 42);
  console.debug("debug line");
  return "logged";
};
