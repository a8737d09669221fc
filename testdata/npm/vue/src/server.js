// Vue fixture for engine/npm_test.go: a small app rendered with Vue 3's
// server renderer (vue/server-renderer renderToString) from render
// functions, with props, a computed value, a provided theme, escaping of
// text and attributes, and a list long enough for bext's sink.
import { computed, createSSRApp, h, inject, provide } from "vue";
import { renderToString } from "vue/server-renderer";

const teas = [
  { id: "sencha", name: "Sencha 煎茶", price: 12.5 },
  { id: "pu-erh", name: "Pu-erh 普洱 <aged>", price: 30 },
  { id: "rooibos", name: "Rooibos — red bush 🌿", price: 8 },
  { id: "chai", name: "Masala chai चाय & 'spice'", price: 9.75 },
  { id: "nana", name: "Nana נענע \"fresh\"", price: 6 },
];

const Item = {
  props: ["tea"],
  setup(props) {
    const theme = inject("theme");
    return () =>
      h("li", { style: { color: theme.accent, padding: theme.dense ? 0 : "4px 8px", lineHeight: 1.5 }, title: props.tea.name }, [
        h("a", { href: "/tea/" + props.tea.id }, props.tea.name),
        " ",
        h("span", props.tea.price.toFixed(2) + " €"),
      ]);
  },
};

const Page = {
  props: ["title", "q", "n", "dense"],
  setup(props) {
    provide("theme", { accent: "#c0392b", dense: props.dense });
    const rows = computed(() => Array.from({ length: props.n }, (_, i) => teas[i % teas.length]));
    return () =>
      h("main", [
        h("h1", props.title),
        h("div", { innerHTML: "<em>Loose leaf</em> &amp; bags" }),
        props.q ? h("p", { class: "q" }, ["Results for “", props.q, "”"]) : null,
        h("ul", { class: "teas" }, rows.value.map((t, i) => h(Item, { key: i, tea: t }))),
        h("footer", "茶壶 · Teapot 🍵"),
      ]);
  },
};

async function render(req) {
  const q = req.query || {};
  if (req.path !== "/") {
    return { status: 404, headers: {}, html: await renderToString(createSSRApp({ render: () => h("p", "404 — nothing at " + req.path) })) };
  }
  const app = createSSRApp(Page, { title: "Tea <shop>", q: q.q, n: Number(q.n ?? 5), dense: q.dense === "1" });
  return {
    status: 200,
    headers: { "content-type": "text/html; charset=utf-8" },
    html: "<!DOCTYPE html>" + (await renderToString(app)),
  };
}

globalThis.render = render;
