// ky against the test's loopback server (?api=http://127.0.0.1:port).
import ky from "ky";
globalThis.render = async (req) => {
  const api = ky.create({ prefixUrl: req.query.api, headers: { "x-client": "ky" } });
  const teas = await api.get("teas", { searchParams: { q: "green" } }).json();
  const echo = await api.post("echo", { json: { n: 1 } }).json();
  let err;
  try { await api.get("missing"); } catch (e) { err = e.name + " " + e.response.status; }
  return JSON.stringify({ teas, echo, err });
};
