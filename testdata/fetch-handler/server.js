// A Workers-style fetch handler exercising the contract: the Request, env,
// bodies, streamed responses, ctx.waitUntil and bad results.
let waited = 0;
export default {
  async fetch(request, env, ctx) {
    const url = new URL(request.url);
    switch (url.pathname) {
      case "/request":
        return Response.json({
          url: request.url, method: request.method, isRequest: request instanceof Request,
          accept: request.headers.get("accept"), env, signal: request.signal instanceof AbortSignal,
          thisIsHandler: typeof this.fetch === "function",
        });
      case "/text":
        return new Response(await request.text());
      case "/json":
        return Response.json({ got: await request.json() });
      case "/form": {
        const f = await request.formData();
        const out = {};
        for (const [k, v] of f) out[k] = typeof v === "string" ? v : { name: v.name, type: v.type, text: await v.text() };
        return Response.json(out);
      }
      case "/stream": {
        request.signal.addEventListener("abort", () => console.log("stream aborted: " + request.signal.reason.name));
        const enc = new TextEncoder();
        let n = 0;
        return new Response(new ReadableStream({
          async pull(c) {
            // parts 0 and 1 are ready at once, part 2 a timer later
            if (n === 2) await new Promise((r) => setTimeout(r, 1)); else await null;
            if (n < 3) c.enqueue(enc.encode("part " + n++ + ";")); else c.close();
          },
        }), { status: 201, headers: { "content-type": "text/plain", "x-kind": "stream" } });
      }
      case "/stream-error": {
        let n = 0;
        return new Response(new ReadableStream({
          pull(c) { if (n++ === 0) c.enqueue(new TextEncoder().encode("first;")); else c.error(new Error("upstream broke")); },
        }));
      }
      case "/stream-string":
        return new Response(new ReadableStream({ start(c) { c.enqueue("not bytes"); c.close(); } }));
      case "/wait":
        ctx.waitUntil(new Promise((r) => setTimeout(() => { waited++; r(); }, 20)));
        return new Response("sent");
      case "/waited":
        return new Response(String(waited));
      case "/abort-wait":
        // request.signal aborts when the client leaves or the render runs
        // out of time; its listeners still run.
        request.signal.addEventListener("abort", () => {
          console.log("aborted " + request.signal.aborted + " " + request.signal.reason.name);
          Promise.resolve().then(() => console.log("abort microtask ran"));
        });
        await new Promise((r) => setTimeout(r, 3_600_000));
        return new Response("too late");
      case "/wait-forever":
        ctx.waitUntil(new Promise((r) => setTimeout(r, 3_600_000)));
        return new Response("sent");
      case "/redirect":
        return Response.redirect(new URL("/text", request.url), 307);
      case "/error":
        return Response.error();
      case "/used": {
        const r = new Response("x");
        await r.text();
        return r;
      }
      case "/not-response":
        return { status: 200, html: "a render(req) result" };
      case "/throws":
        throw new TypeError("handler threw");
    }
    return new Response("no route " + url.pathname, { status: 404, headers: { "set-cookie": ["a=1", "b=2"].join(", ") } });
  },
};
