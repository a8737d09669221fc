package cache

import (
	"context"
	"sync"
	"sync/atomic"
)

// flight is one render of a key that concurrent misses share. Its context
// keeps the values of the first request but ends only when every request
// waiting for it has gone (or the render is done), so a leader whose
// client hangs up does not fail the render the others wait for.
type flight struct {
	key    string
	done   chan struct{}
	res    flightResult // set before done is closed
	ctx    context.Context
	cancel context.CancelFunc
	refs   atomic.Int32
}

type flightResult struct {
	// e is the response when it may be shared (stored or not), else nil.
	e *entry
	// failed: the render answered an error status or panicked; waiters
	// holding a stale copy within stale-if-error serve it.
	failed bool
}

type flights struct {
	mu sync.Mutex
	m  map[string]*flight
	// joined, when set (tests), is called after each join.
	joined func(leader bool)
}

// join returns the flight of key, starting one (leader) if none runs. The
// caller must call leave when done with it.
func (fs *flights) join(key string, rctx context.Context) (f *flight, leader bool, leave func()) {
	fs.mu.Lock()
	f = fs.m[key]
	if f == nil || f.ctx.Err() != nil {
		ctx, cancel := context.WithCancel(context.WithoutCancel(rctx))
		f = &flight{key: key, done: make(chan struct{}), ctx: ctx, cancel: cancel}
		fs.m[key] = f
		leader = true
	}
	f.refs.Add(1)
	fs.mu.Unlock()
	var once sync.Once
	release := func() {
		once.Do(func() {
			if f.refs.Add(-1) == 0 {
				f.cancel()
			}
		})
	}
	stop := context.AfterFunc(rctx, release)
	if fs.joined != nil {
		fs.joined(leader)
	}
	return f, leader, func() {
		stop()
		release()
	}
}

// finish publishes the result and lets the waiters go.
func (fs *flights) finish(f *flight, res flightResult) {
	fs.mu.Lock()
	if fs.m[f.key] == f {
		delete(fs.m, f.key)
	}
	fs.mu.Unlock()
	f.res = res
	close(f.done)
	f.cancel()
}

// wait returns the flight's result, or ok=false when ctx ends first.
func (f *flight) wait(ctx context.Context) (flightResult, bool) {
	select {
	case <-f.done:
		return f.res, true
	case <-ctx.Done():
		return flightResult{}, false
	}
}
