// Vue 3 SSR of a template compiled at run time (vue's full build, picked
// under the node condition).
import { createSSRApp } from "vue";
import { renderToString } from "vue/server-renderer";
globalThis.render = async () => {
  const app = createSSRApp({
    data: () => ({ teas: [{ id: 1, name: "Genmaicha <toasted>" }, { id: 2, name: "Darjeeling" }], show: true }),
    template: `<section><h2 v-if="show">Menu</h2><ul><li v-for="t in teas" :key="t.id" :data-id="t.id">{{ t.name }}</li></ul></section>`,
  });
  return await renderToString(app);
};
