// Streamed pages: React's renderToReadableStream (react-dom/server's web
// build, which bext's server build picks through the "worker" export
// condition) rendered into a Response whose body bext writes to the client
// chunk by chunk, as React produces it.
//
// /stream         a short catalogue and reviews behind a Suspense boundary;
//                 the reviews come from a slow service: API_ORIGIN/reviews
//                 when [app.env] sets API_ORIGIN, else a timer
// /stream/large   the /large page's 640 items in ?sections=N Suspense
//                 boundaries (default 8) whose data arrives a timer tick
//                 after the shell; ?sections=0 streams exactly the tree of
//                 /large without boundaries
import React, { Suspense } from "react";
import { renderToReadableStream } from "react-dom/server";
import { Layout } from "./components/Layout.jsx";
import { ItemList } from "./components/ItemList.jsx";
import { SearchForm } from "./components/SearchForm.jsx";
import { catalogue } from "./data.js";
import { route } from "./App.jsx";

// resource wraps one request's pending data for Suspense (React 18 has no
// use()): read() throws the promise until it settles, then returns the
// value or throws the error.
function resource(promise) {
  let state = "pending", value;
  const p = promise.then(
    (v) => ((state = "done"), (value = v)),
    (e) => ((state = "error"), (value = e)),
  );
  return {
    read() {
      if (state === "pending") throw p;
      if (state === "error") throw value;
      return value;
    },
  };
}

const localReviews = [
  { author: "Ana", stars: 4, text: "Arrived quickly." },
  { author: "李雷", stars: 5, text: "很好用 👍" },
];

// loadReviews is the slow service: a real HTTP call when API_ORIGIN is
// set (the tests point it at a server they control), else a timer.
function loadReviews(item) {
  const origin = process.env.API_ORIGIN;
  if (!origin) return new Promise((resolve) => setTimeout(() => resolve(localReviews), 300));
  return fetch(origin + "/reviews?item=" + item).then((r) => {
    if (!r.ok) throw new Error("review service answered " + r.status);
    return r.json();
  });
}

function SlowReviews({ reviews }) {
  return (
    <ul className="reviews">
      {reviews.read().map((r, i) => (
        <li key={i}>
          <span aria-label={r.stars + " stars"}>{"★".repeat(r.stars) + "☆".repeat(5 - r.stars)}</span> {r.author}: {r.text}
        </li>
      ))}
    </ul>
  );
}

function StreamPage({ path, reviews }) {
  return (
    <Layout title="Streamed" path={path}>
      <h1>Streamed catalogue</h1>
      <p>The list below is sent at once; the reviews follow when the review service answers.</p>
      <ItemList items={catalogue(24)} />
      <section>
        <h2>What people say</h2>
        <Suspense fallback={<p className="loading">Loading reviews…</p>}>
          <SlowReviews reviews={reviews} />
        </Suspense>
      </section>
    </Layout>
  );
}

function Section({ data }) {
  return <ItemList items={data.read()} />;
}

function StreamLargePage({ path, query, sections }) {
  const all = catalogue(640);
  const per = Math.ceil(all.length / sections);
  const parts = [];
  for (let i = 0; i < sections; i++) {
    const items = all.slice(i * per, (i + 1) * per);
    // The section's data arrives a timer tick after the shell was rendered.
    const data = resource(new Promise((resolve) => setTimeout(() => resolve(items), 0)));
    parts.push(
      <section key={i}>
        <h2>{"Items " + (i * per + 1) + "–" + (i * per + items.length)}</h2>
        <Suspense fallback={<p className="loading">Loading…</p>}>
          <Section data={data} />
        </Suspense>
      </section>,
    );
  }
  return (
    <Layout title="Everything, streamed" path={path}>
      <h1>Everything, streamed</h1>
      <SearchForm query={query} />
      <p>Showing {all.length} products.</p>
      {parts}
    </Layout>
  );
}

// streamRoute returns the element of a streamed path, or null.
function streamRoute(path, query) {
  if (path === "/stream") {
    return <StreamPage path={path} reviews={resource(loadReviews(7))} />;
  }
  if (path === "/stream/large") {
    const n = parseInt(query.sections ?? "8", 10);
    if (n === 0) return route("/large", query).element;
    return <StreamLargePage path={path} query={query} sections={Math.min(Math.max(n || 8, 1), 64)} />;
  }
  return null;
}

// renderStream answers a streamed path with a Response whose body is
// React's stream, or returns null for other paths. It resolves once the
// shell is ready; a boundary that fails (the review service is down) is
// retried on the client, as React does, and logged here.
export async function renderStream(req) {
  const element = streamRoute(req.path, req.query || {});
  if (!element) return null;
  const stream = await renderToReadableStream(element, {
    onError(err) {
      console.error("stream: " + (err && err.message));
    },
  });
  return new Response(stream, { headers: { "content-type": "text/html; charset=utf-8" } });
}
