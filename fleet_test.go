package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"bext/config"
	"bext/fleet"
	"bext/internal/app"
	"bext/internal/apptest"
	"bext/internal/loadgen"
	"bext/internal/testenv"
	"bext/pool"
)

// fleetServer counts its renders per isolate; /cached is cacheable by a
// shared cache for a minute; /slow takes 200 ms (a drain waits for it).
const fleetServer = `let n = 0;
globalThis.render = async (req) => {
	n++;
	if (req.path === "/slow") await new Promise((r) => setTimeout(r, 200));
	if (req.path === "/cached") return { headers: { "cache-control": "s-maxage=60" }, html: "<p>cached, render " + n + "</p>" };
	return "<p>" + req.path + ", render " + n + "</p>";
};`

// fleetApp writes the app with [fleet] on r (heartbeats every intervalMS,
// so a TTL of 3 × that) and the shared cache on. Tests that do not wait for
// an entry to expire take a long interval: on a loaded machine a heartbeat
// can be a few hundred milliseconds late, and a short TTL would then drop a
// live instance from the registry for a moment (and from a fleet roll).
func fleetApp(t *testing.T, r *testenv.RedisServer, intervalMS int) string {
	return apptest.WriteApp(t, fmt.Sprintf("[app]\nserver_entry = \"s.js\"\n[render]\njsc_workers = 2\n"+
		"[fleet]\nredis_url = %q\nheartbeat_interval_ms = %d\n[cache]\nredis = true\n", r.URL, intervalMS), map[string]string{"s.js": fleetServer})
}

// member starts an instance of the fleet in this process, named name.
func member(t *testing.T, path, name string, log *slog.Logger) *app.Instance {
	return apptest.Start(t, path, func(c *config.Config) { c.Fleet.Name = name }, app.Options{Log: log})
}

func fleetClient(t *testing.T, r *testenv.RedisServer) *fleet.Client {
	c, err := fleet.Open(fleet.Options{URL: r.URL, Timeout: 2 * time.Second, Log: apptest.QuietLog})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// waitListed polls the registry (20 s at most) until it lists exactly
// want, in order.
func waitListed(t *testing.T, c *fleet.Client, want ...string) []fleet.Instance {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	var got []string
	for {
		list, _ := c.List(context.Background())
		got = got[:0]
		for _, in := range list {
			got = append(got, in.Name)
		}
		if slices.Equal(got, want) {
			return list
		}
		if time.Now().After(deadline) {
			t.Fatalf("the registry lists %v, want %v", got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func cli(t *testing.T, args ...string) string {
	t.Helper()
	var out, errb bytes.Buffer
	if code := run(args, &out, &errb); code != 0 {
		t.Fatalf("bext %s: exit %d: %s", strings.Join(args, " "), code, errb.String())
	}
	return out.String()
}

// get fetches url with the Host header a load balancer would pass on to
// every instance alike (the cache key holds the host).
func get(t *testing.T, url string) (body, cacheStatus string) {
	t.Helper()
	req, _ := http.NewRequest(http.MethodGet, url, nil)
	req.Host = "shop.example"
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %d %s", url, resp.StatusCode, b)
	}
	return string(b), resp.Header.Get("Cache-Status")
}

// renders is how many requests an instance's workers rendered.
func renders(in *app.Instance) int64 {
	var n int64
	for _, w := range in.Pool().Snapshot() {
		n += w.RequestsServed
	}
	return n
}

// Three instances on one Redis: they register, show in `bext ps --fleet`,
// roll a fleet restart one instance at a time while serving a load with
// no failed request, share a cached page, and propagate a purge.
func TestFleetOfThree(t *testing.T) {
	r := testenv.Redis(t)
	path := fleetApp(t, r, 1000)
	insts := map[string]*app.Instance{}
	for _, n := range []string{"a", "b", "c"} {
		insts[n] = member(t, path, n, nil)
	}
	c := fleetClient(t, r)
	list := waitListed(t, c, "a", "b", "c")
	if in := list[1]; in.Addr != insts["b"].Addr() || in.AdminAddr != insts["b"].AdminAddr() || len(in.Apps) != 1 ||
		len(in.Apps[0].Workers) != 2 || len(in.Apps[0].Bundle) != 12 || in.Apps[0].Bundle != list[0].Apps[0].Bundle {
		t.Fatalf("entry of b: %+v", in)
	}

	// An instance serves once one worker is ACTIVE; its entry shows the
	// others' boot at the next heartbeat.
	waitUntil(t, "every worker to be ACTIVE in the registry", func() bool {
		list, _ := c.List(context.Background())
		n := 0
		for _, in := range list {
			for _, a := range in.Apps {
				for _, w := range a.Workers {
					if w.State == "ACTIVE" {
						n++
					}
				}
			}
		}
		return n == 6
	})
	out := cli(t, "ps", "--fleet", "-config", path)
	if !strings.HasPrefix(out, "Fleet (3 instances)\n") || strings.Count(out, "Workers (2/2 active)") != 3 {
		t.Fatalf("ps --fleet:\n%s", out)
	}
	for _, n := range []string{"a", "b", "c"} {
		if !strings.Contains(out, "Instance "+n+" — http://"+insts[n].Addr()) {
			t.Fatalf("ps --fleet does not show %s:\n%s", n, out)
		}
	}

	t.Run("roll under load", func(t *testing.T) {
		ctx, stop := context.WithCancel(context.Background())
		// Renders of 200 ms keep every worker busy: each instance's restart
		// waits for its drains, so an overlap with the next would show.
		loops := make([]loadgen.Do, 6)
		for i := range loops {
			do, err := loadgen.HTTPGet("http://"+insts[string(rune('a'+i%3))].Addr()+"/slow", 2)
			if err != nil {
				t.Fatal(err)
			}
			loops[i] = do
		}
		var st loadgen.Stats
		var wg sync.WaitGroup
		wg.Go(func() { st = loadgen.Load(ctx, func(i int) loadgen.Do { return loops[i] }, len(loops), time.Minute) })
		out := cli(t, "workers", "restart", "--fleet", "-config", path)
		stop()
		wg.Wait()
		if st.Errors > 0 || st.Requests == 0 {
			t.Fatalf("load during the roll: %d requests, %d failed (first: %v)", st.Requests, st.Errors, st.FirstErr)
		}
		if !strings.Contains(out, "fleet restart done: 3 instances") || strings.Index(out, "a: done") > strings.Index(out, "b: restarting") {
			t.Fatalf("workers restart --fleet:\n%s", out)
		}
		// One at a time: every transition of a's restart precedes every
		// one of b's, and b's precede c's.
		var prevEnd time.Time
		for _, n := range []string{"a", "b", "c"} {
			first, last := manualSpan(t, insts[n].Pool())
			if first.Before(prevEnd) {
				t.Fatalf("%s began restarting at %s, before the previous instance was done (%s)", n, first, prevEnd)
			}
			prevEnd = last
		}
		t.Logf("%d requests during the roll (p50 %s, p99 %s), none failed", st.Requests, st.P50, st.P99)
	})

	t.Run("shared page", func(t *testing.T) {
		a, b := insts["a"], insts["b"]
		body, st := get(t, "http://"+a.Addr()+"/cached")
		if !strings.HasPrefix(body, "<p>cached, render ") || st != "bext; fwd=miss; stored" {
			t.Fatalf("on a: %q %q", body, st)
		}
		waitUntil(t, "the page to reach Redis", func() bool {
			keys, _ := c.Redis().Keys(context.Background(), "bext:cache:*:e:*").Result()
			return len(keys) == 1
		})
		before := renders(b)
		bodyB, stB := get(t, "http://"+b.Addr()+"/cached")
		if bodyB != body || !strings.HasSuffix(stB, "detail=second-level") || renders(b) != before {
			t.Fatalf("on b: %q %q (a served %q), %d renders", bodyB, stB, body, renders(b)-before)
		}
		if _, st := get(t, "http://"+b.Addr()+"/cached"); !strings.HasPrefix(st, "bext; hit") {
			t.Fatalf("b's second request: %q", st)
		}

		// A purge on a reaches b's memory.
		resp, err := http.Post("http://"+a.AdminAddr()+"/__bext/cache/purge?path=/cached", "", nil)
		if err != nil || resp.StatusCode != 200 {
			t.Fatalf("purge: %v %v", err, resp)
		}
		resp.Body.Close()
		waitUntil(t, "b to drop the purged page", func() bool {
			_, st := get(t, "http://"+b.Addr()+"/cached")
			return st == "bext; fwd=miss; stored"
		})
	})
}

// manualSpan is the first and last transition of a manual restart in p.
func manualSpan(t *testing.T, p *pool.Pool) (first, last time.Time) {
	t.Helper()
	for id := range p.Size() {
		d, err := p.Worker(id)
		if err != nil {
			t.Fatal(err)
		}
		for _, tr := range d.History {
			if tr.Reason != "manual" {
				continue
			}
			if first.IsZero() || tr.At.Before(first) {
				first = tr.At
			}
			if tr.At.After(last) {
				last = tr.At
			}
		}
	}
	if first.IsZero() {
		t.Fatal("no manual restart in the history")
	}
	return first, last
}

// waitUntil polls ok (20 s at most).
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			t.Fatalf("waited 20 s for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// An instance killed with SIGKILL cannot deregister: its entry expires
// after the TTL (300 ms here) and the registry forgets it.
func TestFleetKilledInstanceDisappears(t *testing.T) {
	r := testenv.Redis(t)
	path := fleetApp(t, r, 100) // the child's entry expires 300 ms after its last heartbeat
	c := fleetClient(t, r)
	// The survivor heartbeats slowly, so that a late heartbeat of its own
	// cannot make it vanish while the test looks for exactly it.
	alive := apptest.Start(t, path, func(c *config.Config) {
		c.Fleet.Name, c.Fleet.HeartbeatIntervalMS, c.Fleet.TTLMS = "alive", 1000, 3000
	}, app.Options{})
	cmd, addr, _ := startBinary(t, path)
	_, port, _ := strings.Cut(addr, ":")
	var dead string
	waitUntil(t, "the child to register", func() bool {
		list, _ := c.List(context.Background())
		for _, in := range list {
			if strings.HasSuffix(in.Name, ":"+port) {
				dead = in.Name
			}
		}
		return dead != ""
	})
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	waitListed(t, c, "alive")
	if keys, _ := c.Redis().ZRange(context.Background(), "bext:fleet:instances", 0, -1).Result(); !slices.Equal(keys, []string{"alive"}) {
		t.Fatalf("index %v", keys)
	}
	alive.Stop()
	waitListed(t, c)
}

// Redis going away never stops serving: no request fails while it is down,
// an instance starts without it, each logs the outage once, and all
// register again when it returns.
func TestFleetSurvivesRedisOutage(t *testing.T) {
	r := testenv.Redis(t)
	path := fleetApp(t, r, 1000)
	logs := map[string]*testenv.Buffer{}
	insts := map[string]*app.Instance{}
	for _, n := range []string{"a", "b"} {
		logs[n] = &testenv.Buffer{}
		insts[n] = member(t, path, n, slog.New(slog.NewTextHandler(logs[n], nil)))
	}
	c := fleetClient(t, r)
	waitListed(t, c, "a", "b")

	ctx, stop := context.WithCancel(context.Background())
	var st loadgen.Stats
	var wg sync.WaitGroup
	var served atomic.Int64
	served.Store(-1 << 40) // counting starts at the outage
	wg.Go(func() {
		st = loadgen.Load(ctx, func(i int) loadgen.Do {
			do, _ := loadgen.HTTPGet("http://"+insts[string(rune('a'+i%2))].Addr()+[]string{"/cached", "/page"}[i/2%2], 2)
			return func(ctx context.Context) (int, error) {
				n, err := do(ctx)
				served.Add(1)
				return n, err
			}
		}, 4, time.Minute)
	})
	r.Stop()
	served.Store(0)
	waitUntil(t, "both instances to notice the outage", func() bool {
		return strings.Contains(logs["a"].String(), "Redis unreachable") && strings.Contains(logs["b"].String(), "Redis unreachable")
	})
	late := member(t, path, "c", nil) // starts while Redis is down
	if body, _ := get(t, "http://"+late.Addr()+"/page"); !strings.Contains(body, "render") {
		t.Fatalf("c while Redis is down: %q", body)
	}
	metrics := func(in *app.Instance) string {
		_, m := apptest.Get(t, "http://"+in.AdminAddr()+"/metrics")
		return m
	}
	if m := metrics(insts["a"]); !strings.Contains(m, "bext_fleet_connected 0") {
		t.Fatalf("metrics while Redis is down lack bext_fleet_connected 0")
	}
	waitUntil(t, "200 requests served without Redis", func() bool { return served.Load() >= 200 })
	r.Start()
	waitListed(t, c, "a", "b", "c")
	stop()
	wg.Wait()
	if st.Errors > 0 || st.Requests == 0 {
		t.Fatalf("load across the outage: %d requests, %d failed (first: %v)", st.Requests, st.Errors, st.FirstErr)
	}
	for n, l := range logs {
		if got := strings.Count(l.String(), "Redis unreachable"); got != 1 {
			t.Errorf("%s logged the outage %d times", n, got)
		}
		if !strings.Contains(l.String(), "Redis reachable again") {
			t.Errorf("%s did not log the recovery", n)
		}
	}
	m := metrics(insts["a"])
	if !strings.Contains(m, "bext_fleet_connected 1") || !strings.Contains(m, `bext_fleet_heartbeats_total{result="failed"}`) ||
		!strings.Contains(m, `bext_fleet_cache_gets_total{result="skipped"}`) {
		t.Fatalf("metrics after the outage:\n%s", m)
	}
	promtool := testenv.Tool(t, "promtool", "install Debian's prometheus package (apt-get install -y prometheus)")
	check := exec.Command(promtool, "check", "metrics")
	check.Stdin = strings.NewReader(m)
	if out, err := check.CombinedOutput(); err != nil || strings.TrimSpace(string(out)) != "" {
		t.Fatalf("promtool check metrics: %v\n%s", err, out)
	}
	t.Logf("%d requests across the outage (p50 %s, p99 %s), none failed", st.Requests, st.P50, st.P99)
}

// The fleet table: a summary line, then per instance a line (late ones
// marked) and the seed's worker table, per app with [[apps]].
func TestPrintFleet(t *testing.T) {
	start := time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)
	ws := []pool.WorkerStats{{ID: 0, State: "ACTIVE", RequestsServed: 1200, CurrentMemoryBytes: 3 << 20, UptimeSeconds: 600, AvgRenderTimeMS: 2.5}}
	list := []fleet.Instance{
		{Name: "web-1", Addr: "10.0.0.1:3000", AdminAddr: "127.0.0.1:3001", Version: "v1", StartedAt: start, HeartbeatAt: start.Add(time.Hour),
			HeartbeatAgeMS: 3000, IntervalMS: 10000, TTLMS: 30000, Apps: []fleet.App{{State: "running", Bundle: "3f2a1b9c0d4e", Workers: ws}}},
		{Name: "web-2", Addr: "10.0.0.2:3000", Version: "v1", StartedAt: start, HeartbeatAt: start.Add(time.Minute),
			HeartbeatAgeMS: 25000, IntervalMS: 10000, TTLMS: 30000, Late: true,
			Apps: []fleet.App{{Name: "shop", State: "running", Bundle: "aaaaaaaaaaaa", Workers: ws}, {Name: "blog", State: "cold"}}},
	}
	want := `Fleet (2 instances, 1 late)

Instance web-1 — http://10.0.0.1:3000 (admin 127.0.0.1:3001), version v1, bundle 3f2a1b9c0d4e, up 1h 0m, heartbeat 3s ago
Workers (1/1 active)
ID  State   Health  Requests  Memory  Uptime  Avg Render
0   ACTIVE  -       1,200     3 MB    10m 0s  2.5ms

Instance web-2 — http://10.0.0.2:3000, version v1, up 1m 25s, heartbeat 25s ago — LATE (expected every 10s; gone after 30s)
App shop (running; bundle aaaaaaaaaaaa)
Workers (1/1 active)
ID  State   Health  Requests  Memory  Uptime  Avg Render
0   ACTIVE  -       1,200     3 MB    10m 0s  2.5ms
App blog (cold; bundle -)
`
	var b bytes.Buffer
	printFleet(&b, list)
	if b.String() != want {
		t.Fatalf("got:\n%s\nwant:\n%s", b.String(), want)
	}
}

// --fleet needs a config with [fleet] redis_url, and says so.
func TestFleetFlagNeedsRedisURL(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"s.js\"\n", map[string]string{"s.js": "globalThis.render=()=>''"})
	for _, args := range [][]string{{"ps", "--fleet", "-config", path}, {"workers", "restart", "--fleet", "-config", path}} {
		var out, errb bytes.Buffer
		if code := run(args, &out, &errb); code != 1 || !strings.Contains(errb.String(), "no [fleet] redis_url") {
			t.Errorf("bext %s: exit %d, %q", strings.Join(args, " "), code, errb.String())
		}
	}
}
