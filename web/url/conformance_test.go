package url_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"bext/engine"
	"bext/web/fetch"
	"bext/web/internal/webtest"
)

// The conformance suites. The WPT data files come from the Go module
// cache (the modules bext depends on ship them); the runners under
// testdata/wpt are bext's own, doing what the WPT tests that read the
// data do. testdata/cases are bext's own cases, written from the URL
// Standard and WPT's url/urlsearchparams-*.any.js behaviours, and must
// pass in Node 20 too (a case named "spec: …" checks where Node departs
// from the standard and bext follows the standard; Node is not held to
// it).
//
// testdata/expectations.json lists, per file, the tests known to fail
// in bext and why; a listed test that passes, or an unlisted one that
// fails, fails the suite (Deno's expectations style).

type suite struct {
	file   string // under testdata
	module string // Go module holding the data, "" for none
	data   string // the data file in that module
	node   bool   // Node 20 must pass every test (else its count is logged)
}

var suites = []suite{
	{"wpt/urltestdata.js", "github.com/nlnwa/whatwg-url", "testdata/urltestdata.json", false},
	{"wpt/setters.js", "github.com/nlnwa/whatwg-url", "testdata/setters_tests.json", false},
	{"wpt/toascii.js", "github.com/nlnwa/whatwg-url", "testdata/toascii.json", false},
	{"wpt/urlpattern.js", "github.com/dunglas/go-urlpattern", "testdata/urlpatterntestdata.json", false},
	{"cases/url.js", "", "", true},
	{"cases/urlsearchparams.js", "", "", true},
	{"cases/urlpattern.js", "", "", false},
}

func TestConformance(t *testing.T) {
	harness := read(t, filepath.Join("testdata", "harness.js"))
	var expect map[string]map[string]string
	if err := json.Unmarshal([]byte(read(t, filepath.Join("testdata", "expectations.json"))), &expect); err != nil {
		t.Fatal(err)
	}
	node, _ := exec.LookPath("node")
	if node == "" {
		t.Log("node is not installed: the cases are not checked against Node")
	}
	for _, s := range suites {
		t.Run(strings.TrimSuffix(s.file, ".js"), func(t *testing.T) {
			src := read(t, filepath.Join("testdata", s.file))
			if s.module != "" {
				src = "const __data = " + read(t, filepath.Join(moduleDir(t, s.module), s.data)) + ";\n" + src
			}
			got := runGoja(t, harness, src)
			check(t, s.file, got, expect[s.file])
			if node != "" && !strings.Contains(s.file, "urlpattern") { // Node 20 has no URLPattern
				nodeGot := runNode(t, node, harness, src)
				fails := 0
				for k, v := range nodeGot {
					if v != "PASS" {
						fails++
						if s.node && !strings.HasPrefix(k, "spec: ") {
							t.Errorf("Node fails %q: %s (the case is wrong)", k, v)
						}
					}
				}
				t.Logf("Node %s: %d/%d pass", process(), len(nodeGot)-fails, len(nodeGot))
			}
		})
	}
}

// check compares outcomes with the expectations and logs pass counts per
// API (the test name up to ": ").
func check(t *testing.T, file string, got, known map[string]string) {
	t.Helper()
	names := make([]string, 0, len(got))
	for k := range got {
		names = append(names, k)
	}
	sort.Strings(names)
	type count struct{ pass, all int }
	apis := map[string]*count{}
	var order []string
	for _, k := range names {
		v := got[k]
		_, listed := known[k]
		switch {
		case v == "PASS" && listed:
			t.Errorf("%q passes now: remove it from expectations.json", k)
		case v != "PASS" && !listed:
			t.Errorf("%q: %s", k, v)
		}
		api, _, _ := strings.Cut(k, ": ")
		if apis[api] == nil {
			apis[api] = &count{}
			order = append(order, api)
		}
		apis[api].all++
		if v == "PASS" {
			apis[api].pass++
		}
	}
	for k := range known {
		if _, ok := got[k]; !ok {
			t.Errorf("expectations.json lists %q, which %s does not have", k, file)
		}
	}
	for _, api := range order {
		t.Logf("%s: %d/%d pass", api, apis[api].pass, apis[api].all)
	}
}

func process() string {
	out, err := exec.Command("node", "--version").Output()
	if err != nil {
		return "?"
	}
	return strings.TrimSpace(string(out))
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// moduleDir is where the Go module cache holds module (the version in
// go.mod).
func moduleDir(t *testing.T, module string) string {
	t.Helper()
	out, err := exec.Command("go", "list", "-m", "-f", "{{.Dir}}", module).Output()
	if err != nil {
		t.Fatalf("go list -m %s: %v", module, err)
	}
	return strings.TrimSpace(string(out))
}

func runGoja(t *testing.T, harness, src string) map[string]string {
	t.Helper()
	w := webtest.New(t, harness+"\nglobalThis.__run = __run;\nglobalThis.__cases = () => {\n"+src+"\n};", fetch.Options{})
	out, err := w.Eval("__cases(); return __run();")
	if err != nil {
		if re, ok := err.(*engine.RenderError); ok {
			t.Fatalf("bext: %v\n%s", err, re.Stack)
		}
		t.Fatalf("bext: %v", err)
	}
	var res map[string]string
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("bext result %.200q: %v", out, err)
	}
	return res
}

func runNode(t *testing.T, node, harness, src string) map[string]string {
	t.Helper()
	f := filepath.Join(t.TempDir(), "case.js")
	js := harness + "\n" + src + "\nconsole.log(JSON.stringify(__run()));\n"
	if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, f).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res map[string]string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node result %.200q: %v", out, err)
	}
	return res
}

var _ = fmt.Sprint
