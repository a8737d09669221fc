package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"bext/internal/app"
	"bext/internal/apptest"
	"bext/pool"
)

const appsConfig = `
[render]
jsc_workers = 2

[[apps]]
name = "alpha"
server_entry = "alpha/server.js"
hosts = ["alpha.test", "*.alpha.test"]

[[apps]]
name = "shop"
server_entry = "shop/server.js"
path_prefix = "/shop"
idle_timeout_ms = 200

[[apps]]
name = "broken"
server_entry = "broken/server.js"
hosts = ["broken.test"]

[[apps]]
name = "leaky"
server_entry = "leaky/server.js"
path_prefix = "/leak"
[apps.render.lifecycle]
max_memory_mb = 1
memory_check_ms = 5

[[apps]]
name = "main"
server_entry = "main/server.js"
preload = true
`

var appsFiles = map[string]string{
	"alpha/server.js":  `globalThis.render = (req) => "alpha " + req.headers.host + " " + req.path;`,
	"shop/server.js":   `globalThis.render = (req) => "shop " + req.path;`,
	"broken/server.js": `throw new Error("broken at boot");`,
	"leaky/server.js":  `const keep = []; globalThis.render = (req) => { keep.push("x".repeat(64 << 10) + req.path); return "leaky " + keep.length; };`,
	"main/server.js":   `globalThis.render = (req) => "main " + req.path;`,
}

func hostGet(t *testing.T, base, host, path string) (int, string, http.Header) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, base+path, nil)
	req.Host = host
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b), resp.Header
}

// Many apps on one listener: routing by host (exact and *.wildcard) and
// path prefix, the default app for the rest; an app that throws at boot
// answers 503 with Retry-After while the others serve; a leaking app
// rotates its own workers alone; an idle app is evicted and starts again
// on its next request; /__bext/apps and /metrics show every app.
func TestManyAppsOnOneListener(t *testing.T) {
	path := apptest.WriteApp(t, appsConfig, appsFiles)
	inst := apptest.Start(t, path, nil, app.Options{})
	base := "http://" + inst.Addr()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if st := stateOf(inst, "main"); st != "running" {
		t.Fatalf("preloaded app main is %s", st)
	}
	for _, c := range []struct{ host, path, want string }{
		{"alpha.test", "/x", "alpha alpha.test /x"},
		{"eu.alpha.test:8080", "/y", "alpha eu.alpha.test:8080 /y"},
		{"other.test", "/shop", "shop /shop"},
		{"other.test", "/shop/cart", "shop /shop/cart"},
		{"other.test", "/shopping", "main /shopping"},
		{"alpha.test", "/shop/cart", "alpha alpha.test /shop/cart"}, // the host is more specific than the prefix
		{"other.test", "/", "main /"},
	} {
		if code, body, _ := hostGet(t, base, c.host, c.path); code != 200 || body != c.want {
			t.Errorf("%s%s: %d %q, want %q", c.host, c.path, code, body, c.want)
		}
	}

	code, _, h := hostGet(t, base, "broken.test", "/")
	if code != 503 || h.Get("Retry-After") == "" {
		t.Fatalf("broken app: %d Retry-After %q, want 503 with Retry-After", code, h.Get("Retry-After"))
	}
	if st := appStats(inst, "broken"); st.State != "failed" || !strings.Contains(st.LastError, "broken at boot") {
		t.Fatalf("broken app stats %+v", st)
	}
	if code, body, _ := hostGet(t, base, "alpha.test", "/still"); code != 200 || !strings.HasPrefix(body, "alpha") {
		t.Fatalf("a broken app took another down: %d %q", code, body)
	}

	for i := range 60 {
		if code, _, _ := hostGet(t, base, "x.test", fmt.Sprintf("/leak/%d", i)); code != 200 {
			t.Fatalf("leaky request %d: %d", i, code)
		}
	}
	if err := inst.AppPool("leaky").WaitFor(ctx, func(ws []pool.WorkerStats) bool {
		return ws[0].LastRotationReason == "max_memory" || ws[1].LastRotationReason == "max_memory"
	}); err != nil {
		t.Fatalf("the leaking app never rotated for memory: %v", err)
	}
	for _, name := range []string{"alpha", "main"} {
		for _, w := range inst.AppPool(name).Snapshot() {
			if w.Restarts != 0 {
				t.Errorf("app %s worker %d rotated (%s) while another app leaked", name, w.ID, w.LastRotationReason)
			}
		}
	}

	if err := inst.WaitApp(ctx, "shop", func(s app.AppStats) bool { return s.State == "evicted" }); err != nil {
		t.Fatalf("shop was not evicted after idling: %v (%+v)", err, appStats(inst, "shop"))
	}
	if code, body, _ := hostGet(t, base, "other.test", "/shop/again"); code != 200 || body != "shop /shop/again" {
		t.Fatalf("cold start after eviction: %d %q", code, body)
	}
	if st := appStats(inst, "shop"); st.ColdStarts != 2 || st.Evictions != 1 {
		t.Fatalf("shop %+v, want 2 cold starts and 1 eviction", st)
	}

	var listed []app.AppStats
	_, body := apptest.Get(t, "http://"+inst.AdminAddr()+"/__bext/apps")
	if err := json.Unmarshal([]byte(body), &listed); err != nil || len(listed) != 5 {
		t.Fatalf("/__bext/apps: %v %s", err, body)
	}
	_, metrics := apptest.Get(t, "http://"+inst.AdminAddr()+"/metrics")
	// A worker's request counter appears once it has served: either of
	// alpha's two may have taken all of its requests.
	for _, want := range []string{`bext_worker_requests_total{app="alpha",worker=`, `bext_app_state{app="broken",state="failed"} 1`, `bext_app_cold_starts_total{app="shop"} 2`} {
		if !strings.Contains(metrics, want) {
			t.Errorf("/metrics lacks %s", want)
		}
	}
	if code, body := apptest.Get(t, "http://"+inst.AdminAddr()+"/__bext/workers?app=alpha"); code != 200 || !strings.HasPrefix(body, "[") {
		t.Errorf("/__bext/workers?app=alpha: %d %.80s", code, body)
	}
	if code, _ := apptest.Get(t, "http://"+inst.AdminAddr()+"/__bext/workers"); code != 404 {
		t.Errorf("/__bext/workers without ?app= among several apps: %d, want 404 naming the apps", code)
	}
}

func appStats(inst *app.Instance, name string) app.AppStats {
	for _, st := range inst.Apps() {
		if st.Name == name {
			return st
		}
	}
	return app.AppStats{}
}

func stateOf(inst *app.Instance, name string) string { return appStats(inst, name).State }
