package engine

import (
	"container/heap"
	"context"
	"errors"
	"time"

	"github.com/dop251/goja"
)

// The event loop of one render. goja runs promise jobs (microtasks) itself
// whenever the outermost call into JS returns; the loop adds macrotasks:
// timers, setImmediate and MessagePort messages, all kept in one heap
// ordered by due time, then by creation. Time is real: setTimeout(f, 20)
// runs f no earlier than 20 ms later. Nothing survives a render: whatever
// is still scheduled when the render settles is dropped.

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

// reset drops everything scheduled.
func (l *eventLoop) reset() {
	clear(l.byID)
	clear(l.heap)
	l.heap = l.heap[:0]
}

var errNeverSettles = errors.New("render returned a promise that never settles: nothing is scheduled (no timer, no pending I/O) that could resolve it")

// errCtxDone marks a render whose context ended while the loop waited for
// a timer; it is reported as KindTimeout.
var errCtxDone = errors.New("context done while waiting for a timer")

// settle runs macrotasks until p is no longer pending.
func (i *Isolate) settle(ctx context.Context, p *goja.Promise) error {
	l := &i.loop
	for p.State() == goja.PromiseStatePending {
		if len(l.heap) == 0 {
			return errNeverSettles
		}
		t := l.heap[0]
		if d := time.Until(t.when); d > 0 {
			if l.wake == nil {
				l.wake = time.NewTimer(d)
			} else {
				l.wake.Reset(d)
			}
			select {
			case <-l.wake.C:
			case <-ctx.Done():
				l.wake.Stop()
				return errCtxDone
			}
		}
		if ctx.Err() != nil {
			return errCtxDone
		}
		if t.repeat {
			t.when = time.Now().Add(t.interval)
			l.seq++
			t.seq = l.seq
			heap.Fix(&l.heap, t.index)
		} else {
			heap.Pop(&l.heap)
			delete(l.byID, t.id)
		}
		if _, err := t.fn(goja.Undefined(), t.args...); err != nil {
			return err
		}
	}
	return nil
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
