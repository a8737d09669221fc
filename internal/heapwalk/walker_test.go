package heapwalk

import (
	"bytes"
	"context"
	"net/http"
	"net/http/httptest"
	"reflect"
	"runtime"
	"strings"
	"testing"
	"unsafe"
)

func TestArrayBehindTwoPointersCountsOnce(t *testing.T) {
	b := make([]byte, 1<<20)
	p := &b
	root := &struct{ x, y *[]byte }{p, p}
	got, objs := New().Size(root)
	want := int64(16 + 24 + 1<<20) // struct, slice header, array
	if got != want || objs != 3 {
		t.Fatalf("Size = %d bytes, %d objects; want %d, 3", got, objs, want)
	}
}

func TestSubSlicesShareOneArray(t *testing.T) {
	b := make([]byte, 1<<20)
	root := &struct{ all, head, tail []byte }{b, b[:10], b[4096:]}
	got, _ := New().Size(root)
	if want := int64(allocSize(72, true) + 1<<20); got != want {
		t.Fatalf("Size = %d, want %d (the array once)", got, want)
	}
}

func TestStringSharedByTwoFieldsCountsOnce(t *testing.T) {
	s := strings.Repeat("a", 5000)
	root := &struct{ a, b, prefix string }{s, s, s[:100]}
	got, objs := New().Size(root)
	if want := int64(48 + allocSize(5000, false)); got != want || objs != 2 {
		t.Fatalf("Size = %d bytes, %d objects; want %d, 2", got, objs, want)
	}
}

type node struct {
	next *node
	pad  [100]byte
}

func TestCycleTerminatesAndCountsEachNode(t *testing.T) {
	const n = 1000
	first := &node{}
	cur := first
	for range n - 1 {
		cur.next = &node{}
		cur = cur.next
	}
	cur.next = first
	got, objs := New().Size(first)
	if want := int64(n * allocSize(unsafe.Sizeof(node{}), true)); got != want || objs != n {
		t.Fatalf("Size = %d bytes, %d objects; want %d, %d", got, objs, want, n)
	}
}

func TestDeepListDoesNotRecurse(t *testing.T) {
	type link struct{ next *link }
	var head *link
	for range 1_000_000 {
		head = &link{head}
	}
	if _, objs := New().Size(head); objs != 1_000_000 {
		t.Fatalf("objects = %d, want 1000000", objs)
	}
}

func TestUnexportedFieldsAndInterfaces(t *testing.T) {
	type inner struct{ data []int64 }
	type outer struct {
		hidden *inner
		any    any // boxed non-pointer value
		err    error
	}
	var box [64]byte
	box[len(t.Name())%64] = 1 // not a constant, so the interface box is on the heap
	o := &outer{hidden: &inner{make([]int64, 1000)}, any: box, err: &strErr{strings.Repeat("e", 300)}}
	got, objs := New().Size(o)
	want := int64(allocSize(unsafe.Sizeof(*o), true) + 24 + allocSize(8000, false) + 64 + 16 + allocSize(300, false))
	if got != want || objs != 6 {
		t.Fatalf("Size = %d bytes, %d objects; want %d, 6", got, objs, want)
	}
}

type strErr struct{ s string }

func (e *strErr) Error() string { return e.s }

func TestExcludedRootsAreNotCounted(t *testing.T) {
	shared := &[1 << 20]byte{}
	w := New()
	w.Exclude(shared)
	own := make([]byte, 4096)
	root := &struct {
		s   *[1 << 20]byte
		own []byte
	}{shared, own}
	got, _ := w.Size(root)
	if want := int64(32 + 4096); got != want {
		t.Fatalf("Size = %d, want %d (shared array excluded)", got, want)
	}
	// Without the exclusion the same walk sees the megabyte.
	if all, _ := New().Size(root); all != got+1<<20 {
		t.Fatalf("unexcluded Size = %d, want %d", all, got+1<<20)
	}
}

func TestWalkerReuseGivesSameAnswer(t *testing.T) {
	m := map[string][]byte{"a": make([]byte, 100), "b": make([]byte, 200)}
	w := New()
	a, ao := w.Size(&m)
	b, bo := w.Size(&m)
	if a != b || ao != bo || a == 0 {
		t.Fatalf("two walks: %d/%d then %d/%d", a, ao, b, bo)
	}
}

func TestStaticDataIsNotHeap(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("static data is only recognised on Linux")
	}
	root := &struct {
		s string
		v any
	}{"a string literal in rodata", "a boxed constant"}
	if got, _ := New().Size(root); got != 32 {
		t.Fatalf("Size = %d, want 32 (only the struct)", got)
	}
}

// heapGrowth returns how much HeapAlloc grows while make runs and its
// result is kept alive.
func heapGrowth(make func() any) (int64, any) {
	before := heapAlloc()
	v := make()
	return heapAlloc() - before, v
}

// heapAlloc returns HeapAlloc after two collections (the second frees what
// sync.Pool victim caches kept through the first).
func heapAlloc() int64 {
	var m runtime.MemStats
	runtime.GC()
	runtime.GC()
	runtime.ReadMemStats(&m)
	return int64(m.HeapAlloc)
}

func TestMapSizeMatchesHeap(t *testing.T) {
	for _, n := range []int{10, 1000, 20000} {
		grew, v := heapGrowth(func() any {
			m := make(map[int64]*[48]byte)
			for i := range n {
				m[int64(i)] = new([48]byte)
			}
			return &m
		})
		got, _ := New().Size(v)
		if n >= 1000 && !within(got, grew, 0.15) {
			t.Errorf("map of %d: Size = %d, heap grew %d", n, got, grew)
		}
		t.Logf("map of %d: Size = %d, heap grew %d", n, got, grew)
		runtime.KeepAlive(v)
	}
}

func within(got, want int64, frac float64) bool {
	d := float64(got - want)
	return d <= frac*float64(want) && -d <= frac*float64(want)
}

func TestIsDirectMatchesInterfaceRepresentation(t *testing.T) {
	x := 42
	type wrap struct{ p *int }
	type two struct{ p, q *int }
	cases := []struct {
		v    any
		want bool
	}{
		{&x, true},
		{wrap{&x}, true},
		{[1]*int{&x}, true},
		{map[int]int{}, true},
		{two{&x, &x}, false},
		{"str", false},
		{x, false},
	}
	for _, c := range cases {
		if got := isDirect(reflect.TypeOf(c.v)); got != c.want {
			t.Errorf("isDirect(%T) = %v, want %v", c.v, got, c.want)
		}
		// A direct value's data word is its first (only) word.
		v := c.v
		data := (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1]
		first := reflect.ValueOf(&v).Elem().Elem()
		if c.want {
			p := reflect.New(first.Type())
			p.Elem().Set(first)
			if *(*unsafe.Pointer)(p.UnsafePointer()) != data {
				t.Errorf("%T: data word is not the value", c.v)
			}
		}
	}
}

func TestAllocSizeClasses(t *testing.T) {
	cases := []struct {
		size uintptr
		scan bool
		want uintptr
	}{
		{1, false, 8}, {24, true, 24}, {25, true, 32}, {100, false, 112},
		{512, true, 512}, {513, true, 576}, {1025, false, 1152},
		{10000, false, 10240}, {32760, false, 32768}, {32760, true, 32768}, {32761, false, 32768}, {32769, true, 40960},
		{1 << 20, false, 1 << 20}, {1<<20 + 1, false, 1<<20 + 8192},
	}
	for _, c := range cases {
		if got := allocSize(c.size, c.scan); got != c.want {
			t.Errorf("allocSize(%d, %v) = %d, want %d", c.size, c.scan, got, c.want)
		}
	}
}

// The server's machinery a graph points into — here a request context
// carrying a megabyte and an HTTP request — is not the graph's: the walk
// counts the graph's own megabyte and stops at them.
func TestServerMachineryIsNotWalked(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, make([]byte, 1<<20))
	req := httptest.NewRequest("POST", "/", bytes.NewReader(make([]byte, 1<<20))).WithContext(ctx)
	own := make([]byte, 1<<20)
	root := &struct {
		own []byte
		ctx context.Context
		req *http.Request
	}{own, ctx, req}
	got, _ := New().Size(root)
	if got < 1<<20 || got > 1<<20+4096 {
		t.Fatalf("Size = %d bytes, want the graph's own 1 MiB (and its small struct), not the context's or the request's", got)
	}
}
