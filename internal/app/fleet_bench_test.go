//go:build unix

package app_test

// BenchmarkFleet: what joining a fleet costs a request, and how much an
// instance asks of Redis. Run it once (phases are wall time, -bext.phase):
//
//	go test -run '^$' -bench Fleet -benchtime 1x -v ./internal/app
//
// For each kind of request, one instance without [fleet] (off) and one with
// [fleet] and [cache] redis = true on a local redis-server (on) serve it
// over HTTP, in turns (off, on, on, off), with 1 connection (the latency a
// request gains, without queueing) and with 4, and the p50/p99 latencies
// and the Redis commands the on instance caused are reported:
//
//	render         an uncacheable page, the same URL (hit-for-miss: no Redis)
//	render-unique  an uncacheable page, a new URL each time (lookup + lock per request)
//	hit            a cacheable page, the same URL (memory hits)
//	miss-unique    a cacheable page, a new URL each time (lookup, lock, store)
//
// and the Redis commands per second of an idle instance (default
// heartbeat interval).

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"bext/config"
	"bext/internal/app"
	"bext/internal/apptest"
	"bext/internal/loadgen"
	"bext/internal/testenv"
)

const fleetBenchServer = `globalThis.render = (req) => {
	const items = [];
	for (let i = 0; i < 50; i++) items.push("<li>item " + i + "</li>");
	const html = "<!doctype html><ul>" + items.join("") + "</ul>";
	return req.path === "/cached" ? { headers: { "cache-control": "s-maxage=600" }, html } : html;
};`

func BenchmarkFleet(b *testing.B) {
	r := testenv.Redis(b)
	path := apptest.WriteApp(b, "[app]\nserver_entry = \"s.js\"\n[render]\njsc_workers = 2\n", map[string]string{"s.js": fleetBenchServer})
	off := apptest.Start(b, path, nil, app.Options{})
	on := apptest.Start(b, path, func(c *config.Config) {
		c.Fleet.RedisURL, c.Fleet.Name, c.Cache.Redis = r.URL, "on", true
	}, app.Options{})
	rdb := redis.NewClient(&redis.Options{Addr: r.Addr, Protocol: 2, DisableIdentity: true})
	defer rdb.Close()
	commands := func() int64 {
		info, err := rdb.Info(context.Background(), "stats").Result()
		if err != nil {
			b.Fatal(err)
		}
		for _, l := range strings.Split(info, "\r\n") {
			if v, ok := strings.CutPrefix(l, "total_commands_processed:"); ok {
				n, _ := strconv.ParseInt(v, 10, 64)
				return n - 1 // this INFO
			}
		}
		b.Fatal("no total_commands_processed")
		return 0
	}

	for range b.N {
		for _, conns := range []int{1, 4} {
			fleetBenchRound(b, off, on, conns, commands)
		}
		idle := max(*benchPhase, 20*time.Second)
		before := commands()
		time.Sleep(idle) // the measurement: an idle instance for a while
		b.Logf("idle: %.2f Redis commands/s (heartbeat every %s)", float64(commands()-before)/idle.Seconds(),
			time.Duration(on.Config().Fleet.HeartbeatIntervalMS)*time.Millisecond)
	}
}

// fleetBenchRound measures every kind of request with conns connections.
func fleetBenchRound(b *testing.B, off, on *app.Instance, conns int, commands func() int64) {
	b.Logf("%d connection(s):", conns)
	b.Logf("%-14s %10s %10s %10s %10s %10s %10s %11s %9s", "request", "off req/s", "on req/s", "off p50", "on p50", "off p99", "on p99", "Redis cmd/s", "cmd/req")
	for _, kind := range []string{"render", "render-unique", "hit", "miss-unique"} {
		var offSt, onSt loadgen.Stats
		var cmds int64
		var onTime time.Duration
		for _, target := range []*app.Instance{off, on} { // warm-up: connections, isolates, the page cache
			loadgen.Load(context.Background(), loadgen.Same(fleetBenchDo(target.Addr(), kind)), conns, *benchPhase/4)
		}
		for _, target := range []*app.Instance{off, on, on, off} {
			do := fleetBenchDo(target.Addr(), kind)
			before := commands()
			st := loadgen.Load(context.Background(), loadgen.Same(do), conns, *benchPhase)
			if st.Errors > 0 {
				b.Fatalf("%s: %d errors: %v", kind, st.Errors, st.FirstErr)
			}
			if target == on {
				cmds += commands() - before
				onTime += st.Elapsed
				onSt = onSt.Add(st)
			} else {
				offSt = offSt.Add(st)
			}
		}
		b.Logf("%-14s %10.0f %10.0f %10s %10s %10s %10s %11.0f %9.2f", kind, offSt.PerSecond(), onSt.PerSecond(),
			offSt.P50.Round(time.Microsecond), onSt.P50.Round(time.Microsecond), offSt.P99.Round(time.Microsecond), onSt.P99.Round(time.Microsecond),
			float64(cmds)/onTime.Seconds(), float64(cmds)/float64(onSt.Requests))
	}
}

// fleetBenchDo GETs the page of kind from addr, with a Host a load
// balancer would send, over keep-alive connections.
func fleetBenchDo(addr, kind string) loadgen.Do {
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 8, DisableCompression: true}}
	var n atomic.Int64
	return func(ctx context.Context) (int, error) {
		path := map[string]string{"render": "/page", "render-unique": "/page?i=", "hit": "/cached", "miss-unique": "/cached?i="}[kind]
		if strings.HasSuffix(path, "=") {
			path += strconv.FormatInt(n.Add(1), 10) + "-" + addr
		}
		req, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://"+addr+path, nil)
		req.Host = "shop.example"
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		nb, err := io.Copy(io.Discard, resp.Body)
		if resp.StatusCode != 200 {
			return 0, fmt.Errorf("GET %s: %d", path, resp.StatusCode)
		}
		return int(nb), err
	}
}
