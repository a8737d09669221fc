/** @jsxImportSource hono/jsx */
// Server entry of the Hono example. Its default export is the Hono app,
// an object with fetch(request, env, ctx): bext serves it as a Workers-style
// fetch handler (as Cloudflare Workers, Deno and Bun do), and the parity
// test serves the very same bundle with Node 20's http module
// (internal/nodeparity/node-fetch-server.cjs).
//
// env is the config's [app.env] table: SITE_NAME, COOKIE_SECRET and
// API_ORIGIN (the origin /stream/ticks and /api/notify call).
import { Hono } from "hono";
import { etag } from "hono/etag";
import { cors } from "hono/cors";
import { secureHeaders } from "hono/secure-headers";
import { getCookie, setCookie, deleteCookie, getSignedCookie, setSignedCookie } from "hono/cookie";
import { stream, streamText } from "hono/streaming";
import { HTTPException } from "hono/http-exception";
import { html } from "hono/html";
import { Layout, Home, TeaList, TeaPage, Hello, OrderForm, OrderDone, Cookies, NotFound, Oops } from "./pages.jsx";
import { teas, findTea, searchTeas } from "./teas.js";

const app = new Hono();

// A custom middleware: tags every response after the handler ran.
app.use(async (c, next) => {
  await next();
  c.header("x-example", "hono");
});
app.use(secureHeaders());
app.use("/api/*", cors({ origin: "*", allowMethods: ["GET", "POST"] }));
app.use("/api/*", etag());
app.use("/teas/*", etag());

// page renders a JSX page inside the layout, after a doctype.
function page(c, title, body, status) {
  return c.html(html`<!DOCTYPE html>${<Layout title={title} site={c.env.SITE_NAME}>{body}</Layout>}`, status);
}

app.get("/", (c) => page(c, "Home", <Home greeting={`Welcome to ${c.env.SITE_NAME}`} count={teas.length} />));
app.get("/teas", (c) => {
  const q = c.req.query("q") || "", tag = c.req.query("tag") || "";
  return page(c, "Teas", <TeaList teas={searchTeas(q, tag)} q={q} tag={tag} />);
});
app.get("/teas/:id", (c) => {
  const tea = findTea(c.req.param("id"));
  return tea ? page(c, tea.name, <TeaPage tea={tea} />) : c.notFound();
});
app.get("/hello/:name", (c) => page(c, "Hello", <Hello name={c.req.param("name")} lang={c.req.query("lang")} />));

// Forms: urlencoded and multipart, parsed by Hono (request.formData()).
app.get("/form", (c) => page(c, "Order", <OrderForm />));
app.post("/form", async (c) => {
  const kind = (c.req.header("content-type") || "").split(";")[0];
  const body = await c.req.parseBody({ all: true });
  const fields = [];
  for (const [k, v] of Object.entries(body)) {
    for (const one of Array.isArray(v) ? v : [v]) {
      fields.push([k, typeof one === "string" ? one : { name: one.name, type: one.type, size: one.size, text: await one.text() }]);
    }
  }
  return page(c, "Thank you", <OrderDone kind={kind} fields={fields} />, 201);
});

// The JSON API.
app.get("/api/teas", (c) => c.json(searchTeas(c.req.query("q"), c.req.query("tag"))));
app.get("/api/teas/:id", (c) => {
  const tea = findTea(c.req.param("id"));
  return tea ? c.json(tea) : c.json({ error: `no tea ${c.req.param("id")}` }, 404);
});
app.post("/api/teas", async (c) => {
  let input;
  try {
    input = await c.req.json();
  } catch (e) {
    return c.json({ error: "the body is not JSON", detail: e.name }, 400);
  }
  if (typeof input?.name !== "string" || typeof input?.price !== "number") {
    return c.json({ error: "name (string) and price (number) are required", got: input }, 422);
  }
  const id = input.name.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  const tea = { id, name: input.name, origin: input.origin || "unknown", price: input.price, tags: input.tags || [] };
  return c.json(tea, 201, { location: `/api/teas/${id}` });
});
// echo shows how the request reached the app: its absolute URL (built from
// the Host header), method, some headers and the body.
app.on(["GET", "POST", "PUT", "PATCH", "DELETE"], "/api/echo", async (c) => {
  const r = c.req.raw;
  const body = r.method === "GET" ? null : await c.req.text();
  return c.json({
    method: r.method,
    url: r.url,
    query: c.req.queries(),
    contentType: c.req.header("content-type") ?? null,
    accept: c.req.header("accept") ?? null,
    body,
    bytes: body === null ? 0 : new TextEncoder().encode(body).length,
    signal: r.signal instanceof AbortSignal && !r.signal.aborted,
  });
});
// notify answers at once and delivers a hook after the response, kept
// alive by ctx.waitUntil.
app.post("/api/notify", async (c) => {
  const { event } = await c.req.json();
  c.executionCtx.waitUntil(
    fetch(`${c.env.API_ORIGIN}/hook`, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ event }) }),
  );
  return c.json({ queued: event }, 202);
});
app.get("/env", (c) =>
  c.json({ site: c.env.SITE_NAME, fromProcess: process.env.SITE_NAME, keys: Object.keys(c.env).sort() }),
);

// Streamed responses (hono/streaming).
app.get("/stream", (c) =>
  streamText(c, async (s) => {
    for (const t of teas) {
      await s.writeln(`${t.name}: ${t.price.toFixed(2)} €`);
      await s.sleep(1);
    }
    await s.write("done");
  }),
);
// ticks writes a line, then waits for API_ORIGIN/gate/N before the next:
// the tests hold the gate to prove each line reaches the client first.
app.get("/stream/ticks", (c) =>
  streamText(c, async (s) => {
    const n = Number(c.req.query("n") || 3);
    for (let i = 0; i < n; i++) {
      await s.writeln(`tick ${i}`);
      await (await fetch(`${c.env.API_ORIGIN}/gate/${i}`)).text();
    }
    await s.write("end");
  }),
);
app.get("/stream/bytes", (c) => {
  c.header("content-type", "application/octet-stream");
  return stream(c, async (s) => {
    for (let i = 0; i < 4; i++) {
      await s.write(Uint8Array.from({ length: 64 }, (_, j) => i * 64 + j));
    }
  });
});

// Redirects.
app.get("/old-teas", (c) => c.redirect("/teas", 301));
app.get("/go", (c) => c.redirect(`/hello/${encodeURIComponent(c.req.query("to") || "world")}`));

// Cookies, plain and signed (HMAC-SHA256 with COOKIE_SECRET).
app.get("/cookies", async (c) => {
  const signed = await getSignedCookie(c, c.env.COOKIE_SECRET, "session");
  return page(c, "Cookies", <Cookies cookies={getCookie(c)} signed={signed} />);
});
app.get("/cookies/set", async (c) => {
  const visitor = c.req.query("visitor") || "guest";
  setCookie(c, "visitor", visitor, { path: "/", httpOnly: true, sameSite: "Lax", maxAge: 3600 });
  setCookie(c, "theme", "dark", { path: "/" });
  await setSignedCookie(c, "session", `s-${visitor}`, c.env.COOKIE_SECRET, { path: "/", httpOnly: true });
  return c.redirect("/cookies", 302);
});
app.get("/cookies/clear", (c) => {
  deleteCookie(c, "visitor", { path: "/" });
  return c.text("cleared");
});

// Errors.
app.get("/boom", () => {
  throw new Error("the kettle boiled over");
});
app.get("/teapot", () => {
  throw new HTTPException(418, { message: "I'm a teapot" });
});
app.notFound((c) => page(c, "Not found", <NotFound path={c.req.path} />, 404));
app.onError((err, c) => {
  if (err instanceof HTTPException) return err.getResponse();
  return page(c, "Error", <Oops message={err.message} />, 500);
});

export default app;
