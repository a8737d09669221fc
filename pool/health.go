package pool

import (
	"context"
	"errors"
	"fmt"

	"bext/engine"
	"bext/lifecycle"
)

// outcomes is a worker's record of its recent renders: a ring of the last
// Window results and the failures in a row. Guarded by slot.mu.
type outcomes struct {
	ring   []bool // true = failed
	next   int
	n      int // renders in the ring
	fails  int // failures in the ring
	consec int
}

func (o *outcomes) add(failed bool, window int) {
	if window <= 0 {
		window = 1
	}
	if o.ring == nil {
		o.ring = make([]bool, window)
	}
	if o.n == len(o.ring) {
		if o.ring[o.next] {
			o.fails--
		}
	} else {
		o.n++
	}
	o.ring[o.next] = failed
	o.next = (o.next + 1) % len(o.ring)
	if failed {
		o.fails++
		o.consec++
	} else {
		o.consec = 0
	}
}

// degradeOn reports whether the degrade rule is on.
func (p *Pool) degradeOn() bool {
	d := p.opts.Policy.Degrade
	return d.ConsecutiveFailures > 0 || d.FailureRate > 0
}

// maybeDegrade, after a failed render of w whose record is now o, degrades
// w when it fails clearly above its peers.
func (p *Pool) maybeDegrade(w *worker, o outcomes) {
	s := w.slot
	peerFails, peerN := 0, 0
	for _, ps := range p.slots {
		if ps == s {
			continue
		}
		ps.mu.Lock()
		if pw := ps.cur; pw != nil && pw.state == lifecycle.Active {
			peerFails += pw.outcomes.fails
			peerN += pw.outcomes.n
		}
		ps.mu.Unlock()
	}
	if detail, ok := p.opts.Policy.Degrade.Unhealthy(o.consec, o.fails, o.n, peerFails, peerN); ok {
		p.degrade(w, detail)
	}
}

// degrade takes w (ACTIVE) out of service — DEGRADED, no new renders — and
// asks for its surge-first rotation with reason unhealthy. At most one
// worker of the pool is degraded or rotating as unhealthy at a time, so a
// failure that spreads never turns into a rotation storm.
func (p *Pool) degrade(w *worker, detail string) bool {
	p.degradeMu.Lock()
	defer p.degradeMu.Unlock()
	for _, s := range p.slots {
		s.mu.Lock()
		busy := false
		for _, o := range []*worker{s.cur, s.old} {
			if o != nil && o != w && (o.state == lifecycle.Degraded || o.rotating == lifecycle.ReasonUnhealthy) {
				busy = true
			}
		}
		s.mu.Unlock()
		if busy {
			return false
		}
	}
	s := w.slot
	s.mu.Lock()
	ok := s.cur == w && w.state == lifecycle.Active && !w.draining.Load()
	if ok {
		w.paused.Store(true)
		w.rotateDetail = detail
	}
	s.mu.Unlock()
	if !ok {
		return false
	}
	p.setStateDetail(w, lifecycle.Degraded, lifecycle.ReasonUnhealthy, nil, detail)
	p.log.Warn(fmt.Sprintf("worker %d is unhealthy: %s; replacing it", s.id, detail), "worker", s.id, "generation", w.gen)
	w.rotateReq.Store(true)
	p.queueRotation(s.id, lifecycle.ReasonUnhealthy, w.gen)
	return true
}

// checkHealth runs the health check on w's goroutine and reports whether
// it crashed the isolate (a check that times out or panics kills it as a
// render would; w is then STOPPED and the caller boots a replacement).
func (p *Pool) checkHealth(w *worker) (crashed bool) {
	ctx, cancel := context.WithCancelCause(context.Background())
	defer cancel(nil)
	ctx, cancelTimeout := context.WithTimeoutCause(ctx, p.opts.RenderTimeout, ErrRenderTimeout)
	defer cancelTimeout()
	s := w.slot
	s.mu.Lock()
	w.cancel = cancel // a drain or shutdown interrupts a check as it does a render
	s.mu.Unlock()
	err := p.opts.HealthCheck(ctx, w.iso)
	s.mu.Lock()
	w.cancel = nil
	if errors.Is(err, engine.ErrNoHealth) {
		s.mu.Unlock()
		return false // nothing to check: the health stays what renders say
	}
	if err == nil {
		w.healthFails, w.health = 0, lifecycle.HealthHealthy
		s.mu.Unlock()
		return false
	}
	w.healthFails++
	w.health = lifecycle.HealthUnhealthy
	n := w.healthFails
	s.mu.Unlock()
	max := p.opts.Policy.MaxHealthFailures
	if max <= 0 {
		max = 3
	}
	p.log.Warn("health check failed", "worker", s.id, "generation", w.gen, "failures", n, "of", max, "err", err.Error())
	if fatal(err) {
		p.setStateDetail(w, lifecycle.Stopped, lifecycle.ReasonCrash, err, "health check: "+err.Error())
		w.iso.Close()
		return true
	}
	if n >= max && !p.peersUnhealthy(s) {
		p.degrade(w, fmt.Sprintf("health check failed %d times in a row: %v", n, err))
	}
	return false
}

// peersUnhealthy reports whether s has ACTIVE peers and every one of them
// fails its health checks too: a shared cause (a backend down), which no
// rotation cures.
func (p *Pool) peersUnhealthy(s *slot) bool {
	peers, sick := 0, 0
	for _, ps := range p.slots {
		if ps == s {
			continue
		}
		ps.mu.Lock()
		if pw := ps.cur; pw != nil && pw.state == lifecycle.Active {
			peers++
			if pw.health == lifecycle.HealthUnhealthy {
				sick++
			}
		}
		ps.mu.Unlock()
	}
	return peers > 0 && sick == peers
}

// healthNow is w's health (slot.mu held): unhealthy while DEGRADED or
// failing its health checks, healthy once it rendered or passed a check,
// unknown before.
func (w *worker) healthNow() lifecycle.Health {
	switch {
	case w.state == lifecycle.Degraded || w.healthFails > 0:
		return lifecycle.HealthUnhealthy
	case w.health == "":
		return lifecycle.HealthUnknown
	}
	return w.health
}
