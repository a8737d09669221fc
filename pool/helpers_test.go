package pool

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"bext/engine"
	"bext/lifecycle"
)

// Real isolates from small JS programs: no mocks of the engine.
const (
	okJS = `globalThis.render = (req) => "<p>hello " + req.path + "</p>";`
	// slowJS waits (in timers, so fake time under synctest) for ?ms= milliseconds.
	slowJS = `globalThis.render = async (req) => {
		await new Promise(r => setTimeout(r, Number(req.query.ms || 0)));
		return "<p>slept " + req.query.ms + "</p>";
	};`
	throwsAtBootJS = `throw new Error("broken bundle: cannot load");`
	// mixedJS: /loop spins forever, /throw throws, /deep overflows the stack.
	mixedJS = `globalThis.render = (req) => {
		if (req.path === "/loop") { while (true) {} }
		if (req.path === "/throw") { throw new Error("render threw"); }
		if (req.path === "/deep") { const f = (n) => f(n + 1) + 1; return String(f(0)); }
		return "<p>ok " + req.path + "</p>";
	};`
)

func compile(t testing.TB, src string) *engine.Program {
	t.Helper()
	p, err := engine.Compile("test.js", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func factoryOf(t testing.TB, src string) Factory {
	prog := compile(t, src)
	return func(id int) (Isolate, error) {
		return engine.NewIsolate(prog, engine.Options{WorkerID: id, Log: slog.New(slog.NewTextHandler(io.Discard, nil))})
	}
}

// switchable is a factory whose program a test can change, per slot.
type switchable struct {
	mu   sync.Mutex
	good Factory
	bad  Factory
	fail map[int]bool // slots that fail to boot; -1 = all
}

func (s *switchable) factory(id int) (Isolate, error) {
	s.mu.Lock()
	f := s.good
	if s.fail[id] || s.fail[-1] {
		f = s.bad
	}
	s.mu.Unlock()
	return f(id)
}

func (s *switchable) set(id int, failing bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.fail == nil {
		s.fail = map[int]bool{}
	}
	s.fail[id] = failing
}

func newSwitchable(t testing.TB) *switchable {
	return &switchable{good: factoryOf(t, okJS), bad: factoryOf(t, throwsAtBootJS), fail: map[int]bool{}}
}

// recorder keeps every transition event.
type recorder struct {
	mu     sync.Mutex
	events []Event
}

func (r *recorder) observe(e Event) {
	r.mu.Lock()
	r.events = append(r.events, e)
	r.mu.Unlock()
}

func (r *recorder) list() []Event {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Event(nil), r.events...)
}

// testPolicy: no rotation thresholds, default recovery.
func testPolicy(workers int) lifecycle.Policy {
	p := lifecycle.DefaultPolicy()
	p.Workers = workers
	p.MaxRequests, p.MaxUptime, p.MaxMemoryBytes = 0, 0, 0
	return p
}

func newPool(t *testing.T, f Factory, o Options) *Pool {
	t.Helper()
	if o.MemoryCheck == 0 {
		o.MemoryCheck = -1
	}
	if o.Log == nil {
		o.Log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	p := New(f, o)
	t.Cleanup(p.Close)
	return p
}

func mustReady(t *testing.T, p *Pool) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := p.WaitReady(ctx); err != nil {
		t.Fatal(err)
	}
}

func get(p *Pool, path string, query map[string]string) (*engine.Response, Result, error) {
	return p.Render(context.Background(), &engine.Request{Method: "GET", URL: path, Path: path, Query: query, Headers: map[string]string{}})
}

func mustGet(t *testing.T, p *Pool, path string) Result {
	t.Helper()
	resp, res, err := get(p, path, nil)
	if err != nil {
		t.Fatalf("GET %s: %v", path, err)
	}
	if resp.HTML == "" {
		t.Fatalf("GET %s: empty body", path)
	}
	return res
}

func isKind(err error, k engine.ErrorKind) bool {
	var re *engine.RenderError
	return errors.As(err, &re) && re.Kind == k
}
