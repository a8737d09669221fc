const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
globalThis.render = async function render(req) {
  const ms = Number(req.query.ms ?? 50);
  await sleep(ms);
  return "<p>slept " + ms + "ms</p>";
};
