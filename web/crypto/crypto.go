package crypto

import (
	"crypto/rand"
	"encoding/hex"
	"reflect"
	"unsafe"

	"bext/web/webidl"

	"github.com/dop251/goja"
)

// Globals are the global names Install defines.
var Globals = []string{"crypto", "Crypto", "CryptoKey", "SubtleCrypto"}

type key struct{}

// state is the crypto spec's per-realm state.
type state struct {
	r        *webidl.Realm
	keyClass *webidl.Class
	subtle   *goja.Object

	// uuids holds random bytes for randomUUID, drawn 16 at a time (one
	// read of the system's random source serves many calls, as Node does).
	uuids    [256]byte
	uuidNext int
}

// Install defines Globals in r (once per realm).
func Install(r *webidl.Realm) {
	webidl.Value(r, key{}, func() *state {
		r.DOMExceptionClass()
		s := &state{r: r, uuidNext: len(state{}.uuids)}
		s.installKey()
		s.installSubtle()
		s.installCrypto()
		return s
	})
}

func (s *state) installCrypto() {
	r := s.r
	c := r.NewClass("Crypto", 0, nil, nil)
	c.Getter("subtle", func(this goja.Value) goja.Value {
		webidl.This[*state](r, this)
		return s.subtle
	})
	c.Method("getRandomValues", 1, func(call goja.FunctionCall) goja.Value {
		webidl.This[*state](r, call.This)
		return s.getRandomValues(call)
	})
	c.Method("randomUUID", 0, func(call goja.FunctionCall) goja.Value {
		webidl.This[*state](r, call.This)
		return r.RT.ToValue(s.randomUUID())
	})
	r.Global("Crypto", c.Ctor)
	r.Global("crypto", c.New(s))
}

// maxRandom is the most bytes getRandomValues fills at once.
const maxRandom = 65536

func (s *state) getRandomValues(call goja.FunctionCall) goja.Value {
	r := s.r
	if len(call.Arguments) < 1 {
		r.TypeError("Failed to execute 'getRandomValues' on 'Crypto': 1 argument required, but only 0 present.")
	}
	v := call.Arguments[0]
	o, ok := v.(*goja.Object)
	if !ok {
		r.TypeError("Failed to execute 'getRandomValues' on 'Crypto': parameter 1 is not of type 'ArrayBufferView'.")
	}
	b, integer := integerView(o)
	if !integer {
		if _, view := webidl.Bytes(v); !view || isArrayBuffer(v) {
			r.TypeError("Failed to execute 'getRandomValues' on 'Crypto': parameter 1 is not of type 'ArrayBufferView'.")
		}
		r.ThrowDOMException("The data argument must be an integer-type TypedArray", "TypeMismatchError")
	}
	if len(b) > maxRandom {
		r.ThrowDOMException("The requested length exceeds 65,536 bytes", "QuotaExceededError")
	}
	_, _ = rand.Read(b)
	return v
}

func isArrayBuffer(v goja.Value) bool {
	_, ok := v.Export().(goja.ArrayBuffer)
	return ok
}

// integerView returns the bytes of an integer-typed array (shared with
// it), telling typed arrays by the Go slice goja exports them as.
func integerView(o *goja.Object) ([]byte, bool) {
	t := o.ExportType()
	if t == nil || t.Kind() != reflect.Slice {
		return nil, false
	}
	size := 0
	switch t.Elem().Kind() {
	case reflect.Int8, reflect.Uint8:
		size = 1
	case reflect.Int16, reflect.Uint16:
		size = 2
	case reflect.Int32, reflect.Uint32:
		size = 4
	case reflect.Int64, reflect.Uint64:
		size = 8
	default:
		return nil, false
	}
	rv := reflect.ValueOf(o.Export())
	n := rv.Len() * size
	if n == 0 {
		return nil, true
	}
	return unsafe.Slice((*byte)(rv.UnsafePointer()), n), true
}

func (s *state) randomUUID() string {
	if s.uuidNext+16 > len(s.uuids) {
		_, _ = rand.Read(s.uuids[:])
		s.uuidNext = 0
	}
	var u [16]byte
	copy(u[:], s.uuids[s.uuidNext:])
	clear(s.uuids[s.uuidNext : s.uuidNext+16]) // used bytes do not linger
	s.uuidNext += 16
	u[6] = u[6]&0x0f | 0x40
	u[8] = u[8]&0x3f | 0x80
	var out [36]byte
	hex.Encode(out[0:8], u[0:4])
	out[8] = '-'
	hex.Encode(out[9:13], u[4:6])
	out[13] = '-'
	hex.Encode(out[14:18], u[6:8])
	out[18] = '-'
	hex.Encode(out[19:23], u[8:10])
	out[23] = '-'
	hex.Encode(out[24:], u[10:])
	return string(out[:])
}

// bufferSource returns the bytes a BufferSource views (shared with it).
// A Uint8Array is told by the Go type goja exports it as (so is a Go
// []byte handed to JS, which serves as well).
func bufferSource(v goja.Value) ([]byte, bool) {
	if o, ok := v.(*goja.Object); ok {
		if o.ExportType() == bytesType {
			return o.Export().([]byte), true // Uint8Array, Uint8ClampedArray
		}
	}
	return webidl.Bytes(v)
}

var bytesType = reflect.TypeOf([]byte(nil))
