globalThis.render = function render(req) {
  const x = 1;
  return <p>{x +}</p>;
};
