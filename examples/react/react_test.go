// Package react holds the tests and benchmarks of the React example app
// (src/, node-render.cjs). The app itself is JavaScript; this package has
// no Go code besides them.
package react

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"bext/engine"
)

// need reports a missing tool: a skip for a casual `go test`, a failure
// under test.sh / CI (BEXT_TEST_REQUIRE=1).
func need(t testing.TB, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("BEXT_TEST_REQUIRE") != "" {
			t.Fatalf("%s is not on PATH; the React example needs Node 20 and npm", tool)
		}
		t.Skipf("%s is not on PATH (set BEXT_TEST_REQUIRE=1 to make this a failure)", tool)
	}
	return p
}

var npmOnce struct {
	sync.Once
	err error
}

// appDir returns the absolute path of the example, running `npm ci` first
// when node_modules is missing.
func appDir(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "react-dom", "package.json")); err == nil {
		return dir
	}
	npm := need(t, "npm")
	npmOnce.Do(func() {
		cmd := exec.Command(npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			npmOnce.err = fmt.Errorf("npm ci in %s: %v\n%s", dir, err, out)
		}
	})
	if npmOnce.err != nil {
		t.Fatal(npmOnce.err)
	}
	return dir
}

type variant struct {
	dev, fastSink bool
}

func (v variant) String() string {
	s := "production"
	if v.dev {
		s = "development"
	}
	if v.fastSink {
		return s + "/fastsink"
	}
	return s + "/stock"
}

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

// result is one rendered request, as goja and Node both report it.
type result struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	HTML    string            `json:"html"`
	Error   string            `json:"error,omitempty"`
}

func request(u string) *engine.Request {
	path, rawQuery, _ := strings.Cut(u, "?")
	q := map[string]string{}
	values, _ := url.ParseQuery(rawQuery)
	for k, v := range values {
		q[k] = v[0]
	}
	return &engine.Request{Method: "GET", URL: u, Path: path, Query: q, Headers: map[string]string{"accept": "text/html"}}
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

func renderGoja(t *testing.T, iso *engine.Isolate, url string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	resp, err := iso.Render(ctx, request(url))
	if err != nil {
		re, ok := err.(*engine.RenderError)
		if !ok || re.Fatal() {
			t.Fatalf("render %s: %v", url, err)
		}
		return result{Error: re.Message}
	}
	return result{Status: resp.Status, Headers: resp.Headers, HTML: resp.HTML}
}

func renderNode(t *testing.T, code []byte, urls []string) []result {
	t.Helper()
	node := need(t, "node")
	dir := appDir(t)
	file := filepath.Join(t.TempDir(), "server.js")
	if err := os.WriteFile(file, code, 0o644); err != nil {
		t.Fatal(err)
	}
	reqs := make([]*engine.Request, len(urls))
	for i, u := range urls {
		reqs[i] = request(u)
	}
	in, _ := json.Marshal(reqs)
	cmd := exec.Command(node, filepath.Join(dir, "node-render.cjs"), file)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node-render.cjs: %v\n%s", err, stderr.Bytes())
	}
	var res []result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node-render.cjs output: %v", err)
	}
	if len(res) != len(urls) {
		t.Fatalf("node rendered %d pages, want %d", len(res), len(urls))
	}
	return res
}
