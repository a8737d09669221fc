package engine

import (
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// nodeShims stand in for the few Node built-ins that server renderers
// require at load time, so an app importing "react-dom/server.node" (as
// some bundler setups do) bundles and renders on goja: React's node build
// takes TextEncoder from util, and keeps an AsyncLocalStorage from
// async_hooks; stream and crypto are only used by streaming APIs, which
// throw a clear error if called.
var nodeShims = map[string]string{
	"util": `export const TextEncoder = globalThis.TextEncoder, TextDecoder = globalThis.TextDecoder;
export function inspect(v) { try { return JSON.stringify(v); } catch { return String(v); } }
export function format(...a) { return a.map(String).join(" "); }
export default { TextEncoder, TextDecoder, inspect, format };`,
	"async_hooks": `export class AsyncLocalStorage {
  run(store, fn, ...args) { const prev = this._s; this._s = store; try { return fn(...args); } finally { this._s = prev; } }
  getStore() { return this._s; }
  enterWith(store) { this._s = store; }
  disable() { this._s = undefined; }
}
export default { AsyncLocalStorage };`,
	"stream": unsupportedShim("stream", "Readable", "Writable", "PassThrough", "Transform", "Duplex"),
	"crypto": unsupportedShim("crypto", "createHash", "randomBytes"),
}

func unsupportedShim(mod string, names ...string) string {
	var b strings.Builder
	b.WriteString("function unsupported(name) { return function () { throw new Error(\"bext: node:" + mod + ".\" + name + \" is not available in a bext isolate; use renderToString or the browser build (react-dom/server)\"); }; }\n")
	for _, n := range names {
		b.WriteString("export const " + n + " = unsupported(\"" + n + "\");\n")
	}
	b.WriteString("export default { " + strings.Join(names, ", ") + " };\n")
	return b.String()
}

const nodeShimNS = "bext-node-shim"

// nodeShimPlugin resolves "util", "node:util" and the other shimmed names
// to nodeShims, ahead of node_modules (the npm "util" polyfill package is
// shadowed too; server renderers need nothing more from these modules).
func nodeShimPlugin() api.Plugin {
	return api.Plugin{Name: "bext-node-shims", Setup: func(pb api.PluginBuild) {
		pb.OnResolve(api.OnResolveOptions{Filter: `^(node:)?(util|async_hooks|stream|crypto)$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			return api.OnResolveResult{Path: strings.TrimPrefix(a.Path, "node:"), Namespace: nodeShimNS}, nil
		})
		pb.OnLoad(api.OnLoadOptions{Filter: `.*`, Namespace: nodeShimNS}, func(a api.OnLoadArgs) (api.OnLoadResult, error) {
			src := nodeShims[a.Path]
			return api.OnLoadResult{Contents: &src, Loader: api.LoaderJS}, nil
		})
	}}
}
