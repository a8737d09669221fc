/** @jsxRuntime classic */
/** @jsx h */
import { h } from "./jsx.js";

const NAV = [
  ["/", "Home"],
  ["/about", "About"],
  ["/api/time", "Time"],
  ["/slow", "Slow"],
  ["/boom", "Boom"],
];

// Layout wraps a page; the client bundle's URLs come from the host through
// globalThis.__bext.assets (set by bext before renders).
export function Layout({ title, path, children }) {
  const assets = globalThis.__bext?.assets ?? { js: [], css: [] };
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title} · bext basic</title>
        <link rel="stylesheet" href="/style.css" />
        {assets.css.map((href) => <link rel="stylesheet" href={href} />)}
      </head>
      <body>
        <nav>
          {NAV.map(([href, label]) => (
            <a href={href} class={href === path ? "active" : null}>{label}</a>
          ))}
        </nav>
        <main>{children}</main>
        <footer>
          Rendered by bext in a goja isolate · <button id="counter" type="button">clicked 0 times</button>
        </footer>
        {assets.js.map((src) => <script type="module" src={src}></script>)}
      </body>
    </html>
  );
}
