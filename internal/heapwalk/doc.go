// Package heapwalk estimates how much of the Go heap one object graph keeps
// alive. bext uses it to attribute heap to a single goja runtime ("isolate"),
// because all isolates share one Go heap and there is no per-worker RSS.
//
// A Walker follows, by reflection and unsafe reads, everything reachable from
// a root and sums the sizes of the distinct heap allocations it finds. Sizes
// are rounded up the way the Go allocator rounds them (size classes, the
// 8-byte malloc header of pointerful objects over 512 bytes, whole pages for
// objects over 32 KiB), so a walk's total is comparable with
// runtime.MemStats.HeapAlloc. Memory reachable from roots given to Exclude is
// treated as shared and neither counted nor walked through.
//
// What is counted:
//
//   - the pointee of every non-nil pointer, once per address (the larger size
//     wins when two pointer types share an address);
//   - the backing array of every slice up to its capacity, once per array; a
//     slice is keyed by the end of its capacity, so s, s[:n] and s[k:] of one
//     array are counted once, at the largest extent seen;
//   - the bytes of every string, once per data pointer (largest length wins);
//   - the boxed copy behind an interface holding a non-pointer-shaped value;
//   - maps: an estimate of the Go 1.24+ swiss-table storage (groups of eight
//     slots sized for a 7/8 load factor, control words, header) plus whatever
//     the keys and values reach;
//   - structs and arrays inline, including unexported fields.
//
// What is not counted, and why:
//
//   - func values: a closure's captured variables are invisible to reflection.
//     Goja's JavaScript closures are ordinary Go structs and are counted; Go
//     functions installed into a runtime (native functions) are not, nor is
//     anything only they capture.
//   - chans and unsafe.Pointer (including weak.Pointer targets, which is the
//     right answer for goja's WeakMap): their targets have no type we can see.
//   - static data: on Linux, pointers into the executable's image (rodata,
//     data, bss; e.g. string literals, boxed constants, goja's small-int
//     cache) are recognised from /proc/self/maps and skipped, since they are
//     not heap. Elsewhere they are counted, a small constant overstatement.
//   - the server's machinery: values of named types from net/..., context,
//     crypto/tls, os, syscall, runtime, sync, io, bufio, time, log/... and
//     the chi router (see foreignPkgs) are not entered — a graph that holds
//     an incoming HTTP request's body reaches its connection, which is the
//     server's, and which other goroutines write while the graph is idle.
//   - memory owned by the runtime outside the typed graph: goroutine stacks,
//     allocator slack beyond the size class, free map slots beyond the
//     estimate, and interior pointers into an allocation reached by its base
//     elsewhere (which may be counted twice, for the pointee's size only).
//
// A Walker reads memory without synchronisation: the graph must not change
// during Exclude or Size. A Walker is not safe for concurrent use; its
// visited sets and stack are reused between calls so that repeated walks do
// not allocate in proportion to the graph.
package heapwalk
