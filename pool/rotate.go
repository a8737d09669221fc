package pool

import (
	"context"
	"fmt"
	"sync"
	"time"

	"bext/lifecycle"
)

// rotations is the coordinator's queue: FIFO by slot, one entry per slot.
type rotations struct {
	mu   sync.Mutex
	q    lifecycle.RotationQueue
	gen  map[int]int // generation the request was made for; 0 = whatever serves
	wake chan struct{}
}

func (r *rotations) init() {
	r.gen = map[int]int{}
	r.wake = make(chan struct{}, 1)
}

func (r *rotations) push(id int, reason lifecycle.Reason, gen int) bool {
	r.mu.Lock()
	ok := r.q.Push(id, reason)
	if ok {
		r.gen[id] = gen
	}
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return ok
}

func (r *rotations) pop() (id int, reason lifecycle.Reason, gen int, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	id, reason, ok = r.q.Pop()
	if ok {
		gen = r.gen[id]
		delete(r.gen, id)
	}
	return id, reason, gen, ok
}

// requestRotation asks the coordinator to rotate w, once per worker.
func (p *Pool) requestRotation(w *worker, reason lifecycle.Reason) {
	if w.rotateReq.CompareAndSwap(false, true) {
		p.rot.push(w.slot.id, reason, w.gen)
	}
}

// coordinate performs queued rotations one at a time, so at most one worker
// drains at any moment; a worker that crosses its threshold meanwhile keeps
// serving and is rotated next, in order.
func (p *Pool) coordinate() {
	defer p.bg.Done()
	for {
		select {
		case <-p.rot.wake:
		case <-p.closing:
			return
		}
		for !p.closed() {
			id, reason, gen, ok := p.rot.pop()
			if !ok {
				break
			}
			p.rotate(p.slots[id], reason, gen)
		}
	}
}

// rotate replaces slot s's worker surge-first: boot the replacement, put it
// in the slot (ACTIVE), then drain the old one. A FAILED slot is revived
// instead. If the replacement cannot boot, the old worker keeps serving and
// the rotation is retried after the backoff.
func (p *Pool) rotate(s *slot, reason lifecycle.Reason, gen int) {
	s.mu.Lock()
	old := s.cur
	var oldState lifecycle.State
	if old != nil {
		oldState = old.state
	}
	s.mu.Unlock()
	if old != nil && gen != 0 && old.gen != gen {
		return // stale: the worker this was asked for is gone already
	}
	if old != nil && oldState == lifecycle.Failed {
		p.revive(s) // it boots from the current factory, now
		return
	}
	if old == nil || oldState != lifecycle.Active {
		// Booting (possibly from an older factory): rotate it once it is
		// ACTIVE (see activated).
		s.mu.Lock()
		if s.pending == "" {
			s.pending = reason
		}
		s.mu.Unlock()
		return
	}

	nw := s.newWorker()
	p.setState(nw, lifecycle.Booting, reason, nil)
	iso, err := p.boot(nw)
	if err != nil {
		p.replacementFailed(s, nw, reason, err)
		return
	}
	nw.iso = iso

	s.mu.Lock()
	if s.cur != old || p.closed() {
		// The old worker crashed and was replaced while we booted, or the
		// pool is closing: this rotation has nothing left to do.
		s.mu.Unlock()
		iso.Close()
		p.setState(nw, lifecycle.Stopped, lifecycle.ReasonShutdown, nil)
		return
	}
	s.cur, s.old = nw, old
	s.restarts++
	s.restartsBy[reason]++
	s.lastReason = reason
	s.failures = 0
	s.mu.Unlock()

	p.setState(nw, lifecycle.Active, lifecycle.ReasonReady, nil)
	p.activated(nw)
	p.workers.Add(1)
	go func() {
		defer p.workers.Done()
		p.run(s, nw, reason)
	}()

	p.drain(old, reason)
	s.mu.Lock()
	if s.old == old {
		s.old = nil
	}
	s.mu.Unlock()
	p.notifyChange()
}

// replacementFailed records a replacement that could not boot: the old
// worker keeps serving and the rotation is retried after the backoff, until
// the slot's failures reach the give-up limit.
func (p *Pool) replacementFailed(s *slot, nw *worker, reason lifecycle.Reason, err error) {
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
	time.AfterFunc(d, func() { p.rot.push(s.id, reason, 0) })
}

// drain stops w: it takes no new job, finishes the one in flight and stops;
// after drain_timeout the render left is interrupted (its request gets 503).
// drain returns when w's goroutine has stopped.
func (p *Pool) drain(w *worker, reason lifecycle.Reason) {
	s := w.slot
	w.draining.Store(true)
	s.mu.Lock()
	state := w.state
	if state == lifecycle.Active {
		w.rotating = reason
	}
	s.mu.Unlock()
	if state != lifecycle.Active {
		<-w.done // booting or failed: it stops by itself when the pool closes
		return
	}
	p.setState(w, lifecycle.Draining, reason, nil)
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

// Restart schedules a graceful rolling restart of one slot (id >= 0) or of
// all (id < 0) with the given reason, and returns the slots scheduled:
// every one asked for, since no request is dropped — a slot that gave up or
// waits out a backoff boots now, one that is booting restarts once ACTIVE,
// one that is busy rotating takes its turn after.
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
		if !p.revive(p.slots[i]) {
			p.rot.push(i, reason, 0)
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
// booting from the old factory is rotated once ACTIVE.
func (p *Pool) DeployBooted(ctx context.Context, f Factory, reason lifecycle.Reason) error {
	ref := &factoryRef{f: f, version: p.factory.Load().version + 1, reason: reason}
	p.factory.Store(ref)
	if _, err := p.Restart(-1, reason); err != nil {
		return err
	}
	return p.waitUntil(ctx, func() bool { return p.allRun(ref.version) })
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
