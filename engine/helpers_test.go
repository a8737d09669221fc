package engine

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
	"time"
)

// repoRoot is the module root, found from this file's location.
func repoRoot(t testing.TB) string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(file))
}

func fixtureDir(t testing.TB, name string) string {
	return filepath.Join(repoRoot(t), "testdata", name)
}

var progCache sync.Map // fixture name -> *Program

// fixtureProgram builds and compiles testdata/<name>/<entry> once per test binary.
func fixtureProgram(t testing.TB, name, entry string) *Program {
	t.Helper()
	key := name + "/" + entry
	if p, ok := progCache.Load(key); ok {
		return p.(*Program)
	}
	b, err := BuildServer(BuildOptions{Dir: fixtureDir(t, name), Entry: entry})
	if err != nil {
		t.Fatalf("build %s: %v", key, err)
	}
	p, err := Compile(key, b.Code)
	if err != nil {
		t.Fatalf("compile %s: %v", key, err)
	}
	progCache.Store(key, p)
	return p
}

func newTestIsolate(t testing.TB, name, entry string, o Options) *Isolate {
	t.Helper()
	o.testHooks = true
	iso, err := NewIsolate(fixtureProgram(t, name, entry), o)
	if err != nil {
		t.Fatalf("NewIsolate(%s): %v", name, err)
	}
	t.Cleanup(iso.Close)
	return iso
}

func kitchen(t testing.TB, o Options) *Isolate {
	return newTestIsolate(t, "kitchen", "server.jsx", o)
}

func get(path string) *Request {
	return NewRequest("GET", path)
}

// render renders path with a generous deadline and fails the test on error.
func mustRender(t testing.TB, iso *Isolate, req *Request) *Response {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	resp, err := iso.Render(ctx, req)
	if err != nil {
		t.Fatalf("Render(%s): %v", req.Path, err)
	}
	return resp
}

// renderErr renders path expecting a *RenderError.
func renderErr(t testing.TB, iso *Isolate, ctx context.Context, req *Request) *RenderError {
	t.Helper()
	resp, err := iso.Render(ctx, req)
	if err == nil {
		t.Fatalf("Render(%s) = %+v, want an error", req.Path, resp)
	}
	var re *RenderError
	if !errors.As(err, &re) {
		t.Fatalf("Render(%s) error %T %v, want *RenderError", req.Path, err, err)
	}
	return re
}

func writeFile(path, s string) error { return os.WriteFile(path, []byte(s), 0o644) }

var discardLog = slog.New(slog.DiscardHandler)
