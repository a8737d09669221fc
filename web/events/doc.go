// Package events is the DOM standard's events and abort machinery,
// natively in Go: Event, EventTarget, CustomEvent, AbortController,
// AbortSignal, the HTML standard's ErrorEvent and PromiseRejectionEvent,
// and reportError.
//
// What it owns: the globals above, and the Go API other spec packages use:
// Signal (SignalOf, Object, Aborted, Reason, OnAbort) for an operation
// that takes a signal (fetch, pipeTo), NewController for a signal Go
// aborts (a render's Request), and ListenFunc to listen from Go.
//
// Dispatch follows the standard for targets without a parent (there is no
// DOM tree on a server): capture listeners, then the others, all in the
// AT_TARGET phase; the listener list is the one at the start of the
// dispatch; once, passive, capture and signal options; listener objects
// with handleEvent looked up at each call; event handler attributes
// (onabort) keep their place in the list from the first assignment.
//
// Exceptions: an exception thrown by a listener is reported — logged at
// error level through the realm's logger, "Uncaught " and its stack — and
// the dispatch goes on with the next listener (the HTML standard's
// "report an exception"; Node routes it to uncaughtException, which by
// default ends the process: a server must not). reportError does the same.
// goja's uncatchable errors (an interrupted render, a stack overflow) are
// not swallowed.
//
// Abort algorithms added from Go (Signal.OnAbort) run before the abort
// event reaches JS listeners, as the standard orders "run the abort
// steps". AbortSignal.timeout(ms) uses the engine's setTimeout (captured
// when the package is installed), so the timer is an ordinary timer of the
// render's event loop: while the render is pending it keeps the loop
// waiting until it fires (as any setTimeout does, at most until the render
// times out), and when the render ends it is dropped with every other
// timer — no timeout signal outlives its render, and one created while
// the bundle loads never fires. AbortSignal.any holds its dependents
// weakly, pinning one only while it has abort listeners or algorithms, so
// a long-lived controller's signal does not collect a dependent per
// render.
//
// Known deviations: Event.isTrusted is an own accessor as in browsers;
// composedPath() is [target] during dispatch; there is no window.event.
package events
