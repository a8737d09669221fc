package fastsink

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
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
			got, err := Rewrite(tc.src, tc.version)
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
			got, err := Rewrite(tc.src, tc.version)
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
			fast, err := Rewrite(src, tc.version)
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

// fakeReactDOM writes a react-dom package with a legacy server build (the
// v19 snippet plus an exports line) and a streaming build without
// renderToString, and an entry importing both.
func fakeReactDOM(t *testing.T, version string) (dir string) {
	t.Helper()
	dir = t.TempDir()
	files := map[string]string{
		"node_modules/react-dom/package.json": `{"name":"react-dom","version":"` + version + `"}`,
		"node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.js": `function startFlowing(c, d) { for (var i = 0; i < c.length; i++) d.push(c[i]); }
` + v19 + `exports.renderToString = function (c) { return renderToStringImpl(c); };`,
		"node_modules/react-dom/cjs/react-dom-server.browser.production.js": `var s = ""; exports.renderToReadableStream = function (c) { s += c; return s; };`,
		"entry.js": `var legacy = require("react-dom/cjs/react-dom-server-legacy.browser.production.js");
var stream = require("react-dom/cjs/react-dom-server.browser.production.js");
globalThis.out = legacy.renderToString(["a", null, "b"]) + stream.renderToReadableStream("c");`,
	}
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func build(t *testing.T, dir string, minify bool, plugins ...api.Plugin) string {
	t.Helper()
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(dir, "entry.js")},
		Bundle:            true,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformNeutral,
		MinifyWhitespace:  minify,
		MinifySyntax:      minify,
		MinifyIdentifiers: minify,
		Plugins:           plugins,
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		t.Fatalf("build: %v", res.Errors)
	}
	return string(res.OutputFiles[0].Contents)
}

func runBundle(t *testing.T, code string) string {
	t.Helper()
	vm := goja.New()
	if _, err := vm.RunString(code); err != nil {
		t.Fatal(err)
	}
	return vm.Get("out").String()
}

func TestPluginRewritesKnownBuild(t *testing.T) {
	dir := fakeReactDOM(t, "19.3.1")
	for _, minify := range []bool{false, true} {
		var warnings []string
		code := build(t, dir, minify, Plugin(func(m string) { warnings = append(warnings, m) }))
		if len(warnings) != 0 {
			t.Errorf("minify=%v: unexpected warnings %q", minify, warnings)
		}
		if stock, fast := Sinks(code); stock != 0 || fast != 1 {
			t.Errorf("minify=%v: bundle has %d stock and %d fast sinks, want 0 and 1:\n%s", minify, stock, fast, code)
		}
		if got := runBundle(t, code); got != "abc" {
			t.Errorf("minify=%v: out = %q, want abc", minify, got)
		}
		stockCode := build(t, dir, minify)
		if stock, fast := Sinks(stockCode); stock != 1 || fast != 0 {
			t.Errorf("minify=%v: stock bundle has %d stock and %d fast sinks, want 1 and 0:\n%s", minify, stock, fast, stockCode)
		}
	}
}

func TestPluginWarnsOnceAndLeavesUnknownBuild(t *testing.T) {
	dir := fakeReactDOM(t, "20.0.0")
	var warnings []string
	p := Plugin(func(m string) { warnings = append(warnings, m) })
	stock := build(t, dir, false)
	for range 2 { // an incremental rebuild reuses the plugin: still one warning
		if code := build(t, dir, false, p); code != stock {
			t.Errorf("unknown build was changed:\n%s\nwant\n%s", code, stock)
		}
	}
	if len(warnings) != 1 {
		t.Fatalf("warnings = %q, want exactly one", warnings)
	}
	want := "bext fast sink: unrecognised react-dom build cjs/react-dom-server-legacy.browser.production.js (version 20.0.0); left as is — renders may be slower"
	if !strings.HasPrefix(warnings[0], want) {
		t.Errorf("warning = %q, want it to start with %q", warnings[0], want)
	}
}

func TestPackageVersionFallsBackToFile(t *testing.T) {
	dir := t.TempDir() // no package.json beside the file
	path := filepath.Join(dir, "cjs", "react-dom-server-legacy.node.production.min.js")
	for src, want := range map[string]string{
		`exports.version="18.3.1";`:    "18.3.1",
		`var ReactVersion = '18.0.0';`: "18.0.0",
		`exports.version = "19.3.1";`:  "19.3.1",
		`nothing here`:                 "",
	} {
		if got := packageVersion(path, src); got != want {
			t.Errorf("packageVersion(%q) = %q, want %q", src, got, want)
		}
	}
}
