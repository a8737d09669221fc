package app

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"

	"bext/config"
	"bext/engine"
	"bext/pool"
	"bext/render"
)

// fakeIsolate renders "ok", or crashes the isolate when crash is set (as a
// render that times out does).
type fakeIsolate struct{ crash *atomic.Bool }

type fatalErr struct{}

func (fatalErr) Error() string { return "crashed on purpose" }
func (fatalErr) Fatal() bool   { return true }

func (f fakeIsolate) Render(ctx context.Context, req *engine.Request) (*engine.Response, error) {
	if f.crash.Load() {
		return nil, fatalErr{}
	}
	return &engine.Response{Status: 200, HTML: "ok " + req.Path}, nil
}
func (fakeIsolate) Console() []engine.ConsoleLine { return nil }
func (fakeIsolate) HeapBytes() int64              { return 0 }
func (fakeIsolate) Close()                        {}

// fakeApps is apps of the given entries whose starts make real pools of
// fake isolates, counting the starts; failing[name] makes a start fail.
type fakeApps struct {
	*apps
	starts  sync.Map // name -> *atomic.Int64
	failing sync.Map // name -> bool
	crash   atomic.Bool
}

func newFakeApps(t *testing.T, maxRunning int, entries ...config.AppEntry) *fakeApps {
	t.Helper()
	cfg := config.Default()
	cfg.Server.MaxAppsRunning = maxRunning
	cfg.Render.JSCWorkers = 1
	cfg.Render.Lifecycle.MemoryCheckMS = 1 << 30
	for _, e := range entries {
		e.Render = cfg.Render
		cfg.Apps = append(cfg.Apps, e)
	}
	in := &Instance{o: Options{Out: nil}, log: slog.New(slog.DiscardHandler), cfg: &cfg}
	a, err := newApps(in, &cfg)
	if err != nil {
		t.Fatal(err)
	}
	in.apps = a
	f := &fakeApps{apps: a}
	a.start = func(s *appSite) error {
		n, _ := f.starts.LoadOrStore(s.name, new(atomic.Int64))
		n.(*atomic.Int64).Add(1)
		if bad, _ := f.failing.Load(s.name); bad == true {
			return errors.New("boot failed on purpose")
		}
		g, err := in.startGeneration(s.site, s.cfg, func(int) (pool.Isolate, error) { return fakeIsolate{&f.crash}, nil }, &render.Assets{})
		if err != nil {
			return err
		}
		if err := g.waitReady(time.Minute); err != nil {
			return err
		}
		s.gen.Store(g)
		return nil
	}
	t.Cleanup(in.closePool)
	return f
}

func (f *fakeApps) startsOf(name string) int64 {
	n, ok := f.starts.Load(name)
	if !ok {
		return 0
	}
	return n.(*atomic.Int64).Load()
}

func entry(name string, idle time.Duration) config.AppEntry {
	e := config.DefaultAppEntry()
	e.Name, e.IdleTimeoutMS = name, int(idle/time.Millisecond)
	return e
}

func (f *fakeApps) get(t *testing.T, name string) {
	t.Helper()
	g, err := f.ensure(context.Background(), f.byName[name])
	if err != nil {
		t.Fatalf("app %s: %v", name, err)
	}
	g.release()
}

func (f *fakeApps) state(name string) AppState {
	s := f.byName[name]
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state
}

// 100 concurrent first requests of a cold app share one start.
func TestAppColdStartIsOneStartForConcurrentRequests(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeApps(t, 0, entry("shop", time.Hour))
		var wg sync.WaitGroup
		for range 100 {
			wg.Go(func() { f.get(t, "shop") })
		}
		wg.Wait()
		if n := f.startsOf("shop"); n != 1 || f.state("shop") != AppRunning {
			t.Fatalf("%d starts, state %v; want 1 start, running", n, f.state("shop"))
		}
	})
}

// An app idle for idle_timeout is evicted (its pool closed) and starts
// again on the next request; a busy one is not.
func TestAppIdleEvictionAndColdStartAgain(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeApps(t, 0, entry("blog", 10*time.Minute), entry("never", 0))
		f.get(t, "blog")
		f.get(t, "never")
		p := f.byName["blog"].current().pool
		quit := make(chan struct{})
		go f.janitor(quit)
		defer close(quit)
		time.Sleep(9 * time.Minute)
		synctest.Wait()
		if f.state("blog") != AppRunning {
			t.Fatal("evicted before its idle timeout")
		}
		time.Sleep(2 * time.Minute)
		synctest.Wait()
		if f.state("blog") != AppEvicted || f.byName["blog"].current() != nil || p.Ready() {
			t.Fatalf("after 11 idle minutes: state %v", f.state("blog"))
		}
		if f.state("never") != AppRunning {
			t.Fatal("an app with idle_timeout_ms = 0 was evicted")
		}
		f.get(t, "blog")
		if n := f.startsOf("blog"); n != 2 || f.state("blog") != AppRunning {
			t.Fatalf("%d starts after eviction, want 2", n)
		}
	})
}

// With max_apps_running = 2, starting a third app evicts the least
// recently used one.
func TestAppLRUBound(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeApps(t, 2, entry("x", 0), entry("y", 0), entry("z", 0))
		f.get(t, "x")
		time.Sleep(time.Second)
		f.get(t, "y")
		time.Sleep(time.Second)
		f.get(t, "x") // x is now the most recently used
		time.Sleep(time.Second)
		f.get(t, "z")
		if f.state("y") != AppEvicted || f.state("x") != AppRunning || f.state("z") != AppRunning {
			t.Fatalf("states x %v y %v z %v; want y (least recently used) evicted", f.state("x"), f.state("y"), f.state("z"))
		}
	})
}

// A failed start answers 503 at once (Retry-After from the backoff) and
// is retried on the backoff schedule, never blocking another app.
func TestAppBootFailureBacksOff(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		f := newFakeApps(t, 0, entry("broken", 0), entry("ok", 0))
		f.failing.Store("broken", true)
		s := f.byName["broken"]
		try := func() time.Duration {
			t.Helper()
			_, err := f.ensure(context.Background(), s)
			var u *unavailable
			if !errors.As(err, &u) {
				t.Fatalf("%v, want unavailable", err)
			}
			f.get(t, "ok") // the other app serves meanwhile
			return u.retry
		}
		// The schedule of a worker slot: the 1st retry at once, then 100 ms,
		// 300 ms, … (defaults).
		for k, want := range []time.Duration{0, 100 * time.Millisecond, 300 * time.Millisecond, 900 * time.Millisecond} {
			if got := try(); got != want || f.startsOf("broken") != int64(k+1) {
				t.Fatalf("failure %d: retry in %v after %d starts; want %v after %d", k+1, got, f.startsOf("broken"), want, k+1)
			}
			if want > 0 {
				if got := try(); got != want || f.startsOf("broken") != int64(k+1) {
					t.Fatalf("a request during the backoff started the app again (%d starts) or saw retry %v", f.startsOf("broken"), got)
				}
			}
			time.Sleep(want)
		}
		f.failing.Store("broken", false)
		time.Sleep(time.Hour)
		f.get(t, "broken")
		if f.state("broken") != AppRunning {
			t.Fatalf("after the fix: %v", f.state("broken"))
		}
	})
}

// max_crashes crashes within window_ms stop the app (503) until a revive;
// crashes spread wider than the window never do.
func TestAppCrashWindowStopsAndReviveStarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		e := entry("flaky", 0)
		e.Respawn = config.Respawn{MaxCrashes: 3, WindowMS: 60000}
		f := newFakeApps(t, 0, e)
		s := f.byName["flaky"]
		crashOnce := func() {
			f.crash.Store(true)
			g, err := f.ensure(context.Background(), s)
			if err != nil {
				return
			}
			g.pool.Render(context.Background(), engine.NewRequest("GET", "/"))
			g.release()
			f.crash.Store(false)
			synctest.Wait()
		}
		// Two crashes a minute apart, twice: never 3 within the window.
		for range 4 {
			crashOnce()
			time.Sleep(61 * time.Second)
		}
		if f.state("flaky") != AppRunning {
			t.Fatalf("crashes wider than the window stopped the app: %v", f.state("flaky"))
		}
		for range 3 {
			crashOnce()
		}
		synctest.Wait()
		if f.state("flaky") != AppFailed || !s.gaveUp {
			t.Fatalf("3 crashes in a minute: state %v gave up %v", f.state("flaky"), s.gaveUp)
		}
		if _, err := f.ensure(context.Background(), s); err == nil {
			t.Fatal("a stopped app took a request")
		}
		f.revive(s)
		synctest.Wait()
		f.get(t, "flaky")
		if f.state("flaky") != AppRunning {
			t.Fatalf("after revive: %v", f.state("flaky"))
		}
	})
}
