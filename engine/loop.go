package engine

import (
	"container/heap"
	"context"
	"errors"
	"sync"
	"time"

	"github.com/dop251/goja"
)

// The event loop of one render. goja runs promise jobs (microtasks) itself
// whenever the outermost call into JS returns; the loop adds macrotasks:
// timers, setImmediate and MessagePort messages, all kept in one heap
// ordered by due time, then by creation, and the completions of
// asynchronous Go operations (fetch, a stream read from Go), which other
// goroutines post and which run in the order they arrive, before due
// timers. Time is real: setTimeout(f, 20) runs f no earlier than 20 ms
// later. Nothing survives a render: whatever is still scheduled when the
// render settles is dropped, and completions posted for it later are
// ignored.

type timer struct {
	id       int64
	when     time.Time
	seq      uint64
	fn       goja.Callable
	args     []goja.Value
	interval time.Duration // >0 for setInterval
	repeat   bool
	index    int
}

type timerHeap []*timer

func (h timerHeap) Len() int { return len(h) }
func (h timerHeap) Less(a, b int) bool {
	if !h[a].when.Equal(h[b].when) {
		return h[a].when.Before(h[b].when)
	}
	return h[a].seq < h[b].seq
}
func (h timerHeap) Swap(a, b int) {
	h[a], h[b] = h[b], h[a]
	h[a].index, h[b].index = a, b
}
func (h *timerHeap) Push(x any) { t := x.(*timer); t.index = len(*h); *h = append(*h, t) }
func (h *timerHeap) Pop() any {
	old := *h
	t := old[len(old)-1]
	old[len(old)-1] = nil
	*h = old[:len(old)-1]
	t.index = -1
	return t
}

type eventLoop struct {
	heap   timerHeap
	byID   map[int64]*timer
	nextID int64
	seq    uint64
	wake   *time.Timer

	// Asynchronous operations: pending counts those begun and not yet
	// completed (JS goroutine only); posted holds completions waiting to
	// run, guarded by mu with epoch, which reset bumps so that completions
	// of an earlier render are dropped.
	pending int
	mu      sync.Mutex
	posted  []func() error
	epoch   uint64
	notify  chan struct{} // buffered 1: something was posted
}

// begin registers an asynchronous operation; see webidl.Host.Begin.
func (l *eventLoop) begin() func(func() error) {
	l.mu.Lock()
	if l.notify == nil {
		l.notify = make(chan struct{}, 1)
	}
	epoch, notify := l.epoch, l.notify
	l.mu.Unlock()
	l.pending++
	var once sync.Once
	return func(fn func() error) {
		once.Do(func() {
			l.mu.Lock()
			if l.epoch != epoch {
				l.mu.Unlock()
				return
			}
			l.posted = append(l.posted, fn)
			l.mu.Unlock()
			select {
			case notify <- struct{}{}:
			default:
			}
		})
	}
}

// runPosted runs the completions posted so far, in order, and reports
// whether it ran any.
func (l *eventLoop) runPosted() (bool, error) {
	l.mu.Lock()
	fns := l.posted
	l.posted = nil
	l.mu.Unlock()
	for k, fn := range fns {
		l.pending--
		if fn == nil {
			continue
		}
		if err := runCompletion(fn); err != nil {
			l.mu.Lock()
			l.posted = append(fns[k+1:], l.posted...) // not run: keep them for reset to drop
			l.mu.Unlock()
			return true, err
		}
	}
	return len(fns) > 0, nil
}

// runCompletion runs a posted completion. The JS it runs (promise jobs)
// may be stopped by an interrupt or a stack overflow, which the resolving
// functions throw on as a panic (webidl.Realm.NewPromise): that is the
// completion's error, and so the render's.
func runCompletion(fn func() error) (err error) {
	defer func() {
		if x := recover(); x != nil {
			err = stopped(x)
		}
	}()
	return fn()
}

// stopped returns the panic value x if it is what stops JS — an interrupt
// or a stack overflow — and re-panics with anything else.
func stopped(x any) error {
	err, ok := x.(error)
	var ie *goja.InterruptedError
	var so *goja.StackOverflowError
	if !ok || !(errors.As(err, &ie) || errors.As(err, &so)) {
		panic(x)
	}
	return err
}

func (l *eventLoop) add(fn goja.Callable, delay time.Duration, args []goja.Value, repeat bool) int64 {
	if delay < 0 {
		delay = 0
	}
	if l.byID == nil {
		l.byID = make(map[int64]*timer)
	}
	l.nextID++
	l.seq++
	t := &timer{id: l.nextID, when: time.Now().Add(delay), seq: l.seq, fn: fn, args: args, repeat: repeat}
	if repeat {
		t.interval = max(delay, time.Millisecond) // a 0 ms interval would starve the loop
	}
	heap.Push(&l.heap, t)
	l.byID[t.id] = t
	return t.id
}

func (l *eventLoop) clear(id int64) {
	if t, ok := l.byID[id]; ok {
		delete(l.byID, id)
		if t.index >= 0 {
			heap.Remove(&l.heap, t.index)
		}
	}
}

// reset drops everything scheduled, and every asynchronous operation.
func (l *eventLoop) reset() {
	clear(l.byID)
	clear(l.heap)
	l.heap = l.heap[:0]
	l.pending = 0
	l.mu.Lock()
	l.epoch++
	l.posted = nil
	l.mu.Unlock()
}

var errNeverSettles = errors.New("render returned a promise that never settles: nothing is scheduled (no timer, no pending I/O) that could resolve it")

// errCtxDone marks a render whose context ended while the loop waited for
// a timer; it is reported as KindTimeout.
var errCtxDone = errors.New("context done while waiting for a timer")

// settle runs macrotasks until p is no longer pending.
func (i *Isolate) settle(ctx context.Context, p *goja.Promise) error {
	return i.loop.run(ctx, func() bool { return p.State() != goja.PromiseStatePending })
}

// run runs completions and due timers until done reports true, ctx ends
// (errCtxDone) or nothing is left that could make done true
// (errNeverSettles).
func (l *eventLoop) run(ctx context.Context, done func() bool) error {
	for !done() {
		ran, err := l.runPosted()
		if err != nil {
			return err
		}
		if ran {
			continue
		}
		if len(l.heap) == 0 && l.pending == 0 {
			return errNeverSettles
		}
		var due <-chan time.Time
		if len(l.heap) > 0 {
			if d := time.Until(l.heap[0].when); d > 0 {
				if l.wake == nil {
					l.wake = time.NewTimer(d)
				} else {
					l.wake.Reset(d)
				}
				due = l.wake.C
			} else {
				closed := make(chan time.Time)
				close(closed)
				due = closed
			}
		}
		l.mu.Lock()
		notify := l.notify
		l.mu.Unlock()
		select {
		case <-due:
		case <-notify:
			if l.wake != nil {
				l.wake.Stop()
			}
			continue
		case <-ctx.Done():
			if l.wake != nil {
				l.wake.Stop()
			}
			return errCtxDone
		}
		if ctx.Err() != nil {
			return errCtxDone
		}
		if err := l.fire(); err != nil {
			return err
		}
	}
	return nil
}

// fire runs the first timer of the heap (which is due).
func (l *eventLoop) fire() error {
	t := l.heap[0]
	if t.repeat {
		t.when = time.Now().Add(t.interval)
		l.seq++
		t.seq = l.seq
		heap.Fix(&l.heap, t.index)
	} else {
		heap.Pop(&l.heap)
		delete(l.byID, t.id)
	}
	_, err := t.fn(goja.Undefined(), t.args...)
	return err
}

// installTimers provides setTimeout, setInterval, setImmediate and their
// clear functions. Ids are numbers, as in browsers.
func (i *Isolate) installTimers() {
	rt := i.rt
	set := func(repeat, immediate bool) func(goja.FunctionCall) goja.Value {
		return func(call goja.FunctionCall) goja.Value {
			fn, ok := goja.AssertFunction(call.Argument(0))
			if !ok {
				panic(rt.NewTypeError("timer callback must be a function (code strings are not supported)"))
			}
			var delay time.Duration
			var args []goja.Value
			if immediate {
				args = argsFrom(call.Arguments, 1)
			} else {
				ms := call.Argument(1).ToFloat()
				if ms != ms || ms < 0 { // NaN or negative
					ms = 0
				}
				delay = time.Duration(ms * float64(time.Millisecond))
				args = argsFrom(call.Arguments, 2)
			}
			return rt.ToValue(i.loop.add(fn, delay, args, repeat))
		}
	}
	clearFn := func(call goja.FunctionCall) goja.Value {
		if a := call.Argument(0); !goja.IsUndefined(a) && !goja.IsNull(a) {
			i.loop.clear(a.ToInteger())
		}
		return goja.Undefined()
	}
	_ = rt.Set("setTimeout", set(false, false))
	_ = rt.Set("setInterval", set(true, false))
	_ = rt.Set("setImmediate", set(false, true))
	_ = rt.Set("clearTimeout", clearFn)
	_ = rt.Set("clearInterval", clearFn)
	_ = rt.Set("clearImmediate", clearFn)
}

func argsFrom(a []goja.Value, from int) []goja.Value {
	if len(a) <= from {
		return nil
	}
	return append([]goja.Value(nil), a[from:]...)
}
