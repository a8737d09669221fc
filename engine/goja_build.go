package engine

import (
	"bytes"
	"regexp"

	"github.com/dop251/goja/parser"
	"github.com/evanw/esbuild/pkg/api"
)

// What the server build does about JavaScript goja cannot parse.

// accessorWordField finds, in esbuild's (unminified) output, a line that
// may be a class field named get, set or async with an initializer.
var accessorWordField = regexp.MustCompile(`(?m)^[ \t]+(?:static[ \t]+)?(?:get|set|async)[ \t]*=[^=>]`)

// gojaParseError parses code as goja will and returns the error, if any.
func gojaParseError(code []byte) error {
	_, err := parser.ParseFile(nil, "server.js", string(code), 0)
	return err
}

// lowerFields rebuilds the esbuild context with class fields lowered.
func (b *Builder) lowerFields() error {
	b.fieldsLowered = true
	for k, v := range fieldLowering {
		b.opts.Supported[k] = v
	}
	b.ctx.Dispose()
	ctx, cerr := api.Context(b.opts)
	if cerr != nil {
		return newBuildError(cerr.Errors)
	}
	b.ctx = ctx
	return nil
}

// esbuildRequireShim is esbuild's helper for a require() (or a lowered
// import()) it could not bundle: it calls a global require, which bext
// isolates do not have.
var esbuildRequireShim = []byte(`var __require = /* @__PURE__ */ ((x) => typeof require !== "undefined" ? require : typeof Proxy !== "undefined" ? new Proxy(x, {
    get: (a, b) => (typeof require !== "undefined" ? require : a)[b]
  }) : x)(function(x) {
    if (typeof require !== "undefined") return require.apply(this, arguments);
    throw Error('Dynamic require of "' + x + '" is not supported');
  });`)

// bextRequireShim replaces it: a Node built-in bext provides is loaded
// (import("node:crypto") with a computed specifier works); anything else
// fails with an error naming the specifier and what to change. A lowered
// import() turns the throw into a rejection, as a failed import would be.
// It keeps the shim's line count, so the inline source map stays right.
var bextRequireShim = []byte(`var __require = function(x) {
    var n = typeof __bext_node === "function" && /^(node:)?[a-z_]+(\/[a-z_]+)?$/.test(x) ? (function() { try { return __bext_node(x); } catch (e) { return void 0; } })() : void 0;
    if (n !== void 0) return n;
    var e = new Error('bext: cannot load "' + x + '" at run time: the server bundle has no module by that name. esbuild bundles import() and require() only when the specifier is a string literal (or a template literal whose folder it can read); write the specifier out, or import the module statically.');
    e.code = "ERR_MODULE_NOT_FOUND"; throw e;
  };`)

// dynamicRequire swaps esbuild's require shim for bext's.
func dynamicRequire(code []byte) []byte {
	i := bytes.Index(code, esbuildRequireShim)
	if i < 0 {
		return code
	}
	repl := bextRequireShim
	if pad := bytes.Count(esbuildRequireShim, []byte("\n")) - bytes.Count(repl, []byte("\n")); pad > 0 {
		repl = append(append([]byte(nil), repl...), bytes.Repeat([]byte("\n"), pad)...)
	}
	out := make([]byte, 0, len(code)-len(esbuildRequireShim)+len(repl))
	out = append(out, code[:i]...)
	out = append(out, repl...)
	return append(out, code[i+len(esbuildRequireShim):]...)
}
