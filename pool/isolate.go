package pool

import (
	"context"
	"errors"

	"bext/engine"
)

// Isolate is what a worker owns: one JS runtime that renders one request at
// a time. *engine.Isolate implements it; the pool never touches goja.
type Isolate interface {
	Render(ctx context.Context, req *engine.Request) (*engine.Response, error)
	Console() []engine.ConsoleLine
	HeapBytes() int64
	Close()
}

// Factory boots a new isolate for slot id. Swapping the factory (Deploy) is
// how a new bundle reaches the workers.
type Factory func(id int) (Isolate, error)

// factoryRef is the pool's current factory; version increments on Deploy so
// the pool can tell which workers run the newest bundle.
type factoryRef struct {
	f       Factory
	version int64
}

// fatal reports whether err means the isolate that returned it must be
// replaced (timeout, stack overflow, escaped panic, abandoned render), as
// opposed to an exception thrown by the app, after which it is kept.
func fatal(err error) bool {
	var f interface{ Fatal() bool }
	if errors.As(err, &f) {
		return f.Fatal()
	}
	return false
}
