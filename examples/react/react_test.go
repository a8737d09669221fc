// Package react holds the tests and benchmarks of the React example app
// (src/). The app itself is JavaScript; this package has no Go code besides
// them.
package react

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"bext/engine"
	"bext/engine/fastpath"
	"bext/internal/nodeparity"
)

// production is the build bext serve runs by default: every fast path on.
var production = nodeparity.Build{FastPaths: fastpath.All()}

// The server entries: the app as bext serves it (renderToString) and the
// same pages through React's two streaming renderers.
const (
	stringEntry = "src/server.jsx"        // renderToString
	streamEntry = "src/server-stream.jsx" // renderToReadableStream
	pipeEntry   = "src/server-pipe.jsx"   // renderToPipeableStream
)

var bundles sync.Map // entry + " " + Build.String() -> *engine.Bundle

// bundle builds src/server.jsx once per build with the engine's own build.
func bundle(t testing.TB, v nodeparity.Build) *engine.Bundle { return entryBundle(t, stringEntry, v) }

// entryBundle builds entry once per build.
func entryBundle(t testing.TB, entry string, v nodeparity.Build) *engine.Bundle {
	t.Helper()
	key := entry + " " + v.String()
	if b, ok := bundles.Load(key); ok {
		return b.(*engine.Bundle)
	}
	b, err := engine.BuildServer(v.Options(nodeparity.AppDir(t, "."), entry))
	if err != nil {
		t.Fatalf("build %s %v: %v", entry, v, err)
	}
	bundles.Store(key, b)
	return b
}

func isolate(t testing.TB, v nodeparity.Build) *engine.Isolate {
	return entryIsolate(t, stringEntry, v)
}

// entryIsolate boots an isolate on entry's bundle.
func entryIsolate(t testing.TB, entry string, v nodeparity.Build) *engine.Isolate {
	t.Helper()
	p, err := engine.Compile("server.js", entryBundle(t, entry, v).Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler)})
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
	// src/stream.jsx: a Response streamed by renderToReadableStream (in
	// the other entries these are 404 pages)
	"/stream",                  // a Suspense boundary resolved by a timer
	"/stream/large",            // 640 items in 8 Suspense boundaries
	"/stream/large?sections=0", // the tree of /large, no boundaries
}

// renderGoja renders url in iso. The timeout only stops a hung render: the
// stock sink's /large is quadratic and, under -race on a loaded 2-core
// machine, has taken over 30 s.
func renderGoja(t *testing.T, iso *engine.Isolate, url string) nodeparity.Result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
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
