// react-router 7 data routers on the server: createStaticHandler runs the
// loaders, StaticRouterProvider renders the matched route.
import { renderToString } from "react-dom/server";
import { createStaticHandler, createStaticRouter, StaticRouterProvider, Outlet, Link, useLoaderData } from "react-router";
const routes = [{
  path: "/",
  element: <div><nav><Link to="/">Home</Link> <Link to="/teas/sencha">Sencha</Link></nav><Outlet /></div>,
  children: [
    { index: true, element: <p>Welcome</p> },
    { path: "teas/:id", loader: async ({ params }) => ({ id: params.id, price: 12.5 }), element: <Tea /> },
  ],
}];
function Tea() { const t = useLoaderData(); return <h2>{t.id}: {t.price.toFixed(2)} €</h2>; }
globalThis.render = async (req) => {
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request("http://localhost" + req.url));
  const router = createStaticRouter(handler.dataRoutes, context);
  return renderToString(<StaticRouterProvider router={router} context={context} hydrate={false} />);
};
