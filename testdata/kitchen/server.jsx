/** @jsxRuntime classic */
/** @jsx h */
import { h } from "./h.js";
import { Item } from "./Item.jsx";

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

class Counter {
  #n = 0;
  static label = "count";
  inc() { return ++this.#n; }
}

async function* numbers() { yield 1; yield 2; }

const routes = {
  "/": () => <ul>{["a", "b"].map((n) => <Item name={n} />)}</ul>,
  "/object": () => ({ status: 404, headers: { "x-kind": "object" }, html: "<p>not here</p>" }),
  "/promise": () => Promise.resolve({ html: "<p>from promise</p>" }),
  "/async": async () => {
    const order = [];
    queueMicrotask(() => order.push("micro"));
    setTimeout(() => order.push("timeout0"), 0);
    setImmediate(() => order.push("immediate"));
    process.nextTick(() => order.push("tick"));
    await sleep(20);
    const ch = new MessageChannel();
    const got = new Promise((resolve) => { ch.port1.onmessage = (e) => resolve(e.data); });
    ch.port2.postMessage("msg");
    order.push(await got);
    return order.join(",");
  },
  "/syntax": async () => {
    const o = { a: { b: null } };
    const c = new Counter();
    c.inc();
    let sum = 0;
    for await (const n of numbers()) sum += n;
    return `${o?.a?.b ?? "dflt"} ${Counter.label}=${c.inc()} sum=${sum}`;
  },
  "/req": (req) => JSON.stringify(req),
  "/throw": () => { throw new Error("kaboom"); },
  "/reject": () => Promise.reject(new Error("nope")),
  "/bad": () => 42,
  "/badstatus": () => ({ status: 42, html: "x" }),
  "/never": () => new Promise(() => {}),
  "/loop": () => { while (true) {} },
  "/deep": () => { const f = (n) => f(n + 1) + 1; return f(0); },
  "/panic": () => globalThis.__bext_test_panic("host exploded"),
  // The lookahead makes goja use its backtracking engine (plain patterns run
  // on Go's linear regexp); each extra "a" quadruples the work, 24 takes ~1 s.
  "/regexp": (req) => String(/^(a+)+(?=c)/.test("a".repeat(Number(req.query.n ?? 24)) + "b")),
  "/timer-leak": () => { setTimeout(() => { globalThis.leaked = true; }, 0); return "set"; },
  "/timer-check": () => String(globalThis.leaked === true),
  "/interval": async () => {
    let n = 0;
    await new Promise((resolve) => { const id = setInterval(() => { if (++n === 3) { clearInterval(id); resolve(); } }, 1); });
    return "ticks=" + n;
  },
  "/timer-throws": () => new Promise(() => { setTimeout(() => { throw new Error("late failure"); }, 1); }),
  // The first is replaced at build time; the lookup by a computed key reads
  // the isolate's process.env at run time.
  "/env": () => { const k = "NODE_ENV"; return `${process.env.NODE_ENV} ${process.env[k]} ${process.env.GREETING}`; },
  "/encode": (req) => {
    const text = req.query.text;
    const bytes = new TextEncoder().encode(text);
    const back = new TextDecoder().decode(bytes);
    const into = new Uint8Array(4);
    const r = new TextEncoder().encodeInto(text, into);
    return JSON.stringify({ len: bytes.length, same: back === text, read: r.read, written: r.written, buf: new TextDecoder().decode(bytes.buffer) === text });
  },
  "/assets": () => JSON.stringify(globalThis.__bext.assets),
  "/perf": () => String(typeof performance.now() === "number" && performance.now() >= 0),
  "/globals": () => String(self === globalThis && global === globalThis),
};

export default function render(req) {
  const route = routes[req.path];
  if (!route) return { status: 404, html: "no route " + req.path };
  return route(req);
}
