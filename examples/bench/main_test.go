package main

import (
	"bext/internal/testenv"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"
)

// TestRunSmoke runs the real command briefly on the React example's small
// page: isolates in-process (a), bext over HTTP (b) and the Node server (c).
func TestRunSmoke(t *testing.T) {
	app, _ := filepath.Abs("../react")
	testenv.Tool(t, "node", "install Node.js 20")
	testenv.File(t, filepath.Join(app, "node_modules", "react-dom"), "run npm ci in examples/react")
	o, err := parseFlags([]string{"-app", app, "-pages", "/small", "-targets", "direct,http,node", "-c", "2", "-workers", "1", "-node-procs", "1", "-d", "400ms", "-rounds", "2", "-warmup", "0"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	start := time.Now()
	if err := run(context.Background(), o, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	if d := time.Since(start); d > 30*time.Second {
		t.Errorf("a 3×400ms run took %v", d)
	}
	for _, name := range []string{"a  *direct", "b  *http", "c  *node"} {
		// letter, target, renders/s > 0, three latencies, KB/page of the small
		// page, 0 errors, renders per CPU-second ("–" for Node's processes)
		row := regexp.MustCompile(`(?m)^\s*` + name + `\s+[1-9][0-9.]*\s+[0-9.]+\s+[0-9.]+\s+[0-9.]+\s+1\.[0-9]\s+0\s+(?:[1-9][0-9.]*|–)\s*$`)
		if !row.MatchString(out.String()) {
			t.Errorf("no healthy %s row in:\n%s", name, out.String())
		}
	}
	// The summary: renders/s of a, b, c, then b/a and b/c as numbers; b/d
	// has no d to divide by.
	sum := regexp.MustCompile(`(?m)^\s*/small\s+[1-9][0-9.]*\s+[1-9][0-9.]*\s+[1-9][0-9.]*\s+[0-9]+\.[0-9]{2}\s+[0-9]+\.[0-9]{2}\s+–\s*$`)
	if !sum.MatchString(out.String()) {
		t.Errorf("no summary row with b/a and b/c in:\n%s", out.String())
	}
}

// The cached and bare targets run without errors and the summary reports
// e/f (the cache against its limit) and e/c (against Node).
func TestRunCachedSmoke(t *testing.T) {
	app, _ := filepath.Abs("../react")
	testenv.Tool(t, "node", "install Node.js 20")
	testenv.File(t, filepath.Join(app, "node_modules", "react-dom"), "run npm ci in examples/react")
	o, err := parseFlags([]string{"-app", app, "-pages", "/small", "-targets", "cached,bare,node", "-c", "2", "-workers", "1", "-node-procs", "1", "-d", "400ms", "-rounds", "2", "-warmup", "0"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), o, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	// renders/s of c, e, f, then b/a b/c b/d (no b: –), e/f and e/c.
	sum := regexp.MustCompile(`(?m)^\s*/small\s+[1-9][0-9.]*\s+[1-9][0-9.]*\s+[1-9][0-9.]*\s+–\s+–\s+–\s+[0-9]+\.[0-9]{2}\s+[0-9]+\.[0-9]{2}\s*$`)
	if !sum.MatchString(out.String()) {
		t.Errorf("no summary row with e/f and e/c in:\n%s", out.String())
	}
}

func TestParseFlags(t *testing.T) {
	if _, err := parseFlags([]string{"-targets", "url"}, &bytes.Buffer{}); err == nil {
		t.Error("the url target without -url was accepted")
	}
	o, err := parseFlags([]string{"-targets", "direct", "-url", "http://127.0.0.1:3000/"}, &bytes.Buffer{})
	if err != nil || len(o.targets) != 2 || o.targets[1] != "url" {
		t.Errorf("-url did not add the url target: %v, %v", o.targets, err)
	}
	if _, err := parseFlags([]string{"-c", "0"}, &bytes.Buffer{}); err == nil {
		t.Error("-c 0 was accepted")
	}
	if _, err := parseFlags([]string{"-targets", "direct,bogus"}, &bytes.Buffer{}); err == nil {
		t.Error("an unknown target was accepted")
	}
}

// The fast-sink-alone targets (bext before the other fast paths) run, and
// both summaries compare a with g: renders per second and per CPU-second.
func TestRunSinkSmoke(t *testing.T) {
	app, _ := filepath.Abs("../react")
	testenv.File(t, filepath.Join(app, "node_modules", "react-dom"), "run npm ci in examples/react")
	o, err := parseFlags([]string{"-app", app, "-pages", "/small", "-targets", "direct,direct-sink", "-workers", "1", "-d", "400ms", "-rounds", "2", "-warmup", "0"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	if err := run(context.Background(), o, &out); err != nil {
		t.Fatalf("run: %v\n%s", err, out.String())
	}
	// a, g, then b/a b/c b/d (no b) and a/g
	sum := regexp.MustCompile(`(?m)^\s*/small\s+[1-9][0-9.]*\s+[1-9][0-9.]*\s+–\s+–\s+–\s+[0-9]+\.[0-9]{2}\s*$`)
	if n := len(sum.FindAllString(out.String(), -1)); n != 2 {
		t.Errorf("%d summary rows with a/g, want 2 (per second and per CPU-second) in:\n%s", n, out.String())
	}
}
