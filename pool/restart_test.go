package pool

import (
	"context"
	"fmt"
	"testing"
	"testing/synctest"
	"time"

	"bext/lifecycle"
)

// No rotation is ever lost: a restart or deploy asked for while a slot boots,
// fails or waits behind a drain is honoured once that state settles.

const v2JS = `globalThis.render = () => "<p>v2</p>";`

// A slot still booting the old bundle when Deploy swaps the factory comes up
// on the old bundle; Deploy must rotate it too and return only once every
// slot runs the new one.
func TestDeployWhileASlotBootsTheOldBundle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		g.hold(2)
		p := newPool(t, g.wrap(factoryOf(t, okJS)), Options{Policy: testPolicy(3)})
		if err := p.WaitActive(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if s := curState(p, 2); s != lifecycle.Booting {
			t.Fatalf("slot 2 is %v, want BOOTING (held)", s)
		}
		v2 := factoryOf(t, v2JS)
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		done := make(chan error, 1)
		go func() { done <- p.Deploy(ctx, v2, lifecycle.ReasonFileChange) }()
		synctest.Wait()
		select {
		case err := <-done:
			t.Fatalf("Deploy returned (%v) while slot 2 was still booting the old bundle", err)
		default:
		}
		g.release(2) // slot 2 comes up on the old bundle
		if err := <-done; err != nil {
			t.Fatalf("Deploy: %v; want it to return once slot 2 runs the new bundle too (versions %v)", err, versions(p))
		}
		if v := fmt.Sprint(versions(p)); v != "[2 2 2]" {
			t.Fatalf("after Deploy every slot must run version 2, got %s", v)
		}
		for i := range 30 {
			if resp, _, err := get(p, "/", nil); err != nil || resp.HTML != "<p>v2</p>" {
				t.Fatalf("request %d after Deploy: %v %v; no worker may serve the old bundle", i, resp, err)
			}
		}
	})
}

// SIGHUP (Restart(-1)) before every worker is ACTIVE restarts every worker,
// the booting one included.
func TestRestartAllWhileOneSlotBoots(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		g.hold(1)
		drains := &oneDrain{}
		p := newPool(t, g.wrap(factoryOf(t, okJS)), Options{Policy: testPolicy(3), Observe: drains.observe})
		if err := p.WaitActive(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		ids, err := p.Restart(-1, lifecycle.ReasonManual)
		if err != nil || fmt.Sprint(ids) != "[0 1 2]" {
			t.Fatalf("Restart(-1): %v %v", ids, err)
		}
		synctest.Wait()
		g.release(1)
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		err = p.WaitFor(ctx, func(ws []WorkerStats) bool {
			for _, st := range ws {
				if st.State != "ACTIVE" || st.Generation != 2 || st.LastRotationReason != "manual" {
					return false
				}
			}
			return true
		})
		if err != nil {
			t.Fatalf("every worker must be restarted once, the one booting at SIGHUP too: %v\n%+v", err, p.Snapshot())
		}
		drains.check(t)
	})
}

// A restart asked for while a slot fails to boot makes it boot again now,
// not after its backoff, and the boot is recorded with the restart's reason.
func TestRestartWhileABootFailsBootsNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		sw := newSwitchable(t)
		sw.bad = g.wrap(sw.bad) // a held failing boot hangs in BOOTING
		sw.set(0, true)
		pol := testPolicy(1)
		pol.Recovery.MaxConsecutiveFailures = 0
		pol.Recovery.BackoffInitial, pol.Recovery.BackoffMax = time.Minute, time.Hour
		rec := &recorder{}
		p := newPool(t, sw.factory, Options{Policy: pol, Observe: rec.observe})
		synctest.Wait() // attempt 1 failed, attempt 2 (immediate) failed: waiting 1 min
		if st := p.Snapshot()[0]; st.State != "FAILED" || st.ConsecutiveFailures != 2 {
			t.Fatalf("before the restart: %+v, want FAILED waiting out its backoff", st)
		}

		// 1. FAILED, waiting: a restart for any reason boots it now.
		mark, start := len(rec.list()), time.Now()
		if _, err := p.Restart(0, lifecycle.ReasonFileChange); err != nil {
			t.Fatal(err)
		}
		synctest.Wait() // boots (fails again) at once, then waits 1 min
		if got := bootedFor(rec.list()[mark:], lifecycle.ReasonFileChange); fmt.Sprint(got) != "[0]" || time.Since(start) != 0 {
			t.Fatalf("restart while FAILED: slots booted for file_change %v after %v; want slot 0 at once", got, time.Since(start))
		}

		// 2. A restart that arrives while an attempt boots, and that attempt
		// then fails: the slot boots again now, on the fixed bundle.
		g.hold(0)
		time.Sleep(time.Minute) // the backoff elapses; attempt 4 hangs in BOOTING
		synctest.Wait()
		if s := curState(p, 0); s != lifecycle.Booting {
			t.Fatalf("slot 0 is %v, want BOOTING (held)", s)
		}
		mark = len(rec.list())
		if _, err := p.Restart(0, lifecycle.ReasonManual); err != nil {
			t.Fatal(err)
		}
		sw.set(0, false)
		synctest.Wait()
		g.release(0) // attempt 4 fails; the next backoff would be 3 min
		start = time.Now()
		synctest.Wait()
		st := p.Snapshot()[0]
		if st.State != "ACTIVE" || time.Since(start) != 0 {
			t.Fatalf("after the held attempt failed: %+v at +%v; want the pending restart to boot it now", st, time.Since(start))
		}
		if got := bootedFor(rec.list()[mark:], lifecycle.ReasonManual); fmt.Sprint(got) != "[0]" {
			t.Fatalf("slots booted for the manual restart: %v, want [0]", got)
		}
	})
}

// drainJS: /slow?ms=N answers after N ms (timers: fake time); /deep
// overflows the stack, a request-induced crash that replaces the isolate.
const drainJS = `globalThis.render = (req) => {
	if (req.path === "/deep") { const f = (n) => f(n + 1) + 1; return String(f(0)); }
	if (req.path === "/slow") return new Promise(r => setTimeout(() => r("<p>slow</p>"), Number(req.query.ms)));
	return "<p>ok</p>";
};`

// A restart asked for while another worker drains waits its turn and is
// honoured after the drain, even if the slot is rebooting (after a crash)
// when its turn comes.
func TestRestartDuringADrainOfARebootingSlot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		drains := &oneDrain{}
		pol := testPolicy(2)
		pol.DrainTimeout = time.Minute
		p := newPool(t, g.wrap(factoryOf(t, drainJS)), Options{Policy: pol, Observe: drains.observe})
		if err := p.WaitActive(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
		slow := make(chan error, 1)
		go func() {
			_, _, err := get(p, "/slow", map[string]string{"ms": "1000"})
			slow <- err
		}()
		synctest.Wait()
		busy := 0
		if p.Snapshot()[1].InFlight == 1 {
			busy = 1
		}
		if _, err := p.Restart(busy, lifecycle.ReasonManual); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if st := p.Snapshot()[busy]; st.State != "DRAINING" {
			t.Fatalf("slot %d: %+v, want its old worker DRAINING the slow render", busy, st)
		}

		// While it drains, a worker crashes and its replacement hangs in
		// BOOTING; then a restart of that slot is asked for.
		g.hold(0)
		g.hold(1)
		_, res, err := get(p, "/deep", nil)
		if err == nil {
			t.Fatal("/deep: want a stack overflow")
		}
		crashed := res.Worker
		synctest.Wait()
		if s := curState(p, crashed); s != lifecycle.Booting {
			t.Fatalf("slot %d after the crash: %v, want its replacement BOOTING (held)", crashed, s)
		}
		before := p.Snapshot()[crashed].restartsBy[lifecycle.ReasonManual]
		if ids, err := p.Restart(crashed, lifecycle.ReasonManual); err != nil || fmt.Sprint(ids) != fmt.Sprint([]int{crashed}) {
			t.Fatalf("Restart(%d): %v %v", crashed, ids, err)
		}

		time.Sleep(time.Second) // the slow render completes: the drain ends
		if err := <-slow; err != nil {
			t.Fatalf("the draining worker's render: %v", err)
		}
		synctest.Wait()
		g.release(0)
		g.release(1)
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		err = p.WaitFor(ctx, func(ws []WorkerStats) bool {
			st := ws[crashed]
			return st.State == "ACTIVE" && st.LastRotationReason == "manual" && st.restartsBy[lifecycle.ReasonManual] == before+1
		})
		if err != nil {
			t.Fatalf("the restart of slot %d asked for during the drain was lost: %v\n%+v", crashed, err, p.Snapshot()[crashed])
		}
		drains.check(t)
	})
}

// Restart returns exactly the slots it restarts, whatever state each is in:
// ACTIVE (rotated), BOOTING (rotated once ACTIVE), FAILED (booted now).
func TestRestartReportsTheSlotsItRestarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := newGate()
		g.hold(1)
		sw := newSwitchable(t)
		sw.set(2, true)
		pol := testPolicy(3)
		pol.Recovery.BackoffInitial = time.Minute
		rec := &recorder{}
		p := newPool(t, g.wrap(sw.factory), Options{Policy: pol, Observe: rec.observe})
		synctest.Wait()
		if st := p.Snapshot(); st[0].State != "ACTIVE" || st[1].State != "BOOTING" || st[2].State != "FAILED" {
			t.Fatalf("states %s %s %s, want ACTIVE BOOTING FAILED", st[0].State, st[1].State, st[2].State)
		}
		sw.set(2, false)

		mark := len(rec.list())
		ids, err := p.Restart(-1, lifecycle.ReasonManual)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		g.release(1)
		synctest.Wait()
		if got := bootedFor(rec.list()[mark:], lifecycle.ReasonManual); fmt.Sprint(got) != fmt.Sprint(ids) {
			t.Fatalf("Restart(-1) reported %v, restarted %v", ids, got)
		}
		for _, st := range p.Snapshot() {
			if st.State != "ACTIVE" {
				t.Fatalf("worker %d after Restart(-1): %+v", st.ID, st)
			}
		}

		mark = len(rec.list())
		ids, err = p.Restart(1, lifecycle.ReasonManual)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if got := bootedFor(rec.list()[mark:], lifecycle.ReasonManual); fmt.Sprint(got) != fmt.Sprint(ids) || fmt.Sprint(ids) != "[1]" {
			t.Fatalf("Restart(1) reported %v, restarted %v", ids, got)
		}
	})
}

// A restart queued onto a threshold request of a worker that has since
// crashed must not inherit its staleness: the merged request is for whichever
// worker serves. Two threshold requests keep the newer worker's.
func TestQueuedRequestsMergeWithoutGoingStale(t *testing.T) {
	cases := []struct {
		name        string
		first, then int // generations; 0 = whichever serves
		want        int
	}{
		{"restart onto a threshold request", 3, 0, 0},
		{"threshold onto a restart", 0, 4, 0},
		{"newer worker's threshold", 3, 4, 4},
		{"older worker's threshold", 4, 3, 4},
	}
	for _, c := range cases {
		var r rotations
		r.init()
		r.push(1, lifecycle.ReasonMaxRequests, c.first)
		r.push(1, lifecycle.ReasonManual, c.then)
		if r.q.Len() != 1 || r.gen[1] != c.want {
			t.Errorf("%s: %d queued for generation %d, want 1 for %d", c.name, r.q.Len(), r.gen[1], c.want)
		}
	}
}
