package heapwalk

// Allocator geometry of Go 1.22–1.26 (internal/runtime/gc). It only affects
// how a walk's total lines up with runtime.MemStats; a mismatch after a
// toolchain change makes totals slightly off, not wrong in kind.
const (
	maxSmallSize           = 32768
	pageSize               = 8192
	mallocHeaderSize       = 8
	minSizeForMallocHeader = 512
)

var sizeClasses = [...]uint16{0, 8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256, 288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048, 2304, 2688, 3072, 3200, 3456, 4096, 4864, 5376, 6144, 6528, 6784, 6912, 8192, 9472, 9728, 10240, 10880, 12288, 13568, 14336, 16384, 18432, 19072, 20480, 21760, 24576, 27264, 28672, 32768}

// classIndex maps (size+7)/8 to the smallest class holding size, for sizes up
// to 1024; larger small sizes are found by binary search.
var classIndex [1024/8 + 1]uint8

func init() {
	c := 1
	for i := range classIndex {
		for int(sizeClasses[c]) < i*8 {
			c++
		}
		classIndex[i] = uint8(c)
	}
}

// allocSize is the heap footprint of an allocation of size bytes; scan says
// whether the allocation holds pointers (which costs a header above 512 B).
func allocSize(size uintptr, scan bool) uintptr {
	if size == 0 {
		return 0
	}
	if size > maxSmallSize-mallocHeaderSize {
		return (size + pageSize - 1) &^ (pageSize - 1) // large object: whole pages
	}
	req := size
	if scan && req > minSizeForMallocHeader {
		req += mallocHeaderSize
	}
	if req <= 1024 {
		return uintptr(sizeClasses[classIndex[(req+7)/8]])
	}
	lo, hi := int(classIndex[len(classIndex)-1]), len(sizeClasses)-1
	for lo < hi {
		mid := (lo + hi) / 2
		if uintptr(sizeClasses[mid]) >= req {
			hi = mid
		} else {
			lo = mid + 1
		}
	}
	return uintptr(sizeClasses[lo])
}
