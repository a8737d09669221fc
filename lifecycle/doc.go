// Package lifecycle is bext's pure worker policy: the worker states and the
// table of legal transitions between them, rotation thresholds (with the
// seed's per-worker stagger), the crash backoff schedule, the healthy reset
// and the give-up rule, and a bounded transition history.
//
// It owns no goroutines, timers, goja runtimes or HTTP: the pool applies it.
// Every function takes the current time or counters as arguments so that it
// can be tested table-driven and used under testing/synctest.
package lifecycle
