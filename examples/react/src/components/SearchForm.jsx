import React from "react";

// The query string comes back into the form as default values; React
// escapes it, so ?q=<script> is harmless.
export function SearchForm({ query }) {
  const q = query.q || "";
  const sort = query.sort || "name";
  return (
    <form method="get" action="/" className="search" style={{ display: "grid", gap: 8, marginBottom: 24 }}>
      <label htmlFor="q">Search</label>
      <input id="q" name="q" type="search" defaultValue={q} placeholder="Lamp, 茶壶, מנורה…" autoComplete="off" />
      <label htmlFor="sort">Sort by</label>
      <select id="sort" name="sort" defaultValue={sort}>
        <option value="name">Name</option>
        <option value="price">Price</option>
        <option value="rating">Rating</option>
      </select>
      <label>
        <input type="checkbox" name="stock" value="1" defaultChecked={query.stock === "1"} /> In stock only
      </label>
      <textarea name="note" rows={2} defaultValue={"Notes & wishes <optional>"} />
      <button type="submit" disabled={false}>
        Search 🔍
      </button>
    </form>
  );
}
