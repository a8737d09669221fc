//go:build !linux

package heapwalk

// staticRanges is unknown off Linux: static data reached from a root is
// counted as if it were heap.
func staticRanges() []addrRange { return nil }
