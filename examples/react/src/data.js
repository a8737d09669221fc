// Deterministic catalogue data: the same path always renders the same bytes,
// in goja and in Node (the parity test depends on it). No Date, no Math.random.

const adjectives = ["Quiet", "Bright", "Sturdy", "Nimble", "Classic", "Compact", "Vivid", "Gentle"];
const nouns = ["Lamp", "Kettle", "Backpack", "Notebook", "Headphones", "Chair", "Teapot", "Bicycle"];
const tags = ["new", "sale", "eco", "bestseller", "limited", "gift"];

// Some names carry non-Latin text so every page exercises UTF-16 strings.
const specials = [
  { name: "茶壶 · Teapot 🍵", lang: "zh" },
  { name: "מנורת שולחן", lang: "he", dir: "rtl" },
  { name: "مصباح مكتب", lang: "ar", dir: "rtl" },
  { name: "Café crème ☕️ «édition»", lang: "fr" },
];

// item i of the catalogue; integer arithmetic only.
export function item(i) {
  const special = i % 17 === 5 ? specials[((i / 17) | 0) % specials.length] : null;
  const cents = ((i * 7919) % 9000) + 999;
  return {
    id: i + 1,
    slug: "item-" + (i + 1),
    name: special ? special.name : adjectives[i % adjectives.length] + " " + nouns[(i * 3) % nouns.length],
    lang: special ? special.lang : undefined,
    dir: special ? special.dir : undefined,
    price: (cents / 100).toFixed(2),
    rating: (i * 13) % 5 + 1,
    tags: [tags[i % tags.length], tags[(i + 2) % tags.length]],
    inStock: i % 7 !== 3,
  };
}

export function catalogue(n) {
  const out = new Array(n);
  for (let i = 0; i < n; i++) out[i] = item(i);
  return out;
}

// Reviews "load" from a backend that fails for some products; the Reviews
// component shows how a data error is handled during SSR (see Reviews.jsx).
export function loadReviews(id) {
  if (id % 10 === 0) {
    throw new Error("review service unavailable for item " + id);
  }
  return [
    { author: "Ana", stars: (id % 5) + 1, text: "Works as described." },
    { author: "李雷", stars: 5, text: "很好用 👍" },
  ];
}
