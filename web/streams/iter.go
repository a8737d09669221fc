package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// asyncIter is a ReadableStream async iterator (WebIDL async iterable
// with the stream's "get the next iteration result" and "asynchronous
// iterator return").
type asyncIter struct {
	rd            *reader
	preventCancel bool
	ongoing       goja.Value // nil: none
	finished      bool
}

// endOfIteration marks the end in the promise "get the next iteration
// result" settles with.
var endOfIteration goja.Value = goja.NewSymbol("end of iteration")

func (s *state) installAsyncIterator() {
	rt := s.rt
	// goja has no %AsyncIteratorPrototype%: this stands in for it.
	aip := rt.NewObject()
	_ = aip.DefineDataPropertySymbol(s.asyncIterator, s.r.Func("[Symbol.asyncIterator]", 0, func(c goja.FunctionCall) goja.Value { return c.This }), goja.FLAG_TRUE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	s.asyncIterProto = aip
	p := rt.CreateObject(aip)
	this := func(v goja.Value) (*asyncIter, bool) { return webidl.Slot[*asyncIter](v) }
	next := s.r.Func("next", 0, func(c goja.FunctionCall) goja.Value {
		it, ok := this(c.This)
		if !ok {
			return s.rejectedWith(s.typeError("next() called on an object that is not a ReadableStream async iterator"))
		}
		steps := func(goja.Value) goja.Value { return s.iterNext(it) }
		if it.ongoing != nil {
			it.ongoing = s.then(it.ongoing, steps, steps)
		} else {
			it.ongoing = steps(nil)
		}
		return it.ongoing
	})
	ret := s.r.Func("return", 1, func(c goja.FunctionCall) goja.Value {
		it, ok := this(c.This)
		if !ok {
			return s.rejectedWith(s.typeError("return() called on an object that is not a ReadableStream async iterator"))
		}
		value := c.Argument(0)
		steps := func(goja.Value) goja.Value {
			if it.finished {
				return s.resolvedWith(s.iterResult(value, true))
			}
			it.finished = true
			return s.iterReturn(it, value)
		}
		if it.ongoing != nil {
			it.ongoing = s.then(it.ongoing, steps, steps)
		} else {
			it.ongoing = steps(nil)
		}
		return s.then(it.ongoing, func(goja.Value) goja.Value { return s.iterResult(value, true) }, nil)
	})
	_ = p.DefineDataProperty("next", next, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = p.DefineDataProperty("return", ret, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
	_ = p.DefineDataPropertySymbol(goja.SymToStringTag, rt.ToValue("ReadableStream AsyncIterator"), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_TRUE)
	s.asyncIterProtoRS = p
}

func (s *state) newAsyncIterator(st *rstream, preventCancel bool) *goja.Object {
	rd := s.acquireDefaultReader(st)
	o := s.rt.CreateObject(s.asyncIterProtoRS)
	s.r.SetSlot(o, &asyncIter{rd: rd, preventCancel: preventCancel})
	return o
}

// iterNext is the next() steps: get the next iteration result and react.
func (s *state) iterNext(it *asyncIter) goja.Value {
	if it.finished {
		return s.resolvedWith(s.iterResult(goja.Undefined(), true))
	}
	p := s.newPromise()
	rd := it.rd
	rd.read(&funcRead{
		chunk: func(c goja.Value) { p.resolve(c) },
		close: func(goja.Value) {
			rd.release()
			p.resolve(endOfIteration)
		},
		err: func(e goja.Value) {
			rd.release()
			p.reject(e)
		},
	})
	return s.then(p.v, func(v goja.Value) goja.Value {
		it.ongoing = nil
		if v == endOfIteration {
			it.finished = true
			return s.iterResult(goja.Undefined(), true)
		}
		return s.iterResult(v, false)
	}, func(e goja.Value) goja.Value {
		it.ongoing = nil
		it.finished = true
		panic(e)
	})
}

// iterReturn is the asynchronous iterator return of ReadableStream.
func (s *state) iterReturn(it *asyncIter, arg goja.Value) goja.Value {
	rd := it.rd
	if rd.stream == nil {
		return s.resolvedUndefined()
	}
	if !it.preventCancel {
		res := rd.stream.cancel(arg)
		rd.release()
		return res
	}
	rd.release()
	return s.resolvedUndefined()
}

// asyncIterRecord is an iterator record for ReadableStream.from: next
// returns the value IteratorNext gives (not yet awaited), ret calls the
// iterator's return method if it has one.
type asyncIterRecord struct {
	next func() goja.Value                          // may throw
	ret  func(reason goja.Value) (goja.Value, bool) // may throw; false: no return method
}

// getAsyncIterator is GetIterator(obj, async), wrapping a sync iterator
// as CreateAsyncFromSyncIterator does.
func (s *state) getAsyncIterator(obj goja.Value) asyncIterRecord {
	rt := s.rt
	getMethod := func(sym *goja.Symbol) goja.Callable {
		if webidl.IsNullish(obj) {
			panic(s.typeError("ReadableStream.from: argument is not iterable"))
		}
		m := obj.ToObject(rt).GetSymbol(sym)
		if webidl.IsNullish(m) {
			return nil
		}
		fn := webidl.Callable(m)
		if fn == nil {
			panic(s.typeError("ReadableStream.from: the iterator method is not a function"))
		}
		return fn
	}
	iterate := func(m goja.Callable) (*goja.Object, goja.Value) {
		v, ex, ok := s.call(m, obj)
		if !ok {
			panic(ex)
		}
		it, isObj := v.(*goja.Object)
		if !isObj {
			panic(s.typeError("ReadableStream.from: the iterator is not an object"))
		}
		return it, it.Get("next")
	}
	retOf := func(it *goja.Object) func(goja.Value) (goja.Value, bool) {
		return func(reason goja.Value) (goja.Value, bool) {
			m := it.Get("return")
			if webidl.IsNullish(m) {
				return nil, false
			}
			fn := webidl.Callable(m)
			if fn == nil {
				panic(s.typeError("ReadableStream.from: the iterator's return is not a function"))
			}
			v, ex, ok := s.call(fn, it, reason)
			if !ok {
				panic(ex)
			}
			return v, true
		}
	}
	callNext := func(it *goja.Object, next goja.Value) goja.Value {
		fn := webidl.Callable(next)
		if fn == nil {
			panic(s.typeError("ReadableStream.from: the iterator's next is not a function"))
		}
		v, ex, ok := s.call(fn, it)
		if !ok {
			panic(ex)
		}
		return v
	}
	if m := getMethod(s.asyncIterator); m != nil {
		it, next := iterate(m)
		return asyncIterRecord{next: func() goja.Value { return callNext(it, next) }, ret: retOf(it)}
	}
	m := getMethod(goja.SymIterator)
	if m == nil {
		panic(s.typeError("ReadableStream.from: argument is not async iterable or iterable"))
	}
	it, next := iterate(m)
	syncRet := retOf(it)
	// CreateAsyncFromSyncIterator.
	continuation := func(res goja.Value, closeOnRejection bool) goja.Value {
		ro, ok := res.(*goja.Object)
		if !ok {
			panic(s.typeError("ReadableStream.from: iterator result is not an object"))
		}
		done := webidl.Bool(ro.Get("done"))
		value := ro.Get("value")
		return s.then(s.resolvedWith(value), func(v goja.Value) goja.Value {
			return s.iterResult(v, done)
		}, func(e goja.Value) goja.Value {
			if !done && closeOnRejection {
				_, _ = try(func() { syncRet(goja.Undefined()) })
			}
			panic(e)
		})
	}
	return asyncIterRecord{
		next: func() goja.Value { return continuation(callNext(it, next), true) },
		ret: func(reason goja.Value) (goja.Value, bool) {
			v, ok := syncRet(reason)
			if !ok {
				return s.resolvedWith(s.iterResult(reason, true)), true
			}
			return continuation(v, false), true
		},
	}
}

// from is ReadableStreamFromIterable.
func (s *state) from(v goja.Value) *rstream {
	rec := s.getAsyncIterator(v)
	var st *rstream
	ctrl := func() *defaultController { return st.ctrl.(*defaultController) }
	pull := func(k func(bool, goja.Value)) {
		var res goja.Value
		if ex, ok := try(func() { res = rec.next() }); !ok {
			s.upon(s.rejectedWith(ex), nil, func(e goja.Value) { k(false, e) })
			return
		}
		p := s.then(s.resolvedWith(res), func(r goja.Value) goja.Value {
			ro, ok := r.(*goja.Object)
			if !ok {
				panic(s.typeError("ReadableStream.from: iterator result is not an object"))
			}
			if webidl.Bool(ro.Get("done")) {
				ctrl().close()
			} else {
				ctrl().enqueue(ro.Get("value"))
			}
			return nil
		}, nil)
		s.upon(p, func(goja.Value) { k(true, nil) }, func(e goja.Value) { k(false, e) })
	}
	cancel := func(reason goja.Value) goja.Value {
		var res goja.Value
		var has bool
		if ex, ok := try(func() { res, has = rec.ret(reason) }); !ok {
			return s.rejectedWith(ex)
		}
		if !has {
			return s.resolvedUndefined()
		}
		return s.then(s.resolvedWith(res), func(r goja.Value) goja.Value {
			if _, ok := r.(*goja.Object); !ok {
				panic(s.typeError("ReadableStream.from: the iterator's return() result is not an object"))
			}
			return nil
		}, nil)
	}
	st = s.createReadable(func(goja.Value) goja.Value { return goja.Undefined() }, sourceAlgos{pull: pull, cancel: cancel}, 0, nil)
	return st
}
