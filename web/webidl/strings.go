package webidl

import (
	"reflect"
	"unicode/utf8"

	"github.com/dop251/goja"
)

var uint16s = reflect.TypeOf([]uint16(nil))

// StringData returns the content of the JS string v without copying where
// goja allows, for hot paths that walk a string's characters (TextEncoder,
// btoa): either text, valid UTF-8 with no lone surrogates (an ASCII string,
// or a string that came from Go), or units, its UTF-16 code units (shared
// with the string: never modify them), which may hold lone surrogates.
// Exactly one of the two is set (both empty for ""). v must be a string
// primitive; anything else is converted with String first.
func StringData(v goja.Value) (text string, units []uint16) {
	if v == nil {
		return "undefined", nil
	}
	if _, ok := v.(goja.String); ok {
		rv := reflect.ValueOf(v)
		switch rv.Kind() {
		case reflect.String: // goja keeps ASCII strings as Go strings
			return rv.String(), nil
		case reflect.Slice: // and others as UTF-16, after a marker unit
			if rv.Type().ConvertibleTo(uint16s) {
				u := rv.Convert(uint16s).Interface().([]uint16)
				if len(u) > 0 {
					return "", u[1:]
				}
				return "", nil
			}
		}
	}
	s := v.String() // a string from Go (already UTF-8), or any other value
	if !utf8.ValidString(s) {
		s = string([]rune(s)) // invalid bytes become U+FFFD, as the string would have
	}
	return s, nil
}
