/** @jsxImportSource hono/jsx */
// Hono 4 as a fetch(request, env, ctx) handler (export default app):
// routing with params, middleware (a custom header, ETag), Hono JSX,
// urlencoded and multipart forms, JSON in and out, cookies, a redirect and
// a 404 — app.fetch answering the row's requests in bext and in Node.
import { Hono } from "hono";
import { etag } from "hono/etag";
import { getCookie, setCookie } from "hono/cookie";

const app = new Hono();
app.use(async (c, next) => {
  await next();
  c.header("x-row", "hono");
});
app.use("/api/*", etag());

const Page = ({ title, children }) => (
  <html>
    <head>
      <title>{title}</title>
    </head>
    <body>{children}</body>
  </html>
);

app.get("/", (c) =>
  c.html(
    <Page title="Teas">
      <h1>Teas at {new URL(c.req.url).host}</h1>
      <ul>
        {["Sencha", "Matcha 抹茶 🍵", "<Rooibos>"].map((t) => (
          <li>{t}</li>
        ))}
      </ul>
    </Page>,
  ),
);
app.get("/api/teas/:id", (c) => c.json({ id: c.req.param("id"), q: c.req.queries("q") ?? [], row: c.env.ROW ?? null }));
app.post("/api/teas", async (c) => c.json({ created: await c.req.json() }, 201, { location: "/api/teas/new" }));
app.post("/form", async (c) => {
  const body = await c.req.parseBody({ all: true });
  const out = [];
  for (const [k, vs] of Object.entries(body)) {
    for (const v of [vs].flat()) {
      out.push(typeof v === "string" ? `${k}=${v}` : `${k}: ${v.name} (${v.type}, ${v.size} bytes) ${await v.text()}`);
    }
  }
  return c.html(
    <Page title="Posted">
      <pre>{out.join("\n")}</pre>
    </Page>,
    201,
  );
});
app.get("/cookie", (c) => {
  setCookie(c, "seen", getCookie(c, "seen") ? "again" : "once", { path: "/", httpOnly: true });
  setCookie(c, "lang", "en", { path: "/", sameSite: "Strict" });
  return c.text(`cookies: ${JSON.stringify(getCookie(c))}`);
});
app.get("/old", (c) => c.redirect("/", 301));
app.notFound((c) =>
  c.html(
    <Page title="Not found">
      <p>Nothing at {c.req.path}</p>
    </Page>,
    404,
  ),
);

export default app;
