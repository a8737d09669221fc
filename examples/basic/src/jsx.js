// A tiny JSX runtime that renders straight to HTML strings, so the example
// needs no npm. Use it with the classic pragmas at the top of a .jsx file:
//   /** @jsxRuntime classic */
//   /** @jsx h */
//   /** @jsxFrag Fragment */
//
// Elements are HTML strings wrapped in a Raw object, so that text children
// and attribute values are escaped exactly once and markup produced by a
// component is never escaped again.

class Raw {
  constructor(html) {
    this.html = html;
  }
  toString() {
    return this.html;
  }
}

// raw marks trusted markup (e.g. a JSON blob already escaped for <script>).
export function raw(html) {
  return new Raw(html);
}

const TEXT_ESC = /[&<>]/;
const ATTR_ESC = /[&<>"']/;

// The common case, nothing to escape, costs one regexp test.
export function escapeText(s) {
  s = String(s);
  if (!TEXT_ESC.test(s)) return s;
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

export function escapeAttr(s) {
  s = String(s);
  if (!ATTR_ESC.test(s)) return s;
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;").replaceAll("'", "&#39;");
}

const VOID = new Set(["area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"]);
const ATTR_NAME = /^[a-zA-Z_:][-a-zA-Z0-9_:.]*$/;
const TAG_NAME = /^[a-zA-Z][a-zA-Z0-9-]*$/;
// Names are checked once each; a page uses few distinct ones.
const checked = new Set();

function checkName(re, name, what) {
  if (checked.has(name)) return;
  if (!re.test(name)) throw new Error(`invalid ${what} name ${JSON.stringify(name)}`);
  checked.add(name);
}

function renderChildren(children, out) {
  for (const c of children) {
    if (c == null || c === false || c === true) continue;
    if (Array.isArray(c)) renderChildren(c, out);
    else if (c instanceof Raw) out.push(c.html);
    else out.push(escapeText(c));
  }
}

function renderAttrs(props) {
  let s = "";
  for (const name in props) {
    if (name === "children" || name === "key") continue;
    let v = props[name];
    if (v == null || v === false || typeof v === "function") continue;
    const attr = name === "className" ? "class" : name === "htmlFor" ? "for" : name;
    checkName(ATTR_NAME, attr, "attribute");
    if (v === true) {
      s += " " + attr;
      continue;
    }
    if (attr === "style" && typeof v === "object") {
      v = Object.entries(v).map(([k, x]) => `${k.replace(/[A-Z]/g, (m) => "-" + m.toLowerCase())}:${x}`).join(";");
    }
    s += ` ${attr}="${escapeAttr(v)}"`;
  }
  return s;
}

export function Fragment(props) {
  const out = [];
  renderChildren([props.children], out);
  return new Raw(out.join(""));
}

export function h(tag, props, ...children) {
  props = props || {};
  if (typeof tag === "function") {
    props.children = children.length === 1 ? children[0] : children;
    return tag(props);
  }
  checkName(TAG_NAME, tag, "tag");
  const out = ["<", tag, renderAttrs(props), ">"];
  if (VOID.has(tag)) return new Raw(out.join(""));
  renderChildren(children, out);
  out.push("</", tag, ">");
  return new Raw(out.join(""));
}

// renderToString turns an element (or a string) into HTML.
export function renderToString(el) {
  const out = [];
  renderChildren([el], out);
  return out.join("");
}
