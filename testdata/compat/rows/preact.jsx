/** @jsxImportSource preact */
// Preact + preact-render-to-string with hooks and context.
import { createContext } from "preact";
import { useContext, useState } from "preact/hooks";
import { renderToString } from "preact-render-to-string";
const Ctx = createContext("x");
function Item({ n }) { const [v] = useState(n * 2); const c = useContext(Ctx); return <li class={c}>{v}</li>; }
globalThis.render = () => renderToString(<Ctx.Provider value="odd"><ul>{[1, 2, 3].map((n) => <Item key={n} n={n} />)}</ul><p dangerouslySetInnerHTML={{ __html: "<b>raw</b>" }} /></Ctx.Provider>);
