test(() => {
  const t = new EventTarget();
  const log = [];
  t.addEventListener("x", () => log.push("bubble1"));
  t.addEventListener("x", () => log.push("capture"), true);
  t.addEventListener("x", () => log.push("bubble2"), { capture: false });
  t.dispatchEvent(new Event("x"));
  assert_array_equals(log, ["capture", "bubble1", "bubble2"]);
}, "spec: capture listeners run first at the target, then the others (Node 20 runs all in order)");

test(() => {
  const t = new EventTarget();
  const e = new Event("x");
  let phase, target, current, thisv;
  t.addEventListener("x", function (ev) { phase = ev.eventPhase; target = ev.target; current = ev.currentTarget; thisv = this; });
  assert_true(t.dispatchEvent(e));
  assert_equals(phase, Event.AT_TARGET);
  assert_equals(target, t); assert_equals(current, t); assert_equals(thisv, t);
  assert_equals(e.eventPhase, Event.NONE);
  assert_equals(e.currentTarget, null);
  assert_equals(e.target, t, "target stays after dispatch");
}, "dispatch sets target, currentTarget, eventPhase and this");

test(() => {
  const t = new EventTarget();
  let n = 0;
  const f = () => n++;
  t.addEventListener("x", f); t.addEventListener("x", f); t.addEventListener("x", f, false);
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 1);
  t.addEventListener("x", f, true);
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 3, "a capture listener is a different listener");
}, "the same listener is added once per capture value");

test(() => {
  const t = new EventTarget();
  let n = 0;
  const f = () => n++;
  t.addEventListener("x", f, true);
  t.removeEventListener("x", f);
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 1, "removing the non-capture one leaves the capture one");
  t.removeEventListener("x", f, { capture: true });
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 1);
}, "removeEventListener matches type, callback and capture");

test(() => {
  const t = new EventTarget();
  let n = 0;
  t.addEventListener("x", () => n++, { once: true });
  t.dispatchEvent(new Event("x")); t.dispatchEvent(new Event("x"));
  assert_equals(n, 1);
}, "once listeners run once");

test(() => {
  const t = new EventTarget();
  let n = 0;
  const f = () => { n++; t.dispatchEvent(new Event("x")); };
  t.addEventListener("x", f, { once: true });
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 1, "removed before it runs");
}, "a once listener is removed before it is called");

test(() => {
  const t = new EventTarget();
  let prevented;
  t.addEventListener("x", (e) => { e.preventDefault(); prevented = e.defaultPrevented; }, { passive: true });
  assert_true(t.dispatchEvent(new Event("x", { cancelable: true })));
  assert_false(prevented);
}, "spec: preventDefault in a passive listener does nothing");

test(() => {
  const t = new EventTarget();
  t.addEventListener("x", (e) => e.preventDefault());
  assert_false(t.dispatchEvent(new Event("x", { cancelable: true })));
  assert_true(t.dispatchEvent(new Event("x")));
}, "dispatchEvent returns false when canceled");

test(() => {
  const t = new EventTarget();
  const log = [];
  t.addEventListener("x", (e) => { log.push(1); e.stopImmediatePropagation(); });
  t.addEventListener("x", () => log.push(2));
  t.dispatchEvent(new Event("x"));
  assert_array_equals(log, [1]);
}, "stopImmediatePropagation stops the remaining listeners");

test(() => {
  const t = new EventTarget();
  const log = [];
  t.addEventListener("x", (e) => { log.push(1); e.stopPropagation(); });
  t.addEventListener("x", () => log.push(2));
  t.dispatchEvent(new Event("x"));
  assert_array_equals(log, [1, 2], "same target, same phase: the others still run");
}, "stopPropagation lets the target's other listeners run");

test(() => {
  const t = new EventTarget();
  const e = new Event("x");
  t.addEventListener("x", (ev) => ev.stopPropagation());
  t.dispatchEvent(e);
  assert_false(e.cancelBubble, "flags are cleared after dispatch");
  let n = 0;
  t.addEventListener("x", () => n++);
  t.dispatchEvent(e);
  assert_equals(n, 1, "the event can be dispatched again");
}, "spec: propagation flags are reset after dispatch");

test(() => {
  const t = new EventTarget();
  const log = [];
  const b = () => log.push("b");
  t.addEventListener("x", () => { log.push("a"); t.removeEventListener("x", b); t.addEventListener("x", () => log.push("c")); });
  t.addEventListener("x", b);
  t.dispatchEvent(new Event("x"));
  assert_array_equals(log, ["a"]);
}, "listeners removed during dispatch do not run, added ones neither");

test(() => {
  const t = new EventTarget();
  const obj = { n: 0, handleEvent(e) { this.n++; assert_equals(this, obj); } };
  t.addEventListener("x", obj);
  t.dispatchEvent(new Event("x"));
  obj.handleEvent = function () { this.n += 10; };
  t.dispatchEvent(new Event("x"));
  assert_equals(obj.n, 11, "handleEvent is looked up at each call");
}, "listener objects with handleEvent");

test(() => {
  const t = new EventTarget();
  let n = 0;
  t.addEventListener("x", () => { throw new Error("boom"); });
  t.addEventListener("x", { handleEvent: 5 });
  t.addEventListener("x", () => n++);
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 1);
}, "a throwing listener does not stop the dispatch");

test(() => {
  const t = new EventTarget();
  t.addEventListener("x", null);
  t.addEventListener("x", undefined);
  t.removeEventListener("x", null);
  assert_throws_js(TypeError, () => t.addEventListener("x", 5));
  assert_throws_js(TypeError, () => t.addEventListener("x"));
}, "null callbacks are ignored, non-objects throw");

test(() => {
  const t = new EventTarget();
  assert_throws_js(TypeError, () => t.dispatchEvent({ type: "x" }));
  assert_throws_js(TypeError, () => t.dispatchEvent());
}, "dispatchEvent rejects non-events");

test(() => {
  const t = new EventTarget();
  const e = new Event("x");
  let err;
  t.addEventListener("x", () => { try { t.dispatchEvent(e); } catch (x) { err = x; } });
  t.dispatchEvent(e);
  assert_true(err instanceof DOMException);
  assert_equals(err.name, "InvalidStateError");
}, "spec: dispatching an event being dispatched throws InvalidStateError");

test(() => {
  const t = new EventTarget();
  const e = new Event("x");
  let trusted;
  t.addEventListener("x", (ev) => { trusted = ev.isTrusted; });
  t.dispatchEvent(e);
  assert_false(trusted);
}, "events dispatched by script are not trusted");

test(() => {
  class Emitter extends EventTarget { constructor() { super(); this.count = 0; } fire() { this.dispatchEvent(new Event("go")); } }
  const em = new Emitter();
  em.addEventListener("go", () => em.count++);
  em.fire();
  assert_equals(em.count, 1);
  assert_true(em instanceof EventTarget);
}, "EventTarget is subclassable");

test(() => {
  const c = new AbortController();
  const t = new EventTarget();
  let n = 0;
  t.addEventListener("x", () => n++, { signal: c.signal });
  t.dispatchEvent(new Event("x"));
  c.abort();
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 1);
  t.addEventListener("x", () => n++, { signal: c.signal });
  t.dispatchEvent(new Event("x"));
  assert_equals(n, 1, "an aborted signal adds nothing");
  assert_throws_js(TypeError, () => t.addEventListener("x", () => {}, { signal: {} }));
}, "the signal option removes the listener on abort");

test(() => {
  const t = new EventTarget();
  const seen = [];
  t.addEventListener("x", () => seen.push("x"));
  t.dispatchEvent(new Event("y"));
  assert_array_equals(seen, []);
  assert_equals(EventTarget.length, 0);
  assert_equals(EventTarget.prototype.addEventListener.length, 2);
  assert_equals(EventTarget.prototype.dispatchEvent.length, 1);
}, "listeners only see their type; lengths");

test(() => {
  const t = new EventTarget();
  const add = t.addEventListener;
  assert_throws_js(TypeError, () => add.call({}, "x", () => {}));
}, "EventTarget methods check their receiver");
