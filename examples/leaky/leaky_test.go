// Package leaky holds the test of the leaky example app (server.js, a
// server entry that grows ~100 KB per render). The app itself is
// JavaScript; this package has no Go code besides its test.
package leaky

import (
	"context"
	"fmt"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"bext/config"
	"bext/engine"
)

// TestEachRenderGrowsTheWorkerBy100KB checks what the example promises: the
// attributed heap of a worker grows ~100 KB per render, so with the
// config's max_memory_mb a worker passes the limit after a few hundred
// renders.
func TestEachRenderGrowsTheWorkerBy100KB(t *testing.T) {
	_, self, _, _ := runtime.Caller(0)
	cfg, err := config.Load(filepath.Join(filepath.Dir(self), "config.toml"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := engine.BuildServer(engine.BuildOptions{Dir: filepath.Dir(cfg.App.ServerEntry), Entry: filepath.Base(cfg.App.ServerEntry)})
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile("server.js", b.Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := engine.NewIsolate(p, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()

	render := func(k int) {
		path := fmt.Sprintf("/page/%d", k)
		resp, err := iso.Render(context.Background(), engine.NewRequest("GET", path))
		if err != nil {
			t.Fatal(err)
		}
		if want := fmt.Sprintf("holds <b>%d</b> entries", k); !strings.Contains(resp.HTML, want) {
			t.Fatalf("render %d: page does not say %q:\n%s", k, want, resp.HTML)
		}
	}
	render(1)
	before := iso.HeapBytes()
	const renders = 40
	for k := 2; k <= renders+1; k++ {
		render(k)
	}
	perRender := (iso.HeapBytes() - before) / renders
	t.Logf("attributed growth %d B per render", perRender)
	if perRender < 95*1024 || perRender > 125*1024 {
		t.Errorf("attributed growth %d B per render, want ~100 KB", perRender)
	}
	limit := cfg.Render.Lifecycle.MaxMemoryMB << 20
	if n := limit / perRender; n < 100 || n > 1000 {
		t.Errorf("a worker would pass max_memory_mb after %d renders; the example means a few hundred", n)
	}
}
