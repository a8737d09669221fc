package engine

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeTree writes files (path relative to dir -> content) under a new
// temp dir and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, src := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := writeFile(p, src); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func renderTree(t *testing.T, files map[string]string, path string) string {
	t.Helper()
	dir := writeTree(t, files)
	b, err := BuildServer(BuildOptions{Dir: dir, Entry: "server.js"})
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	p, err := Compile("server.js", b.Code)
	if err != nil {
		t.Fatalf("compile: %v", err)
	}
	iso, err := NewIsolate(p, Options{Log: discardLog})
	if err != nil {
		t.Fatalf("boot: %v", err)
	}
	t.Cleanup(iso.Close)
	return mustRender(t, iso, get(path)).HTML
}

// The server build picks the builds packages make for servers: worker
// conditions first, then node; never the browser condition, the browser
// field or its file map.
func TestServerBuildConditions(t *testing.T) {
	files := map[string]string{
		"server.js": `import a from "edge-first"; import b from "node-only"; import c from "browser-field"; import d from "browser-map";
globalThis.render = () => [a, b, c, d].join(",");`,
		// React 19's react-dom/server lists workerd before node and browser
		"node_modules/edge-first/package.json": `{"name":"edge-first","exports":{".":{"workerd":"./edge.js","node":"./node.js","browser":"./browser.js","default":"./node.js"}}}`,
		"node_modules/edge-first/edge.js":      `export default "edge";`,
		"node_modules/edge-first/node.js":      `export default "node";`,
		"node_modules/edge-first/browser.js":   `export default document.title;`,
		// Lit ships its SSR build under "node" only
		"node_modules/node-only/package.json": `{"name":"node-only","exports":{".":{"browser":"./browser.js","node":"./node.js","default":"./browser.js"}}}`,
		"node_modules/node-only/node.js":      `export default "ssr";`,
		"node_modules/node-only/browser.js":   `export default document.title;`,
		// styled-components maps its server build to a browser one in "browser"
		"node_modules/browser-field/package.json": `{"name":"browser-field","main":"./server.js","module":"./server.mjs","browser":"./browser.js"}`,
		"node_modules/browser-field/server.mjs":   `export default "server-esm";`,
		"node_modules/browser-field/server.js":    `module.exports = "server-cjs";`,
		"node_modules/browser-field/browser.js":   `module.exports = document.title;`,
		"node_modules/browser-map/package.json":   `{"name":"browser-map","main":"./index.js","browser":{"./index.js":"./browser.js"}}`,
		"node_modules/browser-map/index.js":       `module.exports = "unmapped";`,
		"node_modules/browser-map/browser.js":     `module.exports = document.title;`,
	}
	if got := renderTree(t, files, "/"); got != "edge,ssr,server-esm,unmapped" {
		t.Fatalf("got %q", got)
	}
}

// A Node built-in bext does not provide is a build error naming the module
// and the importing file with its line and column.
func TestUnknownBuiltinIsBuildError(t *testing.T) {
	dir := writeTree(t, map[string]string{
		"server.js":                     "import x from \"dep\";\nglobalThis.render = () => x;\n",
		"node_modules/dep/package.json": `{"name":"dep","main":"index.js"}`,
		"node_modules/dep/index.js":     "const ok = require(\"path\");\nconst fs = require(\"node:fs\");\nmodule.exports = fs.readFileSync;\n",
	})
	_, err := BuildServer(BuildOptions{Dir: dir, Entry: "server.js"})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("err = %v, want a *BuildError", err)
	}
	for _, want := range []string{`Node built-in "fs" is not available`, "node_modules/dep/index.js:2:19", "bext provides", "stream"} {
		if !strings.Contains(be.Text, want) {
			t.Errorf("build error lacks %q:\n%s", want, be.Text)
		}
	}
}

// A package that maps a built-in away in its browser field ({"fs": false})
// gets an empty module instead of a build error.
func TestBrowserFieldMapsBuiltinAway(t *testing.T) {
	got := renderTree(t, map[string]string{
		"server.js":                     `import x from "dep"; globalThis.render = () => x;`,
		"node_modules/dep/package.json": `{"name":"dep","main":"index.js","browser":{"fs":false}}`,
		"node_modules/dep/index.js":     `const fs = require("fs"); module.exports = "fs:" + Object.keys(fs).length;`,
	}, "/")
	if got != "fs:0" {
		t.Fatalf("got %q", got)
	}
}

// Built-ins load lazily and work; import() with a computed specifier loads
// a built-in, and rejects naming the specifier for anything else; a literal
// import() is bundled as before.
func TestDynamicImport(t *testing.T) {
	files := map[string]string{
		"server.js": `const lazy = () => import("./page.js");
globalThis.render = async (req) => {
  const path = await import(["node", "path"].join(":"));
  let missing;
  try { await import(req.query.m); } catch (e) { missing = e.message; }
  return [path.join("a", "..", "b"), (await lazy()).title, missing].join("|");
};`,
		"page.js": `export const title = "page";`,
	}
	got := renderTree(t, files, "/?m=left-pad")
	parts := strings.Split(got, "|")
	if len(parts) != 3 || parts[0] != "b" || parts[1] != "page" || !strings.Contains(parts[2], `cannot load "left-pad"`) {
		t.Fatalf("got %q", got)
	}
}

// A class field named set, get or async (Hono's Context has
// `set = (key, value) => …`) is lowered so goja can parse the bundle;
// bundles without one keep their class fields native.
func TestClassFieldNamedSet(t *testing.T) {
	files := map[string]string{
		"server.js": `class Context {
  #vars = new Map();
  set = (k, v) => { this.#vars.set(k, v); };
  get = (k) => this.#vars.get(k);
  async = 1;
  static get = "static";
}
globalThis.render = () => { const c = new Context(); c.set("a", 41); return String(c.get("a") + c.async) + Context.get; };`,
	}
	if got := renderTree(t, files, "/"); got != "42static" {
		t.Fatalf("got %q", got)
	}
	dir := writeTree(t, map[string]string{"server.js": `class A { count = 1; #p = 2; } globalThis.render = () => String(new A().count);`})
	b, err := BuildServer(BuildOptions{Dir: dir, Entry: "server.js"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b.Code), "count = 1;") {
		t.Errorf("class fields were lowered without need:\n%s", b.Code)
	}
}

// The dev build keeps its source map right after the require shim swap.
func TestDynamicRequireKeepsLines(t *testing.T) {
	out := dynamicRequire(append(append([]byte("a\n"), esbuildRequireShim...), "\nb"...))
	if strings.Count(string(out), "\n") != 2+strings.Count(string(esbuildRequireShim), "\n") || !strings.Contains(string(out), "bext: cannot load") {
		t.Fatalf("got %q", out)
	}
}

// A file a package maps away in its "browser" field is replaced only when
// it needs a built-in bext lacks (here through another package, as axios's
// FormData class does); node-fetch is the isolate's fetch.
func TestBrowserFileMapFallback(t *testing.T) {
	got := renderTree(t, map[string]string{
		"server.js":                            `import { pick, other } from "client"; import fetch from "node-fetch"; globalThis.render = () => [pick, other, typeof fetch].join(",");`,
		"node_modules/client/package.json":     `{"name":"client","main":"index.js","browser":{"./adapters/http.js":"./adapters/none.js","./adapters/fine.js":"./adapters/none.js"}}`,
		"node_modules/client/index.js":         `exports.pick = require("./adapters/http.js"); exports.other = require("./adapters/fine.js");`,
		"node_modules/client/adapters/http.js": `module.exports = require("transport").name;`,
		"node_modules/client/adapters/fine.js": `module.exports = require("path").basename("/x/kept");`,
		"node_modules/client/adapters/none.js": `module.exports = "mapped";`,
		"node_modules/transport/package.json":  `{"name":"transport","main":"t.js"}`,
		"node_modules/transport/t.js":          `const http = require("http"); module.exports = { name: "http" };`,
	}, "/")
	if got != "mapped,kept,function" {
		t.Fatalf("got %q", got)
	}
}
