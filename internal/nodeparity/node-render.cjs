// node-render.cjs BUNDLE — renders requests with Node on a bext server bundle.
//
// Reads a JSON array of requests ({method, url, path, query, headers}) on
// stdin, runs BUNDLE (the exact IIFE bext runs in goja) in this context,
// calls globalThis.render(req) for each and prints a JSON array of
// {status, headers, html} or {error} on stdout (a Response is read to its
// end: status, headers, body as html). nodeparity.Render embeds this
// script; the parity tests compare its output with goja's byte for byte.
"use strict";
const fs = require("fs");
const vm = require("vm");

const [bundlePath] = process.argv.slice(2);
if (!bundlePath) {
  console.error("usage: node node-render.cjs BUNDLE < requests.json");
  process.exit(2);
}
// A bext server bundle loads Node built-ins through this global (bext's
// own implementations in goja, Node's here).
globalThis.__bext_node = (id) => require(id);

// result puts what render returned in the {status, headers, html} shape:
// a string is a 200 page; a Response (whose body may be a stream) is read
// to its end.
async function result(res) {
  if (typeof res === "string") return { status: 200, headers: {}, html: res };
  if (res instanceof Response) {
    const headers = {};
    for (const [k, v] of res.headers) headers[k] = k in headers ? headers[k] + ", " + v : v;
    return { status: res.status, headers, html: await res.text() };
  }
  return res;
}
vm.runInThisContext(fs.readFileSync(bundlePath, "utf8"), { filename: bundlePath });
if (typeof globalThis.render !== "function") {
  console.error("bundle did not set globalThis.render");
  process.exit(1);
}

(async () => {
  const out = [];
  for (const req of JSON.parse(fs.readFileSync(0, "utf8"))) {
    try {
      out.push(await result(await globalThis.render(req)));
    } catch (err) {
      out.push({ error: String(err && err.message) });
    }
  }
  // React 19 opens a MessageChannel at load, whose port keeps Node's event
  // loop alive: exit once the output is flushed.
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
})();
