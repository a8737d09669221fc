package engine_test

import (
	"context"
	"log/slog"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"bext/engine"
	"bext/engine/fastpath"
	"bext/internal/nodeparity"
)

// npmFixture is an app under testdata/npm with its own package-lock.json:
// a server renderer from npm that must load and render in goja as it ships.
type npmFixture struct {
	name  string // folder under testdata/npm
	entry string // server entry; "" = src/server.jsx
	// fastPaths are the rewrites the production bundle with every fast
	// path on must carry (the development one: those of sink only).
	fastPaths []string
	// contains are fragments every "/" page must hold, so two empty or
	// broken renders cannot pass as identical.
	contains []string
}

var npmFixtures = []npmFixture{
	{name: "react19", fastPaths: []string{
		"chunks react-dom/cjs/react-dom-server.edge.production.js",
		"concat react-dom/cjs/react-dom-server-legacy.browser.production.js",
		"escape react-dom/cjs/react-dom-server-legacy.browser.production.js",
		"escape react-dom/cjs/react-dom-server.edge.production.js",
		"flush react-dom/cjs/react-dom-server-legacy.browser.production.js",
		"flush react-dom/cjs/react-dom-server.edge.production.js",
		"props react-dom/cjs/react-dom-server-legacy.browser.production.js",
		"props react-dom/cjs/react-dom-server.edge.production.js",
		"sink react-dom/cjs/react-dom-server-legacy.browser.production.js",
	}, contains: []string{
		"<title>Tea &lt;shop&gt;</title>", "茶壶 · Teapot 🍵", `data-react="19.`,
		"<em>Loose leaf</em> &amp; bags", `style="color:#c0392b;padding:4px 8px;line-height:1.5"`, `<label for="_R_`,
	}},
	{name: "preact", fastPaths: []string{
		"escape preact-render-to-string/dist/index.mjs",
		"sink preact-render-to-string/dist/index.mjs",
	}, contains: []string{
		"<h1>Tea &lt;shop></h1>", "茶壶 · Teapot 🍵",
		"<em>Loose leaf</em> &amp; bags", `style="color:#c0392b;padding:4px 8px;line-height:1.5;"`, `<label for="P0-0"`,
	}},
	{name: "vue", entry: "src/server.js", fastPaths: []string{
		"escape @vue/shared/dist/shared.cjs.prod.js",
		"sink @vue/server-renderer/dist/server-renderer.cjs.prod.js",
	}, contains: []string{
		"<h1>Tea &lt;shop&gt;</h1>", "茶壶 · Teapot 🍵", `title="Pu-erh 普洱 &lt;aged&gt;"`, "Masala chai चाय &amp; &#39;spice&#39;",
		"<em>Loose leaf</em> &amp; bags", `style="color:#c0392b;padding:4px 8px;line-height:1.5;"`,
	}},
}

// npmPages are rendered by every fixture, in goja and in Node.
var npmPages = []string{
	"/",
	"/?n=40&dense=1&q=<script>alert(1)</script>",
	"/nope",
}

// TestNpmRenderersMatchNode loads React 19, Preact and Vue server renderers from
// npm in every build of nodeparity.Builds (dev and production, every fast
// path on, none, each one off alone) and requires goja's HTML to be
// byte-identical to Node's on the same bundle.
func TestNpmRenderersMatchNode(t *testing.T) {
	for _, f := range npmFixtures {
		t.Run(f.name, func(t *testing.T) {
			dir, err := filepath.Abs(filepath.Join("..", "testdata", "npm", f.name))
			if err != nil {
				t.Fatal(err)
			}
			nodeparity.NpmCI(t, dir)
			for _, v := range nodeparity.Builds() {
				entry := f.entry
				if entry == "" {
					entry = "src/server.jsx"
				}
				t.Run(v.String(), func(t *testing.T) { checkNpmParity(t, f, v, v.Options(dir, entry)) })
			}
		})
	}
}

func checkNpmParity(t *testing.T, f npmFixture, v nodeparity.Build, o engine.BuildOptions) {
	b, err := engine.BuildServer(o)
	if err != nil {
		t.Fatalf("build: %v", err)
	}
	for _, w := range b.Warnings {
		t.Errorf("build warning: %s", w)
	}
	var wantPaths []string
	for _, a := range f.fastPaths {
		name, file, _ := strings.Cut(a, " ")
		if v.Dev && strings.Contains(file, ".prod") {
			if name != fastpath.Sink || !strings.Contains(file, ".production.") {
				continue // development builds get React's sink only
			}
			a = name + " " + strings.Replace(file, ".production.", ".development.", 1)
		}
		if slices.Contains(v.FastPaths, name) {
			wantPaths = append(wantPaths, a)
		}
	}
	slices.Sort(wantPaths)
	if !slices.Equal(b.FastPaths, wantPaths) {
		t.Errorf("bundle carries fast paths\n  %s\nwant\n  %s (did a rewrite stop matching the library?)", strings.Join(b.FastPaths, "\n  "), strings.Join(wantPaths, "\n  "))
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

// BenchmarkNpmRenderers renders each fixture's page with a list of 400
// items (?n=400) in two isolates, one built with every fast path and one
// with none, taking turns render by render so that other load on the
// machine falls on both alike, and reports the process's CPU time per
// render of each and their ratio:
//
//	go test -run '^$' -bench NpmRenderers -benchtime 5s ./engine
func BenchmarkNpmRenderers(b *testing.B) {
	for _, f := range npmFixtures {
		b.Run(f.name, func(b *testing.B) {
			dir, err := filepath.Abs(filepath.Join("..", "testdata", "npm", f.name))
			if err != nil {
				b.Fatal(err)
			}
			nodeparity.NpmCI(b, dir)
			entry := f.entry
			if entry == "" {
				entry = "src/server.jsx"
			}
			req := nodeparity.Request("/?n=400")
			var isos [2]*engine.Isolate
			for k, v := range []nodeparity.Build{{}, {FastPaths: fastpath.All()}} {
				bu, err := engine.BuildServer(v.Options(dir, entry))
				if err != nil {
					b.Fatal(err)
				}
				p, err := engine.Compile("server.js", bu.Code)
				if err != nil {
					b.Fatal(err)
				}
				iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler)})
				if err != nil {
					b.Fatal(err)
				}
				defer iso.Close()
				if _, err := iso.Render(b.Context(), req); err != nil {
					b.Fatal(err)
				}
				isos[k] = iso
			}
			var cpu [2]time.Duration
			for b.Loop() {
				for k, iso := range isos {
					c0 := processCPU()
					if _, err := iso.Render(b.Context(), req); err != nil {
						b.Fatal(err)
					}
					cpu[k] += processCPU() - c0
				}
			}
			n := float64(b.N)
			b.ReportMetric(float64(cpu[0].Milliseconds())/n, "none-cpu-ms/render")
			b.ReportMetric(float64(cpu[1].Milliseconds())/n, "fastpaths-cpu-ms/render")
			b.ReportMetric(float64(cpu[0])/float64(cpu[1]), "speedup")
		})
	}
}

// processCPU is the CPU time this process has used, user plus system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
