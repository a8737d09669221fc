// Package react holds the tests and benchmarks of the React example app
// (src/). The app itself is JavaScript; this package has no Go code besides
// them.
package react

import (
	"context"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"bext/engine"
	"bext/internal/nodeparity"
)

// appDir returns the absolute path of the example, running `npm ci` first
// when node_modules is missing.
func appDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	nodeparity.NpmCI(t, dir)
	return dir
}

type variant struct {
	dev, fastSink bool
}

func (v variant) String() string { return nodeparity.Variant(v.dev, v.fastSink) }

var bundles sync.Map // variant -> *engine.Bundle

// bundle builds src/server.jsx once per variant with the engine's own build.
func bundle(t testing.TB, v variant) *engine.Bundle {
	t.Helper()
	if b, ok := bundles.Load(v); ok {
		return b.(*engine.Bundle)
	}
	b, err := engine.BuildServer(engine.BuildOptions{
		Entry:    "src/server.jsx",
		Dir:      appDir(t),
		Dev:      v.dev,
		FastSink: v.fastSink,
	})
	if err != nil {
		t.Fatalf("build %v: %v", v, err)
	}
	bundles.Store(v, b)
	return b
}

func isolate(t testing.TB, v variant) *engine.Isolate {
	t.Helper()
	p, err := engine.Compile("server.js", bundle(t, v).Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := engine.NewIsolate(p, engine.Options{})
	if err != nil {
		t.Fatalf("boot %v: %v", v, err)
	}
	t.Cleanup(iso.Close)
	return iso
}

// pages are the routes the parity test and the benchmark render.
var pages = []string{
	"/small",
	"/",
	"/large",
	"/items/item-6",  // CJK name and emoji (item-23 has a Hebrew one)
	"/items/item-10", // review service fails: fallback inside the page
	"/?q=lamp&sort=price&stock=1",
	"/?q=<script>alert(1)</script>",
	"/?n=0",
	"/nope",   // 404 page
	"/broken", // throws: a failed render
}

func renderGoja(t *testing.T, iso *engine.Isolate, url string) nodeparity.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := iso.Render(ctx, nodeparity.Request(url))
	if err != nil {
		re, ok := err.(*engine.RenderError)
		if !ok || re.Fatal() {
			t.Fatalf("render %s: %v", url, err)
		}
		return nodeparity.Result{Error: re.Message}
	}
	return nodeparity.Result{Status: resp.Status, Headers: nodeparity.HeaderMap(resp.Headers), HTML: resp.HTML}
}
