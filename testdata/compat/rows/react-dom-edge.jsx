// react-dom/server (the edge build under the workerd condition):
// renderToReadableStream read to the end, with Suspense boundaries whose
// data arrives after the shell. React 19 outlines a finished boundary by
// its size in UTF-8 bytes: one over 500 bytes that would take the stream
// past progressiveChunkSize is sent apart, with a script. Here the "wide"
// boundary is (540 bytes, 280 UTF-16 units), the "narrow" one is not.
import { Suspense, use } from "react";
import { renderToReadableStream } from "react-dom/server";
const later = (v) => new Promise((resolve) => setTimeout(() => resolve(v), 0));
function Items({ data }) {
  return <ul>{use(data).map((it) => <li key={it.id} title={it.title}>{it.title} «{it.id}» 🍵</li>)}</ul>;
}
function App() {
  const small = later([{ id: 1, title: "ä" }]);
  const many = later(Array.from({ length: 40 }, (_, i) => ({ id: i, title: "item ünïcödé " + i })));
  return (
    <html><body>
      <p>streamed «edge» render</p>
      <Suspense fallback={<p>never shown</p>}><p className="wide">{"ü".repeat(260)}</p></Suspense>
      <Suspense fallback={<p>never shown</p>}><p className="narrow">{"u".repeat(260)}</p></Suspense>
      <Suspense fallback={<p>loading small…</p>}><Items data={small} /></Suspense>
      <Suspense fallback={<p>loading many…</p>}><Items data={many} /></Suspense>
    </body></html>
  );
}
globalThis.render = async () => {
  const stream = await renderToReadableStream(<App />, { progressiveChunkSize: 600 });
  await stream.allReady;
  return await new Response(stream).text();
};
