test(() => {
  const s = new CountQueuingStrategy({ highWaterMark: 4 });
  assert_equals(s.highWaterMark, 4);
  assert_equals(s.size(), 1);
  assert_equals(s.size.name, "size");
  assert_equals(s.size, new CountQueuingStrategy({ highWaterMark: 1 }).size, "one size function per realm");
  assert_throws_js(TypeError, () => new CountQueuingStrategy());
  assert_throws_js(TypeError, () => new CountQueuingStrategy({}));
}, "CountQueuingStrategy");

test(() => {
  const s = new ByteLengthQueuingStrategy({ highWaterMark: 16 });
  assert_equals(s.highWaterMark, 16);
  assert_equals(s.size(new Uint8Array(10)), 10);
  assert_equals(s.size({ byteLength: 3 }), 3);
  assert_throws_js(TypeError, () => s.size(undefined));
  assert_throws_js(TypeError, () => new ByteLengthQueuingStrategy());
}, "ByteLengthQueuingStrategy");

test(() => {
  const s = new CountQueuingStrategy({ highWaterMark: "7" });
  assert_equals(s.highWaterMark, 7, "highWaterMark is converted to a number");
  const getter = Object.getOwnPropertyDescriptor(CountQueuingStrategy.prototype, "highWaterMark").get;
  assert_throws_js(TypeError, () => getter.call({}));
  assert_throws_js(TypeError, () => getter.call(new ByteLengthQueuingStrategy({ highWaterMark: 1 })));
}, "queuing strategies convert highWaterMark and check their receiver");

promise_test(async () => {
  let ctrl;
  new ReadableStream({ start(c) { ctrl = c; } }, new ByteLengthQueuingStrategy({ highWaterMark: 8 }));
  ctrl.enqueue(new Uint8Array(5));
  assert_equals(ctrl.desiredSize, 3);
}, "a ReadableStream uses a ByteLengthQueuingStrategy");
