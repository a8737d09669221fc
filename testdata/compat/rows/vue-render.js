// Vue 3 SSR with render functions: a list long enough to be worth a
// sink, text and attribute values that need escaping.
import { createSSRApp, h, ref, computed } from "vue";
import { renderToString } from "vue/server-renderer";
const names = ["Sencha", "Pu-erh <aged>", "Chai & \"spice\"", "Rooibos 'red'", "Genmaicha 玄米茶 🍵"];
globalThis.render = async () => {
  const app = createSSRApp({
    setup() {
      const teas = ref(Array.from({ length: 40 }, (_, i) => ({ id: i, name: names[i % names.length] })));
      const count = computed(() => teas.value.length);
      return () =>
        h("div", { class: "teas" }, [
          h("h1", `${count.value} teas`),
          h("ul", teas.value.map((t) => h("li", { key: t.id, title: t.name, "data-id": t.id }, t.name))),
        ]);
    },
  });
  return await renderToString(app);
};
