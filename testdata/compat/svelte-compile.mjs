// Compiles components/*.svelte for the server into .gen/ (run by
// engine/compat_test.go with Node before the rows are built).
import { compile } from "svelte/compiler";
import { readFileSync, writeFileSync, mkdirSync, readdirSync } from "node:fs";
import { join, dirname } from "node:path";
import { fileURLToPath } from "node:url";
const here = dirname(fileURLToPath(import.meta.url));
mkdirSync(join(here, ".gen"), { recursive: true });
for (const f of readdirSync(join(here, "components")).filter((f) => f.endsWith(".svelte"))) {
  const { js } = compile(readFileSync(join(here, "components", f), "utf8"), { generate: "server", filename: f });
  writeFileSync(join(here, ".gen", f + ".js"), js.code);
}
