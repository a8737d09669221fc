package streams_test

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"bext/engine"
	"bext/internal/nodeparity"
	"bext/web/fetch"
	"bext/web/internal/webtest"
)

// TestReactRenderToReadableStream renders a React 19 tree with
// renderToReadableStream (the browser build react-dom/server resolves to
// in a bext bundle) and reads the byte stream back whole: React's exact
// use of streams (type "bytes", pull, cancel, highWaterMark 0, Uint8Array
// views over reused buffers, close after the Suspense boundary resolves).
func TestReactRenderToReadableStream(t *testing.T) {
	react, err := filepath.Abs(filepath.Join("..", "..", "testdata", "npm", "react19"))
	if err != nil {
		t.Fatal(err)
	}
	nodeparity.NpmCI(t, react)
	entry, _ := filepath.Abs(filepath.Join("testdata", "react", "stream.jsx"))
	// Bare imports resolve from the React fixture, as if the entry lived there.
	fromFixture := api.Plugin{Name: "react-fixture", Setup: func(b api.PluginBuild) {
		b.OnResolve(api.OnResolveOptions{Filter: `^react(-dom)?(/.*)?$`}, func(a api.OnResolveArgs) (api.OnResolveResult, error) {
			if a.PluginData == "fixture" {
				return api.OnResolveResult{}, nil
			}
			res := b.Resolve(a.Path, api.ResolveOptions{ResolveDir: react, Kind: a.Kind, PluginData: "fixture"})
			if len(res.Errors) > 0 {
				return api.OnResolveResult{}, nil
			}
			return api.OnResolveResult{Path: res.Path}, nil
		})
	}}
	b, err := engine.BuildServer(engine.BuildOptions{Dir: react, Entry: entry, Plugins: []api.Plugin{fromFixture}})
	if err != nil {
		t.Fatal(err)
	}
	w := webtest.New(t, string(b.Code), fetch.Options{})
	out := w.Must(`return await reactStream(30);`)
	var got struct {
		HTML   string
		Chunks []int
		Plain  string
	}
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{"<h1>Streaming &lt;test&gt;</h1>", "29<!-- --> — ünïcödé 🍵", "loading…", "loaded a", "</html>"} {
		if !strings.Contains(got.HTML, s) {
			t.Errorf("streamed HTML lacks %q:\n%s", s, got.HTML)
		}
	}
	if len(got.Chunks) < 2 {
		t.Errorf("React streamed %d chunk(s), want the shell and the boundary's content apart", len(got.Chunks))
	}
	if !strings.HasPrefix(got.HTML, "<!DOCTYPE html><html>") {
		t.Errorf("streamed HTML starts %q", got.HTML[:min(40, len(got.HTML))])
	}
	// Up to the Suspense boundary the stream holds what renderToString
	// renders (which runs second and finds the data loaded).
	cut := strings.Index(got.Plain, "<!--$")
	if cut < 0 || !strings.HasPrefix(got.HTML, "<!DOCTYPE html>"+got.Plain[:cut]) {
		t.Errorf("streamed shell differs from renderToString:\nstream: %s\nstring: %s", got.HTML, got.Plain)
	}
}
