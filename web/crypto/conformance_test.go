package crypto_test

import (
	"encoding/json"
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

// TestConformance runs the cases under testdata/conformance (bext's own,
// written from the Web Cryptography API and the RFC and NIST known-answer
// vectors: the web-platform-tests WebCryptoAPI files cannot be had at test
// time) in a bext isolate and, when node is
// installed, in Node 20, which must pass every case not named "spec: …".
// expectations.json lists the cases known to fail in bext by file and
// name; a listed case that passes, or an unlisted one that fails, fails
// the test.
func TestConformance(t *testing.T) { runConformance(t, filepath.Join("testdata", "conformance")) }

func runConformance(t *testing.T, dir string) {
	harness, err := os.ReadFile(filepath.Join(dir, "harness.js"))
	if err != nil {
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
			got := runGoja(t, string(harness), string(src))
			if node != "" {
				for k, v := range runNode(t, node, string(harness), string(src)) {
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

func runGoja(t *testing.T, harness, src string) map[string]string {
	w := webtest.New(t, harness+"\nglobalThis.__run = __run;\nglobalThis.__cases = () => {\n"+src+"\n};", fetch.Options{})
	out, err := w.Eval("__cases(); return await __run();")
	if err != nil {
		if re, ok := err.(*engine.RenderError); ok {
			t.Fatalf("goja: %v\n%s", err, re.Stack)
		}
		t.Fatalf("goja: %v", err)
	}
	var res map[string]string
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("goja result %q: %v", out, err)
	}
	return res
}

// runNode runs the cases in Node, where an exception in an event listener
// goes to uncaughtException (and would end the process): it is caught.
func runNode(t *testing.T, node, harness, src string) map[string]string {
	f := filepath.Join(t.TempDir(), "case.js")
	js := "" + harness + "\n" + src +
		"\n__run().then(r => { console.log(JSON.stringify(r)); process.exit(0); }, e => { console.error(e); process.exit(1); });\n"
	if err := os.WriteFile(f, []byte(js), 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(node, f).Output()
	if err != nil {
		t.Fatalf("node: %v", err)
	}
	var res map[string]string
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("node result %q: %v", out, err)
	}
	return res
}
