// node-render-many.cjs — renders requests with Node on several bext server
// bundles in one process (nodeparity.RenderBundles embeds this script).
//
// Reads {"bundles": [{"file": PATH, "requests": [...]}]} on stdin and
// prints, per bundle, an array of {status, headers, html} or {error}; a
// bundle that throws while loading gets [{error}] for each request. The
// bundles run one after the other in this context, as node-render.cjs runs
// one; each must set globalThis.render.
"use strict";
const fs = require("fs");
const vm = require("vm");

globalThis.__bext_node = (id) => require(id);
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
      if (typeof globalThis.render !== "function") throw new Error("bundle did not set globalThis.render");
    } catch (err) {
      out.push(b.requests.map(() => ({ error: "load: " + String(err && err.stack || err) })));
      continue;
    }
    const render = globalThis.render;
    for (const req of b.requests) {
      try {
        const res = await render(req);
        results.push(typeof res === "string" ? { status: 200, headers: {}, html: res } : res);
      } catch (err) {
        results.push({ error: String(err && err.message) });
      }
    }
    out.push(results);
  }
  process.stdout.write(JSON.stringify(out), () => process.exit(0));
})();
