// What React's server.node build takes from Node, bundled against bext's shims.
import { TextEncoder } from "node:util";
import { AsyncLocalStorage } from "async_hooks";
import { Readable } from "stream";

const als = new AsyncLocalStorage();

globalThis.render = function render(req) {
  if (req.path === "/stream") return new Readable();
  const bytes = als.run("store", () => new TextEncoder().encode(als.getStore()));
  return "bytes=" + bytes.length + " after=" + als.getStore();
};
