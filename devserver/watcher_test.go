package devserver

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// These tests use the real file system and fsnotify, so they wait for events
// with a generous timeout rather than in fake time.
const eventTimeout = 5 * time.Second

func newTestWatcher(t *testing.T, ignore func(string) bool, dirs ...string) *Watcher {
	t.Helper()
	w, err := NewWatcher(dirs, ignore)
	if err != nil {
		t.Fatalf("NewWatcher: %v", err)
	}
	t.Cleanup(func() { w.Close() })
	go func() { // the contract: errors must be drained
		for err := range w.Errors() {
			t.Logf("watch error: %v", err)
		}
	}()
	return w
}

// waitFor collects events until want has been seen, and returns them all.
func waitFor(t *testing.T, w *Watcher, want string) []string {
	t.Helper()
	var seen []string
	deadline := time.After(eventTimeout)
	for {
		select {
		case p, ok := <-w.Events():
			if !ok {
				t.Fatalf("Events closed while waiting for %s; saw %v", want, seen)
			}
			seen = append(seen, p)
			if p == want {
				return seen
			}
		case <-deadline:
			t.Fatalf("no event for %s within %v; saw %v", want, eventTimeout, seen)
		}
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestWatcherReportsWritesInNestedFolders(t *testing.T) {
	root := t.TempDir()
	deep := filepath.Join(root, "src", "components", "ui")
	write(t, filepath.Join(deep, "Button.tsx"), "v1")
	w := newTestWatcher(t, nil, root)

	write(t, filepath.Join(deep, "Button.tsx"), "v2")
	waitFor(t, w, filepath.Join(deep, "Button.tsx"))

	if err := os.Remove(filepath.Join(deep, "Button.tsx")); err != nil {
		t.Fatal(err)
	}
	waitFor(t, w, filepath.Join(deep, "Button.tsx"))
}

func TestWatcherRelativeRootGivesAbsolutePaths(t *testing.T) {
	root := t.TempDir()
	t.Chdir(root)
	write(t, filepath.Join(root, "src", "a.ts"), "")
	w := newTestWatcher(t, nil, "src")
	write(t, filepath.Join("src", "a.ts"), "x")
	waitFor(t, w, filepath.Join(root, "src", "a.ts"))
}

func TestWatcherNewFolderWithContent(t *testing.T) {
	root := t.TempDir()
	staging := t.TempDir()
	w := newTestWatcher(t, nil, root)

	// Build a tree elsewhere and move it in with one rename, as git checkout
	// or an editor's "save as" can: the files inside get no Create events of
	// their own, so the watcher must find them by walking the new folder.
	write(t, filepath.Join(staging, "feature", "Page.tsx"), "")
	write(t, filepath.Join(staging, "feature", "parts", "Part.tsx"), "")
	write(t, filepath.Join(staging, "feature", "node_modules", "dep", "index.js"), "")
	dst := filepath.Join(root, "feature")
	if err := os.Rename(filepath.Join(staging, "feature"), dst); err != nil {
		t.Fatal(err)
	}
	// The walk is in lexical order: Page.tsx, node_modules (skipped), parts.
	seen := waitFor(t, w, filepath.Join(dst, "parts", "Part.tsx"))
	if !slices.Contains(seen, filepath.Join(dst, "Page.tsx")) {
		t.Errorf("file in the new folder not reported; saw %v", seen)
	}
	for _, p := range seen {
		if filepath.Base(filepath.Dir(p)) == "dep" {
			t.Errorf("file under node_modules in the new folder reported: %s", p)
		}
	}

	// The new folder and its subfolder are watched now.
	write(t, filepath.Join(dst, "parts", "Part.tsx"), "edited")
	write(t, filepath.Join(dst, "parts", "sentinel.ts"), "")
	seen = waitFor(t, w, filepath.Join(dst, "parts", "sentinel.ts"))
	if !slices.Contains(seen, filepath.Join(dst, "parts", "Part.tsx")) {
		t.Errorf("no event for a write in a folder added after start; saw %v", seen)
	}

	// mkdir -p followed by a write, the other common shape.
	write(t, filepath.Join(root, "a", "b", "c", "new.ts"), "")
	waitFor(t, w, filepath.Join(root, "a", "b", "c", "new.ts"))
	write(t, filepath.Join(root, "a", "b", "c", "new.ts"), "again")
	waitFor(t, w, filepath.Join(root, "a", "b", "c", "new.ts"))
}

func TestWatcherIgnores(t *testing.T) {
	root := t.TempDir()
	for _, d := range []string{"node_modules/pkg", ".git", "dist/assets", "src"} {
		if err := os.MkdirAll(filepath.Join(root, d), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	w := newTestWatcher(t, IgnoreUnder(filepath.Join(root, "dist")), root)

	ignored := []string{
		"node_modules/pkg/index.js",
		".git/HEAD",
		"dist/assets/app-1234.js", // build output
		"dist/server.js",
		"src/.Header.tsx.swp",
		"src/Header.tsx.swx",
		"src/Header.tsx~",
		"src/4913",
		"src/.#Header.tsx",
		"src/#Header.tsx#",
		"src/upload.tmp",
		"src/Header.tsx___jb_tmp___",
		".env",
		"src/.cache/x.js", // new dot-folder
		"node_modules/newpkg/index.js",
	}
	for _, rel := range ignored {
		write(t, filepath.Join(root, filepath.FromSlash(rel)), "x")
	}
	// Events from one watcher arrive in order, so once the sentinel is seen
	// every ignored write before it would have been reported already.
	sentinel := filepath.Join(root, "src", "Header.tsx")
	write(t, sentinel, "x")
	seen := waitFor(t, w, sentinel)
	for _, p := range seen {
		if p != sentinel {
			t.Errorf("ignored path reported: %s", p)
		}
	}
}

func TestWatcherMissingRootIsAnError(t *testing.T) {
	_, err := NewWatcher([]string{t.TempDir(), filepath.Join(t.TempDir(), "nope")}, nil)
	if err == nil {
		t.Fatal("NewWatcher with a missing folder succeeded")
	}
}

func TestWatcherCloseClosesChannels(t *testing.T) {
	w, err := NewWatcher([]string{t.TempDir()}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	w.Close() // idempotent
	for _, ch := range []func() bool{
		func() bool { _, ok := <-w.Events(); return ok },
		func() bool { _, ok := <-w.Errors(); return ok },
	} {
		done := make(chan bool)
		go func() { done <- ch() }()
		select {
		case ok := <-done:
			if ok {
				t.Fatal("channel delivered a value after Close")
			}
		case <-time.After(eventTimeout):
			t.Fatal("channel not closed after Close")
		}
	}
}

func TestIgnoredName(t *testing.T) {
	for name, want := range map[string]bool{
		"node_modules": true, ".git": true, ".env": true, "4913": true,
		"a.swp": true, "a.SWP": true, "a.swx": true, "a~": true, ".#a": true,
		"#a#": true, "a.tmp": true,
		"a.ts": false, "App.tsx": false, "swp": false, "49130": false,
		"styles.css": false, "#a": false, "modules": false,
	} {
		if got := ignoredName(name); got != want {
			t.Errorf("ignoredName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestIgnoreUnder(t *testing.T) {
	ig := IgnoreUnder("/app/dist", "")
	for p, want := range map[string]bool{
		"/app/dist": true, "/app/dist/a.js": true, "/app/dist/x/y.js": true,
		"/app/distribution/a.js": false, "/app/src/a.ts": false, "/": false,
	} {
		if got := ig(filepath.FromSlash(p)); got != want {
			t.Errorf("IgnoreUnder(/app/dist)(%q) = %v, want %v", p, got, want)
		}
	}
}

func TestWatcherFileRootReportsOnlyThatFile(t *testing.T) {
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config.toml")
	write(t, cfg, "v1")
	w := newTestWatcher(t, nil, cfg)

	write(t, filepath.Join(dir, "README.md"), "x")         // a sibling
	write(t, filepath.Join(dir, "src", "server.jsx"), "x") // a new folder beside it
	write(t, cfg+".new", "v2")                             // an editor's save: write, then rename over
	if err := os.Rename(cfg+".new", cfg); err != nil {
		t.Fatal(err)
	}
	for _, p := range waitFor(t, w, cfg) {
		if p != cfg {
			t.Errorf("event for %s: only the file root %s is watched", p, cfg)
		}
	}
	write(t, cfg, "v3") // still watched after being replaced
	waitFor(t, w, cfg)
}
