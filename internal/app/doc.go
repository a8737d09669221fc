// Package app assembles and runs bext. It is the only package that wires
// config → engine → pool → render → devserver: it turns the config into
// each package's option struct, builds the app (or loads a `bext build`
// output), starts an Instance — a generation of pool, metrics registry and
// HTTP handlers behind the listeners — and runs it as a group of actors
// (HTTP listener, admin listener, OS signals, the file watcher, the
// caller's context): the first to stop stops the rest, and teardown always
// runs in one order (watcher, readiness, listeners draining in-flight
// requests, then the workers).
//
// Code changes reach the running instance one way: watcher → classify →
// build → boot check (once) → rolling deploy → live reload. A config change
// builds a new generation with the same constructor as start and retires
// the old one once its in-flight requests are done.
//
// The root package's commands, the benchmarks and the tests all start bext
// through Start; nothing re-types the assembly.
package app
