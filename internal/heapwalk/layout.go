package heapwalk

import (
	"reflect"
	"unsafe"
)

// layout is what the walker needs to know about a type, computed once per
// type: its size, whether the GC scans it, and the offsets of the parts that
// lead to other allocations (leaves). Structs and short arrays are flattened
// into their leaves so that walking a value is a loop over offsets, with no
// reflect calls on the hot path.
type layout struct {
	t      reflect.Type
	kind   reflect.Kind
	size   uintptr
	scan   bool             // contains pointers of any kind (the GC's "scan" class)
	direct bool             // stored directly in an interface's data word
	leaves []leaf           // parts that reach other allocations
	elem   *layout          // Pointer: pointee; Slice, Array: element
	n      int              // Array: length
	key    *layout          // Map: key
	val    *layout          // Map: value
	kv     [2]reflect.Value // Map: settable scratch key and value
}

type leaf struct {
	off uintptr
	l   *layout // layout of the leaf's own type (Pointer, Slice, String, Map, Interface or Array)
}

// flattenArrayMax is the longest array whose elements are unrolled into the
// enclosing layout; longer arrays stay one Array leaf walked in a loop.
const flattenArrayMax = 8

func (w *Walker) layoutOf(t reflect.Type) *layout {
	if l, ok := w.types[t]; ok {
		return l
	}
	l := &layout{t: t, kind: t.Kind(), size: t.Size()}
	// Registered before recursing so recursive types terminate; a leaf only
	// keeps a pointer to l, which is complete by the time anything is walked.
	w.types[t] = l
	l.direct = isDirect(t)
	if l.kind == reflect.Pointer && foreign(t.Elem()) || l.kind == reflect.Struct && foreign(t) {
		l.scan = true // held, never followed (see foreign)
		return l
	}
	switch l.kind {
	case reflect.Pointer:
		l.scan = true
		l.leaves = []leaf{{0, l}}
		l.elem = w.layoutOf(t.Elem())
	case reflect.Slice:
		l.scan = true
		l.leaves = []leaf{{0, l}}
		l.elem = w.layoutOf(t.Elem())
	case reflect.String, reflect.Interface:
		l.scan = true
		l.leaves = []leaf{{0, l}}
	case reflect.Map:
		l.scan = true
		l.leaves = []leaf{{0, l}}
		l.key = w.layoutOf(t.Key())
		l.val = w.layoutOf(t.Elem())
		l.kv = [2]reflect.Value{reflect.New(t.Key()).Elem(), reflect.New(t.Elem()).Elem()}
	case reflect.Func, reflect.Chan, reflect.UnsafePointer:
		l.scan = true // opaque: held, never followed
	case reflect.Struct:
		for i := 0; i < t.NumField(); i++ {
			f := t.Field(i)
			fl := w.layoutOf(f.Type)
			l.scan = l.scan || fl.scan
			for _, lf := range fl.leaves {
				l.leaves = append(l.leaves, leaf{f.Offset + lf.off, lf.l})
			}
		}
	case reflect.Array:
		el := w.layoutOf(t.Elem())
		l.scan = el.scan && t.Len() > 0
		switch {
		case len(el.leaves) == 0 || t.Len() == 0:
		case t.Len() <= flattenArrayMax:
			for i := 0; i < t.Len(); i++ {
				for _, lf := range el.leaves {
					l.leaves = append(l.leaves, leaf{uintptr(i)*el.size + lf.off, lf.l})
				}
			}
		default:
			l.elem, l.n = el, t.Len()
			l.leaves = []leaf{{0, l}}
		}
	}
	return l
}

// foreignPkgs are the packages whose values a walk does not enter: the
// server's machinery (connections, requests and their contexts, the
// router, goroutine plumbing, OS handles, loggers, timers) that a graph of
// JS values may point into — a Request made from an incoming HTTP request
// holds its body reader, and so the connection — but that is not the
// graph's own, and that other goroutines change while the graph is idle:
// walking it would count the server and read memory being written.
var foreignPkgs = []string{"net", "context", "crypto/tls", "os", "syscall", "runtime", "sync", "io", "bufio", "time", "log", "github.com/go-chi/chi"}

// foreign reports whether t is a named type of one of foreignPkgs (or a
// package below one).
func foreign(t reflect.Type) bool {
	pkg := t.PkgPath()
	for _, f := range foreignPkgs {
		if len(pkg) >= len(f) && pkg[:len(f)] == f && (len(pkg) == len(f) || pkg[len(f)] == '/') {
			return true
		}
	}
	return false
}

// isDirect reports whether values of t are stored in an interface's data
// word itself rather than boxed behind it: pointer-shaped types, and structs
// or arrays that consist of exactly one pointer-shaped value (the compiler's
// isdirectiface rule).
func isDirect(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Map, reflect.Chan, reflect.Func, reflect.UnsafePointer:
		return true
	case reflect.Array:
		return t.Len() == 1 && isDirect(t.Elem())
	case reflect.Struct:
		return t.NumField() == 1 && isDirect(t.Field(0).Type)
	}
	return false
}

// ifaceType returns the layout of the dynamic type of the non-nil interface
// at p, whose static type is the interface type t. The first word of an
// interface (type or itab pointer) identifies the dynamic type, so lookups
// after the first are one map access.
func (w *Walker) ifaceType(p unsafe.Pointer, t reflect.Type) *layout {
	tw := *(*uintptr)(p)
	if l, ok := w.ifaces[tw]; ok {
		return l
	}
	l := w.layoutOf(reflect.NewAt(t, p).Elem().Elem().Type())
	w.ifaces[tw] = l
	return l
}
