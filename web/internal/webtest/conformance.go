package webtest

import (
	_ "embed"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"bext/engine"
	"bext/internal/testenv"
	"bext/web/fetch"
)

//go:embed harness.js
var harness string

// Options adapt Conformance to one spec package.
type Options struct {
	// OwnHarness: dir/harness.js replaces the shared harness instead of
	// adding helpers after it.
	OwnHarness bool
	// Prefix, if set, is put before each case file (for both runtimes),
	// e.g. the address of a test server started for that file.
	Prefix func(t *testing.T) string
	// Goja, if set, rewrites the script before bext runs it (e.g. lowering
	// syntax the engine's server build lowers too).
	Goja func(t *testing.T, src string) string
	// CatchUncaught keeps Node alive through an exception thrown in an event
	// listener (Node reports it to uncaughtException and would exit) and
	// through timers that do not hold its loop open (AbortSignal.timeout).
	CatchUncaught bool
}

// Conformance runs every case file of dir (bext's own cases, written from
// the standards' text) in a bext isolate and, when node is installed, in
// Node 20, which must pass every case not named "spec: …".
// dir/expectations.json lists the cases known to fail in bext, by file and
// name; a listed case that passes, or an unlisted one that fails, fails
// the test. It logs the pass count per file and in all.
func Conformance(t *testing.T, dir string, o Options) {
	t.Helper()
	h := harness
	switch own, err := os.ReadFile(filepath.Join(dir, "harness.js")); {
	case o.OwnHarness && err != nil:
		t.Fatal(err)
	case o.OwnHarness:
		h = string(own)
	case err == nil:
		h += "\n" + string(own)
	case !errors.Is(err, os.ErrNotExist):
		t.Fatal(err)
	}
	var expect map[string]map[string]string
	raw, err := os.ReadFile(filepath.Join(dir, "expectations.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &expect); err != nil {
		t.Fatal(err)
	}
	files, _ := filepath.Glob(filepath.Join(dir, "*.js"))
	node, _ := exec.LookPath("node")
	if node == "" {
		if testenv.Required() {
			testenv.Missing(t, "node", "install Node 20")
		}
		t.Log("node is not installed: the cases are not checked against Node")
	}
	totalPass, total := 0, 0
	for _, f := range files {
		name := filepath.Base(f)
		if name == "harness.js" {
			continue
		}
		src, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		t.Run(strings.TrimSuffix(name, ".js"), func(t *testing.T) {
			cases := string(src)
			if o.Prefix != nil {
				cases = o.Prefix(t) + cases
			}
			got := runGoja(t, h, cases, o)
			if node != "" {
				for k, v := range runNode(t, node, h, cases, o) {
					if v != "PASS" && !strings.HasPrefix(k, "spec: ") {
						t.Errorf("Node fails %q: %s (the case is wrong)", k, v)
					}
				}
			}
			known := expect[name]
			keys := make([]string, 0, len(got))
			for k := range got {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			pass := 0
			for _, k := range keys {
				v := got[k]
				_, listed := known[k]
				switch {
				case v == "PASS" && listed:
					t.Errorf("%q passes now: remove it from expectations.json", k)
				case v != "PASS" && !listed:
					t.Errorf("%q: %s", k, v)
				}
				if v == "PASS" {
					pass++
				}
			}
			for k := range known {
				if _, ok := got[k]; !ok {
					t.Errorf("expectations.json lists %q, which %s does not have", k, name)
				}
			}
			totalPass += pass
			total += len(got)
			t.Logf("%s: %d/%d pass", name, pass, len(got))
		})
	}
	t.Logf("conformance: %d/%d pass", totalPass, total)
}

func runGoja(t *testing.T, harness, cases string, o Options) map[string]string {
	src := harness + "\nglobalThis.__run = __run;\nglobalThis.__cases = () => {\n" + cases + "\n};"
	if o.Goja != nil {
		src = o.Goja(t, src)
	}
	out, err := New(t, src, fetch.Options{}).Eval("__cases(); return await __run();")
	if err != nil {
		var re *engine.RenderError
		if errors.As(err, &re) {
			t.Fatalf("goja: %v\n%s", err, re.Stack)
		}
		t.Fatalf("goja: %v", err)
	}
	return results(t, "goja", out)
}

func runNode(t *testing.T, node, harness, cases string, o Options) map[string]string {
	js := harness + "\n" + cases + "\n__run().then(r => { console.log(JSON.stringify(r)); process.exit(0); }, e => { console.error(e); process.exit(1); });\n"
	if o.CatchUncaught {
		js = "process.on('uncaughtException', () => {});\nconst __keep = setInterval(() => {}, 1000);\n" + js
	}
	f := filepath.Join(t.TempDir(), "case.js")
	if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, f).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	return results(t, "node", string(out))
}

func results(t *testing.T, who, out string) map[string]string {
	var res map[string]string
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("%s result %q: %v", who, out, err)
	}
	return res
}
