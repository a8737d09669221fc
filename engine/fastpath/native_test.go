package fastpath

import (
	"fmt"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// escapeInputs are JS expressions every escape function is called with:
// each escaped character alone, at the edges and in runs, text needing
// nothing, unicode (BMP, astral, lone surrogates) next to escapes, and
// values that are not strings.
var escapeInputs = []string{
	`""`, `"plain text"`, `"\""`, `"&"`, `"'"`, `"<"`, `">"`, `"<<>>&&''\"\""`,
	`"a<b"`, `"<a"`, `"a>"`, `"Tea & <shop> 'quoted' \"double\""`,
	`"茶壶 · Teapot 🍵 & <b>"`, `"\ud83c<\udf75"`, `"\udf75&"`, `"עברית & العربية"`,
	`"x".repeat(5000) + "&" + "y".repeat(5000)`, `"&amp;"`,
	`0`, `-1.5`, `1e21`, `NaN`, `true`, `false`, `null`, `undefined`, `10n`,
	`({toString() { return "<obj>"; }})`, `({valueOf() { return "<v>"; }, toString() { return "<s>"; }})`,
	`["a<", "b&"]`,
}

// escapeFunctions are the escape functions as the libraries write them
// (taken from the installed builds) with what their rewrite needs around
// them, and the inputs they take (Preact's is only ever given strings).
var escapeFunctions = []struct {
	name, fixture, file string
	shapes              []*shape
	decl                string
	rewrite             func(string) (string, error)
	stringsOnly         bool
}{
	{"react18", "react18", "react-dom/cjs/react-dom-server-legacy.browser.production.min.js", reactEscapeShapes, `var %s = /["'&<>]/;`, rewriteReactEscape, false},
	{"react19", "react19", "react-dom/cjs/react-dom-server.edge.production.js", reactEscapeShapes, `var %s = /["'&<>]/;`, rewriteReactEscape, false},
	{"vue", "vue", "@vue/shared/dist/shared.cjs.prod.js", []*shape{vueEscape}, `var %s = /["'&<>]/;`, rewriteVueEscape, false},
	{"preact", "preact", "preact-render-to-string/dist/index.mjs", []*shape{preactEscape}, `var %s = /["&<]/;`, rewritePreactEscape, true},
}

// TestNativeEscapeMatchesTheLibraries runs each library's escape function
// as shipped and as rewritten (calling the Go escaper) on the same inputs
// and requires the same results, exceptions included.
func TestNativeEscapeMatchesTheLibraries(t *testing.T) {
	for _, ef := range escapeFunctions {
		t.Run(ef.name, func(t *testing.T) {
			_, src := realFile(t, ef.fixture, ef.file)
			var m match
			found := false
			for _, sh := range ef.shapes {
				if ms := sh.findAll(src, functionAnchor); len(ms) == 1 {
					m, found = ms[0], true
				}
			}
			if !found {
				t.Fatal("escape function not found")
			}
			re := m.idents["R"]
			if ef.stringsOnly {
				re = m.idents["Y"] // Preact's regexp
			}
			orig := fmt.Sprintf(ef.decl, re) + "\n" + src[m.start:m.end]
			fast, err := ef.rewrite(orig)
			if err != nil {
				t.Fatal(err)
			}
			fn := m.idents["F"]
			stock, native := goja.New(), goja.New()
			if err := Install(native); err != nil {
				t.Fatal(err)
			}
			for vm, code := range map[*goja.Runtime]string{stock: orig, native: fast} {
				if _, err := vm.RunString(code); err != nil {
					t.Fatalf("%v\n%s", err, code)
				}
			}
			if !strings.Contains(fast, "__bext_fast") {
				t.Fatalf("rewritten function does not call the native escaper:\n%s", fast)
			}
			for _, in := range escapeInputs {
				if ef.stringsOnly && !strings.HasPrefix(in, `"`) {
					continue
				}
				call := fn + "(" + in + ")"
				want, werr := stock.RunString(call)
				got, gerr := native.RunString(call)
				switch {
				case (werr != nil) != (gerr != nil):
					t.Errorf("%s: stock error %v, native error %v", in, werr, gerr)
				case werr == nil && !got.StrictEquals(want):
					t.Errorf("%s = %q, want %q", in, got, want)
				}
			}
		})
	}
}

// TestNativeEscapeReturnsCleanStringsAsIs: a string with nothing to
// escape comes back as the same value, so the common case allocates
// nothing.
func TestNativeEscapeReturnsCleanStringsAsIs(t *testing.T) {
	vm := goja.New()
	if err := Install(vm); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"plain", "茶壶 · Teapot 🍵"} {
		in := vm.ToValue(s)
		out := escapeWith(vm, in, &reactEntities)
		if out != in {
			t.Errorf("%q was copied", s)
		}
	}
	if v, err := vm.RunString(`typeof __bext_fast.escapeHTML + Object.keys(globalThis).indexOf("__bext_fast")`); err != nil || v.String() != "function-1" {
		t.Errorf("__bext_fast: %v %v, want a hidden global with escapeHTML", v, err)
	}
}

// concatChunks joins strings and byte chunks into the bytes TextEncoder
// and the chunks themselves would give, and declines anything else;
// byteLength is the length of those bytes.
func TestConcatChunks(t *testing.T) {
	vm := goja.New()
	if err := Install(vm); err != nil {
		t.Fatal(err)
	}
	v, err := vm.RunString(`var tea = __bext_fast.concatChunks(["茶壶 🍵"], 0);
var chunks = ["<p>", tea, new Uint8Array([1, 2, 3, 4]).subarray(1, 3), "", "\ud83c|", "é"];
var got = __bext_fast.concatChunks(chunks, 0);
JSON.stringify([got instanceof Uint8Array, Array.from(got), Array.from(__bext_fast.concatChunks(chunks, 5)),
  __bext_fast.concatChunks([], 0).length, __bext_fast.concatChunks(["a", {}], 0), __bext_fast.concatChunks(["a"], 3),
  __bext_fast.byteLength(chunks), __bext_fast.byteLength([]), __bext_fast.byteLength(["a", 1])])`)
	if err != nil {
		t.Fatal(err)
	}
	var want []byte
	want = append(want, "<p>茶壶 🍵"...)
	want = append(want, 2, 3, 0xEF, 0xBF, 0xBD, '|')
	want = append(want, "é"...)
	nums := make([]string, len(want))
	for i, b := range want {
		nums[i] = fmt.Sprint(b)
	}
	if got, want := v.String(), `[true,[`+strings.Join(nums, ",")+`],[195,169],0,null,null,`+fmt.Sprint(len(want))+`,0,null]`; got != want {
		t.Errorf("concatChunks, byteLength: %s, want %s", got, want)
	}
}
