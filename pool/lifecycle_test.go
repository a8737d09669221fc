package pool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"bext/engine"
	"bext/lifecycle"
)

func TestMaxRequestsRotation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := testPolicy(1)
		pol.MaxRequests = 5
		p := newPool(t, factoryOf(t, okJS), Options{Policy: pol})
		mustReady(t, p)
		for i := range 4 {
			if r := mustGet(t, p, "/"); r.Generation != 1 {
				t.Fatalf("request %d served by generation %d before the threshold", i, r.Generation)
			}
		}
		synctest.Wait()
		if g := p.Snapshot()[0].Generation; g != 1 {
			t.Fatalf("rotated after 4 of 5 requests (generation %d)", g)
		}
		mustGet(t, p, "/")
		synctest.Wait()
		st := p.Snapshot()[0]
		if st.Generation != 2 || st.Restarts != 1 || st.LastRotationReason != "max_requests" || st.State != "ACTIVE" {
			t.Fatalf("after 5 requests: %+v, want generation 2 ACTIVE rotated for max_requests", st)
		}
		if st.RequestsServed != 0 {
			t.Fatalf("new isolate starts counting from 0, got %d", st.RequestsServed)
		}
		if r := mustGet(t, p, "/"); r.Generation != 2 {
			t.Fatalf("next request served by generation %d, want 2", r.Generation)
		}
	})
}

func TestMaxUptimeRotation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := testPolicy(2)
		pol.MaxUptime = time.Duration(1.5 * float64(time.Hour)) // max_uptime_hours = 1.5
		p := newPool(t, factoryOf(t, okJS), Options{Policy: pol})
		mustReady(t, p)
		time.Sleep(89 * time.Minute)
		synctest.Wait()
		for _, st := range p.Snapshot() {
			if st.Generation != 1 {
				t.Fatalf("worker %d rotated before max_uptime: %+v", st.ID, st)
			}
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		for _, st := range p.Snapshot() {
			if st.Generation != 2 || st.LastRotationReason != "max_uptime" || st.State != "ACTIVE" {
				t.Fatalf("worker %d after 91 min: %+v, want rotated for max_uptime", st.ID, st)
			}
		}
	})
}

func TestGracefulDrainFinishesInFlight(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := testPolicy(1)
		pol.DrainTimeout = 5 * time.Second
		p := newPool(t, factoryOf(t, slowJS), Options{Policy: pol})
		mustReady(t, p)
		done := make(chan error, 1)
		var body string
		go func() {
			resp, _, err := get(p, "/", map[string]string{"ms": "100"})
			if err == nil {
				body = resp.HTML
			}
			done <- err
		}()
		synctest.Wait() // the render waits in its timer
		if _, err := p.Restart(0, lifecycle.ReasonManual); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		st := p.Snapshot()[0]
		if st.State != "DRAINING" || st.InFlight != 1 || st.Rotating != "manual" {
			t.Fatalf("while the render is in flight: %+v, want DRAINING with 1 in flight", st)
		}
		if r := mustGet(t, p, "/x"); r.Generation != 2 {
			t.Fatalf("a new request went to generation %d; the draining worker must take none", r.Generation)
		}
		time.Sleep(100 * time.Millisecond)
		if err := <-done; err != nil || body != "<p>slept 100</p>" {
			t.Fatalf("in-flight request: %q, %v; want it completed", body, err)
		}
		synctest.Wait()
		d, _ := p.Worker(0)
		last := d.History[len(d.History)-1]
		if last.From != "DRAINING" || last.To != "STOPPED" || last.Reason != "drained" || last.InPrevious < 100 {
			t.Fatalf("last transition %+v, want DRAINING->STOPPED drained after the 100 ms render", last)
		}
		if d.State != "ACTIVE" || d.Generation != 2 {
			t.Fatalf("slot after drain: %+v", d.WorkerStats)
		}
	})
}

func TestDrainTimeoutInterrupts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pol := testPolicy(1)
		pol.DrainTimeout = time.Second
		p := newPool(t, factoryOf(t, slowJS), Options{Policy: pol, RenderTimeout: time.Minute})
		mustReady(t, p)
		done := make(chan error, 1)
		go func() {
			_, _, err := get(p, "/", map[string]string{"ms": "10000"})
			done <- err
		}()
		synctest.Wait()
		start := time.Now()
		p.Restart(0, lifecycle.ReasonManual)
		err := <-done
		if !errors.Is(err, ErrDrainTimeout) {
			t.Fatalf("render left after drain_timeout: err %v, want ErrDrainTimeout", err)
		}
		if waited := time.Since(start); waited != time.Second {
			t.Fatalf("interrupted after %v, want drain_timeout 1s", waited)
		}
		synctest.Wait()
		d, _ := p.Worker(0)
		found := false
		for _, tr := range d.History {
			if tr.From == "DRAINING" && tr.To == "STOPPED" && tr.Reason == "drain_timeout" {
				found = true
			}
		}
		if !found || d.State != "ACTIVE" {
			t.Fatalf("history %+v: want DRAINING->STOPPED drain_timeout and an ACTIVE replacement", d.History)
		}
	})
}

// bootGaps returns the waits between each FAILED and the next BOOTING of slot id.
func bootGaps(events []Event, id int) []time.Duration {
	var gaps []time.Duration
	var failedAt time.Time
	for _, e := range events {
		if e.Worker != id {
			continue
		}
		switch {
		case e.To == lifecycle.Failed:
			failedAt = e.At
		case e.To == lifecycle.Booting && !failedAt.IsZero():
			gaps = append(gaps, e.At.Sub(failedAt))
		}
	}
	return gaps
}

func TestCrashBackoffSchedule(t *testing.T) {
	ms := func(n float64) time.Duration { return time.Duration(n * float64(time.Millisecond)) }
	cases := []struct {
		name string
		rec  lifecycle.Recovery
		want []time.Duration
	}{
		{"default", lifecycle.DefaultPolicy().Recovery,
			[]time.Duration{0, ms(100), ms(300), ms(900), ms(2700), ms(8100), ms(24300), ms(60000), ms(60000)}},
		{"custom", lifecycle.Recovery{MaxConsecutiveFailures: 6, BackoffInitial: ms(50), BackoffMax: ms(300), BackoffMultiplier: 2, HealthyReset: time.Minute},
			[]time.Duration{0, ms(50), ms(100), ms(200), ms(300)}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				pol := testPolicy(1)
				pol.Recovery = c.rec
				rec := &recorder{}
				p := newPool(t, factoryOf(t, throwsAtBootJS), Options{Policy: pol, Observe: rec.observe})
				time.Sleep(10 * time.Minute)
				synctest.Wait()
				got := bootGaps(rec.list(), 0)
				if fmt.Sprint(got) != fmt.Sprint(c.want) {
					t.Fatalf("waits between boot attempts: %v, want %v", got, c.want)
				}
				st := p.Snapshot()[0]
				if !st.GaveUp || st.State != "FAILED" || st.ConsecutiveFailures != c.rec.MaxConsecutiveFailures {
					t.Fatalf("after %d failures: %+v, want FAILED for good", c.rec.MaxConsecutiveFailures, st)
				}
				if st.LastError == "" {
					t.Fatal("last_error should say why the slot fails")
				}
			})
		})
	}
}

func TestBackoffResetAfterHealthyPeriod(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := newSwitchable(t)
		sw.set(-1, true)
		pol := testPolicy(1)
		p := newPool(t, sw.factory, Options{Policy: pol})
		// Failures at 0, 0 and 100 ms; the 4th attempt comes at 400 ms.
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		if n := p.Snapshot()[0].ConsecutiveFailures; n != 3 {
			t.Fatalf("consecutive failures at 200 ms: %d, want 3", n)
		}
		sw.set(-1, false)
		time.Sleep(200 * time.Millisecond)
		synctest.Wait()
		st := p.Snapshot()[0]
		if st.State != "ACTIVE" || st.ConsecutiveFailures != 3 {
			t.Fatalf("booted at 400 ms: %+v, want ACTIVE still counting 3 failures", st)
		}
		time.Sleep(59 * time.Second)
		synctest.Wait()
		if n := p.Snapshot()[0].ConsecutiveFailures; n != 3 {
			t.Fatalf("reset before healthy_reset_ms: %d", n)
		}
		time.Sleep(time.Second)
		synctest.Wait()
		if n := p.Snapshot()[0].ConsecutiveFailures; n != 0 {
			t.Fatalf("after 60 s healthy: %d consecutive failures, want 0", n)
		}
	})
}

func TestGiveUpKeepsServingAndManualRestartRevives(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		sw := newSwitchable(t)
		sw.set(1, true)
		pol := testPolicy(2)
		pol.Recovery.MaxConsecutiveFailures = 3
		p := newPool(t, sw.factory, Options{Policy: pol})
		time.Sleep(time.Minute)
		synctest.Wait()
		st := p.Snapshot()
		if st[0].State != "ACTIVE" || st[1].State != "FAILED" || !st[1].GaveUp {
			t.Fatalf("slots: %+v / %+v, want 0 ACTIVE and 1 given up", st[0], st[1])
		}
		for i := range 20 {
			if r := mustGet(t, p, fmt.Sprint("/", i)); r.Worker != 0 {
				t.Fatalf("request served by slot %d", r.Worker)
			}
		}
		time.Sleep(time.Hour) // given up means given up: no more attempts
		synctest.Wait()
		if st := p.Snapshot()[1]; st.State != "FAILED" || st.ConsecutiveFailures != 3 {
			t.Fatalf("given-up slot changed by itself: %+v", st)
		}
		sw.set(1, false)
		if _, err := p.Restart(1, lifecycle.ReasonManual); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if st := p.Snapshot()[1]; st.State != "ACTIVE" || st.GaveUp || st.ConsecutiveFailures != 0 {
			t.Fatalf("after manual restart: %+v, want revived", st)
		}
	})
}

// TestStaggeredSurgeFirstRotation rotates every worker under concurrent
// load and checks, at every transition, that no two workers drain at once
// and that ACTIVE workers never drop below jsc_workers; every request
// succeeds meanwhile (pool degradation).
func TestStaggeredSurgeFirstRotation(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const n = 4
		pol := testPolicy(n)
		pol.MaxRequests = 40
		var mu sync.Mutex
		draining := map[int]bool{}
		armed := false // capacity is checked once all n workers are up
		var violations []string
		rotatedAt := map[int][]int{}
		p := (*Pool)(nil)
		obs := func(e Event) {
			mu.Lock()
			defer mu.Unlock()
			if armed && e.ActiveWorkers < n {
				violations = append(violations, fmt.Sprintf("%d ACTIVE after %v", e.ActiveWorkers, e.Transition))
			}
			switch {
			case e.To == lifecycle.Draining:
				draining[e.Worker] = true
				if len(draining) > 1 {
					violations = append(violations, fmt.Sprintf("two workers draining: %v", draining))
				}
			case e.From == lifecycle.Draining:
				delete(draining, e.Worker)
			}
		}
		p = newPool(t, factoryOf(t, okJS), Options{Policy: pol, Observe: obs})
		if err := p.WaitActive(context.Background(), n); err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		mu.Lock()
		armed = true
		mu.Unlock()
		// Dispatch need not be even, so the load goes on until every worker
		// has rotated (a fixed count could leave one below its threshold).
		rotated := func() bool {
			for _, st := range p.Snapshot() {
				if st.Restarts < 1 {
					return false
				}
			}
			return true
		}
		var wg sync.WaitGroup
		errs := make(chan error, 8*1000)
		for c := range 8 {
			wg.Go(func() {
				for i := 0; i < 60 || (!rotated() && i < 1000); i++ {
					_, res, err := get(p, fmt.Sprintf("/%d/%d", c, i), nil)
					if err != nil {
						errs <- err
					}
					mu.Lock()
					rotatedAt[res.Worker] = append(rotatedAt[res.Worker], res.Generation)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		synctest.Wait()
		close(errs)
		for err := range errs {
			t.Errorf("request failed during rotation: %v", err)
		}
		if len(violations) > 0 {
			t.Fatalf("%d violations, first: %s", len(violations), violations[0])
		}
		for _, st := range p.Snapshot() {
			if st.Restarts < 1 || st.LastRotationReason != "max_requests" {
				t.Errorf("worker %d never rotated: %+v", st.ID, st)
			}
		}
		th := map[int64]bool{}
		for id := range n {
			th[pol.RequestThreshold(id)] = true
		}
		if len(th) != n {
			t.Fatalf("thresholds not staggered: %v", th)
		}
	})
}

// Request-induced crashes (interrupted loops, stack overflow) replace the
// isolate at once and never count as slot failures; thrown errors keep the
// isolate. Real time: a spinning JS loop never lets a fake clock advance;
// loops end when their caller gives up (a signal), and no render has a
// deadline a loaded CPU could miss.
func TestRequestInducedCrashesKeepCapacity(t *testing.T) {
	pol := testPolicy(2)
	pol.Recovery.MaxConsecutiveFailures = 2
	loops := newLoopSignals()
	p := newPool(t, loops.factory(t), Options{Policy: pol, RenderTimeout: time.Minute, QueueTimeout: time.Minute})
	mustReady(t, p)
	var wg sync.WaitGroup
	for i := range 10 {
		wg.Go(func() {
			err := loops.run(p, i)
			if !isKind(err, engine.KindTimeout) || !errors.Is(err, context.Canceled) {
				t.Errorf("loop %d: %v, want interrupted by its caller", i, err)
			}
		})
		wg.Go(func() {
			if _, _, err := get(p, "/deep", nil); !isKind(err, engine.KindStackOverflow) {
				t.Errorf("deep %d: %v, want a stack overflow", i, err)
			}
		})
		wg.Go(func() {
			resp, _, err := get(p, fmt.Sprint("/good", i), nil)
			if err != nil || resp.HTML == "" {
				t.Errorf("good request %d failed: %v", i, err)
			}
		})
	}
	wg.Wait()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := p.WaitFor(ctx, func(ws []WorkerStats) bool {
		n := int64(0)
		for _, st := range ws {
			n += st.restartsBy[lifecycle.ReasonCrash]
		}
		return n == 20
	}); err != nil {
		t.Fatalf("crash replacements: %+v, want 20 (10 loops + 10 overflows): %v", p.Snapshot(), err)
	}
	if err := p.WaitActive(ctx, 2); err != nil {
		t.Fatalf("replacements did not come up: %v", err)
	}
	_, r1, err := get(p, "/throw", nil)
	if !isKind(err, engine.KindException) {
		t.Fatalf("throw: %v, want an exception", err)
	}
	if _, r2, err := get(p, "/after", nil); err != nil || (r2.Worker == r1.Worker && r2.Generation != r1.Generation) {
		t.Fatalf("a thrown error must keep the isolate: %+v then %+v, %v", r1, r2, err)
	}
	for _, st := range p.Snapshot() {
		if st.State != "ACTIVE" || st.ConsecutiveFailures != 0 || st.GaveUp {
			t.Fatalf("worker %d after crashes: %+v, want ACTIVE with no slot failures", st.ID, st)
		}
	}
}

// loopSignals: /loop?tag=N logs "looping N" before it spins; run waits for
// that line, then cancels the render's context, as a client that hangs up.
type loopSignals struct {
	mu sync.Mutex
	m  map[string]chan struct{}
}

func newLoopSignals() *loopSignals { return &loopSignals{m: map[string]chan struct{}{}} }

func (l *loopSignals) ch(tag string) chan struct{} {
	l.mu.Lock()
	defer l.mu.Unlock()
	c, ok := l.m[tag]
	if !ok {
		c = make(chan struct{})
		l.m[tag] = c
	}
	return c
}

func (l *loopSignals) Enabled(context.Context, slog.Level) bool { return true }
func (l *loopSignals) Handle(_ context.Context, r slog.Record) error {
	if tag, ok := strings.CutPrefix(r.Message, "looping "); ok {
		c := l.ch(tag)
		l.mu.Lock()
		select {
		case <-c:
		default:
			close(c)
		}
		l.mu.Unlock()
	}
	return nil
}
func (l *loopSignals) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *loopSignals) WithGroup(string) slog.Handler      { return l }

func (l *loopSignals) factory(t *testing.T) Factory {
	prog := compile(t, `globalThis.render = (req) => {
		if (req.path === "/loop") { console.log("looping " + req.query.tag); while (true) {} }
		if (req.path === "/throw") { throw new Error("render threw"); }
		if (req.path === "/deep") { const f = (n) => f(n + 1) + 1; return String(f(0)); }
		return "<p>ok " + req.path + "</p>";
	};`)
	return func(id int) (Isolate, error) {
		return engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: slog.New(l)})
	}
}

func (l *loopSignals) run(p *Pool, tag int) error {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		<-l.ch(fmt.Sprint(tag))
		cancel()
	}()
	_, _, err := p.Render(ctx, &engine.Request{Method: "GET", URL: "/loop", Path: "/loop", Query: map[string]string{"tag": fmt.Sprint(tag)}, Headers: map[string]string{}})
	return err
}

// logRecorder keeps every log record.
type logRecorder struct {
	mu      sync.Mutex
	records []slog.Record
}

func (l *logRecorder) Enabled(context.Context, slog.Level) bool { return true }
func (l *logRecorder) Handle(_ context.Context, r slog.Record) error {
	l.mu.Lock()
	l.records = append(l.records, r.Clone())
	l.mu.Unlock()
	return nil
}
func (l *logRecorder) WithAttrs([]slog.Attr) slog.Handler { return l }
func (l *logRecorder) WithGroup(string) slog.Handler      { return l }

// Every transition is logged once at debug; info gets one line per worker
// made ready (at start and per rotation, naming why), so a fast rotation
// policy does not flood the log.
func TestEveryTransitionIsLoggedOnceAtDebugAndEachRotationOnceAtInfo(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		logs := &logRecorder{}
		p := newPool(t, factoryOf(t, okJS), Options{Policy: testPolicy(1), Log: slog.New(logs)})
		mustReady(t, p)
		p.Restart(0, lifecycle.ReasonManual)
		synctest.Wait()
		d, _ := p.Worker(0)
		logs.mu.Lock()
		defer logs.mu.Unlock()
		var logged, infos []string
		for _, r := range logs.records {
			if r.Level == slog.LevelInfo {
				a := map[string]string{}
				r.Attrs(func(at slog.Attr) bool { a[at.Key] = at.Value.String(); return true })
				infos = append(infos, r.Message+":"+a["reason"])
			}
			if r.Message != "worker transition" {
				continue
			}
			if r.Level != slog.LevelDebug {
				t.Errorf("transition logged at %v", r.Level)
			}
			a := map[string]string{}
			r.Attrs(func(at slog.Attr) bool { a[at.Key] = at.Value.String(); return true })
			if a["worker"] != "0" || a["reason"] == "" {
				t.Errorf("transition log lacks worker id or reason: %v", a)
			}
			logged = append(logged, a["from"]+">"+a["to"]+":"+a["reason"])
		}
		var hist []string
		for _, tr := range d.History {
			hist = append(hist, tr.From+">"+tr.To+":"+tr.Reason)
		}
		if fmt.Sprint(logged) != fmt.Sprint(hist) {
			t.Fatalf("logged %v\nhistory %v\nwant each transition logged exactly once", logged, hist)
		}
		if want := "[worker ready:start rotating worker 0 (manual):manual]"; fmt.Sprint(infos) != want {
			t.Fatalf("info lines %v, want %v", infos, want)
		}
	})
}
