// A third server entry of the React example: the same pages rendered with
// Node's streaming renderer, renderToPipeableStream (react-dom/server.node),
// piped into a node:stream Writable once everything is ready. bext's parity
// test and benchmarks use it to cover that build.
import React from "react";
import { renderToPipeableStream } from "react-dom/server.node";
import { Writable } from "node:stream";
import { route } from "./App.jsx";

function render(req) {
  const { status, element } = route(req.path, req.query || {});
  return new Promise((resolve, reject) => {
    const chunks = [];
    const sink = new Writable({
      write(chunk, encoding, callback) {
        chunks.push(Buffer.from(chunk));
        callback();
      },
    });
    sink.on("finish", () =>
      resolve({
        status,
        headers: { "content-type": "text/html; charset=utf-8" },
        html: "<!DOCTYPE html>" + Buffer.concat(chunks).toString("utf8"),
      }),
    );
    const { pipe } = renderToPipeableStream(element, {
      onAllReady() {
        pipe(sink);
      },
      onShellError: reject,
      onError(err) {
        reject(err);
      },
    });
  });
}

globalThis.render = render;
