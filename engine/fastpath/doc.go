// Package fastpath makes the server renderers users bring (React 18 and
// 19) fast on goja by rewriting their hot code while esbuild bundles it,
// and by installing the native helpers the rewritten code calls.
//
// goja is an interpreter without rope strings, inline caches or a JIT, so
// some constructs that V8 makes cheap cost microseconds per call: string
// concatenation into a growing result (quadratic), for…in (a key iterator
// with a visited map), a regexp plus a charCodeAt loop per escaped string,
// one JS call per output chunk. A JS profile of React's renderToString
// showed these at the top; each rewrite removes one of them:
//
//   - sink: renderToString's `result += chunk` sink becomes an array
//     joined once (React 18 and 19, every build).
//   - flush: renderToString hands a finished segment's chunks to the sink
//     joined in one string instead of one call per chunk (production
//     builds).
//   - concat: renderToString pushes an attribute or a closing tag as one
//     string instead of three to five chunks (production builds).
//   - escape: escapeTextForBrowser calls __bext_fast.escapeHTML, written in
//     Go (production server builds, legacy and streaming).
//   - props: the renderer's `for (k in props) if (hasOwnProperty.call(props,
//     k))` loops walk Object.keys(props) instead (production server
//     builds).
//   - jsx: React 18's jsx() uses the props object the compiled JSX passed
//     when it holds no key, ref, __self or __source, as React 19's jsx()
//     does, instead of copying it with for…in (production).
//
// Every rewrite is keyed twice: on the package's major version (read from
// its package.json) and on the exact code it replaces, written out in this
// package as a shape that matches the minified and the pretty builds alike
// (match.go). A file that a rewrite selects but whose code is not the
// expected shape is left as it is and reported (Note, Plugin), so an
// unknown or altered React renders correctly, only slower, with a build
// warning. Rewritten code stays plain JavaScript: where the native helpers
// are missing (the same bundle run by Node in the parity tests) the
// original code path runs.
//
// The output is byte-identical to the stock renderers': the parity suites
// (examples/react, engine/npm_test.go, the compat suite) render the same
// bundle in goja and in Node with every rewrite on and off.
package fastpath
