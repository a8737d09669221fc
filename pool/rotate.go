package pool

import (
	"context"
	"fmt"
	"sync"
	"time"

	"bext/lifecycle"
)

// rotations is the coordinator's queue of rotation requests: FIFO by slot,
// one entry per slot. A request stays queued until the coordinator can act
// on it (see next), so none is dropped while its slot boots, fails or waits
// behind a drain. Lock order: rotations.mu before slot.mu.
type rotations struct {
	mu  sync.Mutex
	q   lifecycle.RotationQueue
	gen map[int]int // generation the request was made for; 0 = whatever serves
}

func (r *rotations) init() { r.gen = map[int]int{} }

// push queues a rotation of slot id for worker generation gen (0: whichever
// worker serves). A slot queued already keeps its place and first reason;
// its generation widens to 0 if either request asked for that, else moves
// to the newer worker, so merging never leaves a live request stale.
func (r *rotations) push(id int, reason lifecycle.Reason, gen int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.q.Push(id, reason) {
		r.gen[id] = gen
	} else if g := r.gen[id]; g != 0 && (gen == 0 || gen > g) {
		r.gen[id] = gen
	}
}

// queueRotation asks the coordinator to rotate slot id (see rotations.push).
func (p *Pool) queueRotation(id int, reason lifecycle.Reason, gen int) {
	p.rot.push(id, reason, gen)
	p.notifyChange()
}

// requestRotation asks the coordinator to rotate w, once per worker;
// detail is what triggered it, with the figures.
func (p *Pool) requestRotation(w *worker, reason lifecycle.Reason, detail string) {
	if w.rotateReq.CompareAndSwap(false, true) {
		w.slot.mu.Lock()
		w.rotateDetail = detail
		w.slot.mu.Unlock()
		p.queueRotation(w.slot.id, reason, w.gen)
	}
}

// rotationDetail says which figure crossed which limit.
func (p *Pool) rotationDetail(id int, reason lifecycle.Reason, served int64, uptime time.Duration, mem int64) string {
	pol := p.opts.Policy
	switch reason {
	case lifecycle.ReasonMaxRequests:
		return fmt.Sprintf("requests %d ≥ %d", served, pol.RequestThreshold(id))
	case lifecycle.ReasonMaxUptime:
		return fmt.Sprintf("uptime %s ≥ %s", uptime.Round(time.Second), pol.MaxUptime)
	case lifecycle.ReasonMaxMemory:
		return fmt.Sprintf("memory %s > %s", megabytes(mem), megabytes(pol.MaxMemoryBytes))
	}
	return ""
}

// megabytes prints n bytes as "31.4 MB" (MiB, as the config's _mb keys).
func megabytes(n int64) string { return fmt.Sprintf("%.1f MB", float64(n)/(1<<20)) }

// task is what the coordinator does for one request.
type task struct {
	kind   taskKind
	s      *slot
	w      *worker // taskRotate: the ACTIVE worker to replace
	reason lifecycle.Reason
}

type taskKind int

const (
	taskDrop   taskKind = iota // stale: the worker it was asked for is gone
	taskRevive                 // the slot is FAILED: boot it again now
	taskRotate                 // replace w surge-first
)

// coordinate runs queued requests one at a time, oldest first among those
// whose slot can act now, re-checking at every change of pool state. At
// most one worker drains at any moment: no ACTIVE worker is rotated while
// another drains, so a worker that crosses its threshold meanwhile keeps
// serving and rotates next.
func (p *Pool) coordinate() {
	defer p.bg.Done()
	for {
		var t task
		err := p.waitUntil(context.Background(), func() (bool, error) {
			var ok bool
			t, ok = p.next()
			return ok, nil
		})
		if err != nil || p.closed() {
			return
		}
		switch t.kind {
		case taskRevive:
			// If it left FAILED since next looked, it is booting again
			// already, from the current factory: the request is met.
			p.revive(t.s, t.reason)
		case taskRotate:
			p.rotate(t.s, t.w, t.reason)
		}
	}
}

// next pops the oldest request the coordinator can act on now. A request
// for a slot that is booting (first boot, or a replacement after a crash),
// or for an ACTIVE worker while some worker drains, keeps its place.
func (p *Pool) next() (task, bool) {
	draining := false
	for _, s := range p.slots {
		s.mu.Lock()
		draining = draining || s.old != nil
		s.mu.Unlock()
	}
	p.rot.mu.Lock()
	defer p.rot.mu.Unlock()
	var t task
	id, reason, ok := p.rot.q.PopFirst(func(id int) bool {
		var ready bool
		t, ready = settled(p.slots[id], p.rot.gen[id], draining)
		return ready
	})
	if !ok {
		return task{}, false
	}
	delete(p.rot.gen, id)
	t.reason = reason
	return t, true
}

// settled decides, under s's lock, what a request for s made for worker
// generation gen (0: whichever serves) needs; ready is false while it waits.
func settled(s *slot, gen int, draining bool) (t task, ready bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	w := s.cur
	t.s = s
	switch {
	case w == nil:
		return t, false // the first boot has not begun
	case gen != 0 && w.gen != gen:
		t.kind = taskDrop
	case w.state == lifecycle.Failed:
		t.kind = taskRevive
	case (w.state == lifecycle.Active || w.state == lifecycle.Degraded) && !draining:
		t.kind, t.w = taskRotate, w
	default:
		return t, false // booting, just crashed, or behind a drain
	}
	return t, true
}

// rotate replaces old, slot s's ACTIVE worker, surge-first: it boots the
// replacement, puts it in the slot (ACTIVE), and drains old in the
// background; the coordinator rotates no other worker until that drain
// ends. If the replacement cannot boot, old keeps serving and the rotation
// is retried after the backoff.
func (p *Pool) rotate(s *slot, old *worker, reason lifecycle.Reason) {
	nw := s.newWorker()
	nw.viaRotation = true
	p.setState(nw, lifecycle.Booting, reason, nil)
	iso, err := p.boot(nw)
	if err != nil {
		p.replacementFailed(s, old, nw, reason, err)
		return
	}
	nw.iso = iso

	s.mu.Lock()
	if s.cur != old || (old.state != lifecycle.Active && old.state != lifecycle.Degraded) || p.closed() {
		// old crashed while nw booted (its own replacement, booted after
		// this request from the current factory, meets it), or the pool is
		// closing: nothing left to do.
		s.mu.Unlock()
		iso.Close()
		p.setState(nw, lifecycle.Stopped, lifecycle.ReasonShutdown, nil)
		return
	}
	s.cur, s.old = nw, old
	old.draining.Store(true) // from here a crash of old is not replaced: nw is its replacement
	s.restarts++
	s.restartsBy[reason]++
	s.lastReason = reason
	s.failures = 0
	detail := old.rotateDetail
	s.mu.Unlock()

	p.setState(nw, lifecycle.Active, lifecycle.ReasonReady, nil)
	what := string(reason)
	if detail != "" {
		what += ": " + detail
	}
	p.log.Info(fmt.Sprintf("rotating worker %d (%s)", s.id, what), "worker", s.id, "generation", nw.gen, "reason", string(reason), "boot", nw.activeAt.Sub(nw.startedAt).Round(time.Millisecond).String())
	p.workers.Add(2)
	go func() {
		defer p.workers.Done()
		p.run(s, nw, reason)
	}()
	go func() {
		defer p.workers.Done()
		p.drain(old, reason)
		s.mu.Lock()
		s.old = nil
		s.mu.Unlock()
		p.notifyChange()
	}()
}

// replacementFailed records a replacement that could not boot: old keeps
// serving and its rotation is retried after the backoff, until the slot's
// failures reach the give-up limit.
func (p *Pool) replacementFailed(s *slot, old, nw *worker, reason lifecycle.Reason, err error) {
	s.mu.Lock()
	s.failures++
	n := s.failures
	s.lastError, s.lastErrorAt = err.Error(), time.Now()
	s.mu.Unlock()
	p.metrics.bootFailures.Inc()
	p.setState(nw, lifecycle.Failed, lifecycle.ReasonBootFailure, err)
	p.setState(nw, lifecycle.Stopped, lifecycle.ReasonBootFailure, nil)
	if p.opts.Policy.Recovery.GiveUp(n) {
		p.log.Error("replacement worker failed to boot too many times; old worker keeps serving", "worker", s.id, "err", err)
		return
	}
	d := p.opts.Policy.Recovery.Backoff(n)
	p.log.Warn("replacement worker failed to boot; old worker keeps serving", "worker", s.id, "retry_in", d, "err", err)
	time.AfterFunc(d, func() { p.queueRotation(s.id, reason, old.gen) })
}

// drain stops w: it takes no new job, finishes the one in flight and stops;
// after drain_timeout the render left is interrupted (its request gets 503).
// drain returns when w's goroutine has stopped.
func (p *Pool) drain(w *worker, reason lifecycle.Reason) {
	s := w.slot
	w.draining.Store(true)
	s.mu.Lock()
	state := w.state
	serving := state == lifecycle.Active || state == lifecycle.Degraded
	if serving {
		w.rotating = reason
	}
	detail := w.rotateDetail
	s.mu.Unlock()
	if !serving {
		<-w.done // it crashed as it was replaced: its goroutine stops by itself
		return
	}
	p.setStateDetail(w, lifecycle.Draining, reason, nil, detail)
	w.ctl <- ctlMsg{kind: ctlDrain}
	if d := p.opts.Policy.DrainTimeout; d > 0 {
		t := time.NewTimer(d)
		defer t.Stop()
		select {
		case <-w.done:
			return
		case <-t.C:
			s.mu.Lock()
			w.rotating = lifecycle.ReasonDrainTimeout
			s.mu.Unlock()
			p.log.Warn("drain timeout: interrupting the render still in flight", "worker", s.id, "generation", w.gen)
			w.interrupt(ErrDrainTimeout)
		}
	}
	<-w.done
}

// Restart asks for a graceful restart of one slot (id >= 0) or of all (id <
// 0) with the given reason, and returns the slots it will restart: every
// one asked for, because each request is honoured. A FAILED slot (waiting
// out its backoff, or given up) boots again now, from the current factory,
// with its failure count cleared. An ACTIVE worker is replaced surge-first in
// its turn, one drain at a time. A slot that is booting (first boot, or a
// replacement after a crash) is restarted once it is ACTIVE, or booted again
// at once if that boot fails. The one exception: a replacement that keeps
// failing to boot until the recovery policy gives up leaves the old worker
// serving (logged as an error). Restart does not wait; see WaitFor.
func (p *Pool) Restart(id int, reason lifecycle.Reason) ([]int, error) {
	if p.closed() {
		return nil, ErrPoolClosed
	}
	if id >= len(p.slots) {
		return nil, fmt.Errorf("%w: %d (this pool has %d: 0..%d)", ErrNoSuchWorker, id, len(p.slots), len(p.slots)-1)
	}
	ids := []int{id}
	if id < 0 {
		ids = ids[:0]
		for i := range p.slots {
			ids = append(ids, i)
		}
	}
	for _, i := range ids {
		if !p.revive(p.slots[i], reason) {
			p.queueRotation(i, reason, 0)
		}
	}
	return ids, nil
}

// Deploy boots one isolate from f to check it and, only if it boots, rolls
// every worker onto f (see DeployBooted). A factory that fails to boot is
// returned as an error and the old workers keep serving.
func (p *Pool) Deploy(ctx context.Context, f Factory, reason lifecycle.Reason) error {
	iso, err := bootWith(f, 0)
	if err != nil {
		return err
	}
	iso.Close()
	return p.DeployBooted(ctx, f, reason)
}

// DeployBooted makes f, which the caller has boot-checked, the pool's
// factory, restarts every worker on a rolling basis (surge-first, one at a
// time) and waits until every serving slot runs f or ctx ends. A slot still
// booting from the old factory is rotated once ACTIVE (see Restart).
func (p *Pool) DeployBooted(ctx context.Context, f Factory, reason lifecycle.Reason) error {
	ref := &factoryRef{f: f, version: p.factory.Load().version + 1}
	p.factory.Store(ref)
	if _, err := p.Restart(-1, reason); err != nil {
		return err
	}
	return p.waitUntil(ctx, func() (bool, error) { return p.allRun(ref.version), nil })
}

// allRun reports whether every slot that has not given up is served by an
// ACTIVE worker of factory version v, with no old worker left draining.
func (p *Pool) allRun(v int64) bool {
	for _, s := range p.slots {
		s.mu.Lock()
		ok := s.gaveUp || (s.cur != nil && s.cur.version >= v && s.cur.state == lifecycle.Active && s.old == nil)
		s.mu.Unlock()
		if !ok {
			return false
		}
	}
	return true
}
