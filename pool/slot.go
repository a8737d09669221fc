package pool

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"bext/lifecycle"
)

// slot is one of the N places a worker serves from. Its id labels metrics,
// so cardinality stays fixed across rotations. mu guards the slot and the
// stats of its workers; critical sections are a few field updates.
type slot struct {
	id      int
	mu      sync.Mutex
	cur     *worker // the worker taking requests (or booting, or failed)
	old     *worker // a predecessor still draining, shown while it drains
	gen     int     // generation of the newest worker
	history *lifecycle.History

	restarts    int // replacements since start, any reason
	failures    int // consecutive slot failures (boot errors)
	gaveUp      bool
	lastReason  lifecycle.Reason
	lastError   string
	lastErrorAt time.Time
	restartsBy  map[lifecycle.Reason]int64 // cumulative, for Prometheus
	servedTotal int64                      // renders across generations
	failedTotal int64
	memPeak     int64 // highest attributed heap of any of its workers
	// wake, while the slot is FAILED, takes the reason of a restart that
	// revives it (buffered 1, sent to once).
	wake chan lifecycle.Reason
}

func newSlot(id, historyLen int) *slot {
	return &slot{id: id, history: lifecycle.NewHistory(historyLen), restartsBy: map[lifecycle.Reason]int64{}}
}

// worker is one isolate generation in a slot, owned by one goroutine.
type worker struct {
	slot      *slot
	gen       int
	iso       Isolate
	ctl       chan ctlMsg   // drain and measure requests; buffered
	done      chan struct{} // closed when the goroutine has stopped
	draining  atomic.Bool
	rotateReq atomic.Bool // a rotation was asked for this worker already
	paused    atomic.Bool // DEGRADED: takes no new render

	// guarded by slot.mu
	state       lifecycle.State
	stateSince  time.Time
	startedAt   time.Time
	activeAt    time.Time
	served      int64
	failed      int64
	renderTime  time.Duration
	lastRequest time.Time
	renderStart time.Time // of the render in flight
	// memInterrupted: the memory guard interrupted this worker's render.
	memInterrupted bool
	inFlight       int
	memCur         int64
	memPeak        int64
	rotating       lifecycle.Reason // why it is draining
	bootReason     lifecycle.Reason // why it booted, for the "worker ready" line
	rotateDetail   string           // what triggered its rotation, with the figures
	viaRotation    bool             // booted by rotate, which logs the rotation itself
	outcomes       outcomes         // its recent renders, for the degrade rule
	health         lifecycle.Health // "" = unknown
	healthFails    int              // failed health checks in a row
	version        int64            // factory version it booted from
	cancel         context.CancelCauseFunc
}

type ctlKind int

const (
	ctlDrain ctlKind = iota
	ctlMeasure
	ctlHealth
)

type ctlMsg struct {
	kind  ctlKind
	reply chan int64 // for ctlMeasure and ctlHealth
}

// setState records a transition of w (checked against the table) in the
// slot's history, logs it and tells observers. Callers hold no locks.
func (p *Pool) setState(w *worker, to lifecycle.State, reason lifecycle.Reason, cause error) error {
	return p.setStateDetail(w, to, reason, cause, "")
}

// setStateDetail is setState recording what triggered the transition.
func (p *Pool) setStateDetail(w *worker, to lifecycle.State, reason lifecycle.Reason, cause error, detail string) error {
	s := w.slot
	s.mu.Lock()
	from := w.state
	if err := lifecycle.Check(from, to); err != nil {
		s.mu.Unlock()
		p.log.Error("bug: illegal worker transition", "worker", s.id, "generation", w.gen, "err", err)
		return err
	}
	now := time.Now()
	t := lifecycle.Transition{From: from, To: to, Reason: reason, At: now, InPrevious: now.Sub(w.stateSince), Detail: detail}
	if cause != nil {
		t.Err = cause.Error()
	}
	w.state, w.stateSince = to, now
	if to == lifecycle.Active {
		w.activeAt = now
	}
	if to == lifecycle.Booting {
		w.bootReason = reason
	}
	bootReason, viaRotation := w.bootReason, w.viaRotation
	s.history.Add(t)
	s.mu.Unlock()

	p.metrics.transitions.WithLabelValues(from.String(), to.String(), string(reason)).Inc()
	attrs := []any{"worker", s.id, "generation", w.gen, "from", from.String(), "to", to.String(), "reason", string(reason), "after", t.InPrevious.Round(time.Microsecond).String()}
	if cause != nil {
		attrs = append(attrs, "err", cause.Error())
	}
	if detail != "" {
		attrs = append(attrs, "detail", detail)
	}
	// Every transition at debug (a rotation is three of them), failures at
	// warn (giving up is logged again, as an error); one info line when a
	// worker is ready, naming why it booted.
	level := slog.LevelDebug
	if cause != nil {
		level = slog.LevelWarn
	}
	p.log.Log(context.Background(), level, "worker transition", attrs...)
	if to == lifecycle.Active && !viaRotation {
		p.log.Info("worker ready", "worker", s.id, "generation", w.gen, "reason", string(bootReason), "boot", t.InPrevious.Round(time.Millisecond).String())
	}
	// Observers first: whoever WaitActive wakes can read the event.
	if p.opts.Observe != nil {
		p.opts.Observe(Event{Worker: s.id, Generation: w.gen, Transition: t, ActiveWorkers: p.ActiveWorkers()})
	}
	p.notifyChange()
	return nil
}

// newWorker makes the next generation of s in state STOPPED (the state of an
// empty slot), ready to be moved to BOOTING.
func (s *slot) newWorker() *worker {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.gen++
	now := time.Now()
	return &worker{slot: s, gen: s.gen, ctl: make(chan ctlMsg, 4), done: make(chan struct{}),
		state: lifecycle.Stopped, stateSince: now, startedAt: now}
}

// startBoot boots a new worker into slot s on a goroutine of its own,
// retrying with backoff on failure. reason is why the slot is (re)booting.
func (p *Pool) startBoot(s *slot, reason lifecycle.Reason) {
	p.workers.Add(1)
	go func() {
		defer p.workers.Done()
		p.run(s, nil, reason)
	}()
}

// run owns slot s's worker w (booting one first when w is nil) until it
// stops. A request-induced crash replaces the isolate at once, in this same
// goroutine, and never counts as a slot failure.
func (p *Pool) run(s *slot, w *worker, reason lifecycle.Reason) {
	for {
		if w == nil {
			if w = p.bootUntilActive(s, reason); w == nil {
				return
			}
		}
		crashed := p.runWorker(w)
		close(w.done)
		if !crashed || p.closed() {
			return
		}
		s.mu.Lock()
		s.restarts++
		s.restartsBy[lifecycle.ReasonCrash]++
		s.lastReason = lifecycle.ReasonCrash
		s.mu.Unlock()
		w, reason = nil, lifecycle.ReasonCrash
	}
}

// bootUntilActive boots a new worker into s until one is ACTIVE (returned),
// or the pool closes (nil). One worker object goes BOOTING -> FAILED ->
// BOOTING ... so its history shows every attempt; after the k-th consecutive
// failure the next attempt waits Backoff(k) (the first retry is immediate).
// A slot that gives up waits, FAILED, for a manual restart.
func (p *Pool) bootUntilActive(s *slot, reason lifecycle.Reason) *worker {
	rec := p.opts.Policy.Recovery
	w := s.newWorker()
	s.mu.Lock()
	s.cur = w
	s.mu.Unlock()
	stop := func() *worker {
		p.setState(w, lifecycle.Stopped, lifecycle.ReasonShutdown, nil)
		close(w.done)
		return nil
	}
	for {
		p.setState(w, lifecycle.Booting, reason, nil)
		iso, err := p.boot(w)
		if err == nil {
			if p.closed() {
				iso.Close()
				return stop()
			}
			w.iso = iso
			p.setState(w, lifecycle.Active, lifecycle.ReasonReady, nil)
			return w
		}
		s.mu.Lock()
		s.failures++
		n := s.failures
		s.lastError, s.lastErrorAt = err.Error(), time.Now()
		giveUp := rec.GiveUp(n)
		s.gaveUp = giveUp
		wake := make(chan lifecycle.Reason, 1)
		s.wake = wake
		s.mu.Unlock()
		p.metrics.bootFailures.Inc()
		p.setState(w, lifecycle.Failed, lifecycle.ReasonBootFailure, err)
		if giveUp {
			p.log.Error("worker slot gave up after failing to boot too many times in a row; "+
				"the pool serves with fewer workers until `bext workers restart --worker N`",
				"worker", s.id, "consecutive_failures", n, "err", err)
			p.notifyChange()
		}
		var ok bool
		if reason, ok = p.awaitRetry(wake, giveUp, rec.Backoff(n)); !ok {
			return stop()
		}
	}
}

// awaitRetry waits, FAILED, until the slot may boot again: d after the
// failure, never by itself once it gave up, at once when a restart revives
// it. It returns the reason of the next boot (backoff, or the restart's),
// and false when the pool is closing.
func (p *Pool) awaitRetry(wake <-chan lifecycle.Reason, giveUp bool, d time.Duration) (lifecycle.Reason, bool) {
	var elapsed <-chan time.Time
	if !giveUp {
		if d <= 0 {
			return lifecycle.ReasonBackoff, !p.closed()
		}
		t := time.NewTimer(d)
		defer t.Stop()
		elapsed = t.C
	}
	select {
	case <-elapsed:
		return lifecycle.ReasonBackoff, !p.closed()
	case r := <-wake:
		return r, !p.closed()
	case <-p.closing:
		return lifecycle.ReasonNone, false
	}
}

// revive wakes a FAILED slot (waiting out a backoff, or given up) so it boots
// again now, from the current factory, for reason, with its failure count
// cleared. It reports whether the slot was FAILED.
func (p *Pool) revive(s *slot, reason lifecycle.Reason) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == nil || s.cur.state != lifecycle.Failed || s.wake == nil {
		return false
	}
	s.failures, s.gaveUp = 0, false
	s.wake <- reason
	s.wake = nil
	return true
}

// boot boots an isolate for w's slot from the current factory and records
// which factory version w runs.
func (p *Pool) boot(w *worker) (Isolate, error) {
	ref := p.factory.Load()
	iso, err := bootWith(ref.f, w.slot.id)
	if err == nil {
		w.slot.mu.Lock()
		w.version = ref.version
		w.slot.mu.Unlock()
	}
	return iso, err
}

// bootWith calls f, turning a panic into an error so a broken host setup is
// a slot failure, not a crashed server.
func bootWith(f Factory, id int) (iso Isolate, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("isolate boot panicked: %v", r)
		}
	}()
	iso, err = f(id)
	if err == nil && iso == nil {
		err = errors.New("factory returned no isolate")
	}
	return iso, err
}

// allGaveUp returns an error if every slot has given up, else nil.
func (p *Pool) allGaveUp() error {
	var last string
	for _, s := range p.slots {
		s.mu.Lock()
		g, e := s.gaveUp, s.lastError
		s.mu.Unlock()
		if !g {
			return nil
		}
		last = e
	}
	return fmt.Errorf("every worker slot gave up booting; last error: %s", last)
}
