package streams

import (
	"math"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// sizedQueue is the spec's queue-with-sizes ([[queue]] and
// [[queueTotalSize]]) of the default controllers.
type sizedQueue struct {
	items []sized
	head  int
	total float64
}

type sized struct {
	v    goja.Value
	size float64
}

func (q *sizedQueue) len() int { return len(q.items) - q.head }

// enqueue is EnqueueValueWithSize; it returns a RangeError for a size that
// is not a finite non-negative number.
func (s *state) enqueueSized(q *sizedQueue, v goja.Value, size float64) *goja.Object {
	if math.IsNaN(size) || size < 0 || math.IsInf(size, 1) {
		return s.rangeError("The return value of a queuing strategy's size function must be a finite, non-NaN, non-negative number")
	}
	q.items = append(q.items, sized{v, size})
	q.total += size
	return nil
}

// dequeue is DequeueValue.
func (q *sizedQueue) dequeue() goja.Value {
	e := q.items[q.head]
	q.items[q.head] = sized{}
	q.head++
	if q.head == len(q.items) {
		q.items, q.head = q.items[:0], 0
	} else if q.head > 32 && q.head*2 > len(q.items) {
		n := copy(q.items, q.items[q.head:])
		clear(q.items[n:])
		q.items, q.head = q.items[:n], 0
	}
	q.total -= e.size
	if q.total < 0 { // rounding errors
		q.total = 0
	}
	return e.v
}

func (q *sizedQueue) peek() goja.Value { return q.items[q.head].v }

// reset is ResetQueue.
func (q *sizedQueue) reset() {
	clear(q.items)
	q.items, q.head, q.total = q.items[:0], 0, 0
}

// strategy is a converted QueuingStrategy dictionary.
type strategy struct {
	hwm    float64
	hasHWM bool
	size   goja.Callable
}

// strategyDict converts v to a QueuingStrategy (members in lexicographic
// order: highWaterMark, size).
func (s *state) strategyDict(v goja.Value, what string) strategy {
	var q strategy
	if webidl.IsNullish(v) {
		return q
	}
	d, ok := v.(*goja.Object)
	if !ok {
		panic(s.typeError(what + ": the queuing strategy must be an object"))
	}
	if h := webidl.Member(d, "highWaterMark"); h != nil {
		q.hwm, q.hasHWM = h.ToFloat(), true
	}
	q.size = s.callback(d, "size", what)
	return q
}

// highWaterMark is ExtractHighWaterMark.
func (s *state) highWaterMark(q strategy, def float64) float64 {
	if !q.hasHWM {
		return def
	}
	if math.IsNaN(q.hwm) || q.hwm < 0 {
		panic(s.rangeError("Invalid highWaterMark"))
	}
	return q.hwm
}

// sizeAlgo is ExtractSizeAlgorithm: nil means "every chunk has size 1".
type sizeAlgo = goja.Callable

// chunkSize runs a size algorithm: its result as an unrestricted double,
// or what it threw.
func (s *state) chunkSize(size sizeAlgo, chunk goja.Value) (float64, goja.Value, bool) {
	if size == nil {
		return 1, nil, true
	}
	v, ex, ok := s.call(size, goja.Undefined(), chunk)
	if !ok {
		return 0, ex, false
	}
	var f float64
	if ex, ok := try(func() { f = v.ToFloat() }); !ok {
		return 0, ex, false
	}
	return f, nil, true
}

type qsState struct {
	hwm   float64
	count bool // CountQueuingStrategy, not ByteLengthQueuingStrategy
}

func (s *state) installStrategies() {
	rt := s.rt
	mk := func(name string, count bool, size goja.Value) *webidl.Class {
		this := func(v goja.Value) *qsState {
			st := webidl.This[*qsState](s.r, v)
			if st.count != count {
				panic(s.typeError("Illegal invocation"))
			}
			return st
		}
		c := s.r.NewClass(name, 1, nil, func(call goja.ConstructorCall) *goja.Object {
			init := call.Argument(0)
			d, ok := init.(*goja.Object)
			if webidl.IsNullish(init) || !ok {
				if !webidl.IsNullish(init) {
					panic(s.typeError("Failed to construct '" + name + "': cannot convert to dictionary"))
				}
				d = nil
			}
			h := webidl.Member(d, "highWaterMark")
			if h == nil {
				panic(s.typeError("Failed to construct '" + name + "': required member highWaterMark is undefined."))
			}
			s.r.SetSlot(call.This, &qsState{hwm: h.ToFloat(), count: count})
			return nil
		})
		c.Getter("highWaterMark", func(v goja.Value) goja.Value {
			return rt.ToValue(this(v).hwm)
		})
		c.Getter("size", func(v goja.Value) goja.Value {
			this(v)
			return size
		})
		s.r.Global(name, c.Ctor)
		return c
	}
	s.byteLengthSize = s.r.Func("size", 1, func(call goja.FunctionCall) goja.Value {
		ch := call.Argument(0)
		if webidl.IsNullish(ch) {
			panic(s.typeError("Cannot read properties of " + ch.String() + " (reading 'byteLength')"))
		}
		if v := ch.ToObject(rt).Get("byteLength"); v != nil {
			return v
		}
		return goja.Undefined()
	})
	s.countSize = s.r.Func("size", 0, func(goja.FunctionCall) goja.Value { return rt.ToValue(1) })
	s.byteLengthQS = mk("ByteLengthQueuingStrategy", false, s.byteLengthSize)
	s.countQS = mk("CountQueuingStrategy", true, s.countSize)
}
