// node-server.cjs BUNDLE PORT [PROCS] — serves a bext server bundle with
// Node's http module, for comparison with bext (see main.go).
//
// Loads BUNDLE (the exact IIFE bext runs in goja) and answers every request
// on 127.0.0.1:PORT with globalThis.render(req), req being the same
// {method, url, path, query, headers} bext passes. PROCS > 1 forks that many
// processes with the cluster module, sharing the port (Node renders on one
// thread per process). Prints "listening PORT" once ready.
"use strict";
const cluster = require("cluster");
const fs = require("fs");
const http = require("http");
const vm = require("vm");

const [bundlePath, portArg, procsArg] = process.argv.slice(2);
const port = Number(portArg);
const procs = Math.max(1, Number(procsArg || 1));
if (!bundlePath || !Number.isInteger(port)) {
  console.error("usage: node node-server.cjs BUNDLE PORT [PROCS]");
  process.exit(2);
}

if (procs > 1 && cluster.isPrimary) {
  let ready = 0;
  for (let i = 0; i < procs; i++) cluster.fork();
  cluster.on("message", (_, msg) => {
    if (msg === "listening" && ++ready === procs) console.log("listening " + port);
  });
  let stopping = false;
  cluster.on("exit", (_, code) => {
    if (!stopping) process.exit(code || 1); // a worker crashed: fail loudly
    if (Object.keys(cluster.workers).length === 0) process.exit(0);
  });
  // SIGTERM stops the workers and reaps them before the primary exits.
  process.on("SIGTERM", () => {
    stopping = true;
    for (const w of Object.values(cluster.workers)) w.kill();
  });
} else {
  serve();
}

function serve() {
  vm.runInThisContext(fs.readFileSync(bundlePath, "utf8"), { filename: bundlePath });
  if (typeof globalThis.render !== "function") {
    console.error("bundle did not set globalThis.render");
    process.exit(1);
  }
  const server = http.createServer(async (req, res) => {
    const u = new URL(req.url, "http://localhost");
    const query = {};
    for (const [k, v] of u.searchParams) if (!(k in query)) query[k] = v;
    const headers = {};
    for (const [k, v] of Object.entries(req.headers)) headers[k] = Array.isArray(v) ? v.join(", ") : v;
    try {
      let out = await globalThis.render({ method: req.method, url: req.url, path: u.pathname, query, headers });
      if (typeof out === "string") out = { status: 200, html: out };
      res.writeHead(out.status || 200, { "content-type": "text/html; charset=utf-8", ...(out.headers || {}) });
      res.end(out.html || "");
    } catch (err) {
      res.writeHead(500, { "content-type": "text/plain; charset=utf-8" });
      res.end("render failed: " + (err && err.message));
    }
  });
  server.keepAliveTimeout = 120000;
  server.listen(port, "127.0.0.1", () => {
    if (cluster.isWorker) process.send("listening");
    else console.log("listening " + port);
  });
}
