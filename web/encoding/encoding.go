package encoding

import (
	"reflect"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// Globals are the global names Install defines.
var Globals = []string{"TextEncoder", "TextDecoder", "atob", "btoa"}

type key struct{}

type state struct {
	r       *webidl.Realm
	u8proto *goja.Object
}

// Install defines Globals in r (once per realm).
func Install(r *webidl.Realm) {
	webidl.Value(r, key{}, func() *state {
		st := &state{r: r}
		st.installTextEncoder()
		st.installTextDecoder()
		r.Global("atob", r.Func("atob", 1, st.atob))
		r.Global("btoa", r.Func("btoa", 1, st.btoa))
		return st
	})
}

var typeBytes = reflect.TypeOf([]byte(nil))

// bytesOf is webidl.Bytes with a fast path for Uint8Array, the usual
// argument of decode.
func bytesOf(v goja.Value) ([]byte, bool) {
	if o, ok := v.(*goja.Object); ok && o.ExportType() == typeBytes {
		if b, ok := o.Export().([]byte); ok {
			return b, true
		}
	}
	return webidl.Bytes(v)
}
