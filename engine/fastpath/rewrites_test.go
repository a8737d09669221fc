package fastpath

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// run evaluates code (then expr) in a fresh runtime with the native
// helpers and returns expr's value exported.
func run(t *testing.T, code, expr string) any {
	t.Helper()
	vm := goja.New()
	if err := Install(vm); err != nil {
		t.Fatal(err)
	}
	if _, err := vm.RunString(code); err != nil {
		t.Fatalf("%v\n%s", err, code)
	}
	v, err := vm.RunString(expr)
	if err != nil {
		t.Fatalf("%s: %v", expr, err)
	}
	return v.Export()
}

// ownKeyLoops are loops in the shape React writes, written for this test,
// with what each visits; some must be rewritten and some must not.
const ownKeyLoops = `var H = Object.prototype.hasOwnProperty;
function attrs(out, props) {
  var f = null, k;
  for (k in props) if (H.call(props, k)) { var v = props[k]; if (null != v) switch (k) { case "children": f = v; break; default: out.push(k + "=" + v); } }
  return f;
}
function styles(style) {
  var s = "";
  for (var n in style) if (H.call(style, n) && null != style[n]) s += n + ":" + style[n] + ";";
  return s;
}
function withElse(o) {
  var seen = [], k;
  for (k in o) if (H.call(o, k)) seen.push("own " + k); else seen.push("inherited " + k);
  return seen.join();
}
function reassigns(o) {
  var seen = [], k;
  for (k in o) if (H.call(o, k)) { seen.push(k); o = {z: 1}; }
  return seen.join();
}
`

func TestPropsRewriteKeepsWhatLoopsVisit(t *testing.T) {
	out, err := rewriteOwnKeyLoops(ownKeyLoops)
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(out, "Object.keys("); n != 2 {
		t.Errorf("%d loops rewritten, want 2 (attrs, styles; not the one with an else, nor the one that reassigns its object):\n%s", n, out)
	}
	const calls = `var proto = {inherited: 1}; var o = Object.create(proto); o.b = 2; o[1] = "one"; o.a = 3; o.children = "c";
Object.defineProperty(o, "hidden", {value: 4, enumerable: false});
var out = []; var f = attrs(out, o);
JSON.stringify([out, f, styles({color: "red", padding: 0}), withElse(o), reassigns({x: 1, y: 2}), attrs([], null), styles(undefined)])`
	want := run(t, ownKeyLoops, calls)
	if got := run(t, out, calls); got != want {
		t.Errorf("rewritten loops give %v, want %v", got, want)
	}
}

// jsxRuntime is React 18's production jsx-runtime module body, as the
// installed build has it, made runnable with a stub React.
func jsxRuntime(t *testing.T) string {
	_, src := realFile(t, "react18", "react/cjs/react-jsx-runtime.production.min.js")
	return `var require = function () { return {__SECRET_INTERNALS_DO_NOT_USE_OR_YOU_WILL_BE_FIRED: {ReactCurrentOwner: {current: null}}}; };
var exports = {};
` + src
}

func TestJSXRewrite(t *testing.T) {
	stock := jsxRuntime(t)
	fast, err := rewriteJSX(stock)
	if err != nil {
		t.Fatal(err)
	}
	// What a component or the renderer can see of an element: its key,
	// ref and props (keys in order, values, no reserved names), default
	// props filled in.
	const calls = `function Comp() {} Comp.defaultProps = {size: "m", color: "red"};
function show(e) { return [e.type === Comp ? "Comp" : e.type, e.key, e.ref, Object.keys(e.props), JSON.stringify(e.props)]; }
JSON.stringify([
  show(exports.jsx("li", {className: "a", "data-id": 1, children: ["x", "y"]}, 7)),
  show(exports.jsxs("a", {href: "/", key: "k", ref: "r", __self: 1, __source: 2, title: "t"})),
  show(exports.jsx(Comp, {color: "blue"})),
  show(exports.jsx(Comp, {color: undefined, key: undefined})),
  show(exports.jsx("p", {}))
])`
	want := run(t, stock, calls)
	if got := run(t, fast, calls); got != want {
		t.Errorf("rewritten jsx() gives %v, want %v", got, want)
	}
	// The documented difference: without reserved names the config object
	// itself becomes props, as in React 19; with one it is copied.
	if got := run(t, fast, `var c = {a: 1}, d = {a: 1, key: "k"}; [exports.jsx("i", c).props === c, exports.jsx("i", d).props === d].join()`); got != "true,false" {
		t.Errorf("props identity = %v, want true,false", got)
	}
}

// The flush, concat, Preact children and Vue unroll rewrites are checked
// on whole renders by the parity suites; these snippets pin their edges.

func TestFlushRewrite(t *testing.T) {
	const src = `function flush(b, d, e) { var f = true;
  for (; e < d.length - 1; e++) b.push(d[e]);
  e < d.length && (f = b.push(d[e]));
  return f; }`
	out, err := rewriteFlush(src)
	if err != nil {
		t.Fatal(err)
	}
	const calls = `var got = [], sink = {push: function (c) { null !== c && got.push(c); return got.length < 100; }};
JSON.stringify([flush(sink, ["<a", ">", "x", "</a>"], 0), flush(sink, ["1", "2", "3"], 1), flush(sink, [], 0), flush(sink, ["only"], 0), got.join("")])`
	want := run(t, src, calls)
	if got := run(t, out, calls); got != want {
		t.Errorf("rewritten flush gives %v, want %v", got, want)
	}
}

// preactRender is the array branch of Preact's _renderToString in its
// shipped (minified) shape, written for this test: numbers stand for the
// children that render to something other than a string.
const preactRender = `var U = "", P = Array.isArray, a = "__k";
function q(e, n, o, u, y, g, k, b) {
  if ("string" == typeof e) return e;
  if ("number" == typeof e) return [e];
  if (P(e)) {var C,D=U;y[a]=e;for(var A=e.length,S=0;S<A;S++){var E=e[S];if(null!=E&&"boolean"!=typeof E){var L,j=q(E,n,o,u,y,g,k,b);"string"==typeof j?D+=j:(C||(C=new Array(A)),D&&C.push(D),D=U,P(j)?(L=C).push.apply(L,j):C.push(j))}}return C?(D&&C.push(D),C):D}
  return U;
}
function render(x) { var r = q(x, 0, 0, 0, {}, 0, 0, 0); return typeof r === "string" ? r : JSON.stringify(r); }`

func TestPreactChildrenRewrite(t *testing.T) {
	fast, err := rewritePreactChildren(preactRender)
	if err != nil {
		t.Fatal(err)
	}
	// Short arrays keep +=, long ones (over 32 children) collect and join;
	// either way with non-string children cutting the text where they are.
	const calls = `var many = []; for (var i = 0; i < 100; i++) many.push(i % 3 ? "t" + i : i % 2 ? i : [null, true, "<" + i + ">"]);
JSON.stringify([render(["a", "b<", null, false]), render(["a", 1, "b"]), render(many), render([many, "tail", many])])`
	want := run(t, preactRender, calls)
	if got := run(t, fast, calls); got != want {
		t.Errorf("rewritten children loop gives %v, want %v", got, want)
	}
}

func TestVueUnrollRewrite(t *testing.T) {
	const src = `var shared = {isString: function (x) { return typeof x === "string"; }};
function unrollBufferSync$1(buffer) {
  let ret = "";
  for (let i = 0; i < buffer.length; i++) {
    let item = buffer[i];
    if (shared.isString(item)) {
      ret += item;
    } else {
      ret += unrollBufferSync$1(item);
    }
  }
  return ret;
}`
	out, err := rewriteVueUnroll(src)
	if err != nil {
		t.Fatal(err)
	}
	const calls = `JSON.stringify([unrollBufferSync$1(["<div>", ["a", ["b", []], "c"], "</div>"]), unrollBufferSync$1([]), unrollBufferSync$1([5, "x"])])`
	want := run(t, src, calls)
	if got := run(t, out, calls); got != want {
		t.Errorf("rewritten unroll gives %v, want %v", got, want)
	}
}
