const page = (path) => "<!doctype html><html><head><title>" + path + "</title></head><body>" + "<p>item</p>".repeat(50) + "</body></html>";
const enc = new TextEncoder();
export default {
  fetch(request) {
    const url = new URL(request.url);
    if (url.searchParams.has("stream")) {
      const html = page(url.pathname);
      return new Response(new ReadableStream({ start(c) { for (let i = 0; i < html.length; i += 256) c.enqueue(enc.encode(html.slice(i, i + 256))); c.close(); } }),
        { headers: { "content-type": "text/html; charset=utf-8" } });
    }
    return new Response(page(url.pathname), { headers: { "content-type": "text/html; charset=utf-8" } });
  },
};
