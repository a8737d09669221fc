package config

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// writeApps writes config text beside two server entries (a/s.js, b/s.js).
func writeApps(t *testing.T, text string) string {
	t.Helper()
	path := writeApp(t, text)
	dir := filepath.Dir(path)
	for _, a := range []string{"a", "b", "c"} {
		os.MkdirAll(filepath.Join(dir, a), 0o755)
		os.WriteFile(filepath.Join(dir, a, "s.js"), []byte("globalThis.render=()=>''"), 0o644)
	}
	return path
}

// [[apps]] tables carry the keys of [app] directly, route by hosts and
// path_prefix, and override single [render] keys; the rest of [render]
// (and its lifecycle) is inherited, whichever comes first in the file.
func TestAppsLoadWithInheritedRender(t *testing.T) {
	path := writeApps(t, `
[[apps]]
name = "shop"
server_entry = "a/s.js"
hosts = ["shop.example.com", "*.shop.example"]
[apps.render]
jsc_workers = 2
[apps.render.lifecycle]
max_requests = 50

[render]
render_timeout_ms = 777
[render.lifecycle]
max_requests = 9

[[apps]]
name = "blog"
server_entry = "b/s.js"
path_prefix = "/blog"
idle_timeout_ms = 0
[apps.respawn]
max_crashes = 3
`)
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Apps) != 2 {
		t.Fatalf("apps %+v", c.Apps)
	}
	shop, blog := c.Apps[0], c.Apps[1]
	dir := filepath.Dir(path)
	if shop.Name != "shop" || shop.ServerEntry != filepath.Join(dir, "a/s.js") || shop.PublicDir != filepath.Join(dir, "public") ||
		len(shop.Hosts) != 2 || shop.Render.JSCWorkers != 2 || shop.Render.RenderTimeoutMS != 777 ||
		shop.Render.Lifecycle.MaxRequests != 50 || shop.Render.Lifecycle.DrainTimeoutMS != 5000 || shop.IdleTimeoutMS != 900000 {
		t.Errorf("shop %+v", shop)
	}
	if blog.PathPrefix != "/blog" || blog.Render.JSCWorkers != 4 || blog.Render.Lifecycle.MaxRequests != 9 ||
		blog.IdleTimeoutMS != 0 || blog.Respawn.MaxCrashes != 3 || blog.Respawn.WindowMS != 60000 {
		t.Errorf("blog %+v", blog)
	}
}

// Bad [[apps]] are errors at start naming the app's table, the key and the
// line: a duplicate name, a missing entry, two apps on one host or prefix,
// two default apps, [app] beside [[apps]], an unknown key.
func TestAppsProblemsNameAppKeyAndLine(t *testing.T) {
	_, err := Load(writeApps(t, `[app]
server_entry = "a/s.js"
[[apps]]
name = "one"
server_entry = "a/s.js"
hosts = ["x.example"]
[[apps]]
name = "one"
server_entry = "missing.js"
hosts = ["X.example"]
[[apps]]
name = "three"
server_entry = "c/s.js"
path_prefix = "shop"
colour = "red"
[[apps]]
name = "four"
server_entry = "c/s.js"
[[apps]]
name = "five"
server_entry = "c/s.js"
[apps.render]
jsc_workers = 0
`))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("Load: %v", err)
	}
	ps := ce.Problems
	wantProblem(t, ps, "app", 1, "[[apps]] has no [app]")
	wantProblem(t, ps, "apps[2].name", 8, "name of apps[1] too")
	wantProblem(t, ps, "apps[2].server_entry", 9, "does not exist")
	wantProblem(t, ps, "apps[2].hosts", 10, `claims host "X.example", as app "one" does`)
	wantProblem(t, ps, "apps[3].path_prefix", 14, "must start with /")
	wantProblem(t, ps, "apps[3].colour", 15, "unknown key")
	wantProblem(t, ps, "apps[5].hosts", 19, `is the default app`)
	wantProblem(t, ps, "apps[5].render.jsc_workers", 23, "at least 1")
}
