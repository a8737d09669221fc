package pool

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"bext/engine"
	"bext/lifecycle"
)

var (
	// ErrQueueTimeout: every worker stayed busy for queue_timeout. Answer 503
	// with Retry-After.
	ErrQueueTimeout = errors.New("pool: all workers busy; request waited queue_timeout_ms")
	// ErrPoolClosed: the pool is shutting down.
	ErrPoolClosed = errors.New("pool: shutting down")
	// ErrRenderTimeout is the cause of a render interrupted at render_timeout_ms.
	ErrRenderTimeout = errors.New("pool: render exceeded render_timeout_ms")
	// ErrDrainTimeout is the cause of a render interrupted because its worker
	// was draining for longer than drain_timeout_ms.
	ErrDrainTimeout = errors.New("pool: worker drain exceeded drain_timeout_ms")
	// ErrNoSuchWorker: a slot id out of range.
	ErrNoSuchWorker = errors.New("pool: no such worker")
)

// Options configure a pool. Zero durations take the defaults noted.
type Options struct {
	Policy        lifecycle.Policy // Workers is the slot count
	RenderTimeout time.Duration    // 5s
	QueueTimeout  time.Duration    // 1s
	MemoryCheck   time.Duration    // 10s; negative disables the monitor
	HistoryLen    int              // transitions kept per slot; 32
	Log           *slog.Logger
	// Observe, if set, is called synchronously after every state transition
	// (tests use it to check invariants such as surge-first).
	Observe func(Event)
	// RenderMemoryBudget is how much the live heap may grow during one
	// render before the memory guard interrupts it ([render]
	// max_render_memory_mb); 0 turns the guard off.
	RenderMemoryBudget int64
	// HealthCheck, if set, checks one idle isolate ([render.lifecycle]
	// health_path or globalThis.health) every HealthInterval (30s when
	// zero); Policy.MaxHealthFailures failures in a row degrade it.
	HealthCheck    func(ctx context.Context, iso Isolate) error
	HealthInterval time.Duration

	heapSample func() (live, objects, limit uint64) // tests: a fake heap
	heapGC     func()                               // tests: a fake GC
}

// Event is one recorded transition, as passed to Options.Observe.
type Event struct {
	Worker     int
	Generation int
	lifecycle.Transition
	ActiveWorkers int // ACTIVE workers in the pool right after the transition
}

// Result tells the caller which worker rendered a request.
type Result struct {
	Worker     int
	Generation int
	Duration   time.Duration
}

// Pool is N worker slots behind one dispatch queue.
type Pool struct {
	opts    Options
	log     *slog.Logger
	factory atomic.Pointer[factoryRef]
	slots   []*slot
	jobs    chan *job

	queued   atomic.Int64
	inFlight atomic.Int64

	rot      rotations
	changeMu sync.Mutex
	changed  chan struct{}
	metrics  *metrics
	closing  chan struct{}
	// renderStarted wakes the memory guard when a render starts.
	renderStarted chan struct{}
	closeOne      sync.Once
	degradeMu     sync.Mutex     // one degrade decision at a time
	workers       sync.WaitGroup // worker and booting goroutines
	bg            sync.WaitGroup // coordinator and monitor
}

type job struct {
	ctx  context.Context
	req  *engine.Request
	done chan jobResult // buffered 1: a worker never blocks on a gone caller
}

type jobResult struct {
	resp *engine.Response
	err  error
	Result
}

// New starts a pool of opts.Policy.Workers slots, each booting an isolate
// from f in the background. Use WaitReady to wait for the first ACTIVE one.
func New(f Factory, opts Options) *Pool {
	if opts.Policy.Workers < 1 {
		opts.Policy.Workers = 1
	}
	if opts.RenderTimeout <= 0 {
		opts.RenderTimeout = 5 * time.Second
	}
	if opts.QueueTimeout <= 0 {
		opts.QueueTimeout = time.Second
	}
	if opts.MemoryCheck == 0 {
		opts.MemoryCheck = 10 * time.Second
	}
	if opts.Log == nil {
		opts.Log = slog.Default()
	}
	p := &Pool{
		opts:    opts,
		log:     opts.Log,
		jobs:    make(chan *job),
		closing: make(chan struct{}),
		changed: make(chan struct{}),
		metrics: newMetrics(),

		renderStarted: make(chan struct{}, 1),
	}
	p.factory.Store(&factoryRef{f: f, version: 1})
	p.rot.init()
	for id := range opts.Policy.Workers {
		p.slots = append(p.slots, newSlot(id, opts.HistoryLen))
	}
	for _, s := range p.slots {
		p.startBoot(s, lifecycle.ReasonStart)
	}
	p.bg.Add(1)
	go p.coordinate()
	if opts.MemoryCheck > 0 {
		p.bg.Add(1)
		go p.monitor(opts.MemoryCheck, ctlMeasure)
	}
	if opts.RenderMemoryBudget > 0 {
		p.bg.Add(1)
		go p.guardMemory()
	}
	if opts.HealthCheck != nil {
		if p.opts.HealthInterval <= 0 {
			p.opts.HealthInterval = 30 * time.Second
		}
		p.bg.Add(1)
		go p.monitor(p.opts.HealthInterval, ctlHealth)
	}
	return p
}

// Size is the number of slots.
func (p *Pool) Size() int { return len(p.slots) }

// Render hands req to an idle ACTIVE worker, waiting up to queue_timeout for
// one, and returns what it rendered. Errors: ErrQueueTimeout, ErrPoolClosed,
// ctx's error, or the render's own error (an *engine.RenderError).
func (p *Pool) Render(ctx context.Context, req *engine.Request) (*engine.Response, Result, error) {
	j := &job{ctx: ctx, req: req, done: make(chan jobResult, 1)}
	if err := p.dispatch(j, p.opts.QueueTimeout); err != nil {
		return nil, Result{}, err
	}
	r := <-j.done
	return r.resp, r.Result, r.err
}

// dispatch waits for a worker to take j. A job that a worker gave back
// because it began draining is re-dispatched with a fresh wait.
func (p *Pool) dispatch(j *job, wait time.Duration) error {
	select {
	case <-p.closing:
		return ErrPoolClosed
	default:
	}
	p.queued.Add(1)
	defer p.queued.Add(-1)
	t := time.NewTimer(wait)
	defer t.Stop()
	select {
	case p.jobs <- j:
		return nil
	case <-t.C:
		p.metrics.queueTimeouts.Inc()
		return ErrQueueTimeout
	case <-j.ctx.Done():
		return context.Cause(j.ctx)
	case <-p.closing:
		return ErrPoolClosed
	}
}

// Ready reports whether at least one worker is ACTIVE and the pool is open.
func (p *Pool) Ready() bool {
	select {
	case <-p.closing:
		return false
	default:
	}
	return p.ActiveWorkers() > 0
}

// WaitReady blocks until a worker is ACTIVE, ctx ends, or every slot has
// given up (then it returns the last boot error).
func (p *Pool) WaitReady(ctx context.Context) error { return p.WaitActive(ctx, 1) }

// WaitActive blocks until at least n workers are ACTIVE (or as WaitReady).
func (p *Pool) WaitActive(ctx context.Context, n int) error {
	return p.waitUntil(ctx, func() (bool, error) {
		if p.ActiveWorkers() >= n {
			return true, nil
		}
		return false, p.allGaveUp()
	})
}

// WaitFor blocks until ok(Snapshot()) holds, re-checking after every state
// transition, or until ctx ends (ctx's error) or the pool closes
// (ErrPoolClosed).
func (p *Pool) WaitFor(ctx context.Context, ok func([]WorkerStats) bool) error {
	return p.waitUntil(ctx, func() (bool, error) { return ok(p.Snapshot()), nil })
}

// waitUntil is the one wait on pool state (WaitActive, WaitFor, Deploy and
// the rotation coordinator use it): it checks cond, and again after every
// change of pool state (a transition, a queued rotation, a finished drain),
// until cond holds or returns an error (returned), ctx ends, or the pool
// closes (ErrPoolClosed, unless cond holds then).
func (p *Pool) waitUntil(ctx context.Context, cond func() (bool, error)) error {
	for {
		changed := p.changes()
		if ok, err := cond(); ok || err != nil {
			return err
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-p.closing:
			if ok, err := cond(); ok || err != nil {
				return err
			}
			return ErrPoolClosed
		case <-changed:
		}
	}
}

// changes returns a channel closed at the next change of pool state.
func (p *Pool) changes() <-chan struct{} {
	p.changeMu.Lock()
	defer p.changeMu.Unlock()
	return p.changed
}

func (p *Pool) notifyChange() {
	p.changeMu.Lock()
	close(p.changed)
	p.changed = make(chan struct{})
	p.changeMu.Unlock()
}

// ActiveWorkers counts workers (isolates) in state ACTIVE, including a
// rotating slot's old worker until it starts draining.
func (p *Pool) ActiveWorkers() int {
	n := 0
	for _, s := range p.slots {
		s.mu.Lock()
		for _, w := range []*worker{s.cur, s.old} {
			if w != nil && w.state == lifecycle.Active {
				n++
			}
		}
		s.mu.Unlock()
	}
	return n
}

// Close stops the pool: no new requests are taken, idle workers stop at once
// and busy ones finish their render, interrupted after drain_timeout.
// Callers shut the HTTP server down first so in-flight requests complete.
func (p *Pool) Close() {
	p.closeOne.Do(func() { close(p.closing) })
	p.bg.Wait()
	if d := p.opts.Policy.DrainTimeout; d > 0 {
		t := time.AfterFunc(d, func() { p.Interrupt(ErrDrainTimeout) })
		defer t.Stop()
	}
	p.workers.Wait()
}

// Interrupt stops every render in flight with cause (ErrDrainTimeout
// answers 503): for a shutdown whose drain time is up.
func (p *Pool) Interrupt(cause error) {
	for _, s := range p.slots {
		s.mu.Lock()
		ws := []*worker{s.cur, s.old}
		s.mu.Unlock()
		for _, w := range ws {
			if w != nil {
				w.interrupt(cause)
			}
		}
	}
}

func (p *Pool) closed() bool {
	select {
	case <-p.closing:
		return true
	default:
		return false
	}
}
