package node_test

import (
	"context"
	"encoding/json"
	"log/slog"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"bext/engine"
	"bext/internal/nodeparity"
)

// knownDifferences are cases of testdata/parity/server.js where bext and
// Node 20 are known to differ, with the reason. A listed case that starts
// matching fails the test (remove it from the list), as does a case that
// starts differing.
var knownDifferences = map[string]string{
	"assert.ok fails":               "Node quotes the call's source text (it reads the file); bext quotes the value",
	"process.nextTick in microtask": "a tick queued inside a promise job runs after the jobs queued before it, not after the whole microtask queue (goja offers no hook at the end of its job queue)",
}

// TestParityWithNode runs every case of testdata/parity/server.js in a
// bext isolate and in Node 20 (the same bundle; Node's built-ins there)
// and compares the results case by case.
func TestParityWithNode(t *testing.T) {
	dir, err := filepath.Abs(filepath.Join("testdata", "parity"))
	if err != nil {
		t.Fatal(err)
	}
	b, err := engine.BuildServer(engine.BuildOptions{Dir: dir, Entry: "server.js"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile("parity.js", b.Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := engine.NewIsolate(p, engine.Options{Log: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	req := nodeparity.Request("/")
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	got, err := iso.Render(ctx, req)
	if err != nil {
		t.Fatalf("bext: %v", err)
	}
	want := nodeparity.Render(t, b.Code, []*engine.Request{req})[0]
	if want.Error != "" {
		t.Fatalf("node: %s", want.Error)
	}
	var g, n map[string]any
	if err := json.Unmarshal([]byte(got.HTML), &g); err != nil {
		t.Fatalf("bext output: %v", err)
	}
	if err := json.Unmarshal([]byte(want.HTML), &n); err != nil {
		t.Fatalf("node output: %v", err)
	}
	names := make([]string, 0, len(n))
	for k := range n {
		names = append(names, k)
	}
	sort.Strings(names)
	pass := map[string][2]int{}
	for _, name := range names {
		mod := strings.Fields(name)[0]
		if i := strings.IndexAny(mod, "."); i > 0 {
			mod = mod[:i]
		}
		same := reflect.DeepEqual(g[name], n[name])
		c := pass[mod]
		c[1]++
		if same {
			c[0]++
		}
		pass[mod] = c
		reason, known := knownDifferences[name]
		switch {
		case same && known:
			t.Errorf("%s: now matches Node; remove it from knownDifferences (%s)", name, reason)
		case !same && !known:
			gj, _ := json.Marshal(g[name])
			nj, _ := json.Marshal(n[name])
			t.Errorf("%s:\n bext: %s\n node: %s", name, gj, nj)
		}
	}
	var mods []string
	for m := range pass {
		mods = append(mods, m)
	}
	sort.Strings(mods)
	total := [2]int{}
	for _, m := range mods {
		t.Logf("%-20s %3d/%d match Node", m, pass[m][0], pass[m][1])
		total[0] += pass[m][0]
		total[1] += pass[m][1]
	}
	t.Logf("%-20s %3d/%d match Node", "all", total[0], total[1])
}
