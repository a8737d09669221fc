// node-render-many.cjs — renders requests with Node on several bext server
// bundles in one process (nodeparity.RenderBundles embeds this script).
//
// Reads {"bundles": [{"file": PATH, "requests": [...]}]} on stdin and
// prints, per bundle, an array of {status, headers, html} or {error}; a
// bundle that throws while loading gets [{error}] for each request. The
// bundles run one after the other in this context, as node-render.cjs runs
// one; each must set globalThis.render, except a bundle given "fetch"
// requests ({method, url, headers: [[name, value]], body64}) and "env":
// its default export's fetch(request, env, ctx) answers those.
"use strict";
const fs = require("fs");
const vm = require("vm");

globalThis.__bext_node = (id) => require(id);

// result puts what render returned in the {status, headers, html} shape:
// a string is a 200 page; a Response (whose body may be a stream) is read
// to its end.
async function result(res) {
  if (typeof res === "string") return { status: 200, headers: {}, html: res };
  if (res instanceof Response) {
    return { status: res.status, headers: headerObject(res.headers), html: await res.text() };
  }
  return res;
}

// headerObject joins repeated headers (Set-Cookie) with ", ", as the Go
// side's nodeparity.HeaderMap does.
function headerObject(headers) {
  const o = {};
  for (const [k, v] of headers) o[k] = k in o ? o[k] + ", " + v : v;
  return o;
}

const ctx = { waitUntil(p) { Promise.resolve(p).catch(() => {}); }, passThroughOnException() {} };

// fetchAll sends a fetch-handler bundle its requests.
async function fetchAll(b) {
  const entry = globalThis.__bext_entry;
  const handler = entry && entry.default;
  if (!handler || typeof handler.fetch !== "function") throw new Error("the bundle's default export has no fetch method");
  const env = b.env || {};
  Object.assign(process.env, env);
  const results = [];
  for (const r of b.fetch) {
    try {
      const init = { method: r.method, headers: r.headers || [] };
      if (r.body64) init.body = Buffer.from(r.body64, "base64");
      const res = await handler.fetch(new Request(r.url, init), env, ctx);
      if (!(res instanceof Response)) throw new Error("the fetch handler returned " + Object.prototype.toString.call(res) + ", not a Response");
      results.push(await result(res));
    } catch (err) {
      results.push({ error: String(err && err.message) });
    }
  }
  return results;
}
(async () => {
  const { bundles } = JSON.parse(fs.readFileSync(0, "utf8"));
  const out = [];
  const baseline = new Set(Object.getOwnPropertyNames(globalThis));
  for (const b of bundles) {
    // globals an earlier bundle added (a DOM shim …) must not leak into
    // the next one
    for (const name of Object.getOwnPropertyNames(globalThis)) {
      if (!baseline.has(name)) {
        try { delete globalThis[name]; } catch {}
      }
    }
    delete globalThis.render;
    const results = [];
    try {
      vm.runInThisContext(fs.readFileSync(b.file, "utf8"), { filename: b.file });
      if (b.fetch) {
        out.push(await fetchAll(b));
        continue;
      }
      if (typeof globalThis.render !== "function") throw new Error("bundle did not set globalThis.render");
    } catch (err) {
      out.push((b.fetch || b.requests).map(() => ({ error: "load: " + String(err && err.stack || err) })));
      continue;
    }
    const render = globalThis.render;
    for (const req of b.requests) {
      try {
        results.push(await result(await render(req)));
      } catch (err) {
        results.push({ error: String(err && err.message) });
      }
    }
    out.push(results);
  }
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
})();
