// react-dom/server.node renderToPipeableStream into a node:stream Writable,
// with a Suspense boundary resolved before onAllReady.
import { Suspense, use } from "react";
import { renderToPipeableStream } from "react-dom/server.node";
import { Writable } from "node:stream";
const data = new Map();
function Slow({ id }) {
  if (!data.has(id)) data.set(id, new Promise((r) => setTimeout(() => r("item " + id), 2)));
  return <li>{use(data.get(id))}</li>;
}
globalThis.render = () => new Promise((resolve, reject) => {
  data.clear();
  const chunks = [];
  const sink = new Writable({ write(c, enc, cb) { chunks.push(Buffer.from(c)); cb(); } });
  sink.on("finish", () => resolve(Buffer.concat(chunks).toString("utf8")));
  const { pipe } = renderToPipeableStream(
    <html><body><ul><Suspense fallback={<li>loading</li>}><Slow id={1} /><Slow id={2} /></Suspense></ul></body></html>,
    { onAllReady() { pipe(sink); }, onShellError: reject, onError: reject },
  );
});
