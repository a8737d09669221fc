import React from "react";

function Item({ item }) {
  return (
    <li className={item.inStock ? "item" : "item sold-out"} data-id={item.id}>
      <a href={"/items/" + item.slug} lang={item.lang} dir={item.dir}>
        {item.name}
      </a>{" "}
      <span className="price">{"€" + item.price}</span>{" "}
      <span className="tags">{item.tags.map((t) => "#" + t).join(" ")}</span>
      {!item.inStock && <em> sold out</em>}
    </li>
  );
}

export function ItemList({ items }) {
  return (
    <ol className="items" start={1}>
      {items.map((item) => (
        <Item key={item.id} item={item} />
      ))}
    </ol>
  );
}
