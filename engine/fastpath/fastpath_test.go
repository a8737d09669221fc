package fastpath

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"bext/internal/testenv"
)

// installed are the folders whose node_modules hold the library builds the
// rewrites were written against (test.sh runs npm ci in each).
var installed = map[string]string{
	"react18": "../../examples/react/node_modules",
	"react19": "../../testdata/npm/react19/node_modules",
	"preact":  "../../testdata/npm/preact/node_modules",
	"vue":     "../../testdata/npm/vue/node_modules",
}

// realBuilds are every file a rewrite targets, with the rewrites that must
// recognise it.
var realBuilds = []struct {
	fixture, file string
	want          []string
}{
	{"react18", "react-dom/cjs/react-dom-server-legacy.browser.production.min.js", []string{Sink, Flush, Concat, Escape, Props}},
	{"react18", "react-dom/cjs/react-dom-server-legacy.node.production.min.js", []string{Sink, Flush, Concat, Escape, Props}},
	{"react18", "react-dom/cjs/react-dom-server.browser.production.min.js", []string{Flush, Chunks, Escape, Props}},
	{"react18", "react-dom/cjs/react-dom-server.node.production.min.js", []string{Escape, Props}}, // see reactProdNode
	{"react18", "react-dom/cjs/react-dom-server-legacy.browser.development.js", []string{Sink}},
	{"react18", "react-dom/cjs/react-dom-server.browser.development.js", nil},
	{"react18", "react/cjs/react-jsx-runtime.production.min.js", []string{JSX}},
	{"react18", "react/cjs/react-jsx-runtime.development.js", nil},
	{"react19", "react-dom/cjs/react-dom-server-legacy.browser.production.js", []string{Sink, Flush, Concat, Escape, Props}},
	{"react19", "react-dom/cjs/react-dom-server-legacy.node.production.js", []string{Sink, Flush, Concat, Escape, Props}},
	{"react19", "react-dom/cjs/react-dom-server.browser.production.js", []string{Flush, Chunks, Escape, Props}},
	{"react19", "react-dom/cjs/react-dom-server.node.production.js", []string{Flush, Escape, Props}},
	{"react19", "react-dom/cjs/react-dom-server.edge.production.js", []string{Flush, Chunks, Escape, Props}},
	{"react19", "react-dom/cjs/react-dom-server.bun.production.js", []string{Escape, Props}},
	{"react19", "react-dom/cjs/react-dom-server-legacy.browser.development.js", []string{Sink}},
	{"react19", "react/cjs/react-jsx-runtime.production.js", nil}, // React 19's jsx() already skips the copy
	{"preact", "preact-render-to-string/dist/index.mjs", []string{Sink, Escape}},
	{"preact", "preact-render-to-string/dist/index.module.js", []string{Sink, Escape}},
	{"preact", "preact-render-to-string/dist/commonjs.js", []string{Sink, Escape}},
	{"vue", "@vue/shared/dist/shared.cjs.prod.js", []string{Escape}},
	{"vue", "@vue/shared/dist/shared.cjs.js", nil},
	{"vue", "@vue/server-renderer/dist/server-renderer.cjs.prod.js", []string{Sink}},
}

// realFile reads one installed library file.
func realFile(t *testing.T, fixture, file string) (path, src string) {
	t.Helper()
	root := installed[fixture]
	testenv.File(t, root, "run npm ci in "+filepath.Dir(root))
	path, err := filepath.Abs(filepath.Join(root, filepath.FromSlash(file)))
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return path, string(data)
}

// TestRewritesRecogniseTheBuildsTheyTarget applies every rewrite to every
// installed library file it was written for: each must recognise its code
// (a rewrite that silently stops matching fails here, not as a slowdown),
// and files a rewrite does not target must be left alone without a note.
func TestRewritesRecogniseTheBuildsTheyTarget(t *testing.T) {
	for _, b := range realBuilds {
		t.Run(b.fixture+"/"+b.file, func(t *testing.T) {
			path, src := realFile(t, b.fixture, b.file)
			out, notes := Apply(rewrites, path, src)
			var got []string
			for _, n := range notes {
				if n.Err != nil {
					t.Errorf("%s: %v", n.Rewrite, n.Err)
				}
				got = append(got, n.Rewrite)
			}
			if !slices.Equal(got, b.want) {
				t.Errorf("rewrites applied: %v, want %v", got, b.want)
			}
			if (out != "") != (len(b.want) > 0) {
				t.Errorf("changed = %v with rewrites %v", out != "", b.want)
			}
		})
	}
}

// alterations change the code one rewrite keys on in a real build, the
// way a patched or newer library would; the rewrite must then leave the
// file as it is and say so.
var alterations = []struct {
	rewrite, fixture, file string
	from, to               string // first occurrence replaced
	alsoRefused            []string
}{
	{Sink, "react18", "react-dom/cjs/react-dom-server-legacy.browser.production.min.js", `null!==a&&(g+=a)`, `null!==a&&(g+=a+"")`, nil},
	{Flush, "react18", "react-dom/cjs/react-dom-server-legacy.browser.production.min.js", `e<d.length&&(f=b.push(d[e]))`, `e<d.length&&(f=b.push(d[e],0))`, nil},
	{Escape, "react18", "react-dom/cjs/react-dom-server.browser.production.min.js", `b="&#x27;"`, `b="&#39;"`, nil},
	{Chunks, "react18", "react-dom/cjs/react-dom-server.browser.production.min.js", `function u(a){return ca.encode(a)}`, `function u(a){return ca.encode(""+a)}`, nil},
	{Chunks, "react19", "react-dom/cjs/react-dom-server.browser.production.js", `for (var segmentByteSize = 0, i = 0;`, `for (var segmentByteSize = 0, i = 0, j;`, nil},
	{Concat, "react19", "react-dom/cjs/react-dom-server-legacy.browser.production.js", `match = "&#x27;"`, `match = "&#39;"`, []string{Escape}},
	{Props, "react19", "react-dom/cjs/react-dom-server.edge.production.js", `hasOwnProperty = Object.prototype.hasOwnProperty`, `hasOwnProperty = Object.hasOwn`, nil},
	{JSX, "react18", "react/cjs/react-jsx-runtime.production.min.js", `__source:!0`, `__src:!0`, nil},
	{Escape, "preact", "preact-render-to-string/dist/index.mjs", `o="&lt;"`, `o="&#60;"`, nil},
	{Sink, "preact", "preact-render-to-string/dist/index.mjs", `"string"==typeof j?D+=j:`, `"string"==typeof j?D=D+j:`, nil},
	{Escape, "vue", "@vue/shared/dist/shared.cjs.prod.js", `escaped = "&#39;"`, `escaped = "&#x27;"`, nil},
	{Sink, "vue", "@vue/server-renderer/dist/server-renderer.cjs.prod.js", `ret += unrollBufferSync$1(item);`, `ret = ret + unrollBufferSync$1(item);`, nil},
}

// TestAlteredBuildsAreLeftAndWarned bundles each altered build with the
// fast path plugin and without it: the bundles must be identical, and the
// plugin must report the rewrite as unrecognised with a warning that names
// it, the file and the version.
func TestAlteredBuildsAreLeftAndWarned(t *testing.T) {
	for _, a := range alterations {
		t.Run(a.rewrite+"/"+a.fixture+"/"+a.file, func(t *testing.T) {
			_, src := realFile(t, a.fixture, a.file)
			if !strings.Contains(src, a.from) {
				t.Fatalf("%s does not contain %q; update the test to the installed build", a.file, a.from)
			}
			altered := strings.Replace(src, a.from, a.to, 1)
			dir := fakePackage(t, a.file, "", altered)
			var notes []Note
			withPlugin := build(t, dir, false, Plugin([]string{a.rewrite}, func(n Note) { notes = append(notes, n) }))
			if stock := build(t, dir, false); withPlugin != stock {
				t.Errorf("the altered build was changed")
			}
			if len(notes) != 1 || notes[0].Rewrite != a.rewrite || !errors.Is(notes[0].Err, ErrUnrecognised) {
				t.Fatalf("notes = %+v, want one unrecognised %s", notes, a.rewrite)
			}
			w := notes[0].Warning()
			for _, s := range []string{`bext fast path "` + a.rewrite + `": unrecognised ` + a.file, "left as is"} {
				if !strings.Contains(w, s) {
					t.Errorf("warning %q does not say %q", w, s)
				}
			}
			// With every rewrite on, the altered code's rewrite (and any that
			// keys on the same code) is refused; the others still apply.
			path, _ := realFile(t, a.fixture, a.file)
			_, all := Apply(rewrites, path, altered)
			for _, n := range all {
				refused := n.Rewrite == a.rewrite || slices.Contains(a.alsoRefused, n.Rewrite)
				if refused != (n.Err != nil) {
					t.Errorf("with every rewrite on: %s: %v", n.Rewrite, n.Err)
				}
			}
		})
	}
}

// TestUnknownVersionsAreLeftAndWarned gives a real build a version no
// rewrite was checked against: it is left as is, with one warning per
// rewrite naming the version.
func TestUnknownVersionsAreLeftAndWarned(t *testing.T) {
	for _, tc := range []struct{ fixture, file, version string }{
		{"react18", "react-dom/cjs/react-dom-server-legacy.browser.production.min.js", "20.0.0"},
		{"react18", "react/cjs/react-jsx-runtime.production.min.js", "19.0.0"},
		{"preact", "preact-render-to-string/dist/index.mjs", "7.0.0"},
		{"vue", "@vue/shared/dist/shared.cjs.prod.js", "4.0.0"},
	} {
		t.Run(tc.file+"@"+tc.version, func(t *testing.T) {
			_, src := realFile(t, tc.fixture, tc.file)
			dir := fakePackage(t, tc.file, tc.version, src)
			var notes []Note
			if build(t, dir, true, Plugin(All(), func(n Note) { notes = append(notes, n) })) != build(t, dir, true) {
				t.Errorf("a build of unknown version %s was changed", tc.version)
			}
			if len(notes) == 0 {
				t.Fatal("no note about the unknown version")
			}
			for _, n := range notes {
				if !errors.Is(n.Err, ErrUnrecognised) || !strings.Contains(n.Warning(), "version "+tc.version) || !strings.Contains(n.Warning(), "not a version this rewrite was checked against") {
					t.Errorf("note %s: %q", n, n.Warning())
				}
			}
		})
	}
}

// fakePackage writes a node_modules folder holding file (package/path)
// with body, the package's package.json (version "" keeps the installed
// one's) and an entry.js that requires it; other packages stay external.
func fakePackage(t *testing.T, file, version, body string) string {
	t.Helper()
	pkg, _ := splitPackage(file)
	if version == "" {
		var fixture string
		for _, b := range realBuilds {
			if b.file == file {
				fixture = b.fixture
			}
		}
		data, err := os.ReadFile(filepath.Join(installed[fixture], pkg, "package.json"))
		if err != nil {
			t.Fatal(err)
		}
		var p struct{ Version string }
		if err := json.Unmarshal(data, &p); err != nil {
			t.Fatal(err)
		}
		version = p.Version
	}
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"node_modules/" + pkg + "/package.json": `{"name":"` + pkg + `","version":"` + version + `"}`,
		"node_modules/" + file:                  body,
		"entry.js":                              `globalThis.out = require("./node_modules/` + file + `");`,
	})
	return dir
}

// splitPackage splits "@vue/shared/dist/x.js" into "@vue/shared" and
// "dist/x.js".
func splitPackage(file string) (pkg, rel string) {
	parts := strings.SplitN(file, "/", 3)
	if strings.HasPrefix(file, "@") {
		return parts[0] + "/" + parts[1], parts[2]
	}
	return parts[0], strings.Join(parts[1:], "/")
}

func TestCheckNamesTheFastPaths(t *testing.T) {
	if err := Check([]string{Sink, Escape}); err != nil {
		t.Errorf("Check(sink, escape) = %v", err)
	}
	err := Check([]string{"escape", "sinks"})
	if err == nil || !strings.Contains(err.Error(), `"sinks"`) || !strings.Contains(err.Error(), strings.Join(Names(), ", ")) {
		t.Errorf("Check(sinks) = %v, want an error naming it and the valid names", err)
	}
	if got := Without(Sink, JSX); slices.Contains(got, Sink) || slices.Contains(got, JSX) || len(got) != len(Names())-2 {
		t.Errorf("Without(sink, jsx) = %v", got)
	}
}
