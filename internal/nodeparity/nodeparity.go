// Package nodeparity is the test support shared by bext's Node parity suites
// (engine/npm_test.go, examples/react): it installs a fixture's npm
// dependencies, renders requests with Node on the very bundle goja runs
// (node-render.cjs, embedded here), and says where two HTML pages differ.
//
// A missing node or npm is a skip for a casual `go test` and a failure under
// test.sh / CI (BEXT_TEST_REQUIRE=1).
package nodeparity

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"bext/engine"
	"bext/engine/fastpath"
)

//go:embed node-render.cjs
var renderScript []byte

// Result is one rendered request as node-render.cjs reports it; goja's side
// of a comparison is put in the same shape.
type Result struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	HTML    string            `json:"html"`
	Error   string            `json:"error,omitempty"`
}

// HeaderMap puts a Go response's headers in the shape Node's side reports:
// lower-case names, repeated values joined with ", ".
func HeaderMap(h http.Header) map[string]string {
	if h == nil {
		return nil
	}
	m := make(map[string]string, len(h))
	for k, v := range h {
		m[strings.ToLower(k)] = strings.Join(v, ", ")
	}
	return m
}

// need returns the path of tool, or skips or fails t when it is not on PATH.
func need(t testing.TB, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("BEXT_TEST_REQUIRE") != "" {
			t.Fatalf("%s is not on PATH; the Node parity tests need Node 20 and npm", tool)
		}
		t.Skipf("%s is not on PATH (set BEXT_TEST_REQUIRE=1 to make this a failure)", tool)
	}
	return p
}

// Node returns the path of node, or skips or fails t.
func Node(t testing.TB) string {
	t.Helper()
	return need(t, "node")
}

// installMu keeps two tests from running npm ci in one folder at once.
var installMu sync.Mutex

// NpmCI runs `npm ci` in dir unless its node_modules is already installed
// from the current package-lock.json (npm writes
// node_modules/.package-lock.json when an install completes; a lock file
// changed since, by a pull or a checkout, is newer than it).
func NpmCI(t testing.TB, dir string) {
	t.Helper()
	installMu.Lock()
	defer installMu.Unlock()
	installed, err := os.Stat(filepath.Join(dir, "node_modules", ".package-lock.json"))
	if err == nil {
		lock, err := os.Stat(filepath.Join(dir, "package-lock.json"))
		if err != nil || !lock.ModTime().After(installed.ModTime()) {
			return
		}
	}
	npm := need(t, "npm")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
}

// AppDir returns the absolute path of dir (an example app or fixture),
// running NpmCI there first.
func AppDir(t testing.TB, dir string) string {
	t.Helper()
	abs, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	NpmCI(t, abs)
	return abs
}

// Request is a GET of u (path plus optional query) accepting HTML, as both
// runtimes receive it.
func Request(u string) *engine.Request {
	r := engine.NewRequest("GET", u)
	r.Headers["accept"] = "text/html"
	return r
}

// Render renders reqs with Node on bundle, one Result per request.
func Render(t testing.TB, bundle []byte, reqs []*engine.Request) []Result {
	t.Helper()
	return RenderEnv(t, bundle, reqs, nil)
}

// RenderEnv is Render with env added to Node's process.env, as bext
// passes [app.env] to its isolates.
func RenderEnv(t testing.TB, bundle []byte, reqs []*engine.Request, env map[string]string) []Result {
	t.Helper()
	node := Node(t)
	script, file := writeRunner(t, "node-render.cjs", renderScript, bundle)
	in, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script, file)
	cmd.Stdin = bytes.NewReader(in)
	if len(env) > 0 {
		cmd.Env = os.Environ()
		for k, v := range env {
			cmd.Env = append(cmd.Env, k+"="+v)
		}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node-render.cjs: %v\n%s", err, stderr.Bytes())
	}
	var res []Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node-render.cjs output: %v", err)
	}
	if len(res) != len(reqs) {
		t.Fatalf("node rendered %d pages, want %d", len(res), len(reqs))
	}
	return res
}

// writeRunner writes a Node runner script (name) and the bundle it runs
// (server.js) into a temporary folder and returns both paths.
func writeRunner(t testing.TB, name string, script, bundle []byte) (scriptPath, bundlePath string) {
	dir := t.TempDir()
	scriptPath, bundlePath = filepath.Join(dir, name), filepath.Join(dir, "server.js")
	for p, b := range map[string][]byte{scriptPath: script, bundlePath: bundle} {
		if err := os.WriteFile(p, b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return scriptPath, bundlePath
}

// Diff is "" when goja's HTML equals node's, else where they first differ
// with some context on either side.
func Diff(goja, node string) string {
	if goja == node {
		return ""
	}
	i := 0
	for i < len(goja) && i < len(node) && goja[i] == node[i] {
		i++
	}
	around := func(s string) string { return s[max(0, i-60):min(len(s), i+60)] }
	return fmt.Sprintf("goja and node HTML differ (%d vs %d bytes) at byte %d:\ngoja: %q\nnode: %q",
		len(goja), len(node), i, around(goja), around(node))
}

// Build is one way of building a fixture for a parity suite: development
// or production, and the fast paths applied (package engine/fastpath).
type Build struct {
	Dev       bool
	FastPaths []string // nil: none
}

// String names the build for subtests and caches: "production/all",
// "production/none", "production/all-but-escape", "development/sink", …
func (b Build) String() string {
	s := "production/"
	if b.Dev {
		s = "development/"
	}
	all := fastpath.All()
	switch {
	case len(b.FastPaths) == 0:
		return s + "none"
	case slices.Equal(b.FastPaths, all):
		return s + "all"
	case len(b.FastPaths) == len(all)-1:
		for _, n := range all {
			if !slices.Contains(b.FastPaths, n) {
				return s + "all-but-" + n
			}
		}
	}
	return s + strings.Join(b.FastPaths, "+")
}

// Options are the engine build options of b for entry in dir.
func (b Build) Options(dir, entry string) engine.BuildOptions {
	return engine.BuildOptions{Dir: dir, Entry: entry, Dev: b.Dev, FastPaths: b.FastPaths}
}

// Builds are the builds every parity suite renders: development and
// production with every fast path on and with none, and production with
// each fast path off alone, so a rewrite that changes the HTML fails even
// when another one happens to hide it.
func Builds() []Build {
	out := []Build{{Dev: false, FastPaths: fastpath.All()}, {Dev: false}, {Dev: true, FastPaths: fastpath.All()}, {Dev: true}}
	for _, n := range fastpath.Names() {
		out = append(out, Build{FastPaths: fastpath.Without(n)})
	}
	return out
}

//go:embed node-render-many.cjs
var renderManyScript []byte

// Bundle is one server bundle and the requests to render with it: render
// requests, or for a bundle whose default export is a fetch handler,
// Fetch requests (and the handler's Env, also set in process.env).
type Bundle struct {
	Code     []byte
	Requests []*engine.Request
	Fetch    []FetchRequest
	Env      map[string]string
}

// FetchRequest is one request to a fetch handler: Node builds
// new Request(URL, {method, headers, body}) from it.
type FetchRequest struct {
	Method  string      `json:"method"`
	URL     string      `json:"url"` // absolute
	Headers [][2]string `json:"headers"`
	Body    []byte      `json:"body64,omitempty"`
}

// RenderBundles renders several bundles with Node in one process (one
// bundle after the other, in one context): out[i][j] is request j (or
// fetch request j) of bundle i. A bundle that throws while loading gets an Error result for
// each of its requests.
func RenderBundles(t testing.TB, bundles []Bundle) [][]Result {
	t.Helper()
	node := Node(t)
	dir := t.TempDir()
	script := filepath.Join(dir, "node-render-many.cjs")
	if err := os.WriteFile(script, renderManyScript, 0o644); err != nil {
		t.Fatal(err)
	}
	type in struct {
		File     string            `json:"file"`
		Requests []*engine.Request `json:"requests"`
		Fetch    []FetchRequest    `json:"fetch,omitempty"`
		Env      map[string]string `json:"env,omitempty"`
	}
	var input struct {
		Bundles []in `json:"bundles"`
	}
	for i, b := range bundles {
		file := filepath.Join(dir, fmt.Sprintf("bundle-%d.js", i))
		if err := os.WriteFile(file, b.Code, 0o644); err != nil {
			t.Fatal(err)
		}
		input.Bundles = append(input.Bundles, in{File: file, Requests: b.Requests, Fetch: b.Fetch, Env: b.Env})
	}
	data, err := json.Marshal(input)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, script)
	cmd.Stdin = bytes.NewReader(data)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node-render-many.cjs: %v\n%s", err, stderr.Bytes())
	}
	var res [][]Result
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node-render-many.cjs output: %v", err)
	}
	if len(res) != len(bundles) {
		t.Fatalf("node rendered %d bundles, want %d", len(res), len(bundles))
	}
	return res
}
