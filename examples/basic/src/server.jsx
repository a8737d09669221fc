/** @jsxRuntime classic */
/** @jsx h */
import { h, renderToString } from "./jsx.js";
import { Layout } from "./layout.jsx";

const ITEMS = Array.from({ length: 50 }, (_, k) => ({
  id: k + 1,
  name: `Item #${k + 1}`,
  note: k % 7 === 0 ? `needs <escaping> & "quotes"` : `plain note ${k}`,
  price: ((k * 37) % 100) + 0.99,
}));

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function Home({ query }) {
  const who = query.name || "world";
  return (
    <section>
      <h1>Hello, {who}!</h1>
      <p>These {ITEMS.length} items are rendered on the server for every request.</p>
      <ul class="items">
        {ITEMS.map((it) => (
          <li data-id={it.id} title={it.note}>
            <strong>{it.name}</strong> — {it.note} <span class="price">${it.price.toFixed(2)}</span>
          </li>
        ))}
      </ul>
    </section>
  );
}

function About() {
  return (
    <section>
      <h1>About</h1>
      <p>A bext example with no npm dependencies: a tiny JSX runtime in src/jsx.js renders to strings.</p>
    </section>
  );
}

function Time() {
  const now = new Date();
  return (
    <section>
      <h1>Server time</h1>
      <pre id="time">{JSON.stringify({ iso: now.toISOString(), epoch_ms: now.getTime() }, null, 2)}</pre>
    </section>
  );
}

function NotFound({ path }) {
  return (
    <section>
      <h1>Not found</h1>
      <p>Nothing lives at <code>{path}</code>.</p>
    </section>
  );
}

function page(title, req, body, status = 200) {
  const html = "<!doctype html>" + renderToString(<Layout title={title} path={req.path}>{body}</Layout>);
  return { status, headers: { "content-type": "text/html; charset=utf-8" }, html };
}

export default async function render(req) {
  switch (req.path) {
    case "/":
      return page("Home", req, <Home query={req.query} />);
    case "/about":
      return page("About", req, <About />);
    case "/api/time":
      return page("Time", req, <Time />);
    case "/slow":
      await sleep(50);
      return page("Slow", req, <section><h1>Slow</h1><p>This page waited 50 ms on a timer.</p></section>);
    case "/boom":
      throw new Error("boom: this route throws on purpose");
    case "/loop":
      for (;;) {} // never returns: bext interrupts it after render_timeout_ms
    default:
      return page("Not found", req, <NotFound path={req.path} />, 404);
  }
}
