// react-helmet-async 3 with React 19: <Helmet> tags are rendered where
// React 19 puts metadata; the provider's context is filled for React 18.
import { Helmet, HelmetProvider } from "react-helmet-async";
import { renderToString } from "react-dom/server";
globalThis.render = () => {
  const ctx = {};
  const html = renderToString(
    <html><head /><body><HelmetProvider context={ctx}><Helmet><title>Tea &amp; cakes</title><meta name="description" content="Loose leaf" /></Helmet><p>body</p></HelmetProvider></body></html>,
  );
  return html + "<!--" + JSON.stringify(Object.keys(ctx)) + "-->";
};
