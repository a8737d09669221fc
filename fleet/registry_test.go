package fleet

import (
	"bext/internal/testenv"
	"context"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"

	"github.com/prometheus/client_golang/prometheus/testutil"
)

// An instance registers at once, refreshes its entry (and its worker
// snapshot) at every heartbeat, is marked late when its heartbeats stop
// and disappears when its TTL runs out; the index follows.
func TestHeartbeatRegistryAndExpiry(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		f := &fakeInstance{}
		a, l := startAgent(t, m, "web-1", f)
		synctest.Wait()
		list, err := ctl.List(context.Background())
		if err != nil || len(list) != 1 {
			t.Fatalf("list %v, %v", list, err)
		}
		in := list[0]
		if in.Name != "web-1" || in.Addr != "127.0.0.1:3000" || in.AdminAddr != "127.0.0.1:3001" || in.Version != "test" ||
			len(in.Apps) != 1 || in.Apps[0].Bundle != "abc123" || in.Late || in.IntervalMS != 10000 || in.TTLMS != 30000 {
			t.Fatalf("entry %+v", in)
		}
		time.Sleep(15 * time.Second) // one more heartbeat, 5 s ago
		synctest.Wait()
		list, _ = ctl.List(context.Background())
		if a.m.beatsOK.Load() != 2 || list[0].HeartbeatAgeMS != 5000 || list[0].Late {
			t.Fatalf("%d heartbeats; entry %+v", a.m.beatsOK.Load(), list[0])
		}

		l.cut() // the instance goes silent
		time.Sleep(10 * time.Second)
		synctest.Wait()
		list, _ = ctl.List(context.Background())
		if len(list) != 1 || list[0].Late || list[0].HeartbeatAgeMS != 15000 {
			t.Fatalf("after 15 s of silence: %+v, want it listed and not late yet (late is 2 × the interval)", list)
		}
		time.Sleep(10 * time.Second)
		list, _ = ctl.List(context.Background())
		if len(list) != 1 || !list[0].Late {
			t.Fatalf("after 25 s of silence: %+v, want it listed and late", list)
		}
		time.Sleep(6 * time.Second) // past the 30 s TTL
		list, _ = ctl.List(context.Background())
		if len(list) != 0 {
			t.Fatalf("after the TTL: %+v", list)
		}
		if ms, _ := m.ZMembers(indexKey); len(ms) != 0 {
			t.Fatalf("index still holds %v", ms)
		}
		if got := value(t, a, descConnected); got != 0 {
			t.Fatalf("bext_fleet_connected %v while cut off", got)
		}

		l.mend() // it comes back: registered again within seconds
		back := time.Now()
		for list = nil; len(list) == 0 && time.Since(back) < 10*time.Second; list, _ = ctl.List(context.Background()) {
			time.Sleep(100 * time.Millisecond)
		}
		if len(list) != 1 || list[0].Late || time.Since(back) > 5*time.Second {
			t.Fatalf("%s after recovery: %+v", time.Since(back), list)
		}
		if got := value(t, a, descConnected); got != 1 {
			t.Fatalf("bext_fleet_connected %v after recovery", got)
		}
	})
}

// Stop removes the entry and the index member at once.
func TestStopDeregisters(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		a, _ := startAgent(t, m, "web-1", &fakeInstance{})
		startAgent(t, m, "web-2", &fakeInstance{})
		synctest.Wait()
		if list, _ := ctl.List(context.Background()); !slices.Equal(names(list), []string{"web-1", "web-2"}) {
			t.Fatalf("list %v", names(list))
		}
		a.Stop()
		list, _ := ctl.List(context.Background())
		if !slices.Equal(names(list), []string{"web-2"}) || m.Exists(instanceKey("web-1")) {
			t.Fatalf("after Stop: %v", names(list))
		}
		if ms, _ := m.ZMembers(indexKey); !slices.Equal(ms, []string{"web-2"}) {
			t.Fatalf("index %v", ms)
		}
	})
}

// Two processes under one name: the second warns, and the first one's
// Stop does not remove the second one's entry.
func TestSameNameTwice(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		a, _ := startAgent(t, m, "web-1", &fakeInstance{})
		synctest.Wait()
		var log testenv.Buffer
		c2, _ := newClient(t, m)
		b := NewAgent(c2, AgentOptions{Name: "web-1", Interval: 10 * time.Second, TTL: 30 * time.Second, Log: textLog(&log)})
		go b.Run()
		t.Cleanup(b.Stop)
		synctest.Wait()
		if !strings.Contains(log.String(), "another process is registered under this instance's name") {
			t.Fatalf("no warning: %s", log.String())
		}
		a.Stop()
		if list, _ := ctl.List(context.Background()); len(list) != 1 || list[0].ID != b.id {
			t.Fatalf("after the first one stopped: %+v", list)
		}
	})
}

func TestAgentMetricsLint(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		a, _ := startAgent(t, m, "web-1", &fakeInstance{})
		synctest.Wait()
		if problems, err := testutil.CollectAndLint(a); err != nil || len(problems) > 0 {
			t.Fatalf("lint: %v %v", err, problems)
		}
		if got := value(t, a, descConnected); got != 1 {
			t.Fatalf("bext_fleet_connected %v", got)
		}
		if got := value(t, a, descInstances); got != 1 {
			t.Fatalf("bext_fleet_instances %v", got)
		}
	})
}
