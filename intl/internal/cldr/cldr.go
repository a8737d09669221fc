// Package cldr holds the CLDR 48 data embedded for package intl and unpacks
// it on demand: one locale at a time, the first time it is asked for, into
// an immutable Bundle shared by every runtime.
package cldr

import (
	"bytes"
	"compress/flate"
	_ "embed"
	"encoding/binary"
	"encoding/json"
	"io"
	"strings"
	"sync"
)

//go:generate sh ../gen/run.sh

//go:embed locales.bin
var localesBin []byte

// ICU holds lists ICU decides rather than CLDR (gen/icu-lists.js).
//
//go:embed icu.json
var ICU []byte

//go:embed supplemental.bin
var supplementalBin []byte

type entry struct {
	parent   string
	off, len uint32
	once     sync.Once
	b        *Bundle
}

var (
	indexOnce sync.Once
	index     map[string]*entry
	names     []string
	chunks    []byte
)

func loadIndex() {
	indexOnce.Do(func() {
		b := localesBin
		n := binary.LittleEndian.Uint32(b)
		b = b[4:]
		index = make(map[string]*entry, n)
		for i := uint32(0); i < n; i++ {
			name := string(b[1 : 1+b[0]])
			b = b[1+len(name):]
			parent := string(b[1 : 1+b[0]])
			b = b[1+len(parent):]
			e := &entry{parent: parent, off: binary.LittleEndian.Uint32(b), len: binary.LittleEndian.Uint32(b[4:])}
			b = b[8:]
			index[name] = e
			names = append(names, name)
		}
		chunks = b
	})
}

// Has reports whether CLDR has data for the locale id (BCP 47 form, "und"
// for root).
func Has(id string) bool {
	loadIndex()
	_, ok := index[id]
	return ok
}

// Locales lists every locale with data, sorted.
func Locales() []string {
	loadIndex()
	return names
}

// Bundle is one locale's data with its parents behind it. It is immutable.
type Bundle struct {
	ID     string
	Parent *Bundle
	m      map[string]string
}

// Load returns the bundle of id, or nil when there is none.
func Load(id string) *Bundle {
	loadIndex()
	e := index[id]
	if e == nil {
		return nil
	}
	e.once.Do(func() {
		var parent *Bundle
		if e.parent != "" {
			parent = Load(e.parent)
		}
		raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(chunks[e.off : e.off+e.len])))
		if err != nil {
			panic("intl: corrupt embedded CLDR data: " + err.Error())
		}
		s := string(raw)
		m := make(map[string]string, strings.Count(s, "\x00")/2)
		for len(s) > 0 {
			i := strings.IndexByte(s, 0)
			k := s[:i]
			s = s[i+1:]
			j := strings.IndexByte(s, 0)
			m[k] = s[:j]
			s = s[j+1:]
		}
		e.b = &Bundle{ID: id, Parent: parent, m: m}
	})
	return e.b
}

// Get returns the value at path, looked up through the parents.
func (b *Bundle) Get(path string) (string, bool) {
	for ; b != nil; b = b.Parent {
		if v, ok := b.m[path]; ok {
			if v == "\x01" {
				return "", false
			}
			return v, true
		}
	}
	return "", false
}

// S returns the value at path or "".
func (b *Bundle) S(path string) string {
	v, _ := b.Get(path)
	return v
}

// Keys calls f for every path under prefix (with the prefix removed) that
// has a value in b or its parents.
func (b *Bundle) Keys(prefix string, f func(rest, v string)) {
	seen := map[string]bool{}
	for c := b; c != nil; c = c.Parent {
		for k, v := range c.m {
			if strings.HasPrefix(k, prefix) && !seen[k] {
				seen[k] = true
				if v != "\x01" {
					f(k[len(prefix):], v)
				}
			}
		}
	}
}

var (
	suppOnce sync.Once
	supp     map[string]json.RawMessage
)

// Supplemental decodes the named cldr-core supplemental file (without its
// "supplemental" wrapper) into v.
func Supplemental(name string, v any) {
	suppOnce.Do(func() {
		raw, err := io.ReadAll(flate.NewReader(bytes.NewReader(supplementalBin)))
		if err != nil {
			panic("intl: corrupt embedded CLDR data: " + err.Error())
		}
		if err := json.Unmarshal(raw, &supp); err != nil {
			panic(err)
		}
	})
	if err := json.Unmarshal(supp[name], v); err != nil {
		panic("intl: supplemental " + name + ": " + err.Error())
	}
}

// Loaded reports how many locales have been unpacked (for tests of laziness).
func Loaded() int {
	n := 0
	for _, e := range index {
		if e.b != nil {
			n++
		}
	}
	return n
}
