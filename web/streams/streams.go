package streams

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Globals are the global names Install defines.
var Globals = []string{
	"ReadableStream", "ReadableStreamDefaultReader", "ReadableStreamBYOBReader",
	"ReadableStreamDefaultController", "ReadableByteStreamController", "ReadableStreamBYOBRequest",
	"WritableStream", "WritableStreamDefaultWriter", "WritableStreamDefaultController",
	"TransformStream", "TransformStreamDefaultController",
	"ByteLengthQueuingStrategy", "CountQueuingStrategy",
	"TextEncoderStream", "TextDecoderStream", "CompressionStream", "DecompressionStream",
}

type key struct{}

// state is the streams spec in one realm: its classes, the intrinsics it
// captured at install and the queue of Go-only microtasks.
type state struct {
	r  *webidl.Realm
	rt *goja.Runtime

	promiseCtor    goja.Value
	promiseResolve goja.Callable
	thenFn         goja.Callable
	noop           goja.Value
	resolved       goja.Value // a fulfilled promise, to queue microtasks on
	drain          goja.Value
	enterFn        goja.Callable
	tramp          goja.Callable
	tasks          []func()
	fifo           []func()
	fifoHead       int
	fifoRun        goja.Value
	stack          []goja.StackFrame
	tasksQueued    bool

	asyncIterator  *goja.Symbol
	asyncIterProto *goja.Object
	symbolFor      goja.Callable

	arrayBufferCtor *goja.Object
	uint8Ctor       *goja.Object
	views           map[string]viewType
	vg              viewGetters
	newAbortCtl     func() *goja.Object

	readable, defaultReader, byobReader, defaultCtrl, byteCtrl, byobRequest *webidl.Class
	writable, writer, writableCtrl                                          *webidl.Class
	transform, transformCtrl                                                *webidl.Class
	byteLengthQS, countQS                                                   *webidl.Class
	asyncIterProtoRS                                                        *goja.Object
	byteLengthSize, countSize                                               goja.Value
}

// viewType is one ArrayBufferView constructor: its intrinsic and element
// size.
type viewType struct {
	ctor *goja.Object
	size int
}

// Install defines Globals in r (once per realm).
func Install(r *webidl.Realm) { get(r) }

func get(r *webidl.Realm) *state {
	return webidl.Value(r, key{}, func() *state { return install(r) })
}

func install(r *webidl.Realm) *state {
	rt := r.RT
	s := &state{r: r, rt: rt}
	promise := rt.Get("Promise").ToObject(rt)
	s.promiseCtor = promise
	s.promiseResolve, _ = goja.AssertFunction(promise.Get("resolve"))
	s.thenFn, _ = goja.AssertFunction(promise.Get("prototype").ToObject(rt).Get("then"))
	s.noop = rt.ToValue(func(goja.FunctionCall) goja.Value { return goja.Undefined() })
	s.resolved = s.resolvedUndefined()
	enter, err := rt.RunString("(function (f) { return f(); })")
	if err != nil {
		panic(err)
	}
	s.enterFn, _ = goja.AssertFunction(enter)
	tramp, err := rt.RunString("(function (f) { return function (v) { return f(v); }; })")
	if err != nil {
		panic(err)
	}
	s.tramp, _ = goja.AssertFunction(tramp)
	s.drain = s.fn(func(goja.Value) goja.Value { s.drainTasks(); return nil })
	s.fifoRun = s.fn(func(goja.Value) goja.Value { s.runFIFO(); return nil })

	sym := rt.Get("Symbol").ToObject(rt)
	s.symbolFor, _ = goja.AssertFunction(sym.Get("for"))
	if a, ok := sym.Get("asyncIterator").(*goja.Symbol); ok {
		s.asyncIterator = a
	} else {
		// goja has no Symbol.asyncIterator; esbuild's lowered for-await
		// falls back to this registered symbol, so both agree on it.
		v, _ := s.symbolFor(sym, rt.ToValue("Symbol.asyncIterator"))
		s.asyncIterator = v.(*goja.Symbol)
	}

	s.arrayBufferCtor = rt.Get("ArrayBuffer").ToObject(rt)
	s.uint8Ctor = rt.Get("Uint8Array").ToObject(rt)
	s.views = map[string]viewType{}
	for name, size := range map[string]int{
		"Int8Array": 1, "Uint8Array": 1, "Uint8ClampedArray": 1, "Int16Array": 2, "Uint16Array": 2,
		"Int32Array": 4, "Uint32Array": 4, "Float32Array": 4, "Float64Array": 8,
		"BigInt64Array": 8, "BigUint64Array": 8, "Float16Array": 2, "DataView": 1,
	} {
		if c, ok := rt.Get(name).(*goja.Object); ok {
			s.views[name] = viewType{ctor: c, size: size}
		}
	}

	s.initViews()
	s.installStrategies()
	s.installReadable()
	s.installWritable()
	s.installTransform()
	s.installTextStreams()
	s.installCompression()
	return s
}

// throwType throws a TypeError.
func (s *state) typeError(msg string) *goja.Object { return s.rt.NewTypeError(msg) }

func (s *state) rangeError(msg string) *goja.Object { return s.r.NewError("RangeError", msg) }

// iterResult is CreateIterResultObject(value, done).
func (s *state) iterResult(v goja.Value, done bool) *goja.Object {
	if v == nil {
		v = goja.Undefined()
	}
	o := s.rt.NewObject()
	_ = o.Set("value", v)
	_ = o.Set("done", done)
	return o
}

// method is Class.Method with a promise-returning operation.
func (s *state) promiseOp(c *webidl.Class, name string, length int, f func(goja.FunctionCall) goja.Value) {
	c.Method(name, length, s.promiseMethod(f))
}

// callback reads dictionary member name of d as a callback function: nil
// when absent, a TypeError when present and not callable.
func (s *state) callback(d *goja.Object, name, what string) goja.Callable {
	v := webidl.Member(d, name)
	if v == nil {
		return nil
	}
	fn := webidl.Callable(v)
	if fn == nil {
		panic(s.typeError(what + ": '" + name + "' must be a function"))
	}
	return fn
}
