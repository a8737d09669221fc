// node:timers — the isolate's timer globals.
"use strict";
const g = globalThis;
for (const name of ["setTimeout", "clearTimeout", "setInterval", "clearInterval", "setImmediate", "clearImmediate"]) {
  Object.defineProperty(exports, name, { enumerable: true, get: () => g[name] });
}
Object.defineProperty(exports, "promises", { enumerable: true, get: () => require("timers/promises") });
