// Package fastsink is an esbuild plugin that makes React's renderToString
// fast on goja.
//
// React's legacy server renderer (react-dom/server renderToString and
// renderToStaticMarkup, React 18 and 19) collects its output in a sink of the
// form
//
//	var result = '';
//	var destination = { push: function (chunk) { if (chunk !== null) result += chunk; return true; }, … };
//	…
//	return result;
//
// goja has no rope strings, so each `+=` copies the whole page so far and a
// render is quadratic in the page size (a 17 KB page spent half its render
// time copying). The plugin rewrites exactly those three statements to
// `result = []`, `result.push(chunk)` and `return result.join("")`. Nothing
// else in React changes, so the HTML is byte-identical.
//
// The rewrite is keyed on two things: the React major version (read from the
// react-dom package.json beside the file, or the version string inside it)
// must be one this package was checked against, and the sink must have
// exactly the expected shape. Otherwise the file is left as is and the
// plugin's warn callback is told once, so an unknown React build renders
// correctly, only slower.
package fastsink
