package main

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"bext/internal/app"
	"bext/pool"
)

// The seed's table, exactly: thousands separators, human sizes and
// durations, aligned columns, the rotation reason after a draining row.
func TestPrintPSMatchesTheSeedTable(t *testing.T) {
	up := (2*time.Hour + 15*time.Minute).Seconds()
	ws := []pool.WorkerStats{
		{ID: 0, State: "ACTIVE", Health: "healthy", RequestsServed: 3421, CurrentMemoryBytes: 142 << 20, UptimeSeconds: up, AvgRenderTimeMS: 4.2},
		{ID: 1, State: "ACTIVE", Health: "healthy", RequestsServed: 3380, CurrentMemoryBytes: 138 << 20, UptimeSeconds: up, AvgRenderTimeMS: 3.8},
		{ID: 2, State: "DRAINING", Health: "healthy", RequestsServed: 3412, CurrentMemoryBytes: 256 << 20, UptimeSeconds: up, AvgRenderTimeMS: 4.1, Rotating: "max_memory", RotatingDetail: "memory 256.0 MB > 16.0 MB"},
		{ID: 3, State: "DEGRADED", Health: "unhealthy", RequestsServed: 3399, CurrentMemoryBytes: 145 << 20, UptimeSeconds: up, AvgRenderTimeMS: 3.9},
	}
	ws[3].Rotating, ws[3].RotatingDetail = "unhealthy", "5 failed renders in a row (peers 0% of 60)"
	want := `Workers (2/4 active)
ID  State     Health     Requests  Memory  Uptime  Avg Render
0   ACTIVE    healthy    3,421     142 MB  2h 15m  4.2ms
1   ACTIVE    healthy    3,380     138 MB  2h 15m  3.8ms
2   DRAINING  healthy    3,412     256 MB  2h 15m  4.1ms  (rotating: memory 256.0 MB > 16.0 MB)
3   DEGRADED  unhealthy  3,399     145 MB  2h 15m  3.9ms  (rotating: unhealthy: 5 failed renders in a row (peers 0% of 60))
`
	var b bytes.Buffer
	printPS(&b, ws)
	if b.String() != want {
		t.Fatalf("bext ps printed:\n%s\nwant:\n%s", b.String(), want)
	}
}

func TestPSGaveUpRowSaysWhy(t *testing.T) {
	var b bytes.Buffer
	printPS(&b, []pool.WorkerStats{{ID: 0, State: "FAILED", GaveUp: true, LastError: "the server bundle threw while loading: boom\n\tat x.js:1"}})
	want := "Workers (0/1 active)\nID  State   Health  Requests  Memory  Uptime  Avg Render\n0   FAILED  -       0         0 B     0s      0.0ms  (gave up: the server bundle threw while loading: boom)\n"
	if b.String() != want {
		t.Fatalf("got:\n%q\nwant:\n%q", b.String(), want)
	}
}

func TestHumanFormats(t *testing.T) {
	cases := map[string]string{
		thousands(0): "0", thousands(999): "999", thousands(1000): "1,000", thousands(1234567): "1,234,567",
		humanBytes(512): "512 B", humanBytes(2048): "2 KB", humanBytes(142 << 20): "142 MB", humanBytes(3 << 30): "3.0 GB",
		humanDuration(42 * time.Second): "42s", humanDuration(5*time.Minute + 3*time.Second): "5m 3s",
		humanDuration(26 * time.Hour): "1d 2h",
	}
	for got, want := range cases {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}

func TestPSFindsAdminFromEnvAndSendsToken(t *testing.T) {
	var gotAuth string
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotAuth = r.Header.Get("Authorization")
		if r.URL.Path != "/__bext/workers" {
			http.NotFound(w, r) // a server with a single [app]
			return
		}
		w.Write([]byte(`[{"id":0,"state":"ACTIVE","requests_served":1234}]`))
	}))
	defer ts.Close()
	t.Chdir(t.TempDir()) // no config.toml here
	t.Setenv("BEXT_ADMIN_ADDR", strings.TrimPrefix(ts.URL, "http://"))
	t.Setenv("BEXT_ADMIN_TOKEN", "tok3n")
	var out, errb bytes.Buffer
	if code := run([]string{"ps"}, &out, &errb); code != 0 {
		t.Fatalf("ps: %d %s", code, errb.String())
	}
	if gotAuth != "Bearer tok3n" {
		t.Fatalf("Authorization sent: %q", gotAuth)
	}
	if !strings.Contains(out.String(), "1,234") {
		t.Fatalf("ps output:\n%s", out.String())
	}
}

// With [[apps]], bext ps groups workers by app and shows the apps that are
// not running (cold, evicted, failed) with their state.
func TestPSGroupsByApp(t *testing.T) {
	used := time.Now().Add(-90 * time.Second)
	apps := []app.AppStats{
		{Name: "alpha", State: "running", Hosts: []string{"alpha.test"}, Workers: 1, WorkerSlots: 1, LastUsedAt: &used},
		{Name: "shop", State: "evicted", PathPrefix: "/shop"},
		{Name: "broken", State: "failed", GaveUp: true, LastError: "5 crashes within 1m0s", Hosts: []string{"b.test"}},
		{Name: "main", State: "cold"},
	}
	ws := map[string][]pool.WorkerStats{"alpha": {{ID: 0, State: "ACTIVE", RequestsServed: 1234, AvgRenderTimeMS: 2.5}}}
	var b bytes.Buffer
	printAppsPS(&b, apps, ws, nil)
	want := "App alpha (running; host alpha.test)\n" +
		"Workers (1/1 active)\n" +
		"ID  State   Health  Requests  Memory  Uptime  Avg Render\n" +
		"0   ACTIVE  -       1,234     0 B     0s      2.5ms\n" +
		"\n" +
		"App shop (evicted; prefix /shop)\n" +
		"\n" +
		"App broken (failed: 5 crashes within 1m0s; revive with `bext workers restart --app broken`; host b.test)\n" +
		"\n" +
		"App main (cold; default app)\n"
	if b.String() != want {
		t.Fatalf("got\n%s\nwant\n%s", b.String(), want)
	}
}
