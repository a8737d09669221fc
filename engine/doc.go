// Package engine owns the JavaScript side of bext: bundling the app with
// esbuild, compiling the server bundle once into a shared Program, and
// running it in isolates — one goja.Runtime each, with the host APIs a
// server renderer needs — to answer render calls.
//
// # Build
//
// BuildServer (or an incremental NewServerBuilder) bundles the server entry
// into one IIFE for goja: ES2022 with async generators and for-await lowered
// (goja lacks them), process.env.NODE_ENV defined ("development" when Dev,
// else "production"), JSX automatic with import source "react" unless a
// file's pragmas say otherwise (/** @jsxRuntime classic */ /** @jsx h */),
// CSS imports emptied, images and fonts given hashed URLs under AssetPrefix,
// an inline source map in Dev so stacks name source files. BuildClient
// makes the browser bundle: ESM, "[name]-[hash]" file names, CSS as files,
// minified unless Dev. Failures are *BuildError whose Text is esbuild's own
// report (file:line:col, source line, caret).
//
// # The render contract
//
// The server bundle sets globalThis.render, or its entry exports a default
// (or named `render`) function. render(req) receives
// req = {method, url, path, query, headers} as plain JS values and returns
// a string of HTML, an object {status, headers, html}, or a Promise of
// either. Before renders the host may call (*Isolate).SetAssets; the app
// reads the client bundle's URLs from globalThis.__bext.assets
// ({js: [...], css: [...]}) to emit its <script type="module"> and <link>
// tags.
//
// # Host APIs
//
// Every isolate has, natively: console.log/info/warn/error/debug/trace
// (captured into a bounded ring, see Console, and logged with worker=<id>),
// TextEncoder (encode, encodeInto) and TextDecoder (UTF-8), setTimeout,
// setInterval, setImmediate and their clear functions, queueMicrotask,
// process.env (Options.Env plus NODE_ENV, "production" unless Env sets it)
// and process.nextTick (a plain microtask), MessageChannel/MessagePort
// (postMessage delivers a macrotask), performance.now, and self/global as
// aliases of globalThis. That is enough for react-dom/server (18 and 19)
// and preact-render-to-string with no polyfills. Node built-ins (buffer,
// events, stream, util, crypto, path, url, async_hooks …) come from package
// engine/node, loaded when a bundle first imports one; Buffer and the rest
// of process are installed on first access (see nodeshim.go for the build
// side: an unprovided built-in is a build error naming module and importer).
//
// The server build is platform-neutral and selects package "exports" with
// the conditions workerd, worker, edge-light, node (then import/require,
// default, development/production) and the main fields module, main:
// server builds, never browser builds. What goja cannot parse is lowered
// (async generators, for-await, class fields named get/set/async, import()
// with a computed specifier); see goja_build.go.
//
// # Event loop and errors
//
// A render that returns a Promise is driven to completion: promise jobs run
// whenever JS returns to Go, then due timers run in real time. A pending
// promise with nothing scheduled fails the render ("never settles"). What is
// still scheduled when a render ends is dropped, never carried to the next.
// Timers scheduled while the bundle loads are dropped too. Loading may take
// at most 10 s; a bundle that loops at module level is a BootError.
//
// Render errors are *RenderError. Only KindException (a throw, a rejection,
// a malformed result, a throwing timer callback) keeps the isolate; timeout,
// stack overflow, Go panic and abandonment are fatal: the isolate answers
// every later Render with the same kind wrapping ErrIsolateDead.
//
// # Concurrency
//
// A Program is immutable and shared by any number of isolates. An Isolate
// belongs to one goroutine at a time (NewIsolate, Render, SetAssets, Close);
// only Console is safe to call concurrently. Each render's JS runs on a
// goroutine of its own so that a render stuck in a native built-in, which
// goja cannot interrupt, can be abandoned (KindAbandoned, AbandonedRenders)
// rather than block its caller.
package engine
