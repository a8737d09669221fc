// zod: schemas with URLs, e-mails, coercion and error messages.
import { z } from "zod";
const Order = z.object({ email: z.string().email(), site: z.string().url(), qty: z.coerce.number().int().positive(), tags: z.array(z.string()).max(2) });
globalThis.render = () => {
  const ok = Order.parse({ email: "a@b.co", site: "https://bext.dev/x?y=1", qty: "3", tags: ["a"] });
  const bad = Order.safeParse({ email: "nope", site: "not a url", qty: -1, tags: ["a", "b", "c"] });
  return JSON.stringify({ ok, issues: bad.error.issues.map((i) => [i.path.join("."), i.code, i.message]) });
};
