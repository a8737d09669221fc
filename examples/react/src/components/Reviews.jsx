import React from "react";
import { loadReviews } from "../data.js";

// Error boundaries do not run during renderToString (React 18 and 19 only
// use them on the client), so a component that can fail on bad data
// catches its own error and renders a fallback: the page still renders
// and says what is missing. A component that throws without catching
// fails the whole render; see the /broken route.
export function Reviews({ id }) {
  let reviews;
  try {
    reviews = loadReviews(id);
  } catch (err) {
    return (
      <p className="reviews-unavailable" role="status">
        {"Reviews are unavailable right now (" + err.message + ")."}
      </p>
    );
  }
  return (
    <ul className="reviews">
      {reviews.map((r, i) => (
        <li key={i}>
          <span aria-label={r.stars + " stars"}>{"★".repeat(r.stars) + "☆".repeat(5 - r.stars)}</span> {r.author}: {r.text}
        </li>
      ))}
    </ul>
  );
}
