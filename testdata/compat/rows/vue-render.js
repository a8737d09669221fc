// Vue 3 SSR with render functions.
import { createSSRApp, h, ref, computed } from "vue";
import { renderToString } from "vue/server-renderer";
globalThis.render = async () => {
  const app = createSSRApp({
    setup() {
      const teas = ref(["Sencha", "Pu-erh"]);
      const count = computed(() => teas.value.length);
      return () => h("div", { class: "teas" }, [h("h1", `${count.value} teas`), h("ul", teas.value.map((t) => h("li", { key: t }, t)))]);
    },
  });
  return await renderToString(app);
};
