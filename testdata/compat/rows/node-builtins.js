// An SSR page using Node built-ins the way server code does: EventEmitter,
// Buffer, util.format, path, querystring, crypto hashes, AsyncLocalStorage.
import { EventEmitter } from "node:events";
import { format } from "node:util";
import path from "node:path";
import qs from "node:querystring";
import { createHash } from "node:crypto";
import { AsyncLocalStorage } from "node:async_hooks";
const als = new AsyncLocalStorage();
globalThis.render = (req) => als.run({ path: req.path }, async () => {
  const bus = new EventEmitter();
  const seen = [];
  bus.on("hit", (n) => seen.push(n));
  bus.emit("hit", 1);
  await new Promise((r) => setTimeout(r, 1));
  bus.emit("hit", als.getStore().path);
  const etag = createHash("sha1").update(Buffer.from(seen.join())).digest("base64url");
  return format("%s %j %d", path.posix.join("/a", "../b"), qs.parse("x=1&y=2"), seen.length) + " " + etag;
});
