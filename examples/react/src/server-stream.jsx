// A second server entry of the React example: the same pages rendered with
// React's streaming renderer, renderToReadableStream (react-dom/server.browser),
// read to the end. bext's parity test and benchmarks use it to cover the
// streaming build; `bext serve` uses src/server.jsx.
import React from "react";
import { renderToReadableStream } from "react-dom/server.browser";
import { route } from "./App.jsx";

async function render(req) {
  const { status, element } = route(req.path, req.query || {});
  // A component that throws in the shell rejects the promise (a failed
  // render, 500); onError keeps React from also logging it.
  const stream = await renderToReadableStream(element, { onError() {} });
  await stream.allReady;
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    html: "<!DOCTYPE html>" + (await new Response(stream).text()),
  };
}

globalThis.render = render;
