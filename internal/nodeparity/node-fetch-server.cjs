// node-fetch-server.cjs BUNDLE [ENV_JSON] — serves the fetch handler of a
// bext server bundle with Node's own http module, the way a Workers-style
// app runs on Node (@hono/node-server does the same): each IncomingMessage
// becomes a WHATWG Request, the handler's Response is written back with
// res.writeHead and its body streamed chunk by chunk.
//
// BUNDLE is the exact IIFE bext runs in goja (its exports land on
// globalThis.__bext_entry); its default export must be an object with
// fetch(request, env, ctx). ENV_JSON ({"NAME": "value"}) is passed as env
// and copied into process.env, as bext does with [app.env]. Prints
// "listening PORT" on stdout once it accepts connections on 127.0.0.1.
// nodeparity.ServeFetch embeds this script.
"use strict";
const fs = require("fs");
const http = require("http");
const vm = require("vm");
const { Readable } = require("stream");

const [bundlePath, envJSON = "{}"] = process.argv.slice(2);
if (!bundlePath) {
  console.error("usage: node node-fetch-server.cjs BUNDLE [ENV_JSON]");
  process.exit(2);
}
const env = JSON.parse(envJSON);
Object.assign(process.env, env);
globalThis.__bext_node = (id) => require(id);
vm.runInThisContext(fs.readFileSync(bundlePath, "utf8"), { filename: bundlePath });
const entry = globalThis.__bext_entry;
const handler = entry && entry.default;
if (!handler || typeof handler.fetch !== "function") {
  console.error("the bundle's default export has no fetch(request, env, ctx) method");
  process.exit(1);
}

// ctx.waitUntil keeps nothing alive here (Node's process lives on); a
// rejection is logged, as a Worker runtime logs it.
const ctx = {
  waitUntil(p) {
    Promise.resolve(p).catch((err) => console.error("waitUntil:", err));
  },
  passThroughOnException() {},
};

function toRequest(req, signal) {
  const headers = new Headers();
  for (let i = 0; i < req.rawHeaders.length; i += 2) headers.append(req.rawHeaders[i], req.rawHeaders[i + 1]);
  const init = { method: req.method, headers, signal };
  if (req.method !== "GET" && req.method !== "HEAD") {
    init.body = Readable.toWeb(req);
    init.duplex = "half";
  }
  return new Request(`http://${req.headers.host}${req.url}`, init);
}

function fail(res, status, msg) {
  res.writeHead(status, { "content-type": "text/plain; charset=utf-8" });
  res.end(msg);
}

async function writeBody(req, res, body) {
  const reader = body.getReader();
  res.on("close", () => {
    if (!res.writableFinished) reader.cancel(new Error("client disconnected")).catch(() => {});
  });
  if (req.method === "HEAD") {
    await reader.cancel();
    res.end();
    return;
  }
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (res.destroyed) return;
    if (!res.write(value)) {
      await new Promise((resolve) => {
        res.once("drain", resolve);
        res.once("close", resolve);
      });
    }
  }
  res.end();
}

const server = http.createServer(async (req, res) => {
  const aborter = new AbortController();
  res.on("close", () => {
    if (!res.writableFinished) aborter.abort(new Error("client disconnected"));
  });
  let response;
  try {
    response = await handler.fetch(toRequest(req, aborter.signal), env, ctx);
  } catch (err) {
    return fail(res, 500, String((err && err.stack) || err));
  }
  if (!(response instanceof Response)) {
    return fail(res, 500, "fetch handler returned " + Object.prototype.toString.call(response) + ", not a Response");
  }
  const headers = {};
  for (const [name, value] of response.headers) {
    if (name !== "set-cookie") headers[name] = value;
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length) headers["set-cookie"] = cookies;
  if (response.statusText) res.writeHead(response.status, response.statusText, headers);
  else res.writeHead(response.status, headers);
  if (!response.body) return res.end();
  try {
    await writeBody(req, res, response.body);
  } catch (err) {
    res.destroy(err);
  }
});
server.keepAliveTimeout = 60000;
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
