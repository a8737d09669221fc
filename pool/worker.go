package pool

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	"bext/engine"
	"bext/lifecycle"
)

// runWorker is the loop of the goroutine that owns w's isolate: it takes
// jobs while ACTIVE, answers the memory monitor when idle, and asks for
// rotation when a threshold is crossed. It returns true when a render
// crashed the isolate (the caller boots a replacement), false when the
// worker was drained.
func (p *Pool) runWorker(w *worker) (crashed bool) {
	s, pol := w.slot, p.opts.Policy
	if left, ok := pol.UptimeLeft(0); ok {
		t := time.AfterFunc(left, func() {
			p.requestRotation(w, lifecycle.ReasonMaxUptime, p.rotationDetail(s.id, lifecycle.ReasonMaxUptime, 0, pol.MaxUptime, 0))
		})
		defer t.Stop()
	}
	s.mu.Lock()
	failing := s.failures > 0
	s.mu.Unlock()
	if failing && pol.Recovery.HealthyReset > 0 {
		t := time.AfterFunc(pol.Recovery.HealthyReset, func() { p.healthy(w) })
		defer t.Stop()
	}
	if p.opts.MemoryCheck > 0 {
		p.measure(w) // so memory shows from the start, not after the first check
	}
	for {
		jobs := p.jobs
		if w.draining.Load() || w.paused.Load() {
			jobs = nil
		}
		select {
		case j := <-jobs:
			if w.draining.Load() || w.paused.Load() {
				// Drain began while this worker was waiting: hand the job on.
				go p.redispatch(j)
				continue
			}
			if p.serve(w, j) {
				return !w.draining.Load()
			}
		case m := <-w.ctl:
			switch m.kind {
			case ctlMeasure:
				m.reply <- p.measure(w)
			case ctlHealth:
				crashed := p.checkHealth(w)
				m.reply <- 0
				if crashed {
					return !w.draining.Load()
				}
			case ctlDrain:
				s.mu.Lock()
				reason := lifecycle.ReasonDrained
				if w.rotating == lifecycle.ReasonDrainTimeout {
					reason = lifecycle.ReasonDrainTimeout
				}
				s.mu.Unlock()
				p.setState(w, lifecycle.Stopped, reason, nil)
				w.iso.Close()
				return false
			}
		case <-p.closing:
			p.setState(w, lifecycle.Stopped, lifecycle.ReasonShutdown, nil)
			w.iso.Close()
			return false
		}
	}
}

// redispatch gives a job a draining worker picked up back to the pool.
func (p *Pool) redispatch(j *job) {
	if err := p.dispatch(j, p.opts.QueueTimeout); err != nil {
		j.done <- jobResult{err: err}
	}
}

// serve renders one job on w and reports whether the isolate crashed (it is
// then STOPPED and closed).
func (p *Pool) serve(w *worker, j *job) (crashed bool) {
	s := w.slot
	ctx, cancelTimeout := context.WithTimeoutCause(j.ctx, p.opts.RenderTimeout, ErrRenderTimeout)
	ctx, cancel := context.WithCancelCause(ctx)
	start := time.Now()
	s.mu.Lock()
	w.inFlight, w.cancel, w.renderStart = 1, cancel, start
	s.mu.Unlock()
	p.inFlight.Add(1)
	select {
	case p.renderStarted <- struct{}{}:
	default:
	}

	resp, err := render(ctx, w.iso, j.req)

	p.inFlight.Add(-1)
	cancel(nil)
	cancelTimeout()
	end := time.Now()
	d := end.Sub(start)
	crashed = err != nil && fatal(err)

	s.mu.Lock()
	w.inFlight, w.cancel = 0, nil
	w.served++
	w.renderTime += d
	w.lastRequest = end
	s.servedTotal++
	if err != nil {
		w.failed++
		s.failedTotal++
		s.lastError, s.lastErrorAt = err.Error(), end
	}
	failed := err != nil || (resp != nil && resp.Status >= 500) // JS exception or 5xx
	if !failed && w.healthFails == 0 {
		w.health = lifecycle.HealthHealthy
	}
	degrade := p.degradeOn()
	if degrade {
		w.outcomes.add(failed, p.opts.Policy.Degrade.Window)
	}
	record := w.outcomes
	served, uptime, mem := w.served, end.Sub(w.activeAt), w.memCur
	s.mu.Unlock()

	p.metrics.observeRender(s.id, d, err)
	if crashed {
		// Stop the isolate before answering, so whoever sees the failure
		// sees the worker already STOPPED.
		reason := lifecycle.ReasonCrash
		s.mu.Lock()
		if w.rotating == lifecycle.ReasonDrainTimeout {
			reason = lifecycle.ReasonDrainTimeout // interrupted by the drain, not crashed
		}
		s.mu.Unlock()
		p.setState(w, lifecycle.Stopped, reason, err)
		w.iso.Close()
	}
	j.done <- jobResult{resp: resp, err: err, Result: Result{Worker: s.id, Generation: w.gen, Duration: d}}
	if !crashed {
		if degrade && failed {
			p.maybeDegrade(w, record)
		}
		if reason, ok := p.opts.Policy.ShouldRotate(s.id, served, uptime, mem); ok {
			p.requestRotation(w, reason, p.rotationDetail(s.id, reason, served, uptime, mem))
		}
	}
	return crashed
}

// render calls the isolate, turning a panic that escaped it into a fatal
// error so one bad render can never take the server down.
func render(ctx context.Context, iso Isolate, req *engine.Request) (resp *engine.Response, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &panicError{msg: fmt.Sprint(r), stack: string(debug.Stack())}
		}
	}()
	return iso.Render(ctx, req)
}

type panicError struct{ msg, stack string }

func (e *panicError) Error() string { return "render panicked: " + e.msg }
func (e *panicError) Fatal() bool   { return true }

// healthy clears the slot's consecutive failures once w has stayed ACTIVE
// for healthy_reset without a crash.
func (p *Pool) healthy(w *worker) {
	s := w.slot
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.cur == w && w.state == lifecycle.Active {
		s.failures = 0
	}
}

// interrupt cancels w's current render, if any, with cause.
func (w *worker) interrupt(cause error) {
	w.slot.mu.Lock()
	defer w.slot.mu.Unlock()
	if w.cancel != nil {
		w.cancel(cause)
	}
}
