/** @jsxImportSource hono/jsx */
// Hono JSX pages of the example. They render to strings (c.html) on the
// server; there is no client bundle.

export function Layout({ title, site, children }) {
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <title>{title} · {site}</title>
        <link rel="stylesheet" href="/style.css" />
      </head>
      <body>
        <header>
          <a href="/">{site}</a>
          <nav>
            <a href="/teas">Teas</a> <a href="/form">Order</a> <a href="/cookies">Cookies</a> <a href="/stream">Stream</a>
          </nav>
        </header>
        <main>{children}</main>
        <footer>Served by a Hono fetch handler.</footer>
      </body>
    </html>
  );
}

export function Home({ greeting, count }) {
  return (
    <>
      <h1>{greeting}</h1>
      <p>
        {count} teas in the catalogue. Try <a href="/teas?q=matcha">a search</a>, the{" "}
        <a href="/api/teas">JSON API</a> or <a href="/hello/world?lang=fr">a greeting</a>.
      </p>
    </>
  );
}

export function TeaList({ teas, q, tag }) {
  return (
    <>
      <h1>Teas</h1>
      <form method="get" action="/teas">
        <input type="search" name="q" value={q} placeholder="Search…" />
        <select name="tag">
          {["", "green", "black", "herbal"].map((t) => (
            <option value={t} selected={t === tag}>{t || "any"}</option>
          ))}
        </select>
        <button type="submit">Search</button>
      </form>
      {teas.length === 0 ? (
        <p class="empty">No tea matches “{q}”.</p>
      ) : (
        <ul>
          {teas.map((t) => (
            <li id={t.id} data-price={t.price}>
              <a href={`/teas/${t.id}`}>{t.name}</a> — {t.origin}, {t.price.toFixed(2)} €{" "}
              {t.tags.map((tag) => <span class="tag">{tag}</span>)}
            </li>
          ))}
        </ul>
      )}
    </>
  );
}

// Stock is an async component: Hono awaits it while rendering the page.
async function Stock({ id }) {
  const n = await Promise.resolve(id.length * 7);
  return <p class="stock">{n} tins in stock</p>;
}

export function TeaPage({ tea }) {
  return (
    <article>
      <h1>{tea.name}</h1>
      <p>From {tea.origin}.</p>
      <Stock id={tea.id} />
    </article>
  );
}

export function Hello({ name, lang }) {
  const word = { fr: "Bonjour", de: "Hallo", ja: "こんにちは" }[lang] || "Hello";
  return <h1>{word}, {name}!</h1>;
}

export function OrderForm() {
  return (
    <>
      <h1>Order</h1>
      <form method="post" action="/form">
        <input name="name" /> <input name="qty" type="number" /> <button>Order</button>
      </form>
      <form method="post" action="/form" enctype="multipart/form-data">
        <input name="name" /> <input name="note" type="file" /> <button>Upload</button>
      </form>
    </>
  );
}

// OrderDone shows what the form posted; files show their name, type, size
// and text.
export function OrderDone({ kind, fields }) {
  return (
    <>
      <h1>Thank you</h1>
      <p>Received a {kind} form.</p>
      <dl>
        {fields.map(([k, v]) =>
          typeof v === "string" ? (
            <>
              <dt>{k}</dt>
              <dd>{v}</dd>
            </>
          ) : (
            <>
              <dt>{k} (file)</dt>
              <dd>
                {v.name} · {v.type} · {v.size} bytes: <pre>{v.text}</pre>
              </dd>
            </>
          ),
        )}
      </dl>
    </>
  );
}

export function Cookies({ cookies, signed }) {
  const names = Object.keys(cookies).sort();
  return (
    <>
      <h1>Your cookies</h1>
      {names.length === 0 ? (
        <p>None yet: <a href="/cookies/set?visitor=Ada">set one</a>.</p>
      ) : (
        <ul>
          {names.map((n) => (
            <li>
              {n} = {cookies[n]}
            </li>
          ))}
        </ul>
      )}
      <p>Signed session: {signed === false ? "tampered" : signed || "none"}</p>
    </>
  );
}

export function NotFound({ path }) {
  return (
    <>
      <h1>404</h1>
      <p>Nothing at {path}.</p>
    </>
  );
}

export function Oops({ message }) {
  return (
    <>
      <h1>Something went wrong</h1>
      <p>{message}</p>
    </>
  );
}
