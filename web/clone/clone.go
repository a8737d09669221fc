package clone

import (
	"reflect"
	"sync"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Globals are the global names Install defines.
var Globals = []string{"structuredClone"}

// Serializer clones the platform objects of one interface (a Blob, a
// File): given an object, it reports whether it is one of its kind and,
// if so, returns a copy in the same realm. sub clones a nested value (with
// the same memory of objects already cloned, so shared and circular
// references survive); serializers of leaf objects (a Blob's bytes) do not
// need it. A serializer throws (panics with a JS error, e.g.
// r.DOMException(…, "DataCloneError")) for an instance it cannot clone.
type Serializer func(r *webidl.Realm, v *goja.Object, sub func(goja.Value) goja.Value) (clone *goja.Object, ok bool)

var (
	regMu       sync.RWMutex
	serializers []Serializer
)

// RegisterSerializable makes the instances s recognizes cloneable by
// structuredClone. Spec packages call it from an init function, so that
// clone need not import them. Every other platform object (one with
// webidl internal slots) throws a DataCloneError, as the HTML standard
// says for objects that are not [Serializable].
func RegisterSerializable(s Serializer) {
	regMu.Lock()
	defer regMu.Unlock()
	serializers = append(serializers, s)
}

type key struct{}

// state holds the realm's intrinsics the algorithm needs, captured at
// install so that an app replacing a global changes nothing.
type state struct {
	r                                   *webidl.Realm
	getTime, regSource, regFlags        goja.Callable
	typedName, typedBuffer, typedOffset goja.Callable
	typedLength                         goja.Callable
	dvBuffer, dvOffset, dvLength        goja.Callable
	mapForEach, setForEach, getOwnDesc  goja.Callable
	numValue, boolValue, bigValue       goja.Callable
	strValue                            goja.Callable
	date, regexp, mapCtor, setCtor      *goja.Object
	dataView, object, number, boolean   *goja.Object
	string_                             *goja.Object
	errors                              map[string]*goja.Object
	typed                               map[string]*goja.Object
}

// Install defines structuredClone in r (once per realm).
func Install(r *webidl.Realm) { install(r) }

func install(r *webidl.Realm) *state {
	return webidl.Value(r, key{}, func() *state {
		st := newState(r)
		r.Global("structuredClone", r.Func("structuredClone", 1, st.structuredClone))
		return st
	})
}

func newState(r *webidl.Realm) *state {
	rt := r.RT
	g := rt.GlobalObject()
	obj := func(v goja.Value) *goja.Object { return v.ToObject(rt) }
	proto := func(name string) *goja.Object { return obj(obj(g.Get(name)).Get("prototype")) }
	method := func(o *goja.Object, name string) goja.Callable { return webidl.Callable(o.Get(name)) }
	getter := func(o *goja.Object, name string) goja.Callable {
		return webidl.Callable(ownDescriptor(rt, o, rt.ToValue(name)).Get("get"))
	}
	typedProto := obj(proto("Uint8Array").Prototype())
	st := &state{
		r:       r,
		getTime: method(proto("Date"), "getTime"),
		date:    obj(g.Get("Date")), regexp: obj(g.Get("RegExp")),
		mapCtor: obj(g.Get("Map")), setCtor: obj(g.Get("Set")),
		dataView: obj(g.Get("DataView")), object: obj(g.Get("Object")),
		number: obj(g.Get("Number")), boolean: obj(g.Get("Boolean")), string_: obj(g.Get("String")),
		mapForEach: method(proto("Map"), "forEach"),
		setForEach: method(proto("Set"), "forEach"),
		getOwnDesc: method(obj(g.Get("Object")), "getOwnPropertyDescriptor"),
		numValue:   method(proto("Number"), "valueOf"),
		boolValue:  method(proto("Boolean"), "valueOf"),
		bigValue:   method(proto("BigInt"), "valueOf"),
		strValue:   method(proto("String"), "valueOf"),
		errors:     map[string]*goja.Object{},
		typed:      map[string]*goja.Object{},
	}
	st.regSource = getter(proto("RegExp"), "source")
	st.regFlags = getter(proto("RegExp"), "flags")
	st.typedBuffer = getter(typedProto, "buffer")
	st.typedOffset = getter(typedProto, "byteOffset")
	st.typedLength = getter(typedProto, "length")
	st.dvBuffer = getter(proto("DataView"), "buffer")
	st.dvOffset = getter(proto("DataView"), "byteOffset")
	st.dvLength = getter(proto("DataView"), "byteLength")
	st.typedName = webidl.Callable(ownDescriptor(rt, typedProto, goja.SymToStringTag).Get("get"))
	for _, n := range []string{"Error", "EvalError", "RangeError", "ReferenceError", "SyntaxError", "TypeError", "URIError"} {
		st.errors[n] = obj(g.Get(n))
	}
	for _, n := range []string{"Int8Array", "Uint8Array", "Uint8ClampedArray", "Int16Array", "Uint16Array", "Int32Array",
		"Uint32Array", "Float32Array", "Float64Array", "BigInt64Array", "BigUint64Array"} {
		if c, ok := g.Get(n).(*goja.Object); ok {
			st.typed[n] = c
		}
	}
	return st
}

// ownDescriptor is Object.getOwnPropertyDescriptor(o, key) of an
// intrinsic known to have it.
func ownDescriptor(rt *goja.Runtime, o *goja.Object, key goja.Value) *goja.Object {
	gopd := webidl.Callable(rt.GlobalObject().Get("Object").ToObject(rt).Get("getOwnPropertyDescriptor"))
	d, err := gopd(goja.Undefined(), o, key)
	if err != nil {
		panic(err)
	}
	return d.ToObject(rt)
}

// kind is how the algorithm treats an object, told by the Go type goja
// implements it with (its internal slots, which no JS-visible property
// reveals reliably).
type kind uint8

const (
	kindOther kind = iota // exotic or host: not cloneable
	kindOrdinary
	kindArray
	kindFunction
	kindError
	kindDate
	kindRegExp
	kindMap
	kindSet
	kindWeak // WeakMap, WeakSet
	kindArrayBuffer
	kindTypedArray
	kindDataView
	kindPrimitive // Number, Boolean, BigInt, Symbol wrappers
	kindString    // String wrapper
	kindPromise
	kindProxy
	kindDynamic // a Go-backed object (webidl slot holders, Go values)
)

var (
	selfIndex = func() int {
		f, ok := reflect.TypeOf(goja.Object{}).FieldByName("self")
		if !ok {
			return -1
		}
		return f.Index[0]
	}()
	kinds sync.Map // reflect.Type → kind
)

func kindByName(name string) kind {
	switch name {
	case "*goja.baseObject", "*goja.guardedObject", "*goja.templatedObject":
		return kindOrdinary
	case "*goja.arrayObject", "*goja.sparseArrayObject", "*goja.templatedArrayObject":
		return kindArray
	case "*goja.errorObject":
		return kindError
	case "*goja.dateObject":
		return kindDate
	case "*goja.regexpObject":
		return kindRegExp
	case "*goja.mapObject":
		return kindMap
	case "*goja.setObject":
		return kindSet
	case "*goja.weakMapObject", "*goja.weakSetObject":
		return kindWeak
	case "*goja.arrayBufferObject":
		return kindArrayBuffer
	case "*goja.typedArrayObject":
		return kindTypedArray
	case "*goja.dataViewObject":
		return kindDataView
	case "*goja.primitiveValueObject":
		return kindPrimitive
	case "*goja.stringObject":
		return kindString
	case "*goja.promiseObject":
		return kindPromise
	case "*goja.proxyObject":
		return kindProxy
	case "*goja.baseDynamicObject", "*goja.dynamicObject", "*goja.objectGoReflect", "*goja.objectGoMapSimple",
		"*goja.objectGoMapReflect", "*goja.objectGoSlice", "*goja.objectGoSliceReflect", "*goja.objectGoArrayReflect":
		return kindDynamic
	}
	return kindOther
}

func kindOf(o *goja.Object) kind {
	if _, ok := goja.AssertFunction(o); ok {
		return kindFunction
	}
	if selfIndex < 0 {
		return kindOther
	}
	self := reflect.ValueOf(o).Elem().Field(selfIndex)
	if self.IsNil() {
		return kindOther
	}
	t := self.Elem().Type()
	if k, ok := kinds.Load(t); ok {
		return k.(kind)
	}
	k := kindByName(t.String())
	kinds.Store(t, k)
	return k
}
