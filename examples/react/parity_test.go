package react

import (
	"slices"
	"strings"
	"testing"

	"bext/engine"
	"bext/engine/fastpath"
	"bext/internal/nodeparity"
)

// TestParityWithNode renders every page in goja and in Node from the same
// bundle and requires byte-identical output, for every build of
// nodeparity.Builds (development and production, every fast path on, none,
// and each one off alone). The streaming entries (renderToReadableStream,
// renderToPipeableStream) are checked with every fast path on and off.
func TestParityWithNode(t *testing.T) {
	var prodHTML map[string]string // production pages, to compare the builds with each other
	check := func(t *testing.T, entry string, v nodeparity.Build) {
		b := entryBundle(t, entry, v)
		checkFastPaths(t, entry, v, b)
		iso := entryIsolate(t, entry, v)
		reqs := make([]*engine.Request, len(pages))
		for i, url := range pages {
			reqs[i] = nodeparity.Request(url)
		}
		want := nodeparity.Render(t, b.Code, reqs)
		for i, url := range pages {
			got := renderGoja(t, iso, url)
			if got.Error != "" || want[i].Error != "" {
				if got.Error == "" || want[i].Error == "" || !strings.Contains(got.Error, want[i].Error) {
					t.Errorf("%s: goja error %q, node error %q", url, got.Error, want[i].Error)
				}
				continue
			}
			if got.Status != want[i].Status || got.Headers["content-type"] != want[i].Headers["content-type"] {
				t.Errorf("%s: goja status %d %q, node %d %q", url, got.Status, got.Headers, want[i].Status, want[i].Headers)
			}
			if d := nodeparity.Diff(got.HTML, want[i].HTML); d != "" {
				t.Errorf("%s: %s", url, d)
			}
		}
		if !v.Dev && entry == stringEntry {
			if prodHTML == nil {
				prodHTML = map[string]string{}
				for i, url := range pages {
					prodHTML[url] = want[i].HTML
				}
			}
			for i, url := range pages {
				if prodHTML[url] != want[i].HTML {
					t.Errorf("%s: build %s renders different HTML from the first production build", url, v)
				}
			}
		}
		for _, l := range iso.Console() { // React's dev warnings (keys, props) land here
			t.Errorf("console.%s during renders: %s", l.Level, l.Text)
		}
	}
	for _, v := range nodeparity.Builds() {
		t.Run(v.String(), func(t *testing.T) { check(t, stringEntry, v) })
	}
	for _, entry := range []string{streamEntry, pipeEntry} {
		for _, v := range []nodeparity.Build{production, {}, {Dev: true, FastPaths: fastpath.All()}} {
			t.Run(entry+"/"+v.String(), func(t *testing.T) { check(t, entry, v) })
		}
	}
}

// browserBuilds are the rewrites of the browser server builds (legacy and
// streaming) and React's runtime.
var browserBuilds = []string{
	"chunks react-dom/cjs/react-dom-server.browser.production.min.js",
	"concat react-dom/cjs/react-dom-server-legacy.browser.production.min.js",
	"escape react-dom/cjs/react-dom-server-legacy.browser.production.min.js",
	"escape react-dom/cjs/react-dom-server.browser.production.min.js",
	"flush react-dom/cjs/react-dom-server-legacy.browser.production.min.js",
	"flush react-dom/cjs/react-dom-server.browser.production.min.js",
	"jsx react/cjs/react-jsx-runtime.production.min.js",
	"props react-dom/cjs/react-dom-server-legacy.browser.production.min.js",
	"props react-dom/cjs/react-dom-server.browser.production.min.js",
	"sink react-dom/cjs/react-dom-server-legacy.browser.production.min.js",
}

// wantFastPaths are the rewrites each entry's production bundle must carry
// with every fast path on: the renderToString ones in the legacy build, the
// others in every server build it loads, jsx() in React's runtime.
var wantFastPaths = map[string][]string{
	stringEntry: browserBuilds,
	streamEntry: browserBuilds, // src/server-stream.jsx loads the same two builds
	pipeEntry: {
		"concat react-dom/cjs/react-dom-server-legacy.node.production.min.js",
		"escape react-dom/cjs/react-dom-server-legacy.node.production.min.js",
		"escape react-dom/cjs/react-dom-server.node.production.min.js",
		"flush react-dom/cjs/react-dom-server-legacy.node.production.min.js",
		"jsx react/cjs/react-jsx-runtime.production.min.js",
		"props react-dom/cjs/react-dom-server-legacy.node.production.min.js",
		"props react-dom/cjs/react-dom-server.node.production.min.js",
		"sink react-dom/cjs/react-dom-server-legacy.node.production.min.js",
	},
}

// checkFastPaths requires a bundle to carry exactly the rewrites its build
// asked for and no warning about them, so this test fails if a rewrite
// silently stops matching React.
func checkFastPaths(t *testing.T, entry string, v nodeparity.Build, b *engine.Bundle) {
	t.Helper()
	var want []string
	for _, a := range wantFastPaths[entry] {
		name, file, _ := strings.Cut(a, " ")
		if v.Dev {
			if name != fastpath.Sink {
				continue // the development builds get the sink only
			}
			a = name + " " + strings.Replace(file, ".production.min.js", ".development.js", 1)
		}
		if slices.Contains(v.FastPaths, name) {
			want = append(want, a)
		}
	}
	slices.Sort(want)
	if !slices.Equal(b.FastPaths, want) {
		t.Errorf("bundle carries fast paths\n  %s\nwant\n  %s", strings.Join(b.FastPaths, "\n  "), strings.Join(want, "\n  "))
	}
	stock, fast := fastpath.Sinks(string(b.Code))
	if slices.Contains(v.FastPaths, fastpath.Sink) != (stock == 0 && fast == 1) {
		t.Errorf("bundle has %d string sinks and %d array sinks with fast paths %v", stock, fast, v.FastPaths)
	}
	for _, w := range b.Warnings {
		t.Errorf("build warning: %s", w)
	}
}

// TestPages checks what the app promises: page sizes the benchmark names
// rely on, escaping of user input, the data-error fallback, the 404 and the
// failing route.
func TestPages(t *testing.T) {
	iso := isolate(t, production)
	sizes := map[string][2]int{"/small": {1500, 3000}, "/": {14000, 20000}, "/large": {85000, 115000}}
	for url, r := range sizes {
		if n := len(renderGoja(t, iso, url).HTML); n < r[0] || n > r[1] {
			t.Errorf("%s is %d bytes, want %d–%d", url, n, r[0], r[1])
		}
	}
	home := renderGoja(t, iso, "/").HTML
	for _, s := range []string{"<!DOCTYPE html><html lang=\"en\">", "茶壶 · Teapot 🍵", `dir="rtl"`, "<strong>Free shipping</strong>", `style="display:flex;`, `<input type="checkbox" name="stock" value="1"/>`} {
		if !strings.Contains(home, s) {
			t.Errorf("/ does not contain %q", s)
		}
	}
	if h := renderGoja(t, iso, "/?q=<script>alert(1)</script>").HTML; strings.Contains(h, "<script>alert") || !strings.Contains(h, `value="&lt;script&gt;alert(1)&lt;/script&gt;"`) {
		t.Errorf("query text is not escaped into the search box")
	}
	if h := renderGoja(t, iso, "/items/item-10").HTML; !strings.Contains(h, "Reviews are unavailable right now (review service unavailable for item 10)") {
		t.Errorf("/items/item-10 lacks the reviews fallback")
	}
	if r := renderGoja(t, iso, "/nope"); r.Status != 404 || !strings.Contains(r.HTML, "404 — nothing at /nope") {
		t.Errorf("/nope: status %d", r.Status)
	}
	if r := renderGoja(t, iso, "/broken"); !strings.Contains(r.Error, "Broken: this component always throws") {
		t.Errorf("/broken: error %q, want the component's message", r.Error)
	}
}
