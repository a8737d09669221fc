package engine

import (
	"bytes"
	"context"
	"encoding/json"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"bext/engine/fastsink"
)

// npmFixture is an app under testdata/npm with its own package-lock.json:
// a server renderer from npm that must load and render in goja as it ships.
type npmFixture struct {
	name   string // folder under testdata/npm
	marker string // a package whose package.json proves node_modules is installed
	// sinks is how many react-dom renderToString sinks the bundle holds; the
	// fast-sink build must rewrite every one of them.
	sinks int
	// contains are fragments every "/" page must hold, so two empty or
	// broken renders cannot pass as identical.
	contains []string
}

var npmFixtures = []npmFixture{
	{name: "react19", marker: "react-dom", sinks: 1, contains: []string{
		"<title>Tea &lt;shop&gt;</title>", "茶壶 · Teapot 🍵", `data-react="19.`,
		"<em>Loose leaf</em> &amp; bags", `style="color:#c0392b;padding:4px 8px;line-height:1.5"`, `<label for="_R_`,
	}},
	{name: "preact", marker: "preact-render-to-string", contains: []string{
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
			dir := npmInstall(t, f)
			for _, dev := range []bool{false, true} {
				for _, fast := range []bool{true, false} {
					o := BuildOptions{Dir: dir, Entry: "src/server.jsx", Dev: dev, FastSink: fast}
					t.Run(npmVariant(o), func(t *testing.T) { checkNpmParity(t, f, o) })
				}
			}
		})
	}
}

func npmVariant(o BuildOptions) string {
	s := "production"
	if o.Dev {
		s = "development"
	}
	if o.FastSink {
		return s + "/fastsink"
	}
	return s + "/stock"
}

func checkNpmParity(t *testing.T, f npmFixture, o BuildOptions) {
	b, err := BuildServer(o)
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

	p, err := Compile("server.js", b.Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := NewIsolate(p, Options{Log: discardLog})
	if err != nil {
		t.Fatalf("boot: %v", err)
	}
	defer iso.Close()

	want := npmRenderNode(t, b.Code)
	for i, u := range npmPages {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		got, err := iso.Render(ctx, npmRequest(u))
		cancel()
		if err != nil || want[i].Error != "" {
			t.Fatalf("%s: goja error %v, node error %q", u, err, want[i].Error)
		}
		if got.Status != want[i].Status || got.Headers["content-type"] != want[i].Headers["content-type"] {
			t.Errorf("%s: goja status %d %q, node %d %q", u, got.Status, got.Headers, want[i].Status, want[i].Headers)
		}
		if got.HTML != want[i].HTML {
			at := diffAt(got.HTML, want[i].HTML)
			t.Errorf("%s: goja and node HTML differ (%d vs %d bytes) at byte %d:\ngoja: %q\nnode: %q",
				u, len(got.HTML), len(want[i].HTML), at, around(got.HTML, at), around(want[i].HTML, at))
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

// npmTool finds a tool the npm fixtures need: a skip for a casual `go test`,
// a failure under test.sh / CI (BEXT_TEST_REQUIRE=1).
func npmTool(t *testing.T, tool string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		if os.Getenv("BEXT_TEST_REQUIRE") != "" {
			t.Fatalf("%s is not on PATH; the npm renderer tests need Node 20 and npm", tool)
		}
		t.Skipf("%s is not on PATH (set BEXT_TEST_REQUIRE=1 to make this a failure)", tool)
	}
	return p
}

// npmInstall returns the fixture's absolute folder, running `npm ci` there
// first when its node_modules is missing.
func npmInstall(t *testing.T, f npmFixture) string {
	t.Helper()
	dir := filepath.Join(repoRoot(t), "testdata", "npm", f.name)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", f.marker, "package.json")); err == nil {
		return dir
	}
	npm := npmTool(t, "npm")
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, npm, "ci", "--no-audit", "--no-fund", "--loglevel=error")
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci in %s: %v\n%s", dir, err, out)
	}
	return dir
}

func npmRequest(u string) *Request {
	path, rawQuery, _ := strings.Cut(u, "?")
	q := map[string]string{}
	values, _ := url.ParseQuery(rawQuery)
	for k, v := range values {
		q[k] = v[0]
	}
	return &Request{Method: "GET", URL: u, Path: path, Query: q, Headers: map[string]string{"accept": "text/html"}}
}

// npmResult is one rendered page as testdata/npm/node-render.cjs reports it.
type npmResult struct {
	Status  int               `json:"status"`
	Headers map[string]string `json:"headers"`
	HTML    string            `json:"html"`
	Error   string            `json:"error,omitempty"`
}

// npmRenderNode renders npmPages with Node on the very bundle goja runs.
func npmRenderNode(t *testing.T, code []byte) []npmResult {
	t.Helper()
	node := npmTool(t, "node")
	file := filepath.Join(t.TempDir(), "server.js")
	if err := os.WriteFile(file, code, 0o644); err != nil {
		t.Fatal(err)
	}
	reqs := make([]*Request, len(npmPages))
	for i, u := range npmPages {
		reqs[i] = npmRequest(u)
	}
	in, err := json.Marshal(reqs)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(repoRoot(t), "testdata", "npm", "node-render.cjs"), file)
	cmd.Stdin = bytes.NewReader(in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node-render.cjs: %v\n%s", err, stderr.Bytes())
	}
	var res []npmResult
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node-render.cjs output: %v", err)
	}
	if len(res) != len(npmPages) {
		t.Fatalf("node rendered %d pages, want %d", len(res), len(npmPages))
	}
	return res
}

func diffAt(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	return i
}

func around(s string, i int) string {
	return s[max(0, i-60):min(len(s), i+60)]
}
