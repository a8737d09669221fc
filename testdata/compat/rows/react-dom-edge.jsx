// react-dom/server (the edge build under the workerd condition):
// renderToReadableStream read to the end.
import { renderToReadableStream } from "react-dom/server";
function App() { return <html><body><p>streamed «edge» render</p></body></html>; }
globalThis.render = async () => {
  const stream = await renderToReadableStream(<App />);
  await stream.allReady;
  return await new Response(stream).text();
};
