// axios with its fetch adapter against the test's loopback server.
import axios from "axios";
globalThis.render = async (req) => {
  const api = axios.create({ baseURL: req.query.api, adapter: "fetch", headers: { "x-client": "axios" } });
  const teas = (await api.get("/teas", { params: { q: "green" } })).data;
  const echo = (await api.post("/echo", { n: 1 })).data;
  let err;
  try { await api.get("/missing"); } catch (e) { err = e.name + " " + e.response.status; }
  return JSON.stringify({ teas, echo, err });
};
