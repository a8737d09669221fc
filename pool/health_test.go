package pool

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"bext/lifecycle"
)

// poisonJS: /poison corrupts the module state of the isolate it lands on;
// from then on that isolate throws on every render, its peers are fine.
// Every render waits 5 ms (fake time), so concurrent requests land on
// distinct workers.
const poisonJS = `let poisoned = false;
globalThis.render = async (req) => {
	await new Promise(r => setTimeout(r, 5));
	if (req.path === "/poison") { poisoned = true; return "poisoned"; }
	if (req.path === "/fail") throw new Error("the backend is down");
	if (poisoned) throw new Error("corrupted module state");
	return "<p>ok</p>";
};`

// rounds sends n rounds of one request per worker, concurrently, and
// returns how many failed.
func rounds(p *Pool, n int, path string) (failed int64) {
	var f atomic.Int64
	for range n {
		var wg sync.WaitGroup
		for range p.Size() {
			wg.Go(func() {
				if _, _, err := get(p, path, nil); err != nil {
					f.Add(1)
				}
			})
		}
		wg.Wait()
	}
	return f.Load()
}

func transitionsTo(d WorkerDetail, to string) []TransitionInfo {
	var out []TransitionInfo
	for _, t := range d.History {
		if t.To == to {
			out = append(out, t)
		}
	}
	return out
}

func TestPoisonedWorkerIsDegradedAndReplaced(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		p := newPool(t, factoryOf(t, poisonJS), Options{Policy: testPolicy(4), Observe: rec.observe})
		if err := p.WaitActive(context.Background(), 4); err != nil {
			t.Fatal(err)
		}
		_, res, err := get(p, "/poison", nil)
		if err != nil {
			t.Fatal(err)
		}
		bad := res.Worker
		failed := rounds(p, 40, "/")
		synctest.Wait()

		// Five failures in a row with its peers at 0% take it out of
		// service; the round in flight may add one.
		if failed < 5 || failed > 6 {
			t.Errorf("%d requests failed; want the poisoned worker's 5 (+1 in flight) and no more", failed)
		}
		if n := rounds(p, 20, "/"); n != 0 {
			t.Errorf("%d requests failed after the replacement", n)
		}
		d, _ := p.Worker(bad)
		deg := transitionsTo(d, "DEGRADED")
		if len(deg) != 1 || deg[0].Reason != "unhealthy" || !strings.HasPrefix(deg[0].Detail, "5 failed renders in a row (peers 0%") {
			t.Fatalf("worker %d history %+v: want one ACTIVE→DEGRADED, reason unhealthy, naming the failures", bad, d.History)
		}
		if dr := transitionsTo(d, "DRAINING"); len(dr) != 1 || dr[0].From != "DEGRADED" || dr[0].Reason != "unhealthy" || dr[0].Detail != deg[0].Detail {
			t.Fatalf("worker %d drains: %+v; want DEGRADED→DRAINING unhealthy with the same detail", bad, dr)
		}
		if d.Generation != 2 || d.LastRotationReason != "unhealthy" || d.State != "ACTIVE" || d.Health != "healthy" {
			t.Fatalf("worker %d after: %+v; want generation 2, ACTIVE, healthy, rotated as unhealthy", bad, d.WorkerStats)
		}
		for _, st := range p.Snapshot() {
			if st.ID != bad && st.Generation != 1 {
				t.Errorf("peer %d was replaced too: %+v", st.ID, st)
			}
		}
		// The replacement booted surge-first: the degraded worker drained
		// only once its replacement was ACTIVE.
		for _, e := range rec.list() {
			if e.Worker == bad && e.To == lifecycle.Draining && e.ActiveWorkers < 4 {
				t.Errorf("degraded worker drained with %d ACTIVE workers, want 4", e.ActiveWorkers)
			}
		}
	})
}

func TestSharedFailureDegradesNobody(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		p := newPool(t, factoryOf(t, poisonJS), Options{Policy: testPolicy(4)})
		if err := p.WaitActive(context.Background(), 4); err != nil {
			t.Fatal(err)
		}
		if n := rounds(p, 30, "/fail"); n != 120 {
			t.Fatalf("%d of 120 failed, want all", n)
		}
		// A mix: the failure is everyone's, at 50%.
		for range 10 {
			rounds(p, 1, "/fail")
			rounds(p, 1, "/")
		}
		synctest.Wait()
		for _, st := range p.Snapshot() {
			d, _ := p.Worker(st.ID)
			if st.Generation != 1 || len(transitionsTo(d, "DEGRADED")) != 0 {
				t.Errorf("worker %d degraded or replaced by a failure every worker shares: %+v", st.ID, d.History)
			}
		}
	})
}

// tagged lets a test's health check know which slot an isolate is in.
type tagged struct {
	Isolate
	id int
}

func TestHealthChecks(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var mu sync.Mutex
		sick := map[int]bool{}
		setSick := func(ids ...int) {
			mu.Lock()
			defer mu.Unlock()
			clear(sick)
			for _, id := range ids {
				sick[id] = true
			}
		}
		var checks atomic.Int64
		f := factoryOf(t, okJS)
		const every = time.Second
		o := Options{Policy: testPolicy(4), HealthInterval: every,
			HealthCheck: func(ctx context.Context, iso Isolate) error {
				checks.Add(1)
				mu.Lock()
				defer mu.Unlock()
				if sick[iso.(*tagged).id] {
					return errors.New("backend unreachable")
				}
				return nil
			}}
		p := newPool(t, func(id int) (Isolate, error) {
			iso, err := f(id)
			return &tagged{iso, id}, err
		}, o)
		if err := p.WaitActive(context.Background(), 4); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		for _, st := range p.Snapshot() {
			if st.Health != "unknown" {
				t.Fatalf("worker %d is %q before any render or check, want unknown", st.ID, st.Health)
			}
		}
		time.Sleep(every + time.Millisecond)
		synctest.Wait()
		if n := checks.Load(); n != 4 {
			t.Fatalf("%d checks after one interval, want one per worker", n)
		}
		health := func(id int) WorkerStats { return p.Snapshot()[id] }
		if h := health(2); h.Health != "healthy" {
			t.Fatalf("after a passing check: %q", h.Health)
		}

		// Two failures: unhealthy, still serving. A pass resets the count.
		setSick(2)
		time.Sleep(2 * every)
		synctest.Wait()
		if h := health(2); h.Health != "unhealthy" || h.State != "ACTIVE" || h.Generation != 1 {
			t.Fatalf("after 2 failed checks: %+v; want unhealthy, ACTIVE, generation 1", h)
		}
		setSick()
		time.Sleep(every)
		synctest.Wait()
		if h := health(2); h.Health != "healthy" {
			t.Fatalf("a passing check did not make it healthy: %+v", h)
		}
		setSick(2)
		time.Sleep(2 * every)
		synctest.Wait()
		if h := health(2); h.Generation != 1 || h.State != "ACTIVE" {
			t.Fatalf("degraded after 2 failures following a pass (the count must restart): %+v", h)
		}
		time.Sleep(every) // the third in a row
		synctest.Wait()
		setSick()
		synctest.Wait()
		h, _ := p.Worker(2)
		deg := transitionsTo(h, "DEGRADED")
		if h.Generation != 2 || len(deg) != 1 || deg[0].Detail != "health check failed 3 times in a row: backend unreachable" {
			t.Fatalf("after 3 failed checks: generation %d, history %+v; want DEGRADED (with the check's result) and replaced", h.Generation, h.History)
		}
		if h.LastRotationReason != "unhealthy" {
			t.Fatalf("rotation reason %q, want unhealthy", h.LastRotationReason)
		}

		// Every worker failing its check (a backend down for all): nobody
		// is degraded, however long it lasts.
		setSick(0, 1, 2, 3)
		time.Sleep(10 * every)
		synctest.Wait()
		for _, st := range p.Snapshot() {
			want := 1
			if st.ID == 2 {
				want = 2
			}
			if st.Generation != want || st.Health != "unhealthy" {
				t.Errorf("worker %d with every check failing: %+v; want unhealthy, not replaced", st.ID, st)
			}
		}
	})
}

// Each rotation records the figure that triggered it, in the history, the
// JSON and the rotating column.
func TestRotationDetails(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := testPolicy(1)
		pol.MaxRequests = 3
		p := newPool(t, factoryOf(t, okJS), Options{Policy: pol})
		mustReady(t, p)
		for range 3 {
			mustGet(t, p, "/")
		}
		synctest.Wait()
		d, _ := p.Worker(0)
		if dr := transitionsTo(d, "DRAINING"); len(dr) != 1 || dr[0].Reason != "max_requests" || dr[0].Detail != "requests 3 ≥ 3" {
			t.Fatalf("max_requests drain: %+v", dr)
		}
	})
	synctest.Test(t, func(t *testing.T) {
		pol := testPolicy(1)
		pol.MaxUptime = time.Hour
		p := newPool(t, factoryOf(t, okJS), Options{Policy: pol})
		mustReady(t, p)
		time.Sleep(time.Hour + time.Second)
		synctest.Wait()
		d, _ := p.Worker(0)
		if dr := transitionsTo(d, "DRAINING"); len(dr) != 1 || dr[0].Reason != "max_uptime" || dr[0].Detail != "uptime 1h0m0s ≥ 1h0m0s" {
			t.Fatalf("max_uptime drain: %+v", dr)
		}
	})
	if s := fmt.Sprint(megabytes(31<<20 + 400<<10)); s != "31.4 MB" {
		t.Errorf("megabytes: %s", s)
	}
}
