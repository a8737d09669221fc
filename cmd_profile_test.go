package main

import (
	"bytes"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"bext/internal/testenv"
)

// bext profile on the React example writes a profile that `go tool pprof
// -top` shows with the app's own components by name (ItemList.jsx's Item,
// App.jsx's CataloguePage) beside React's functions, and lists the top of
// it itself.
func TestProfileCommandNamesTheAppsComponents(t *testing.T) {
	testenv.File(t, filepath.Join("examples", "react", "node_modules", "react-dom"), "run npm ci in examples/react")
	gobin := testenv.Tool(t, "go", "install Go")
	out := filepath.Join(t.TempDir(), "react.pprof")
	var stdout, stderr bytes.Buffer
	code := run([]string{"profile", "-config", filepath.Join("examples", "react", "config.toml"), "-route", "/large", "-n", "20", "-warmup", "1", "-o", out}, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("bext profile: exit %d\n%s%s", code, stdout.String(), stderr.String())
	}
	if !regexp.MustCompile(`rendered /large 20 times \(status 200, \d+ bytes, [0-9.]+ ms each\); wrote `).MatchString(stdout.String()) ||
		!strings.Contains(stdout.String(), "node_modules/react-dom/cjs/react-dom-server-legacy.browser.production.min.js") {
		t.Errorf("bext profile printed:\n%s", stdout.String())
	}
	top, err := exec.Command(gobin, "tool", "pprof", "-top", "-nodefraction=0", out).CombinedOutput()
	if err != nil {
		t.Fatalf("go tool pprof: %v\n%s", err, top)
	}
	for _, fn := range []string{"Item", "CataloguePage", "render"} {
		if !regexp.MustCompile(`(?m)\s` + fn + `$`).Match(top) {
			t.Errorf("go tool pprof -top does not list %s:\n%s", fn, top)
		}
	}
	lines, err := exec.Command(gobin, "tool", "pprof", "-top", "-lines", "-nodefraction=0", out).CombinedOutput()
	if err != nil || !bytes.Contains(lines, []byte("CataloguePage src/App.jsx:")) {
		t.Errorf("go tool pprof -top -lines does not place CataloguePage in src/App.jsx (%v):\n%s", err, lines)
	}
}
