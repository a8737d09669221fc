// Module scope lives in the IIFE's closure, not on globalThis: a leak here is
// the kind heap attribution must find.
const kept = [];
globalThis.render = function render() {
  kept.push("x".repeat(1024) + kept.length);
  return "<p>kept " + kept.length + "</p>";
};
