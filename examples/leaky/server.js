// A server entry that leaks on purpose. `remember` closes over `kept`, an
// array that lives in the module scope esbuild wraps in an IIFE: it is
// reachable from the render function's closure, not from globalThis. Each
// render adds one ~100 KB string, so the isolate grows by ~100 KB per render
// until bext's memory check rotates it (see config.toml).

const entryBytes = 100 * 1024;

const remember = (() => {
  const kept = [];
  return (url) => {
    // A fresh string per render (the url suffix defeats any sharing).
    kept.push("x".repeat(entryBytes) + url);
    return kept.length;
  };
})();

function escapeHTML(s) {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export default function render(req) {
  const n = remember(req.url);
  const kb = Math.round((n * entryBytes) / 1024);
  return `<!doctype html>
<html>
  <head><meta charset="utf-8"><title>leaky</title></head>
  <body>
    <h1>leaky</h1>
    <p>This worker holds <b>${n}</b> entries (about ${kb} KB) in a closure.</p>
    <p>Last request: <code>${escapeHTML(req.url)}</code></p>
  </body>
</html>`;
}
