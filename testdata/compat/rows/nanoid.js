// nanoid: random ids (their shape is compared; values differ by design).
import { nanoid, customAlphabet } from "nanoid";
globalThis.render = () => {
  const id = nanoid(), hex = customAlphabet("0123456789abcdef", 10)();
  return [id.length, /^[A-Za-z0-9_-]+$/.test(id), hex.length, /^[0-9a-f]+$/.test(hex), nanoid() !== id].join(",");
};
