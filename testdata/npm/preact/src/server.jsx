/** @jsxImportSource preact */
// Preact fixture for engine/npm_test.go: a small app rendered with
// preact-render-to-string. The pragma above selects Preact's automatic JSX
// runtime (the build default is React's).
import { createContext } from "preact";
import { useContext, useId, useState } from "preact/hooks";
import { renderToString } from "preact-render-to-string";

const Theme = createContext({ accent: "teal", dense: false });

const teas = [
  { id: "sencha", name: "Sencha 煎茶", price: 12.5 },
  { id: "pu-erh", name: "Pu-erh 普洱", price: 30 },
  { id: "rooibos", name: "Rooibos — red bush 🌿", price: 8 },
  { id: "chai", name: "Masala chai चाय", price: 9.75 },
  { id: "nana", name: "Nana נענע", price: 6 },
];

function Field({ label }) {
  const id = useId();
  const [value] = useState("");
  return (
    <p>
      <label for={id}>{label}</label>
      <input id={id} name="q" value={value} />
    </p>
  );
}

function Item({ tea }) {
  const { accent, dense } = useContext(Theme);
  return (
    <li style={{ color: accent, padding: dense ? 0 : "4px 8px", lineHeight: 1.5 }}>
      <a href={"/tea/" + tea.id}>{tea.name}</a> <span>{tea.price.toFixed(2)} €</span>
    </li>
  );
}

function List({ n }) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(teas[i % teas.length]);
  return (
    <ul class="teas">
      {rows.map((t, i) => (
        <Item key={i} tea={t} />
      ))}
    </ul>
  );
}

function Page({ title, q, n, dense }) {
  return (
    <Theme.Provider value={{ accent: "#c0392b", dense }}>
      <main>
        <h1>{title}</h1>
        <div dangerouslySetInnerHTML={{ __html: "<em>Loose leaf</em> &amp; bags" }} />
        <Field label="Search" />
        {q ? <p class="q">Results for “{q}”</p> : null}
        <List n={n} />
        <footer>茶壶 · Teapot 🍵</footer>
      </main>
    </Theme.Provider>
  );
}

function render(req) {
  const q = req.query || {};
  if (req.path !== "/") {
    return { status: 404, headers: {}, html: renderToString(<p>404 — nothing at {req.path}</p>) };
  }
  const page = <Page title="Tea <shop>" q={q.q} n={Number(q.n ?? 5)} dense={q.dense === "1"} />;
  return {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    html: "<!DOCTYPE html>" + renderToString(page),
  };
}

globalThis.render = render;
