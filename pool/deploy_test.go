package pool

import (
	"context"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"bext/lifecycle"
)

func TestDeployRollsEveryWorkerOntoTheNewBundle(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		rec := &recorder{}
		p := newPool(t, factoryOf(t, okJS), Options{Policy: testPolicy(3), Observe: rec.observe})
		if err := p.WaitActive(context.Background(), 3); err != nil {
			t.Fatal(err)
		}
		v2 := factoryOf(t, `globalThis.render = () => "<p>v2</p>";`)
		if err := p.Deploy(context.Background(), v2, lifecycle.ReasonFileChange); err != nil {
			t.Fatal(err)
		}
		// Deploy returns only when every worker runs v2: no request may see v1.
		for i := range 30 {
			resp, _, err := get(p, "/", nil)
			if err != nil || resp.HTML != "<p>v2</p>" {
				t.Fatalf("request %d after Deploy: %v %v", i, resp, err)
			}
		}
		for _, st := range p.Snapshot() {
			if st.LastRotationReason != "file_change" || st.State != "ACTIVE" {
				t.Fatalf("worker %d: %+v", st.ID, st)
			}
		}
		for _, e := range rec.list() {
			if e.To == lifecycle.Draining && e.ActiveWorkers < 3 {
				t.Fatalf("capacity dropped to %d during deploy", e.ActiveWorkers)
			}
		}

		err := p.Deploy(context.Background(), factoryOf(t, throwsAtBootJS), lifecycle.ReasonFileChange)
		if err == nil || !strings.Contains(err.Error(), "broken bundle") {
			t.Fatalf("deploying a bundle that throws at load: %v, want its error", err)
		}
		synctest.Wait()
		if resp, _, err := get(p, "/", nil); err != nil || resp.HTML != "<p>v2</p>" {
			t.Fatalf("after a failed deploy the old workers must keep serving: %v %v", resp, err)
		}
	})
}

// A rotation whose replacement cannot boot leaves the old worker serving
// and retries after the backoff; once the bundle boots again it completes.
func TestRotationKeepsOldWorkerWhenReplacementFailsToBoot(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := newSwitchable(t)
		p := newPool(t, sw.factory, Options{Policy: testPolicy(1)})
		mustReady(t, p)
		sw.set(0, true)
		p.Restart(0, lifecycle.ReasonManual)
		time.Sleep(time.Second) // attempts at 0, 0 and 100 ms, then one at 400 ms
		synctest.Wait()
		st := p.Snapshot()[0]
		if st.State != "ACTIVE" || st.Generation != 1 || st.ConsecutiveFailures < 3 {
			t.Fatalf("after failed replacements: %+v, want generation 1 still ACTIVE and failures counted", st)
		}
		if _, _, err := get(p, "/", nil); err != nil {
			t.Fatalf("the old worker must keep serving: %v", err)
		}
		sw.set(0, false)
		time.Sleep(time.Minute)
		synctest.Wait()
		if st := p.Snapshot()[0]; st.State != "ACTIVE" || st.Generation < 2 || st.LastRotationReason != "manual" || st.ConsecutiveFailures != 0 {
			t.Fatalf("after the bundle boots again: %+v, want the rotation completed", st)
		}
	})
}
