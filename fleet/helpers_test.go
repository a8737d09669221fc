package fleet

import (
	"bext/internal/testenv"
	"context"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/alicebob/miniredis/v2"
	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
)

var quiet = slog.New(slog.DiscardHandler)

// newMini starts an in-process Redis whose TTLs follow the clock (in a
// synctest bubble, the fake one).
func newMini(t *testing.T) *miniredis.Miniredis {
	t.Helper()
	m := miniredis.NewMiniRedis()
	m.ClockTTL(true)
	t.Cleanup(m.Close)
	return m
}

// link is one client's network to the in-process Redis: cut makes it
// unreachable (open connections drop, dials fail) until mend.
type link struct {
	m     *miniredis.Miniredis
	mu    sync.Mutex
	conns []net.Conn
	down  atomic.Bool
	dials atomic.Int64
}

var errCut = errors.New("link cut")

func (l *link) dial(context.Context, string, string) (net.Conn, error) {
	l.dials.Add(1)
	if l.down.Load() {
		return nil, &net.OpError{Op: "dial", Net: "tcp", Err: errCut}
	}
	c, err := l.m.Dial()
	if err != nil {
		return nil, err
	}
	l.mu.Lock()
	l.conns = append(l.conns, c)
	l.mu.Unlock()
	return c, nil
}

func (l *link) cut() {
	l.down.Store(true)
	l.mu.Lock()
	for _, c := range l.conns {
		c.Close()
	}
	l.conns = nil
	l.mu.Unlock()
}

func (l *link) mend() { l.down.Store(false) }

// newClient opens a client over its own link to m.
func newClient(t *testing.T, m *miniredis.Miniredis) (*Client, *link) {
	t.Helper()
	l := &link{m: m}
	c, err := Open(Options{URL: "redis://mini:6379/0", Timeout: 200 * time.Millisecond, Log: quiet, Dial: l.dial})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		// go-redis's goroutines that retry a lost connection (pool
		// dials, the subscription) notice the close at their next wake-up:
		// let the bubble's clock get there.
		time.Sleep(2 * time.Second)
	})
	return c, l
}

// fakeInstance is what an agent reports and restarts.
type fakeInstance struct {
	restarts    atomic.Int64
	restartTook time.Duration
	fail        error
	mu          sync.Mutex
	spans       [][2]time.Time // start and end of each restart
}

func (f *fakeInstance) restart(ctx context.Context) error {
	start := time.Now()
	f.restarts.Add(1)
	select {
	case <-time.After(f.restartTook):
	case <-ctx.Done():
		return ctx.Err()
	}
	f.mu.Lock()
	f.spans = append(f.spans, [2]time.Time{start, time.Now()})
	f.mu.Unlock()
	return f.fail
}

func (f *fakeInstance) snapshot() []App {
	return []App{{State: "running", Bundle: "abc123", Workers: nil}}
}

// startAgent runs an agent named name over its own link; it is stopped
// when the test ends.
func startAgent(t *testing.T, m *miniredis.Miniredis, name string, f *fakeInstance) (*Agent, *link) {
	return startAgentWith(t, m, name, f, nil)
}

// startAgentWith is startAgent calling setup before the agent runs.
func startAgentWith(t *testing.T, m *miniredis.Miniredis, name string, f *fakeInstance, setup func(*Agent)) (*Agent, *link) {
	t.Helper()
	c, l := newClient(t, m)
	a := NewAgent(c, AgentOptions{Name: name, Addr: "127.0.0.1:3000", AdminAddr: "127.0.0.1:3001", Version: "test",
		Interval: 10 * time.Second, TTL: 30 * time.Second, Snapshot: f.snapshot, Restart: f.restart, Log: quiet})
	if setup != nil {
		setup(a)
	}
	go a.Run()
	t.Cleanup(a.Stop)
	return a, l
}

func names(list []Instance) []string {
	var out []string
	for _, in := range list {
		out = append(out, in.Name)
	}
	return out
}

// value is the value of the one series of d (with labels) that c collects.
func value(t *testing.T, c prometheus.Collector, d *prometheus.Desc, labels ...string) float64 {
	t.Helper()
	ch := make(chan prometheus.Metric, 100)
	c.Collect(ch)
	close(ch)
	for m := range ch {
		if m.Desc() != d {
			continue
		}
		var pb dto.Metric
		m.Write(&pb)
		match := true
		for i, lp := range pb.GetLabel() {
			if i < len(labels) && lp.GetValue() != labels[i] {
				match = false
			}
		}
		if !match {
			continue
		}
		if pb.Gauge != nil {
			return pb.GetGauge().GetValue()
		}
		return pb.GetCounter().GetValue()
	}
	t.Fatalf("no series %v %v", d, labels)
	return 0
}

func textLog(w *testenv.Buffer) *slog.Logger { return slog.New(slog.NewTextHandler(w, nil)) }
