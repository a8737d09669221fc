package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"bext/engine"
	"bext/engine/fastpath"
	"bext/internal/nodeparity"
)

// The compatibility suite: testdata/compat/rows/*.js(x), one popular SSR
// library or framework each, built by bext, rendered in a bext isolate and
// by Node 20 on the same bundle; a row passes when the HTML is
// byte-identical. Node is the oracle.

// compatPackages names, per row, the npm package whose version the table
// reports.
var compatPackages = map[string]string{
	"react-dom": "react-dom", "react-dom-node-stream": "react-dom", "react-dom-edge": "react-dom",
	"react-router": "react-router", "emotion": "@emotion/react", "styled-components": "styled-components",
	"react-helmet-async": "react-helmet-async", "react-query": "@tanstack/react-query",
	"redux-toolkit": "@reduxjs/toolkit", "preact": "preact-render-to-string", "vue-render": "vue",
	"vue-template": "vue", "svelte": "svelte", "solid": "solid-js", "lit": "@lit-labs/ssr",
	"nanoid": "nanoid", "uuid": "uuid", "zod": "zod", "ky": "ky", "axios": "axios", "marked": "marked",
	"markdown-it": "markdown-it", "date-fns": "date-fns", "clsx": "clsx", "node-builtins": "(node built-ins)",
}

// compatExpected lists the rows known not to match Node, with the reason.
// A listed row that starts passing fails the test (take it off the list),
// and so does a passing row that starts failing.
var compatExpected = map[string]string{}

// slowUnderRace are rows skipped when the race detector is on, with why.
var slowUnderRace = map[string]string{
	"markdown-it": "booting compiles linkify-it's case-insensitive Unicode regexps with regexp2 (0.65 s; past the 10 s boot limit under -race)",
}

type compatRow struct {
	name, entry string
	code        []byte
	fail        string // why bext did not produce a page, if it did not
	html        string
}

func TestCompatSuite(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("..", "testdata", "compat"))
	if err != nil {
		t.Fatal(err)
	}
	nodeparity.NpmCI(t, dir)
	node := nodeparity.Node(t)
	if out, err := exec.Command(node, filepath.Join(dir, "svelte-compile.mjs")).CombinedOutput(); err != nil {
		t.Fatalf("compiling Svelte components: %v\n%s", err, out)
	}
	api := httptest.NewServer(http.HandlerFunc(compatAPI))
	defer api.Close()
	// Every row with bext's fast paths on (what bext serve builds) and off
	// (every library as it ships); the table is of the first.
	for i, fp := range [][]string{fastpath.All(), nil} {
		name := "fastpaths"
		if fp == nil {
			name = "none"
		}
		t.Run(name, func(t *testing.T) { compatSuite(t, dir, api.URL, fp, i == 0) })
	}
}

// compatSuite builds, renders and compares every row with the given fast
// paths; table logs (and writes to $BEXT_COMPAT_TABLE) the result table.
func compatSuite(t *testing.T, dir, apiURL string, fastPaths []string, table bool) {
	entries, _ := filepath.Glob(filepath.Join(dir, "rows", "*.js*"))
	rows := make([]*compatRow, 0, len(entries))
	for _, e := range entries {
		name := strings.TrimSuffix(strings.TrimSuffix(filepath.Base(e), ".jsx"), ".js")
		if why, ok := slowUnderRace[name]; ok && raceEnabled {
			t.Logf("%s: skipped under -race: %s", name, why)
			continue
		}
		rows = append(rows, &compatRow{name: name, entry: filepath.Join("rows", filepath.Base(e))})
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].name < rows[j].name })

	// Build in parallel (esbuild uses every core itself; two at a time
	// keeps a 2-core CI busy without thrashing).
	var wg sync.WaitGroup
	sem := make(chan struct{}, 2)
	for _, r := range rows {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			b, err := engine.BuildServer(engine.BuildOptions{Dir: dir, Entry: r.entry, FastPaths: fastPaths})
			if err != nil {
				r.fail = "build: " + firstLine(err.Error(), 3)
				return
			}
			r.code = b.Code
		}()
	}
	wg.Wait()

	req := nodeparity.Request("/?api=" + apiURL)
	var bundles []nodeparity.Bundle
	var built []*compatRow
	for _, r := range rows {
		if r.code == nil {
			continue
		}
		built = append(built, r)
		bundles = append(bundles, nodeparity.Bundle{Code: r.code, Requests: []*engine.Request{req}})
		r.html, r.fail = renderCompat(t, r, req)
	}
	want := nodeparity.RenderBundles(t, bundles)

	lock := readLock(t, dir)
	var tab strings.Builder
	tab.WriteString("| library | version | result |\n|---|---|---|\n")
	passed := 0
	for i, r := range built {
		n := want[i][0]
		if n.Error != "" {
			t.Errorf("%s: the row fails in Node too (fix the row): %s", r.name, n.Error)
			continue
		}
		if r.fail == "" {
			if d := nodeparity.Diff(r.html, n.HTML); d != "" {
				r.fail = "differs from Node: " + d
			}
		}
	}
	for _, r := range rows {
		reason, known := compatExpected[r.name]
		result := "✅ byte-identical to Node 20"
		if r.fail != "" {
			result = "❌ " + reason
			if reason == "" {
				result = "❌ " + firstLine(r.fail, 1)
			}
		} else {
			passed++
		}
		switch {
		case r.fail == "" && known:
			t.Errorf("%s: passes now; take it off compatExpected (%s)", r.name, reason)
		case r.fail != "" && !known:
			t.Errorf("%s: %s", r.name, r.fail)
		}
		pkg := compatPackages[r.name]
		fmt.Fprintf(&tab, "| %s | %s %s | %s |\n", r.name, pkg, lock[pkg], result)
	}
	if !table {
		return
	}
	t.Logf("compatibility: %d/%d rows byte-identical to Node\n%s", passed, len(rows), tab.String())
	if out := os.Getenv("BEXT_COMPAT_TABLE"); out != "" {
		_ = os.WriteFile(out, []byte(tab.String()), 0o644)
	}
}

func renderCompat(t *testing.T, r *compatRow, req *engine.Request) (string, string) {
	p, err := engine.Compile(r.name+".js", r.code)
	if err != nil {
		return "", "compile: " + firstLine(err.Error(), 2)
	}
	iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		return "", "boot: " + firstLine(err.Error(), 2)
	}
	defer iso.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	resp, err := iso.Render(ctx, req)
	if err != nil {
		return "", "render: " + firstLine(err.Error(), 2)
	}
	return resp.HTML, ""
}

func firstLine(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	if len(lines) > n {
		lines = lines[:n]
	}
	return strings.Join(lines, " ")
}

func readLock(t *testing.T, dir string) map[string]string {
	b, err := os.ReadFile(filepath.Join(dir, "package-lock.json"))
	if err != nil {
		t.Fatal(err)
	}
	var lock struct {
		Packages map[string]struct {
			Version string `json:"version"`
		} `json:"packages"`
	}
	if err := json.Unmarshal(b, &lock); err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for k, v := range lock.Packages {
		out[strings.TrimPrefix(k, "node_modules/")] = v.Version
	}
	return out
}

// compatAPI is the loopback server of the HTTP client rows.
func compatAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("content-type", "application/json")
	switch r.URL.Path {
	case "/teas":
		fmt.Fprintf(w, `[{"id":1,"name":"Sencha","q":%q,"client":%q}]`, r.URL.Query().Get("q"), r.Header.Get("x-client"))
	case "/echo":
		body, _ := io.ReadAll(r.Body)
		fmt.Fprintf(w, `{"method":%q,"type":%q,"body":%s}`, r.Method, r.Header.Get("content-type"), body)
	default:
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":"not found"}`)
	}
}
