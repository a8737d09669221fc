// render(req) may return a Response too (here a streamed one).
globalThis.render = (req) => {
  if (req.path === "/plain") return "<p>plain</p>";
  const enc = new TextEncoder();
  return new Response(new ReadableStream({
    start(c) { c.enqueue(enc.encode("<p>")); c.enqueue(enc.encode(req.path)); c.enqueue(enc.encode("</p>")); c.close(); },
  }), { headers: { "content-type": "text/html; charset=utf-8" } });
};
