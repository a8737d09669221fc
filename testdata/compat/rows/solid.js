// Solid: solid-js/web's server renderer. Solid's JSX needs its Babel
// compiler; this row calls the server template functions that compiler
// emits (ssr, escape, ssrHydrationKey), as compiled code does.
import { renderToString, ssr, escape, ssrHydrationKey, createComponent } from "solid-js/web";
import { createSignal, For } from "solid-js";
const tItem = ["<li", ">", "</li>"];
const tList = ["<ul", ">", "</ul>"];
function Item(props) { return ssr(tItem, ssrHydrationKey(), escape(props.name)); }
function List() {
  const [teas] = createSignal(["Sencha", "Assam <strong>"]);
  return ssr(tList, ssrHydrationKey(), escape(createComponent(For, { get each() { return teas(); }, children: (t) => createComponent(Item, { name: t }) })));
}
globalThis.render = () => renderToString(() => createComponent(List, {}));
