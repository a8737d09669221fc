package pool

import (
	"time"

	"bext/lifecycle"
)

// monitor asks every ACTIVE worker for kind (a memory measurement, a
// health check) each interval. The work runs on the worker's own goroutine
// between two renders (the worker is checked out: it takes no job
// meanwhile), so it never races a render, and delays a queued request by
// at most one measurement or check.
func (p *Pool) monitor(interval time.Duration, kind ctlKind) {
	defer p.bg.Done()
	t := time.NewTicker(interval)
	defer t.Stop()
	for {
		select {
		case <-t.C:
		case <-p.closing:
			return
		}
		for _, s := range p.slots {
			p.askSlot(s, kind)
		}
	}
}

// askSlot sends kind to slot s's ACTIVE worker and waits for the answer (or
// for the worker to stop).
func (p *Pool) askSlot(s *slot, kind ctlKind) {
	s.mu.Lock()
	w := s.cur
	ok := w != nil && w.state == lifecycle.Active
	s.mu.Unlock()
	if !ok {
		return
	}
	reply := make(chan int64, 1)
	select {
	case w.ctl <- ctlMsg{kind: kind, reply: reply}:
	default:
		return // its control queue is full: it is stopping
	}
	select {
	case <-reply:
	case <-w.done:
	case <-p.closing:
	}
}

// measure runs on w's goroutine while it is idle.
func (p *Pool) measure(w *worker) int64 {
	start := time.Now()
	n := w.iso.HeapBytes()
	p.metrics.memWalk.Observe(time.Since(start).Seconds())
	s := w.slot
	s.mu.Lock()
	served := w.served
	w.memCur = n
	w.memPeak = max(w.memPeak, n)
	s.memPeak = max(s.memPeak, n)
	s.mu.Unlock()
	if lim := p.opts.Policy.MaxMemoryBytes; lim > 0 && n > lim {
		if served == 0 {
			// A fresh isolate over the limit would rotate forever.
			p.log.Warn("max_memory_mb is below the size of a fresh isolate; not rotating for memory", "worker", s.id, "attributed_bytes", n, "limit_bytes", lim)
		} else {
			p.requestRotation(w, lifecycle.ReasonMaxMemory, p.rotationDetail(s.id, lifecycle.ReasonMaxMemory, served, 0, n))
		}
	}
	return n
}
