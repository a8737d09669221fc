package react

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bext/engine"
	"bext/internal/nodeparity"
	"bext/lifecycle"
	"bext/pool"
	"bext/render"
)

// TestServeOverHTTP serves the production bundle (fast paths on) through the real
// stack — a worker pool behind render.Server's handler on a loopback
// listener — and checks what a browser would get for a few routes. The
// parity test already proves the HTML equals Node's; this proves it reaches
// the client intact, with the right status and headers.
func TestServeOverHTTP(t *testing.T) {
	prog, err := engine.Compile("server.js", bundle(t, production).Code)
	if err != nil {
		t.Fatal(err)
	}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	pol := lifecycle.DefaultPolicy()
	pol.Workers = 2
	p := pool.New(func(id int) (pool.Isolate, error) {
		return engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: log})
	}, pool.Options{Policy: pol, RenderTimeout: 30 * time.Second, MemoryCheck: -1, Log: log})
	t.Cleanup(p.Close)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := p.WaitActive(ctx, 2); err != nil {
		t.Fatal(err)
	}
	srv, err := render.New(p, render.Options{PublicDir: filepath.Join(nodeparity.AppDir(t, "."), "public"), Gzip: true, AccessLog: true, Log: log})
	if err != nil {
		t.Fatal(err)
	}
	hs := httptest.NewServer(srv.Handler())
	t.Cleanup(hs.Close)

	want := renderGoja(t, isolate(t, production), "/").HTML
	css, err := os.ReadFile(filepath.Join(nodeparity.AppDir(t, "."), "public", "style.css"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		path, ctype string
		status      int
		body        []string // substrings; "=" + text means the whole body
	}{
		{"/", "text/html; charset=utf-8", 200, []string{"=" + want}},
		{"/small", "text/html; charset=utf-8", 200, []string{"<!DOCTYPE html><html lang=\"en\">", "</html>"}},
		{"/items/item-23", "text/html; charset=utf-8", 200, []string{`<h1 lang="he" dir="rtl">מנורת שולחן</h1>`}},
		{"/?q=%3Cscript%3E", "text/html; charset=utf-8", 200, []string{`value="&lt;script&gt;"`}},
		{"/nope", "text/html; charset=utf-8", 404, []string{"404 — nothing at /nope"}},
		{"/broken", "text/html; charset=utf-8", 500, []string{"500 Internal Server Error"}},
		{"/style.css", "text/css; charset=utf-8", 200, []string{"=" + string(css)}},
	} {
		resp, err := http.Get(hs.URL + tc.path)
		if err != nil {
			t.Fatalf("GET %s: %v", tc.path, err)
		}
		b, err := io.ReadAll(resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatalf("GET %s: %v", tc.path, err)
		}
		body := string(b)
		if resp.StatusCode != tc.status || resp.Header.Get("Content-Type") != tc.ctype {
			t.Errorf("GET %s: %d %q, want %d %q", tc.path, resp.StatusCode, resp.Header.Get("Content-Type"), tc.status, tc.ctype)
		}
		for _, s := range tc.body {
			if whole, ok := strings.CutPrefix(s, "="); ok {
				if body != whole {
					t.Errorf("GET %s: body differs from the isolate's render (%d vs %d bytes)", tc.path, len(body), len(whole))
				}
			} else if !strings.Contains(body, s) {
				t.Errorf("GET %s: body lacks %q", tc.path, s)
			}
		}
	}
	// Six routes rendered (the stylesheet is a static file); /broken failed.
	// requests_served counts failed renders too.
	var served, failed int64
	for _, w := range p.Snapshot() {
		served += w.RequestsServed
		failed += w.RequestsFailed
	}
	if served != 6 || failed != 1 {
		t.Errorf("workers served %d renders, %d failed; want 6, 1 failed", served, failed)
	}
}
