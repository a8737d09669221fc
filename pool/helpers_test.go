package pool

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"slices"
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

// gate holds the boots of chosen slots until released, so a test can keep a
// slot BOOTING for as long as it needs. Create it inside the synctest bubble.
type gate struct {
	mu   sync.Mutex
	held map[int]chan struct{}
}

func newGate() *gate { return &gate{held: map[int]chan struct{}{}} }

// wrap returns f with every boot of a held slot blocked until release.
func (g *gate) wrap(f Factory) Factory {
	return func(id int) (Isolate, error) {
		g.mu.Lock()
		ch := g.held[id]
		g.mu.Unlock()
		if ch != nil {
			<-ch
		}
		return f(id)
	}
}

func (g *gate) hold(id int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.held[id] == nil {
		g.held[id] = make(chan struct{})
	}
}

func (g *gate) release(id int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	if ch := g.held[id]; ch != nil {
		close(ch)
		delete(g.held, id)
	}
}

// curState is the state of slot id's current worker (not of a predecessor
// still draining, which is what Snapshot shows).
func curState(p *Pool, id int) lifecycle.State {
	s := p.slots[id]
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil {
		return lifecycle.Stopped
	}
	return s.cur.state
}

// versions returns the factory version each slot's current worker booted
// from, with -1 for a slot that still has an old worker draining.
func versions(p *Pool) []int64 {
	var out []int64
	for _, s := range p.slots {
		s.mu.Lock()
		v := int64(-1)
		if s.cur != nil && s.old == nil {
			v = s.cur.version
		}
		out = append(out, v)
		s.mu.Unlock()
	}
	return out
}

// bootedFor returns the slots that had a worker move to BOOTING for reason
// among events.
func bootedFor(events []Event, reason lifecycle.Reason) []int {
	seen := map[int]bool{}
	var ids []int
	for _, e := range events {
		if e.To == lifecycle.Booting && e.Reason == reason && !seen[e.Worker] {
			seen[e.Worker] = true
			ids = append(ids, e.Worker)
		}
	}
	slices.Sort(ids)
	return ids
}

// oneDrain is an Observe hook that records a violation whenever two workers
// drain at once.
type oneDrain struct {
	mu         sync.Mutex
	draining   map[int]bool
	violations []string
}

func (o *oneDrain) observe(e Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.draining == nil {
		o.draining = map[int]bool{}
	}
	switch {
	case e.To == lifecycle.Draining:
		o.draining[e.Worker] = true
		if len(o.draining) > 1 {
			o.violations = append(o.violations, fmt.Sprintf("two workers draining: %v", o.draining))
		}
	case e.From == lifecycle.Draining:
		delete(o.draining, e.Worker)
	}
}

func (o *oneDrain) check(t *testing.T) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if len(o.violations) > 0 {
		t.Fatalf("%d violations, first: %s", len(o.violations), o.violations[0])
	}
}
