globalThis.render = function render() {
  while (true) {}
};
