package fastpath

import (
	"errors"
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// The snippets below are written for these tests in the shapes of React's
// renderToStringImpl (React 18 development, React 18 production.min, React
// 19 development and production); they are not copies of React.

const dev18 = `function renderToStringImpl(children, options) {
  var didFatal = false;
  var fatalError = null;
  var result = '';
  var destination = {
    push: function (chunk) {
      if (chunk !== null) {
        result += chunk;
      }

      return true;
    },
    destroy: function (error) {
      didFatal = true;
      fatalError = error;
    }
  };
  startFlowing(children, destination);
  if (didFatal) {
    throw fatalError;
  }
  return result;
}
`

const dev18Want = `function renderToStringImpl(children, options) {
  var didFatal = false;
  var fatalError = null;
  var result = [];
  var destination = {
    push: function (chunk) {
      if (chunk !== null) {
        result.push(chunk);
      }

      return true;
    },
    destroy: function (error) {
      didFatal = true;
      fatalError = error;
    }
  };
  startFlowing(children, destination);
  if (didFatal) {
    throw fatalError;
  }
  return result.join("");
}
`

const min18 = `function Tb(a,b){var f=!1,e=null,g="",h={push:function(a){null!==a&&(g+=a);return!0},destroy:function(a){f=!0;e=a}};startFlowing(a,h);if(f)throw e;return g}`

const min18Want = `function Tb(a,b){var f=!1,e=null,g = [],h={push:function(a){null!==a&&(g.push(a));return!0},destroy:function(a){f=!0;e=a}};startFlowing(a,h);if(f)throw e;return g.join("")}`

const v19 = `function renderToStringImpl(children, options) {
  var didFatal = !1,
    fatalError = null,
    result = "",
    readyToStream = !1;
  startFlowing(children, {
    push: function (chunk) {
      null !== chunk && (result += chunk);
      return !0;
    },
    destroy: function (error) {
      didFatal = !0;
      fatalError = error;
    }
  });
  if (didFatal) throw fatalError;
  return result;
}
`

const v19Want = `function renderToStringImpl(children, options) {
  var didFatal = !1,
    fatalError = null,
    result = [],
    readyToStream = !1;
  startFlowing(children, {
    push: function (chunk) {
      null !== chunk && (result.push(chunk));
      return !0;
    },
    destroy: function (error) {
      didFatal = !0;
      fatalError = error;
    }
  });
  if (didFatal) throw fatalError;
  return result.join("");
}
`

func TestRewriteKnownShapes(t *testing.T) {
	for _, tc := range []struct {
		name, version, src, want string
	}{
		{"react18-development", "18.3.1", dev18, dev18Want},
		{"react18-production.min", "18.2.0", min18, min18Want},
		{"react19", "19.0.0", v19, v19Want},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := applyNamed(Sink, "react-dom", tc.src, tc.version)
			if err != nil {
				t.Fatalf("Rewrite: %v", err)
			}
			if got != tc.want {
				t.Errorf("Rewrite =\n%s\nwant\n%s", got, tc.want)
			}
			if stock, fast := Sinks(tc.src); stock != 1 || fast != 0 {
				t.Errorf("Sinks(original) = %d stock, %d fast; want 1, 0", stock, fast)
			}
			if stock, fast := Sinks(got); stock != 0 || fast != 1 {
				t.Errorf("Sinks(rewritten) = %d stock, %d fast; want 0, 1", stock, fast)
			}
		})
	}
}

func TestRewriteRefusesUnknownShapes(t *testing.T) {
	for _, tc := range []struct {
		name, version, src, why string
	}{
		{"unknown version", "20.0.0", v19, "not a version"},
		{"no version", "", v19, "not a version"},
		{"no sink", "18.3.1", `function f(){var r="";return r}`, "found 0"},
		{"two sinks", "18.3.1", v19 + v19, "found 2"},
		{"result read in between", "19.0.0",
			strings.Replace(v19, "if (didFatal) throw fatalError;", "if (result.length > 9) log(result);", 1), "used 5 times"},
		{"appends another variable", "19.0.0",
			strings.Replace(v19, "(result += chunk)", "(result += other)", 1), "found 0"},
		{"no string initialiser", "19.0.0",
			strings.Replace(v19, `result = "",`, `result = prefix,`, 1), "no `result = \"\"`"},
		{"no return of the result", "19.0.0",
			strings.Replace(v19, "return result;", "return wrap(result);", 1), "no `return result`"},
		{"push does something else too", "18.3.1",
			strings.Replace(dev18, "return true;", "count++;\n      return true;", 1), "found 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := applyNamed(Sink, "react-dom", tc.src, tc.version)
			if !errors.Is(err, ErrUnrecognised) {
				t.Fatalf("Rewrite = %q, %v; want an ErrUnrecognised error", got, err)
			}
			if !strings.Contains(err.Error(), tc.why) {
				t.Errorf("error %q does not say %q", err, tc.why)
			}
		})
	}
}

// TestRewriteKeepsOutput runs the original and the rewritten snippet in goja
// with the same chunks (nulls included) and compares what they return.
func TestRewriteKeepsOutput(t *testing.T) {
	const harness = `
function startFlowing(chunks, d) { for (var i = 0; i < chunks.length; i++) d.push(chunks[i]); }
`
	chunks := `["<div", " class=\"a\"", ">", null, "héllo 🌍 世界 שלום", "", "</div>", null]`
	for _, tc := range []struct{ name, fn, version string }{
		{"react18-development", "renderToStringImpl", "18.3.1"},
		{"react18-production.min", "Tb", "18.3.1"},
		{"react19", "renderToStringImpl", "19.3.1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			src := map[string]string{"react18-development": dev18, "react18-production.min": min18, "react19": v19}[tc.name]
			fast, err := applyNamed(Sink, "react-dom", src, tc.version)
			if err != nil {
				t.Fatal(err)
			}
			run := func(code string) any {
				vm := goja.New()
				v, err := vm.RunString(harness + code + "\n" + tc.fn + "(" + chunks + ")")
				if err != nil {
					t.Fatal(err)
				}
				return v.Export()
			}
			want, got := run(src), run(fast)
			if want != `<div class="a">héllo 🌍 世界 שלום</div>` || got != want {
				t.Errorf("stock returned %q, fast returned %q", want, got)
			}
		})
	}
}
