package pool

import (
	"context"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"bext/lifecycle"
)

// gated is a factory whose boots wait until the test opens the gate, so a
// test can hold a slot in BOOTING.
type gated struct {
	f    Factory
	mu   sync.Mutex
	gate chan struct{} // nil = boots pass
}

func (g *gated) hold() {
	g.mu.Lock()
	g.gate = make(chan struct{})
	g.mu.Unlock()
}

func (g *gated) open() {
	g.mu.Lock()
	if g.gate != nil {
		close(g.gate)
		g.gate = nil
	}
	g.mu.Unlock()
}

func (g *gated) factory(id int) (Isolate, error) {
	g.mu.Lock()
	gate := g.gate
	g.mu.Unlock()
	if gate != nil {
		<-gate
	}
	return g.f(id)
}

func body(t *testing.T, p *Pool) string {
	t.Helper()
	resp, _, err := get(p, "/", nil)
	if err != nil {
		t.Fatal(err)
	}
	return resp.HTML
}

// A Deploy while a slot still boots from the old factory: that worker is
// rotated once ACTIVE, Deploy returns when every slot runs the new bundle,
// and no request sees the old one afterwards.
func TestDeployWhileASlotBootsFromTheOldFactory(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gated{f: factoryOf(t, okJS)}
		g.hold()
		p := newPool(t, g.factory, Options{Policy: testPolicy(2)})
		synctest.Wait() // both slots BOOTING from v1, blocked
		v2 := factoryOf(t, `globalThis.render = () => "<p>v2</p>";`)
		done := make(chan error, 1)
		go func() {
			// Deploy's check boots v2 through v2 itself, not the gate.
			done <- p.Deploy(context.Background(), v2, lifecycle.ReasonFileChange)
		}()
		synctest.Wait()
		g.open() // the v1 boot finishes now, after the deploy
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(time.Hour):
			t.Fatal("Deploy never saw every slot on the new bundle")
		}
		for i := range 20 {
			if got := body(t, p); got != "<p>v2</p>" {
				t.Fatalf("request %d after Deploy: %q", i, got)
			}
		}
	})
}

// A restart of every worker issued before they are all ACTIVE restarts
// every one of them (SIGHUP right after start).
func TestRestartAllBeforeEveryWorkerIsActive(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		g := &gated{f: factoryOf(t, okJS)}
		g.hold()
		p := newPool(t, g.factory, Options{Policy: testPolicy(3)})
		synctest.Wait() // every slot BOOTING
		ids, err := p.Restart(-1, lifecycle.ReasonManual)
		if err != nil || !slices.Equal(ids, []int{0, 1, 2}) {
			t.Fatalf("Restart = %v %v", ids, err)
		}
		g.open()
		ctx, cancel := context.WithTimeout(context.Background(), time.Hour)
		defer cancel()
		if err := p.WaitFor(ctx, func(ws []WorkerStats) bool {
			for _, w := range ws {
				if w.Restarts != 1 || w.LastRotationReason != "manual" || w.State != "ACTIVE" {
					return false
				}
			}
			return true
		}); err != nil {
			t.Fatalf("not every worker restarted: %+v", p.Snapshot())
		}
	})
}

// A restart of a slot waiting out its backoff boots it at once.
func TestRestartDuringBackoffBootsNow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := newSwitchable(t)
		sw.set(0, true)
		pol := testPolicy(1)
		pol.Recovery.BackoffInitial, pol.Recovery.BackoffMax = time.Hour, time.Hour
		p := newPool(t, sw.factory, Options{Policy: pol})
		time.Sleep(time.Second) // attempt 1 and the immediate retry failed; now an hour's backoff
		synctest.Wait()
		if st := p.Snapshot()[0]; st.State != "FAILED" {
			t.Fatalf("slot 0 %+v, want FAILED in backoff", st)
		}
		sw.set(0, false)
		if ids, _ := p.Restart(0, lifecycle.ReasonFileChange); !slices.Equal(ids, []int{0}) {
			t.Fatalf("Restart scheduled %v", ids)
		}
		synctest.Wait()
		if st := p.Snapshot()[0]; st.State != "ACTIVE" {
			t.Fatalf("after a restart during the backoff: %+v, want ACTIVE without waiting the hour", st)
		}
	})
}

// A restart of a slot while another slot drains is honoured after that
// drain, one worker draining at a time.
func TestRestartDuringADrainIsHonouredAfter(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		p := newPool(t, factoryOf(t, slowJS), Options{Policy: testPolicy(2), Observe: rec.observe, QueueTimeout: time.Hour, RenderTimeout: time.Hour})
		if err := p.WaitActive(context.Background(), 2); err != nil {
			t.Fatal(err)
		}
		go get(p, "/", map[string]string{"ms": "60000"}) // keeps its worker busy a minute
		synctest.Wait()
		busy := -1
		for _, w := range p.Snapshot() {
			if w.InFlight > 0 {
				busy = w.ID
			}
		}
		p.Restart(busy, lifecycle.ReasonManual) // drains for a minute
		synctest.Wait()
		other := 1 - busy
		p.Restart(other, lifecycle.ReasonManual)
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		for _, w := range p.Snapshot() {
			if w.Restarts != 1 || w.State != "ACTIVE" {
				t.Fatalf("worker %d: %+v, want restarted once", w.ID, w)
			}
		}
		draining := 0
		for _, e := range rec.list() {
			switch {
			case e.To == lifecycle.Draining:
				draining++
			case e.From == lifecycle.Draining:
				draining--
			}
			if draining > 1 {
				t.Fatal("two workers drained at once")
			}
		}
	})
}
