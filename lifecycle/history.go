package lifecycle

import (
	"sync"
	"time"
)

// Transition is one recorded state change of a worker slot.
type Transition struct {
	From, To State
	Reason   Reason
	// At is when the slot entered To.
	At time.Time
	// InPrevious is how long the slot was in From.
	InPrevious time.Duration
	// Err is the error that caused the transition (boot failure, crash), or "".
	// A string, not an error, so a history can be marshalled and kept after
	// the isolate that produced the error is gone.
	Err string
	// Detail is what triggered it, with the figures: "memory 31.4 MB > 16 MB",
	// "requests 10000 ≥ 10000", "5 failures in a row (peers 0%)",
	// "health check failed 3 times: …"; "" when the reason says it all.
	Detail string
}

// DefaultHistoryCapacity is the capacity of a zero History or of one made by
// NewHistory with a capacity <= 0.
const DefaultHistoryCapacity = 32

// History is a bounded ring of the most recent transitions of one slot: when
// full, Add drops the oldest entry. The zero value is ready to use with
// DefaultHistoryCapacity. It is safe for concurrent use, so an admin handler
// may List while the slot's owner Adds. A History must not be copied after
// first use.
type History struct {
	mu    sync.Mutex
	cap   int
	buf   []Transition // grows to cap, then is overwritten in place
	start int          // index of the oldest entry once buf is full
}

// NewHistory returns an empty History that keeps the last capacity
// transitions (DefaultHistoryCapacity if capacity <= 0).
func NewHistory(capacity int) *History {
	if capacity <= 0 {
		capacity = DefaultHistoryCapacity
	}
	return &History{cap: capacity}
}

// Add records t, dropping the oldest transition if the history is full.
func (h *History) Add(t Transition) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.cap <= 0 {
		h.cap = DefaultHistoryCapacity
	}
	if len(h.buf) < h.cap {
		h.buf = append(h.buf, t)
		return
	}
	h.buf[h.start] = t
	h.start = (h.start + 1) % h.cap
}

// List returns the recorded transitions, oldest first. The slice is a copy the
// caller owns; it is nil if nothing was recorded.
func (h *History) List() []Transition {
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.buf) == 0 {
		return nil
	}
	out := make([]Transition, 0, len(h.buf))
	out = append(out, h.buf[h.start:]...)
	return append(out, h.buf[:h.start]...)
}

// Len returns how many transitions are held (at most the capacity).
func (h *History) Len() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.buf)
}
