package heapwalk

import (
	"reflect"
	"unsafe"
)

// Walker sums the heap reachable from a root. The zero value is not usable;
// call New.
type Walker struct {
	types  map[reflect.Type]*layout
	ifaces map[uintptr]*layout // interface type word -> dynamic type layout
	static []addrRange

	excl visited // reachable from Exclude's roots: shared, never counted
	seen visited // reachable in the current Size call
	cur  *visited
	size bool // walking for Size (check excl) rather than for Exclude

	stack   []item
	bytes   int64
	objects int
	root    any            // the root while it is walked, so it has an address
	mapSlot unsafe.Pointer // the map being iterated, so it has an address
	iter    reflect.MapIter
}

// visited records allocations already accounted for, with the footprint
// counted for each (a later, larger view of the same allocation adds the
// difference).
type visited struct {
	objs   map[uintptr]uintptr // start address -> footprint: pointees, strings, boxes, maps
	arrays map[uintptr]uintptr // end address -> footprint: slice backing arrays
}

type addrRange struct{ lo, hi uintptr }

// item is n consecutive values of layout l at p, or (n < 0) the map whose
// runtime pointer is p.
type item struct {
	p unsafe.Pointer
	l *layout
	n int
}

// New returns a Walker with nothing excluded.
func New() *Walker {
	return &Walker{
		types:  make(map[reflect.Type]*layout),
		ifaces: make(map[uintptr]*layout),
		static: staticRanges(),
		excl:   visited{make(map[uintptr]uintptr), make(map[uintptr]uintptr)},
		seen:   visited{make(map[uintptr]uintptr), make(map[uintptr]uintptr)},
	}
}

// Exclude marks everything reachable from roots as shared: later Size calls
// neither count it nor walk through it. The excluded set is a snapshot taken
// now; roots should be immutable afterwards (a compiled *goja.Program is).
// Exclude may be called more than once; the sets accumulate.
func (w *Walker) Exclude(roots ...any) {
	w.cur, w.size = &w.excl, false
	for _, r := range roots {
		w.walkRoot(r)
	}
}

// Size returns the bytes and the number of distinct heap allocations
// reachable from root and not excluded. root is usually a pointer; a
// non-pointer root's own box is counted too. The graph must not be mutated
// while Size runs.
func (w *Walker) Size(root any) (bytes int64, objects int) {
	clear(w.seen.objs)
	clear(w.seen.arrays)
	w.cur, w.size = &w.seen, true
	w.bytes, w.objects = 0, 0
	w.walkRoot(root)
	return w.bytes, w.objects
}

func (w *Walker) walkRoot(r any) {
	w.root = r
	w.edge(unsafe.Pointer(&w.root), w.layoutOf(reflect.TypeFor[any]()))
	w.drain()
	w.root = nil
}

func (w *Walker) drain() {
	for len(w.stack) > 0 {
		it := w.stack[len(w.stack)-1]
		w.stack[len(w.stack)-1] = item{} // let the GC forget it
		w.stack = w.stack[:len(w.stack)-1]
		if it.n < 0 {
			w.walkMap(it.p, it.l)
			continue
		}
		w.scan(it.p, it.l, it.n)
	}
}

// scan follows the leaves of n consecutive values of l at p. p may be
// scratch memory (a map entry copy): scan only reads it, and what it pushes
// are the heap addresses found there.
func (w *Walker) scan(p unsafe.Pointer, l *layout, n int) {
	for i := range n {
		base := unsafe.Add(p, uintptr(i)*l.size)
		for _, lf := range l.leaves {
			w.edge(unsafe.Add(base, lf.off), lf.l)
		}
	}
}

// sliceHeader is the runtime representation of a slice.
type sliceHeader struct {
	data     unsafe.Pointer
	len, cap int
}

// edge accounts for what the single value of layout l at p points to.
func (w *Walker) edge(p unsafe.Pointer, l *layout) {
	switch l.kind {
	case reflect.Pointer:
		q := *(*unsafe.Pointer)(p)
		if q != nil && l.elem.size != 0 && w.alloc(q, l.elem.size, l.elem.scan) && len(l.elem.leaves) > 0 {
			w.stack = append(w.stack, item{q, l.elem, 1})
		}
	case reflect.String:
		s := *(*string)(p)
		if len(s) > 0 {
			w.alloc(unsafe.Pointer(unsafe.StringData(s)), uintptr(len(s)), false)
		}
	case reflect.Slice:
		h := (*sliceHeader)(p)
		if h.data == nil || h.cap == 0 || l.elem.size == 0 {
			return
		}
		if w.allocArray(h.data, uintptr(h.cap)*l.elem.size, l.elem.scan) && len(l.elem.leaves) > 0 {
			w.stack = append(w.stack, item{h.data, l.elem, h.cap})
		}
	case reflect.Map:
		if m := *(*unsafe.Pointer)(p); m != nil {
			w.stack = append(w.stack, item{m, l, -1})
		}
	case reflect.Interface:
		if *(*unsafe.Pointer)(p) == nil {
			return
		}
		dl := w.ifaceType(p, l.t)
		data := unsafe.Add(p, unsafe.Sizeof(uintptr(0)))
		if dl.direct {
			w.scan(data, dl, 1)
			return
		}
		box := *(*unsafe.Pointer)(data)
		if box != nil && dl.size != 0 && w.alloc(box, dl.size, dl.scan) && len(dl.leaves) > 0 {
			w.stack = append(w.stack, item{box, dl, 1})
		}
	case reflect.Array:
		w.scan(p, l.elem, l.n)
	}
}

// walkMap counts the map whose runtime pointer is m and follows its keys and
// values. Entries are copied into per-type scratch values and scanned there,
// which keeps iteration free of per-entry allocations.
func (w *Walker) walkMap(m unsafe.Pointer, l *layout) {
	w.mapSlot = m
	v := reflect.NewAt(l.t, unsafe.Pointer(&w.mapSlot)).Elem()
	if !w.record(w.cur.objs, w.excl.objs, uintptr(m), uintptr(m), mapBytes(l, v.Len())) {
		w.mapSlot = nil
		return
	}
	k, e := l.kv[0], l.kv[1]
	kl, el := len(l.key.leaves) > 0, len(l.val.leaves) > 0
	if kl || el {
		w.iter.Reset(v)
		for w.iter.Next() {
			if kl {
				k.SetIterKey(&w.iter)
				w.scan(k.Addr().UnsafePointer(), l.key, 1)
			}
			if el {
				e.SetIterValue(&w.iter)
				w.scan(e.Addr().UnsafePointer(), l.val, 1)
			}
		}
		w.iter.Reset(reflect.Value{})
		k.SetZero()
		e.SetZero()
	}
	w.mapSlot = nil
}

// mapBytes estimates the heap footprint of a Go 1.24+ swiss-table map with
// n entries: a 48-byte header; for up to eight entries one group of eight
// slots (plus an 8-byte control word); beyond that, groups sized to keep the
// load under 7/8, split into tables of at most 1024 slots, each a separate
// allocation with a small table header, plus the table directory. Keys or
// values over 128 bytes are stored behind pointers; those separate
// allocations are not counted.
func mapBytes(l *layout, n int) uintptr {
	const header, tableHeader, maxTableSlots = 48, 32, 1024
	foot := allocSize(header, true)
	if n == 0 {
		return foot
	}
	ks, vs := l.key.size, l.val.size
	if ks > 128 {
		ks = 8
	}
	if vs > 128 {
		vs = 8
	}
	slot := ks + vs
	if a := uintptr(l.t.Key().Align()); a > 1 {
		slot = (slot + a - 1) &^ (a - 1)
	}
	scan := l.key.scan || l.val.scan
	if n <= 8 {
		return foot + allocSize(8+8*slot, scan)
	}
	slots := uintptr(16)
	for slots*7/8 < uintptr(n) {
		slots *= 2
	}
	tables, per := uintptr(1), slots
	if slots > maxTableSlots {
		tables, per = slots/maxTableSlots, maxTableSlots
	}
	foot += tables * (allocSize(tableHeader, true) + allocSize(per/8*(8+8*slot), scan))
	return foot + allocSize(tables*8, true)
}

// alloc records the allocation of size bytes at p and reports whether it is
// new (or larger than before) and so should be walked.
func (w *Walker) alloc(p unsafe.Pointer, size uintptr, scan bool) bool {
	return w.record(w.cur.objs, w.excl.objs, uintptr(p), uintptr(p), allocSize(size, scan))
}

// allocArray records a slice's backing array, keyed by the end of its
// capacity so that re-slicings from the front share one entry.
func (w *Walker) allocArray(p unsafe.Pointer, size uintptr, scan bool) bool {
	end := uintptr(p) + size
	return w.record(w.cur.arrays, w.excl.arrays, uintptr(p), end, allocSize(size, scan))
}

// record notes an allocation at addr (keyed by key in set) with heap
// footprint foot. The set keeps the largest footprint seen per key; a larger
// one adds only the difference.
func (w *Walker) record(set, excl map[uintptr]uintptr, addr, key, foot uintptr) bool {
	for _, r := range w.static {
		if addr >= r.lo && addr < r.hi {
			return false
		}
	}
	old, ok := set[key]
	if ok && old >= foot {
		return false
	}
	// Only allocations not yet seen in this walk can be excluded ones: an
	// excluded key never enters the walk's set, so revisits skip this lookup.
	if !ok && w.size {
		if _, shared := excl[key]; shared {
			return false
		}
	}
	set[key] = foot
	w.bytes += int64(foot - old)
	if !ok {
		w.objects++
	}
	return true
}
