test(() => {
  const e = new Event("x");
  assert_equals(e.type, "x");
  assert_equals(e.target, null);
  assert_equals(e.currentTarget, null);
  assert_equals(e.srcElement, null);
  assert_equals(e.eventPhase, Event.NONE);
  assert_false(e.bubbles); assert_false(e.cancelable); assert_false(e.composed);
  assert_false(e.defaultPrevented); assert_false(e.isTrusted);
  assert_true(e.returnValue); assert_false(e.cancelBubble);
  assert_equals(typeof e.timeStamp, "number");
}, "new Event: default attribute values");

test(() => {
  const e = new Event("x", { bubbles: true, cancelable: true, composed: true });
  assert_true(e.bubbles); assert_true(e.cancelable); assert_true(e.composed);
}, "new Event: EventInit members");

test(() => {
  assert_equals(Event.NONE, 0); assert_equals(Event.CAPTURING_PHASE, 1);
  assert_equals(Event.AT_TARGET, 2); assert_equals(Event.BUBBLING_PHASE, 3);
  assert_equals(Event.length, 1);
}, "Event phase constants and length");

test(() => {
  assert_equals(Event.prototype.AT_TARGET, 2);
  assert_equals(new Event("x").BUBBLING_PHASE, 3);
}, "spec: the phase constants are on the prototype too");

test(() => {
  assert_throws_js(TypeError, () => new Event());
  assert_throws_js(TypeError, () => new Event("x", 5));
}, "Event constructor: type required, init must be an object");

test(() => {
  assert_throws_js(TypeError, () => Event("x"));
}, "Event called without new throws");

test(() => {
  assert_equals(new Event(undefined).type, "undefined");
  assert_equals(new Event(null).type, "null");
  assert_equals(new Event(12).type, "12");
}, "Event type is converted to a string");

test(() => {
  const e = new Event("x", { cancelable: true });
  e.preventDefault();
  assert_true(e.defaultPrevented);
  assert_false(e.returnValue);
  const n = new Event("x");
  n.preventDefault();
  assert_false(n.defaultPrevented, "not cancelable");
}, "preventDefault only cancels cancelable events");

test(() => {
  const e = new Event("x", { cancelable: true });
  e.returnValue = false;
  assert_true(e.defaultPrevented);
  e.returnValue = true;
  assert_true(e.defaultPrevented, "setting true does not undo");
}, "spec: returnValue = false cancels (Node 20 has no setter)");

test(() => {
  const e = new Event("x");
  e.cancelBubble = true;
  assert_true(e.cancelBubble);
  e.cancelBubble = false;
  assert_true(e.cancelBubble, "cannot be unset");
}, "cancelBubble = true stops propagation and sticks");

test(() => {
  const e = new Event("a");
  e.initEvent("b", true, true);
  assert_equals(e.type, "b"); assert_true(e.bubbles); assert_true(e.cancelable);
  e.preventDefault();
  e.initEvent("c");
  assert_false(e.defaultPrevented, "initEvent clears the canceled flag");
  assert_false(e.bubbles);
}, "initEvent reinitializes");

test(() => {
  const t = new EventTarget();
  const e = new Event("a");
  t.addEventListener("a", () => e.initEvent("b", true, true));
  t.dispatchEvent(e);
  assert_equals(e.type, "a", "initEvent during dispatch does nothing");
}, "initEvent during dispatch is ignored");

test(() => {
  const e = new Event("x");
  assert_array_equals(e.composedPath(), []);
  const t = new EventTarget();
  let path;
  t.addEventListener("x", (ev) => { path = ev.composedPath(); });
  t.dispatchEvent(e);
  assert_equals(path.length, 1); assert_equals(path[0], t);
  assert_array_equals(e.composedPath(), [], "cleared after dispatch");
}, "composedPath is [target] during dispatch, [] otherwise");

test(() => {
  const desc = Object.getOwnPropertyDescriptor(new Event("x"), "isTrusted");
  assert_equals(typeof desc.get, "function");
  assert_false(desc.configurable);
}, "spec: isTrusted is an unforgeable own accessor");

test(() => {
  const e = new CustomEvent("c", { detail: { a: 1 }, bubbles: true });
  assert_equals(e.detail.a, 1);
  assert_true(e.bubbles);
  assert_true(e instanceof Event);
  assert_equals(new CustomEvent("c").detail, null);
  assert_equals(CustomEvent.length, 1);
}, "CustomEvent detail");

test(() => {
  const e = new CustomEvent("a");
  e.initCustomEvent("b", true, false, 7);
  assert_equals(e.type, "b"); assert_equals(e.detail, 7); assert_true(e.bubbles);
}, "spec: CustomEvent initCustomEvent (Node 20 has none)");

test(() => {
  const get = Object.getOwnPropertyDescriptor(Event.prototype, "type").get;
  assert_throws_js(TypeError, () => get.call({}));
  assert_throws_js(TypeError, () => Event.prototype.preventDefault.call({}));
}, "Event members check their receiver");

test(() => {
  assert_equals(Object.prototype.toString.call(new Event("x")), "[object Event]");
  assert_equals(Object.prototype.toString.call(new CustomEvent("x")), "[object CustomEvent]");
  assert_equals(Object.prototype.toString.call(new EventTarget()), "[object EventTarget]");
}, "Symbol.toStringTag of events and targets");

test(() => {
  class MyEvent extends Event { constructor() { super("mine", { cancelable: true }); this.extra = 1; } }
  const e = new MyEvent();
  assert_equals(e.type, "mine"); assert_equals(e.extra, 1); assert_true(e instanceof MyEvent);
  const t = new EventTarget();
  let seen;
  t.addEventListener("mine", (ev) => { seen = ev; });
  t.dispatchEvent(e);
  assert_equals(seen, e);
}, "Event is subclassable");

test(() => {
  const e = new ErrorEvent("error", { message: "m", filename: "f.js", lineno: 3, colno: 4, error: 5 });
  assert_equals(e.message, "m"); assert_equals(e.filename, "f.js");
  assert_equals(e.lineno, 3); assert_equals(e.colno, 4); assert_equals(e.error, 5);
  const d = new ErrorEvent("error");
  assert_equals(d.message, ""); assert_equals(d.lineno, 0); assert_equals(d.error, undefined);
}, "spec: ErrorEvent (Node 20 has none)");

test(() => {
  const p = Promise.resolve();
  const e = new PromiseRejectionEvent("unhandledrejection", { promise: p, reason: 1 });
  assert_equals(e.promise, p); assert_equals(e.reason, 1);
  assert_throws_js(TypeError, () => new PromiseRejectionEvent("x", {}));
}, "spec: PromiseRejectionEvent (Node 20 has none)");
