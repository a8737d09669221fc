import React from "react";

const nav = [
  ["/small", "Small"],
  ["/", "Catalogue"],
  ["/large", "Everything"],
  ["/broken", "Broken page"],
];

const headerStyle = { display: "flex", alignItems: "center", gap: 16, padding: "12px 24px", borderBottom: "1px solid #ddd" };
const mainStyle = { maxWidth: 960, margin: "0 auto", padding: 24, fontFamily: "system-ui, sans-serif", lineHeight: 1.5 };

// Layout is the whole document: React renders <html> too, so one
// renderToString call produces the page.
export function Layout({ title, path, children }) {
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title + " · bext React example"}</title>
        <link rel="stylesheet" href="/style.css" />
      </head>
      <body>
        <header style={headerStyle}>
          <strong style={{ fontSize: 20 }}>bext ⚡ shop</strong>
          <nav aria-label="main">
            {nav.map(([href, label]) => (
              <a key={href} href={href} aria-current={href === path ? "page" : undefined} style={{ marginRight: 12 }}>
                {label}
              </a>
            ))}
          </nav>
        </header>
        <main style={mainStyle}>{children}</main>
        <footer style={{ textAlign: "center", color: "#777", fontSize: 12, padding: 24 }}>
          Rendered by React {React.version} on the server. 日本語 · עברית · العربية · 🚀
        </footer>
      </body>
    </html>
  );
}
