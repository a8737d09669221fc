package engine_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"maps"
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
// byte-identical. Node is the oracle. Rows whose entry default-exports a
// fetch(request, env, ctx) handler (compatFetchRows) are sent several
// requests, each a real Request in both runtimes, and pass when every
// response's status, headers and body are identical.

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
	"hono": "hono", "react-router-handler": "react-router", "react-intl": "react-intl", "i18next": "i18next",
}

// compatOrigin is the origin of the fetch rows' request URLs, and
// compatEnv their env (and process.env).
const compatOrigin = "http://compat.test"

var compatEnv = map[string]string{"ROW": "compat"}

// compatFetch is one request to a fetch-handler row.
type compatFetch struct {
	method, target string // target: path and query
	header         [][2]string
	body           string
}

// compatFetchRows are the rows served as fetch handlers, with the requests
// each is sent.
var compatFetchRows = map[string][]compatFetch{
	"hono": {
		{method: "GET", target: "/"},
		{method: "GET", target: "/api/teas/sencha?q=a&q=b"},
		{method: "POST", target: "/api/teas", header: [][2]string{{"content-type", "application/json"}}, body: `{"name":"Gyokuro","price":30}`},
		{method: "POST", target: "/form", header: [][2]string{{"content-type", "application/x-www-form-urlencoded"}}, body: "name=Ada+L.&qty=2&qty=3"},
		{method: "POST", target: "/form", header: [][2]string{{"content-type", "multipart/form-data; boundary=XyZ"}},
			body: "--XyZ\r\nContent-Disposition: form-data; name=\"name\"\r\n\r\nGrace\r\n--XyZ\r\nContent-Disposition: form-data; name=\"note\"; filename=\"n.txt\"\r\nContent-Type: text/plain\r\n\r\nwrap it «nicely»\r\n--XyZ--\r\n"},
		{method: "GET", target: "/cookie", header: [][2]string{{"cookie", "seen=1; other=x"}}},
		{method: "GET", target: "/cookie"},
		{method: "GET", target: "/old"},
		{method: "GET", target: "/no/such/page"},
		{method: "HEAD", target: "/"},
	},
	"react-router-handler": {
		{method: "GET", target: "/"},
		{method: "GET", target: "/teas/sencha"},
		{method: "GET", target: "/teas/matcha?ref=nav"},
		{method: "POST", target: "/teas/matcha", header: [][2]string{{"content-type", "application/x-www-form-urlencoded"}}, body: "qty=3"},
		{method: "GET", target: "/teas/assam"},
		{method: "GET", target: "/old"},
		{method: "GET", target: "/no/such/page"},
	},
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
	fetched     []nodeparity.Result // fetch rows: bext's response to each request
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
		if reqs, ok := compatFetchRows[r.name]; ok {
			bundles = append(bundles, nodeparity.Bundle{Code: r.code, Fetch: nodeFetchRequests(reqs), Env: compatEnv})
			r.fetched, r.fail = fetchCompat(t, r, reqs)
			continue
		}
		bundles = append(bundles, nodeparity.Bundle{Code: r.code, Requests: []*engine.Request{req}})
		r.html, r.fail = renderCompat(t, r, req)
	}
	want := nodeparity.RenderBundles(t, bundles)

	lock := readLock(t, dir)
	var tab strings.Builder
	tab.WriteString("| library | version | result |\n|---|---|---|\n")
	passed := 0
	for i, r := range built {
		if r.fetched != nil || compatFetchRows[r.name] != nil {
			if d := diffFetched(r, want[i]); d != "" && r.fail == "" {
				r.fail = d
			}
			continue
		}
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

// fetchCompat sends a fetch row's requests to one isolate in order, each as
// the Request a fetch handler receives.
func fetchCompat(t *testing.T, r *compatRow, reqs []compatFetch) ([]nodeparity.Result, string) {
	p, err := engine.Compile(r.name+".js", r.code)
	if err != nil {
		return nil, "compile: " + firstLine(err.Error(), 2)
	}
	iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler), Env: compatEnv})
	if err != nil {
		return nil, "boot: " + firstLine(err.Error(), 2)
	}
	defer iso.Close()
	var out []nodeparity.Result
	for _, f := range reqs {
		req := engine.NewRequest(f.method, f.target)
		req.Origin = compatOrigin
		req.Header = http.Header{}
		for _, h := range f.header {
			req.Header.Add(h[0], h[1])
			req.Headers[strings.ToLower(h[0])] = h[1]
		}
		if f.body != "" {
			req.Body = io.NopCloser(strings.NewReader(f.body))
			req.BodySize = int64(len(f.body))
		}
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		resp, err := iso.Render(ctx, req)
		cancel()
		if err != nil {
			return nil, fmt.Sprintf("%s %s: %s", f.method, f.target, firstLine(err.Error(), 2))
		}
		out = append(out, nodeparity.Result{Status: resp.Status, Headers: nodeparity.HeaderMap(resp.Headers), HTML: resp.HTML})
	}
	return out, ""
}

func nodeFetchRequests(reqs []compatFetch) []nodeparity.FetchRequest {
	out := make([]nodeparity.FetchRequest, len(reqs))
	for i, f := range reqs {
		out[i] = nodeparity.FetchRequest{Method: f.method, URL: compatOrigin + f.target, Headers: f.header}
		if f.body != "" {
			out[i].Body = []byte(f.body)
		}
	}
	return out
}

// diffFetched is "" when bext answered every request of a fetch row as
// Node did (status, headers, body), else the first difference.
func diffFetched(r *compatRow, node []nodeparity.Result) string {
	reqs := compatFetchRows[r.name]
	if len(node) != len(reqs) {
		why := ""
		if len(node) > 0 {
			why = ": " + node[0].Error
		}
		return fmt.Sprintf("Node answered %d of the row's %d requests (fix the row)%s", len(node), len(reqs), why)
	}
	for j, n := range node {
		f := reqs[j]
		if n.Error != "" {
			return fmt.Sprintf("%s %s fails in Node too (fix the row): %s", f.method, f.target, n.Error)
		}
		if j >= len(r.fetched) {
			return ""
		}
		b := r.fetched[j]
		if b.Status != n.Status {
			return fmt.Sprintf("%s %s: status %d, Node %d", f.method, f.target, b.Status, n.Status)
		}
		if !maps.Equal(b.Headers, n.Headers) && !(len(b.Headers) == 0 && len(n.Headers) == 0) {
			return fmt.Sprintf("%s %s: headers %q, Node %q", f.method, f.target, b.Headers, n.Headers)
		}
		if d := nodeparity.Diff(b.HTML, n.HTML); d != "" {
			return fmt.Sprintf("%s %s: %s", f.method, f.target, d)
		}
	}
	return ""
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
