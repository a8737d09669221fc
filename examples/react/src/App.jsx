import React from "react";
import { Layout } from "./components/Layout.jsx";
import { ItemList } from "./components/ItemList.jsx";
import { SearchForm } from "./components/SearchForm.jsx";
import { Reviews } from "./components/Reviews.jsx";
import { catalogue, item } from "./data.js";

// Trusted, server-authored HTML (never user input) goes in raw.
const promo = {
  __html: '<strong>Free shipping</strong> over €50 &mdash; <a href="/large">see everything</a> <span aria-hidden="true">🎁</span>',
};

function Promo() {
  return <aside className="promo" style={{ background: "#fffbe6", padding: "8px 12px", borderRadius: 4 }} dangerouslySetInnerHTML={promo} />;
}

function filter(items, query) {
  let out = items;
  if (query.q) {
    const q = query.q.toLowerCase();
    out = out.filter((it) => it.name.toLowerCase().includes(q));
  }
  if (query.stock === "1") out = out.filter((it) => it.inStock);
  if (query.sort === "price") out = out.slice().sort((a, b) => a.price - b.price || a.id - b.id);
  if (query.sort === "rating") out = out.slice().sort((a, b) => b.rating - a.rating || a.id - b.id);
  return out;
}

function CataloguePage({ path, query, count, title }) {
  const items = filter(catalogue(count), query);
  return (
    <Layout title={title} path={path}>
      <h1>{title}</h1>
      <Promo />
      <SearchForm query={query} />
      <p>
        Showing {items.length} of {count} products.
      </p>
      <ItemList items={items} />
      <section>
        <h2>What people say</h2>
        <Reviews id={7} />
      </section>
    </Layout>
  );
}

function SmallPage({ path }) {
  return (
    <Layout title="Hello" path={path}>
      <h1>Hello from React 👋</h1>
      <p>A small page: a heading, a link list and a few words in 中文, עברית and emoji 🎉.</p>
      <ItemList items={catalogue(3)} />
    </Layout>
  );
}

function ItemPage({ path, id }) {
  const it = item(id - 1);
  return (
    <Layout title={it.name} path={path}>
      <h1 lang={it.lang} dir={it.dir}>
        {it.name}
      </h1>
      <p>
        €{it.price} · {"★".repeat(it.rating)} · {it.inStock ? "in stock" : "sold out"}
      </p>
      <Reviews id={it.id} />
    </Layout>
  );
}

function Broken() {
  // A component that throws during SSR without catching: renderToString
  // throws, render() throws, and bext answers 500 (stack shown in dev only).
  throw new Error("Broken: this component always throws (demo of a failed render)");
}

function NotFound({ path }) {
  return (
    <Layout title="Not found" path={path}>
      <h1>{"404 — nothing at " + path}</h1>
      <a href="/">Back to the catalogue</a>
    </Layout>
  );
}

// route maps a request to {status, element}.
export function route(path, query) {
  switch (path) {
    case "/":
      return { status: 200, element: <CataloguePage path={path} query={query} count={clamp(query.n, 100)} title="Catalogue" /> };
    case "/small":
      return { status: 200, element: <SmallPage path={path} /> };
    case "/large":
      return { status: 200, element: <CataloguePage path={path} query={query} count={640} title="Everything" /> };
    case "/broken":
      return { status: 200, element: <Broken /> };
  }
  const m = /^\/items\/item-(\d+)$/.exec(path);
  if (m && +m[1] >= 1 && +m[1] <= 5000) {
    return { status: 200, element: <ItemPage path={path} id={+m[1]} /> };
  }
  return { status: 404, element: <NotFound path={path} /> };
}

function clamp(n, def) {
  const v = parseInt(n, 10);
  return Number.isFinite(v) ? Math.min(Math.max(v, 0), 5000) : def;
}
