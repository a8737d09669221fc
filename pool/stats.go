package pool

import (
	"time"

	"bext/engine"
	"bext/lifecycle"
)

// WorkerStats is one slot as /__bext/workers and bext ps show it. While a
// rotation drains the slot's old worker, the row describes that worker
// (state DRAINING, Rotating says why); its replacement is already serving.
type WorkerStats struct {
	ID                int     `json:"id"`
	State             string  `json:"state"`
	RequestsServed    int64   `json:"requests_served"`
	RequestsFailed    int64   `json:"requests_failed"`
	TotalRenderTimeMS float64 `json:"total_render_time_ms"`
	AvgRenderTimeMS   float64 `json:"avg_render_time_ms"`
	Health            string  `json:"health"`            // healthy, unhealthy or unknown
	PeakMemoryBytes   int64   `json:"peak_memory_bytes"` // highest of any generation of the slot
	// PeakMemoryGenerationBytes is the highest of the current generation.
	PeakMemoryGenerationBytes int64      `json:"peak_memory_generation_bytes"`
	CurrentMemoryBytes        int64      `json:"current_memory_bytes"`
	StartedAt                 time.Time  `json:"started_at"`
	LastRequestAt             *time.Time `json:"last_request_at"`
	UptimeSeconds             float64    `json:"uptime_seconds"`
	Restarts                  int        `json:"restarts"`
	ConsecutiveFailures       int        `json:"consecutive_failures"`
	InFlight                  int        `json:"in_flight"`
	Generation                int        `json:"generation"`
	LastRotationReason        string     `json:"last_rotation_reason"`
	LastError                 string     `json:"last_error"`
	Rotating                  string     `json:"rotating,omitempty"`
	// RotatingDetail is what triggered the rotation or DEGRADED state, with
	// its figures ("memory 31.4 MB > 16 MB").
	RotatingDetail string `json:"rotating_detail,omitempty"`
	GaveUp         bool   `json:"gave_up"`

	// Cumulative across generations, for Prometheus counters.
	servedTotal, failedTotal int64
	restartsBy               map[lifecycle.Reason]int64
}

// TransitionInfo is one history entry in the JSON API.
type TransitionInfo struct {
	From       string    `json:"from"`
	To         string    `json:"to"`
	Reason     string    `json:"reason"`
	At         time.Time `json:"at"`
	InPrevious float64   `json:"in_previous_ms"`
	Error      string    `json:"error,omitempty"`
	Detail     string    `json:"detail,omitempty"`
}

// WorkerDetail is one slot with its transition history and console tail.
type WorkerDetail struct {
	WorkerStats
	History []TransitionInfo     `json:"history"`
	Console []engine.ConsoleLine `json:"console"`
}

// Snapshot returns every slot's stats, in id order.
func (p *Pool) Snapshot() []WorkerStats {
	now := time.Now()
	out := make([]WorkerStats, len(p.slots))
	for i, s := range p.slots {
		out[i] = s.stats(now)
	}
	return out
}

// Worker returns one slot's detail, or ErrNoSuchWorker.
func (p *Pool) Worker(id int) (WorkerDetail, error) {
	if id < 0 || id >= len(p.slots) {
		return WorkerDetail{}, ErrNoSuchWorker
	}
	s := p.slots[id]
	d := WorkerDetail{WorkerStats: s.stats(time.Now()), History: []TransitionInfo{}, Console: []engine.ConsoleLine{}}
	for _, t := range s.history.List() {
		d.History = append(d.History, TransitionInfo{From: t.From.String(), To: t.To.String(), Reason: string(t.Reason),
			At: t.At, InPrevious: float64(t.InPrevious.Microseconds()) / 1000, Error: t.Err, Detail: t.Detail})
	}
	s.mu.Lock()
	var iso Isolate
	if s.cur != nil {
		iso = s.cur.iso
	}
	s.mu.Unlock()
	if iso != nil {
		d.Console = append(d.Console, iso.Console()...)
	}
	return d, nil
}

func (s *slot) stats(now time.Time) WorkerStats {
	s.mu.Lock()
	defer s.mu.Unlock()
	st := WorkerStats{ID: s.id, Restarts: s.restarts, ConsecutiveFailures: s.failures, LastRotationReason: string(s.lastReason),
		LastError: s.lastError, GaveUp: s.gaveUp, servedTotal: s.servedTotal, failedTotal: s.failedTotal,
		restartsBy: make(map[lifecycle.Reason]int64, len(s.restartsBy))}
	for k, v := range s.restartsBy {
		st.restartsBy[k] = v
	}
	w := s.cur
	if s.old != nil {
		w = s.old
	}
	st.PeakMemoryBytes = s.memPeak
	if w == nil {
		st.State, st.Health = lifecycle.Stopped.String(), string(lifecycle.HealthUnknown)
		return st
	}
	st.State = w.state.String()
	switch {
	case w.state == lifecycle.Draining:
		st.Rotating, st.RotatingDetail = string(w.rotating), w.rotateDetail
	case w.state == lifecycle.Degraded:
		st.Rotating, st.RotatingDetail = string(lifecycle.ReasonUnhealthy), w.rotateDetail
	}
	st.Health = string(w.healthNow())
	st.RequestsServed, st.RequestsFailed = w.served, w.failed
	st.TotalRenderTimeMS = float64(w.renderTime.Microseconds()) / 1000
	if w.served > 0 {
		st.AvgRenderTimeMS = st.TotalRenderTimeMS / float64(w.served)
	}
	st.PeakMemoryGenerationBytes, st.CurrentMemoryBytes = w.memPeak, w.memCur
	st.StartedAt = w.startedAt
	if !w.lastRequest.IsZero() {
		t := w.lastRequest
		st.LastRequestAt = &t
	}
	if w.state == lifecycle.Active || w.state == lifecycle.Draining {
		st.UptimeSeconds = now.Sub(w.activeAt).Seconds()
	}
	st.InFlight = w.inFlight
	if s.old != nil && s.cur != nil {
		st.InFlight += s.cur.inFlight
	}
	st.Generation = w.gen
	return st
}

// QueueDepth is the number of requests waiting for a worker.
func (p *Pool) QueueDepth() int64 { return p.queued.Load() }

// InFlight is the number of renders running now.
func (p *Pool) InFlight() int64 { return p.inFlight.Load() }
