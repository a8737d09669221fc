package lifecycle

import (
	"fmt"
	"math"
	"time"
)

// Recovery is the slot-failure policy of DESIGN.md "Lifecycle policy"
// ([render.lifecycle.recovery]): how long a Failed slot waits before booting
// again, when its failure count resets, and when it gives up. Request-induced
// crashes do not go through it; they replace the isolate at once.
type Recovery struct {
	// MaxConsecutiveFailures is how many consecutive slot failures leave the
	// slot Failed for good; 0 means never give up.
	MaxConsecutiveFailures int
	// BackoffInitial is the wait before restart attempt 2.
	BackoffInitial time.Duration
	// BackoffMax caps every wait; <= 0 means no cap.
	BackoffMax time.Duration
	// BackoffMultiplier scales each wait after attempt 2; below 1 it is
	// treated as 1, so the schedule never shrinks.
	BackoffMultiplier float64
	// HealthyReset is how long a worker must stay Active without a crash for
	// its failure count to start again from 0.
	HealthyReset time.Duration
}

// Policy is the rotation policy of one pool ([render.lifecycle]) plus its
// Recovery. It is a plain value: the pool reads it, lifecycle never mutates it.
type Policy struct {
	// Workers is the number of slots, n in the stagger formula.
	Workers int
	// MaxRequests is the base render count before rotation; <= 0 means never.
	MaxRequests int64
	// MaxUptime is the age at which a worker rotates; <= 0 means never.
	MaxUptime time.Duration
	// MaxMemoryBytes is the attributed-heap limit; <= 0 means no limit.
	MaxMemoryBytes int64
	// DrainTimeout bounds how long a Draining worker may finish in-flight
	// renders before they are interrupted.
	DrainTimeout time.Duration
	Recovery     Recovery
	// Degrade takes a worker failing above its peers out of service.
	Degrade Degrade
	// MaxHealthFailures failed health checks in a row degrade a worker
	// (when the pool has a health check); <= 0 means 3.
	MaxHealthFailures int
}

// DefaultPolicy returns the defaults of DESIGN.md and config.toml: 4 workers,
// max_requests 10000, max_uptime 24h, max_memory 512 MiB, drain 5s, and
// recovery with 10 consecutive failures, backoff 100ms x3 up to 60s, healthy
// reset after 60s.
func DefaultPolicy() Policy {
	return Policy{
		Workers:        4,
		MaxRequests:    10000,
		MaxUptime:      24 * time.Hour,
		MaxMemoryBytes: 512 << 20,
		DrainTimeout:   5 * time.Second,
		Recovery: Recovery{
			MaxConsecutiveFailures: 10,
			BackoffInitial:         100 * time.Millisecond,
			BackoffMax:             60 * time.Second,
			BackoffMultiplier:      3.0,
			HealthyReset:           60 * time.Second,
		},
		Degrade:           DefaultDegrade(),
		MaxHealthFailures: 3,
	}
}

// RequestThreshold returns the render count at which slot id (0-based) of
// p.Workers rotates: MaxRequests + id*(MaxRequests/10)/Workers in integer
// math, as in the seed. The stagger spreads thresholds over 10% of
// MaxRequests so the workers of a pool, booted together, do not all rotate
// together. It returns 0 (never) if MaxRequests <= 0. With Workers <= 0 or a
// negative id there is no stagger.
func (p Policy) RequestThreshold(id int) int64 {
	if p.MaxRequests <= 0 {
		return 0
	}
	if p.Workers <= 0 || id <= 0 {
		return p.MaxRequests
	}
	return p.MaxRequests + int64(id)*(p.MaxRequests/10)/int64(p.Workers)
}

// ShouldRotate reports whether slot id, having served renders, been up for
// uptime and holding memBytes of attributed heap, must rotate, and why. It
// checks, in this order: served >= RequestThreshold(id), uptime >= MaxUptime,
// memBytes > MaxMemoryBytes (strictly: a worker exactly at the limit keeps
// serving). A disabled limit never triggers.
func (p Policy) ShouldRotate(id int, served int64, uptime time.Duration, memBytes int64) (Reason, bool) {
	if t := p.RequestThreshold(id); t > 0 && served >= t {
		return ReasonMaxRequests, true
	}
	if p.MaxUptime > 0 && uptime >= p.MaxUptime {
		return ReasonMaxUptime, true
	}
	if p.MaxMemoryBytes > 0 && memBytes > p.MaxMemoryBytes {
		return ReasonMaxMemory, true
	}
	return ReasonNone, false
}

// UptimeLeft returns how long until a worker that has been up for uptime
// reaches MaxUptime (0 if it already has), for the pool to arm one timer
// instead of polling. ok is false if there is no uptime limit.
func (p Policy) UptimeLeft(uptime time.Duration) (left time.Duration, ok bool) {
	if p.MaxUptime <= 0 {
		return 0, false
	}
	return max(p.MaxUptime-uptime, 0), true
}

// Backoff returns how long a Failed slot waits before restart attempt
// `attempt` (1-based): attempt <= 1 is immediate, attempt k >= 2 waits
// min(BackoffInitial * BackoffMultiplier^(k-2), BackoffMax). The result is
// never negative, even for huge attempts: it saturates at BackoffMax (or at
// the largest Duration when there is no cap).
func (r Recovery) Backoff(attempt int) time.Duration {
	if attempt <= 1 || r.BackoffInitial <= 0 {
		return 0
	}
	limit := r.BackoffMax
	if limit <= 0 {
		limit = math.MaxInt64
	}
	mult := r.BackoffMultiplier
	if !(mult >= 1) { // also catches NaN
		mult = 1
	}
	// In float64 the product overflows to +Inf rather than wrapping, and the
	// comparison below saturates it. float64(limit) may round up past the
	// largest int64, so anything smaller converts back safely.
	d := float64(r.BackoffInitial) * math.Pow(mult, float64(attempt-2))
	if d >= float64(limit) {
		return limit
	}
	return time.Duration(d)
}

// GiveUp reports whether a slot that has failed consecutive times in a row
// stays Failed for good. It never gives up when MaxConsecutiveFailures <= 0.
func (r Recovery) GiveUp(consecutive int) bool {
	return r.MaxConsecutiveFailures > 0 && consecutive >= r.MaxConsecutiveFailures
}

// Reset returns the failure count to build on when a slot fails again after
// its worker was Active for healthy without a crash: 0 if healthy >=
// HealthyReset (the worker proved itself, so the backoff starts over),
// otherwise consecutive unchanged.
func (r Recovery) Reset(consecutive int, healthy time.Duration) int {
	if healthy >= r.HealthyReset {
		return 0
	}
	return consecutive
}

// Degrade says when a worker that fails where its peers do not is taken
// out of service ([render.lifecycle] degrade_*): a poisoned isolate (one
// request corrupted its module state) fails every request from then on.
type Degrade struct {
	// ConsecutiveFailures failed renders in a row degrade a worker; 0 = off.
	ConsecutiveFailures int
	// Window is how many recent renders per worker the rate is taken over.
	Window int
	// FailureRate (0..1] of a full Window failing degrades a worker; 0 = off.
	FailureRate float64
	// PeerRate: only while the other workers' failure rate is below this,
	// so a failure every worker shares (the app or a backend is down)
	// degrades nobody.
	PeerRate float64
}

// DefaultDegrade: 5 failures in a row, or half of the last 20, while the
// peers fail less than 10%.
func DefaultDegrade() Degrade {
	return Degrade{ConsecutiveFailures: 5, Window: 20, FailureRate: 0.5, PeerRate: 0.1}
}

// Unhealthy decides whether a worker whose last renders show consec
// failures in a row and fails of n (n ≤ Window) is failing clearly above
// its peers, who failed peerFails of their last peerN. With no peer
// renders to compare with it never is. detail names the figures.
func (d Degrade) Unhealthy(consec, fails, n, peerFails, peerN int) (detail string, ok bool) {
	if peerN == 0 {
		return "", false
	}
	peer := float64(peerFails) / float64(peerN)
	if peer >= d.PeerRate {
		return "", false
	}
	switch {
	case d.ConsecutiveFailures > 0 && consec >= d.ConsecutiveFailures:
		return fmt.Sprintf("%d failed renders in a row (peers %.0f%% of %d)", consec, 100*peer, peerN), true
	case d.FailureRate > 0 && d.Window > 0 && n >= d.Window && float64(fails) >= d.FailureRate*float64(n):
		return fmt.Sprintf("%d of its last %d renders failed (peers %.0f%% of %d)", fails, n, 100*peer, peerN), true
	}
	return "", false
}
