// A six-line JSX runtime so the fixture needs no npm.
export function h(tag, props, ...children) {
  if (typeof tag === "function") return tag({ ...props, children });
  const attrs = Object.entries(props || {}).map(([k, v]) => ` ${k}="${v}"`).join("");
  return `<${tag}${attrs}>${children.flat().join("")}</${tag}>`;
}
