// Svelte 5: a component compiled for the server by svelte/compiler (in a
// Node step of the test), rendered with svelte/server.
import { render } from "svelte/server";
import Menu from "../.gen/Menu.svelte.js";
globalThis.render = () => {
  const { head, body } = render(Menu, { props: { teas: ["Sencha", "Hojicha <roasted>"], title: "Menu" } });
  return head + body;
};
