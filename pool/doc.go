// Package pool runs N worker slots, each served by one goroutine that owns
// one isolate, and applies the lifecycle policy to them.
//
// Dispatch is an unbuffered channel: a request is handed to whichever ACTIVE
// worker is idle, and requests that find none wait in the channel's FIFO
// until queue_timeout. A single coordinator goroutine performs rotations
// one at a time, surge-first: it boots the replacement, puts it in the slot
// (so capacity never drops), then drains the old worker, and rotates no
// other worker until that drain ends. A rotation request is never dropped:
// it stays queued while its slot boots or waits behind a drain, and a
// request for a FAILED slot boots it again at once. Request-induced
// crashes are replaced at once by the crashing worker's own goroutine and
// never count as slot failures; boot failures go through the backoff schedule
// and, after max_consecutive_failures, leave the slot empty until a manual
// restart. A memory monitor checks idle workers out to measure their heap.
//
// Everything the pool knows is readable as a Snapshot (for /__bext/workers
// and bext ps) and as Prometheus metrics (Collector).
package pool
