// @tanstack/react-query: prefetch on the server, render with the cache,
// dehydrate the state for the client.
import { QueryClient, QueryClientProvider, useQuery, dehydrate, HydrationBoundary } from "@tanstack/react-query";
import { renderToString } from "react-dom/server";
const fetchTeas = async () => { await new Promise((r) => setTimeout(r, 1)); return [{ id: 1, name: "Sencha" }, { id: 2, name: "Oolong" }]; };
function Teas() { const { data } = useQuery({ queryKey: ["teas"], queryFn: fetchTeas }); return <ul>{data.map((t) => <li key={t.id}>{t.name}</li>)}</ul>; }
globalThis.render = async () => {
  const qc = new QueryClient({ defaultOptions: { queries: { staleTime: 60_000 } } });
  await qc.prefetchQuery({ queryKey: ["teas"], queryFn: fetchTeas });
  const state = dehydrate(qc);
  for (const q of state.queries) q.dataUpdatedAt = 0;
  const html = renderToString(<QueryClientProvider client={qc}><HydrationBoundary state={state}><Teas /></HydrationBoundary></QueryClientProvider>);
  return html + "<script>" + JSON.stringify(state.queries.map((q) => [q.queryHash, q.state.data, q.state.status])) + "</script>";
};
