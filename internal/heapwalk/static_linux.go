package heapwalk

import (
	"bufio"
	"os"
	"strconv"
	"strings"
)

// staticRanges returns the address range of this executable's image, read
// from /proc/self/maps: every mapping of the executable file plus the
// anonymous mapping that directly follows the last one (bss and noptrbss).
// Nothing in that range is heap. On any read or parse problem it returns nil,
// and the walk then counts static data too.
func staticRanges() []addrRange {
	exe, err := os.Readlink("/proc/self/exe")
	if err != nil {
		return nil
	}
	f, err := os.Open("/proc/self/maps")
	if err != nil {
		return nil
	}
	defer f.Close()
	var img addrRange
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fields := strings.Fields(sc.Text())
		if len(fields) < 5 {
			continue
		}
		lo, hi, ok := parseSpan(fields[0])
		if !ok {
			continue
		}
		path := ""
		if len(fields) >= 6 {
			path = strings.Join(fields[5:], " ")
		}
		switch {
		case path == exe || path == exe+" (deleted)":
			if img.lo == 0 || lo < img.lo {
				img.lo = lo
			}
			if hi > img.hi {
				img.hi = hi
			}
		case path == "" && img.hi != 0 && lo == img.hi:
			img.hi = hi // bss directly after the file-backed segments
		}
	}
	if sc.Err() != nil || img.hi == 0 {
		return nil
	}
	return []addrRange{img}
}

func parseSpan(s string) (lo, hi uintptr, ok bool) {
	a, b, found := strings.Cut(s, "-")
	if !found {
		return 0, 0, false
	}
	l, err1 := strconv.ParseUint(a, 16, 64)
	h, err2 := strconv.ParseUint(b, 16, 64)
	if err1 != nil || err2 != nil {
		return 0, 0, false
	}
	return uintptr(l), uintptr(h), true
}
