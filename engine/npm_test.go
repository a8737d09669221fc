package engine_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bext/engine"
	"bext/engine/fastsink"
	"bext/internal/nodeparity"
)

// npmFixture is an app under testdata/npm with its own package-lock.json:
// a server renderer from npm that must load and render in goja as it ships.
type npmFixture struct {
	name string // folder under testdata/npm
	// sinks is how many react-dom renderToString sinks the bundle holds; the
	// fast-sink build must rewrite every one of them.
	sinks int
	// contains are fragments every "/" page must hold, so two empty or
	// broken renders cannot pass as identical.
	contains []string
}

var npmFixtures = []npmFixture{
	{name: "react19", sinks: 1, contains: []string{
		"<title>Tea &lt;shop&gt;</title>", "茶壶 · Teapot 🍵", `data-react="19.`,
		"<em>Loose leaf</em> &amp; bags", `style="color:#c0392b;padding:4px 8px;line-height:1.5"`, `<label for="_R_`,
	}},
	{name: "preact", contains: []string{
		"<h1>Tea &lt;shop></h1>", "茶壶 · Teapot 🍵",
		"<em>Loose leaf</em> &amp; bags", `style="color:#c0392b;padding:4px 8px;line-height:1.5;"`, `<label for="P0-0"`,
	}},
}

// npmPages are rendered by every fixture, in goja and in Node.
var npmPages = []string{
	"/",
	"/?n=40&dense=1&q=<script>alert(1)</script>",
	"/nope",
}

// TestNpmRenderersMatchNode loads React 19 and Preact server renderers from
// npm, unpatched, in dev and production builds with the fast sink on and off,
// and requires goja's HTML to be byte-identical to Node's on the same bundle.
func TestNpmRenderersMatchNode(t *testing.T) {
	for _, f := range npmFixtures {
		t.Run(f.name, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "testdata", "npm", f.name))
			if err != nil {
				t.Fatal(err)
			}
			nodeparity.NpmCI(t, dir)
			for _, dev := range []bool{false, true} {
				for _, fast := range []bool{true, false} {
					o := engine.BuildOptions{Dir: dir, Entry: "src/server.jsx", Dev: dev, FastSink: fast}
					t.Run(nodeparity.Variant(o.Dev, o.FastSink), func(t *testing.T) { checkNpmParity(t, f, o) })
				}
			}
		})
	}
}

func checkNpmParity(t *testing.T, f npmFixture, o engine.BuildOptions) {
	b, err := engine.BuildServer(o)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	for _, w := range b.Warnings {
		t.Errorf("build warning: %s", w)
	}
	stock, fast := fastsink.Sinks(string(b.Code))
	if want := [2]int{f.sinks, 0}; o.FastSink {
		want = [2]int{0, f.sinks}
		if [2]int{stock, fast} != want {
			t.Errorf("fast-sink bundle has %d string sinks and %d array sinks, want %d and %d (did the plugin stop matching react-dom?)", stock, fast, want[0], want[1])
		}
	} else if [2]int{stock, fast} != want {
		t.Errorf("stock bundle has %d string sinks and %d array sinks, want %d and %d", stock, fast, want[0], want[1])
	}

	p, err := engine.Compile("server.js", b.Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatalf("boot: %v", err)
	}
	defer iso.Close()

	reqs := make([]*engine.Request, len(npmPages))
	for i, u := range npmPages {
		reqs[i] = nodeparity.Request(u)
	}
	want := nodeparity.Render(t, b.Code, reqs)
	for i, u := range npmPages {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		got, err := iso.Render(ctx, reqs[i])
		cancel()
		if err != nil || want[i].Error != "" {
			t.Fatalf("%s: goja error %v, node error %q", u, err, want[i].Error)
		}
		if got.Status != want[i].Status || got.Headers.Get("content-type") != want[i].Headers["content-type"] {
			t.Errorf("%s: goja status %d %q, node %d %q", u, got.Status, got.Headers, want[i].Status, want[i].Headers)
		}
		if d := nodeparity.Diff(got.HTML, want[i].HTML); d != "" {
			t.Errorf("%s: %s", u, d)
		}
		if u == "/" {
			for _, s := range f.contains {
				if !strings.Contains(got.HTML, s) {
					t.Errorf("/ does not contain %q:\n%s", s, got.HTML)
				}
			}
		}
	}
	for _, l := range iso.Console() { // dev warnings (keys, props, missing host APIs) land here
		t.Errorf("console.%s: %s", l.Level, l.Text)
	}
}
