// react-dom/server renderToString (React 19) with hooks, context and useId.
import { createContext, useContext, useId } from "react";
import { renderToString } from "react-dom/server";
const Theme = createContext("light");
function Field({ label }) { const id = useId(); return <p><label htmlFor={id}>{label}</label><input id={id} /></p>; }
function Page({ items }) {
  const theme = useContext(Theme);
  return <main className={theme}><h1>Tea &lt;shop&gt;</h1><Field label="Search" /><ul>{items.map((t) => <li key={t}>{t}</li>)}</ul></main>;
}
globalThis.render = () => renderToString(<Theme.Provider value="dark"><Page items={["Sencha 煎茶", "Chai चाय", "Rooibos 🌿"]} /></Theme.Provider>);
