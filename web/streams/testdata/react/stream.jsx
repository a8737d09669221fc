// React 19's renderToReadableStream, bundled the way bext bundles a
// server entry (react_test.go), against testdata/npm/react19. A Suspense
// boundary resolves on a timer, so React streams its shell first and the
// boundary's content in later chunks.
import { Suspense, use } from "react";
import { renderToReadableStream, renderToString } from "react-dom/server";

const slow = new Map();
function Slow({ id }) {
  let p = slow.get(id);
  if (!p) {
    p = new Promise((resolve) => setTimeout(() => resolve("loaded " + id), 5));
    slow.set(id, p);
  }
  return <p className="slow">{use(p)}</p>;
}

function Page({ n }) {
  const rows = [];
  for (let i = 0; i < n; i++) rows.push(<li key={i}>row {i} — ünïcödé 🍵</li>);
  return (
    <html>
      <body>
        <h1>Streaming &lt;test&gt;</h1>
        <ul>{rows}</ul>
        <Suspense fallback={<p>loading…</p>}>
          <Slow id="a" />
        </Suspense>
      </body>
    </html>
  );
}

globalThis.reactStream = async (n) => {
  const stream = await renderToReadableStream(<Page n={n} />);
  const reader = stream.getReader();
  const dec = new TextDecoder();
  const chunks = [];
  let html = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) throw new TypeError("chunk is not a Uint8Array");
    chunks.push(value.byteLength);
    html += dec.decode(value, { stream: true });
  }
  await stream.allReady;
  return { html, chunks, plain: renderToString(<Page n={n} />) };
};
