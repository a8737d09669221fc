// Server entry of the React example. bext calls globalThis.render(req) with
// req = {method, url, path, query, headers} and writes what it returns: an
// object {status, headers, html} from renderToString, or, for the streamed
// pages under /stream (src/stream.jsx), a Promise of a Response whose body
// is React's ReadableStream.
//
// react-dom/server.browser is imported explicitly: it is the build that
// needs no Node built-ins (it uses TextEncoder, which bext provides), so the
// same bundle runs in goja and in Node (see internal/nodeparity/node-render.cjs).
import React from "react";
import { renderToString } from "react-dom/server.browser";
import { route } from "./App.jsx";
import { renderStream } from "./stream.jsx";

function render(req) {
  if (req.path === "/stream" || req.path.startsWith("/stream/")) {
    return renderStream(req).then((res) => res || renderString(req));
  }
  return renderString(req);
}

function renderString(req) {
  const { status, element } = route(req.path, req.query || {});
  return {
    status,
    headers: { "content-type": "text/html; charset=utf-8" },
    html: "<!DOCTYPE html>" + renderToString(element),
  };
}

// renderPage renders a URL ("/path?a=b") to the HTML string; a thrown error
// propagates. It exists so a plain JS host (Node, a test) can call the page
// without building a request object.
function renderPage(url) {
  const [path, search = ""] = url.split("?");
  const query = {};
  for (const part of search.split("&")) {
    if (!part) continue;
    const [k, v = ""] = part.split("=").map((s) => decodeURIComponent(s.replace(/\+/g, " ")));
    if (!(k in query)) query[k] = v;
  }
  return renderString({ method: "GET", url, path, query, headers: {} }).html;
}

globalThis.render = render;
globalThis.renderPage = renderPage;
