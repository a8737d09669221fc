// React Router 7's data router as a fetch(request) handler, the way a
// Workers-style server renders it: createStaticHandler runs the matched
// routes' loaders (or the action of a POST) on the real Request,
// createStaticRouter + StaticRouterProvider render the result with
// renderToReadableStream, and the handler returns the stream as a Response
// with the router's status; a loader's redirect is returned as is.
import { renderToReadableStream } from "react-dom/server";
import {
  createStaticHandler,
  createStaticRouter,
  StaticRouterProvider,
  Outlet,
  Link,
  Form,
  useLoaderData,
  useActionData,
  useRouteError,
  isRouteErrorResponse,
  redirect,
  data,
} from "react-router";

const teas = { sencha: { name: "Sencha", price: 12.5 }, matcha: { name: "Matcha 抹茶", price: 24 } };

function Root() {
  return (
    <html lang="en">
      <head>
        <title>Tea shop</title>
      </head>
      <body>
        <nav>
          <Link to="/">Home</Link> <Link to="/teas/sencha">Sencha</Link> <Link to="/teas/matcha?ref=nav">Matcha</Link>
        </nav>
        <Outlet />
      </body>
    </html>
  );
}

function Tea() {
  const tea = useLoaderData();
  const ordered = useActionData();
  return (
    <article>
      <h1>{tea.name}</h1>
      <p>{tea.price.toFixed(2)} € · {tea.ref ? "via " + tea.ref : "direct"}</p>
      {ordered ? <p className="ok">Ordered {ordered.qty} × {ordered.id}</p> : null}
      <Form method="post">
        <input name="qty" defaultValue="1" /> <button type="submit">Order</button>
      </Form>
    </article>
  );
}

function Oops() {
  const err = useRouteError();
  return isRouteErrorResponse(err) ? (
    <h1>
      {err.status} {err.data}
    </h1>
  ) : (
    <h1>Unexpected: {String(err && err.message)}</h1>
  );
}

const routes = [
  {
    path: "/",
    element: <Root />,
    errorElement: <Oops />,
    children: [
      { index: true, element: <p>Welcome</p> },
      {
        path: "teas/:id",
        loader: async ({ params, request }) => {
          const tea = teas[params.id];
          if (!tea) throw data("no tea called " + params.id, { status: 404 });
          return { id: params.id, ...tea, ref: new URL(request.url).searchParams.get("ref") };
        },
        action: async ({ params, request }) => {
          const form = await request.formData();
          return { id: params.id, qty: Number(form.get("qty")) };
        },
        element: <Tea />,
        errorElement: <Oops />,
      },
      { path: "old", loader: () => redirect("/teas/sencha") },
    ],
  },
];

const handler = createStaticHandler(routes);

export default {
  async fetch(request) {
    const context = await handler.query(request);
    if (context instanceof Response) return context;
    const router = createStaticRouter(handler.dataRoutes, context);
    const stream = await renderToReadableStream(<StaticRouterProvider router={router} context={context} />);
    return new Response(stream, { status: context.statusCode, headers: { "content-type": "text/html; charset=utf-8" } });
  },
};
