// The example's data: a tea catalogue kept in memory. Each isolate (and
// the Node process of the parity test) has its own copy, so a POST adds to
// the copy of the worker that served it and nothing is shared.
export const teas = [
  { id: "sencha", name: "Sencha", origin: "Shizuoka, Japan", price: 12.5, tags: ["green"] },
  { id: "longjing", name: "龙井 Longjing", origin: "Hangzhou, China", price: 18, tags: ["green", "pan-fired"] },
  { id: "darjeeling", name: "Darjeeling First Flush", origin: "West Bengal, India", price: 15.25, tags: ["black"] },
  { id: "rooibos", name: "Rooibos «Red Bush»", origin: "Cederberg, South Africa", price: 7.9, tags: ["herbal", "caffeine-free"] },
  { id: "matcha", name: "Matcha 抹茶 🍵", origin: "Uji, Japan", price: 24, tags: ["green", "powdered"] },
];

export function findTea(id) {
  return teas.find((t) => t.id === id);
}

export function searchTeas(q, tag) {
  const needle = (q || "").toLowerCase();
  return teas.filter((t) => (!needle || t.name.toLowerCase().includes(needle)) && (!tag || t.tags.includes(tag)));
}
