package streams

import (
	"github.com/dop251/goja"
)

// ArrayBuffer views, read through the intrinsic getters captured at
// install (what the spec's internal slots say, whatever an app does to
// the prototypes). goja reports the class "Object" for every view, so
// %TypedArray%.prototype[Symbol.toStringTag] ([[TypedArrayName]]) tells
// typed arrays apart, and DataView's own getters recognise DataViews.

type view struct {
	obj   *goja.Object
	buf   *goja.Object // [[ViewedArrayBuffer]]
	ab    goja.ArrayBuffer
	off   int // [[ByteOffset]]
	n     int // [[ByteLength]]
	typ   viewType
	typed bool // a typed array (has [[TypedArrayName]]), not a DataView
}

type viewGetters struct {
	taTag, taBuffer, taOffset, taLength goja.Callable
	dvBuffer, dvOffset, dvLength        goja.Callable
}

func (s *state) initViews() {
	rt := s.rt
	getter := func(proto *goja.Object, name string) goja.Callable {
		d := rt.Get("Object").ToObject(rt).Get("getOwnPropertyDescriptor")
		gopd, _ := goja.AssertFunction(d)
		desc, err := gopd(goja.Undefined(), proto, rt.ToValue(name))
		if err != nil {
			panic(err)
		}
		fn, _ := goja.AssertFunction(desc.ToObject(rt).Get("get"))
		return fn
	}
	ta := s.uint8Ctor.Get("prototype").ToObject(rt).Prototype()
	dv := rt.Get("DataView").ToObject(rt).Get("prototype").ToObject(rt)
	s.vg.taBuffer = getter(ta, "buffer")
	s.vg.taOffset = getter(ta, "byteOffset")
	s.vg.taLength = getter(ta, "byteLength")
	s.vg.dvBuffer = getter(dv, "buffer")
	s.vg.dvOffset = getter(dv, "byteOffset")
	s.vg.dvLength = getter(dv, "byteLength")
	gopd, _ := goja.AssertFunction(rt.Get("Object").ToObject(rt).Get("getOwnPropertyDescriptor"))
	desc, err := gopd(goja.Undefined(), ta, goja.SymToStringTag)
	if err != nil {
		panic(err)
	}
	s.vg.taTag, _ = goja.AssertFunction(desc.ToObject(rt).Get("get"))
}

// asView reads v as an ArrayBufferView.
func (s *state) asView(v goja.Value) (view, bool) {
	o, ok := v.(*goja.Object)
	if !ok {
		return view{}, false
	}
	g := &s.vg
	tag, err := g.taTag(o)
	if err != nil {
		panic(err)
	}
	var buf, off, n goja.Value
	vw := view{obj: o}
	if name, isStr := tag.(goja.String); isStr {
		vw.typ, vw.typed = s.views[name.String()], true
		buf, _ = g.taBuffer(o)
		off, _ = g.taOffset(o)
		n, _ = g.taLength(o)
	} else {
		if buf, err = g.dvBuffer(o); err != nil {
			return view{}, false
		}
		vw.typ = s.views["DataView"]
		off, err = g.dvOffset(o)
		if err != nil { // detached
			off, n = s.rt.ToValue(0), s.rt.ToValue(0)
		} else {
			n, _ = g.dvLength(o)
		}
	}
	vw.buf = buf.(*goja.Object)
	vw.ab, _ = vw.buf.Export().(goja.ArrayBuffer)
	vw.off, vw.n = int(off.ToInteger()), int(n.ToInteger())
	return vw, true
}

// abObject is the JS object of an ArrayBuffer.
func (s *state) abObject(ab goja.ArrayBuffer) *goja.Object {
	return s.rt.ToValue(ab).(*goja.Object)
}

// transfer is TransferArrayBuffer: a new ArrayBuffer takes over ab's
// memory (no copy) and ab is detached. ok is false when ab is detached.
func (s *state) transfer(ab goja.ArrayBuffer) (goja.ArrayBuffer, bool) {
	if ab.Detached() {
		return goja.ArrayBuffer{}, false
	}
	data := ab.Bytes()
	ab.Detach()
	return s.rt.NewArrayBuffer(data), true
}

// construct makes a view of type t over ab: length is in elements (bytes
// for DataView, whose element size is 1).
func (s *state) construct(t viewType, ab goja.ArrayBuffer, off, length int) *goja.Object {
	o, err := s.rt.New(t.ctor, s.abObject(ab), s.rt.ToValue(off), s.rt.ToValue(length))
	if err != nil {
		panic(err)
	}
	return o
}

func (s *state) newUint8(ab goja.ArrayBuffer, off, n int) *goja.Object {
	return s.construct(s.views["Uint8Array"], ab, off, n)
}
