// uuid: v4 shape, and v5/v3 (SHA-1/MD5 through node:crypto) exactly.
import { v4, v5, v3, validate, version } from "uuid";
globalThis.render = () => {
  const id = v4();
  return [validate(id), version(id), v5("bext.dev", v5.DNS), v3("bext.dev", v3.URL)].join(",");
};
