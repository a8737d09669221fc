package fetch

import (
	"bytes"
	"slices"
	"strings"
	"time"

	"github.com/dop251/goja"

	"bext/web/clone"
	"bext/web/streams"
	"bext/web/webidl"
)

// blob is the Go state of a Blob or File (File API). Its bytes are
// immutable: slices and bodies share them, and whatever hands them to JS
// copies first.
type blob struct {
	data         []byte
	typ          string
	file         bool
	name         string
	lastModified int64
}

// blobType is a Blob's type from the type option: empty if it has a code
// point outside U+0020–U+007E, else lower-cased.
func blobType(t string) string {
	for i := 0; i < len(t); i++ {
		if t[i] < 0x20 || t[i] > 0x7E {
			return ""
		}
	}
	return lower(t)
}

func (s *state) installBlob() {
	r, rt := s.r, s.rt
	s.blob = r.NewClass("Blob", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		b := &blob{}
		opts := r.Dict(call.Argument(1), "Failed to construct 'Blob'")
		native := s.endings(opts, "Blob")
		if t := webidl.Member(opts, "type"); t != nil {
			b.typ = blobType(r.String(t))
		}
		if parts := call.Argument(0); !goja.IsUndefined(parts) {
			b.data = s.blobParts(parts, native, "Blob")
		}
		r.SetSlot(call.This, b)
		return nil
	})
	c := s.blob
	this := func(v goja.Value) *blob { return webidl.This[*blob](r, v) }
	c.Getter("size", func(v goja.Value) goja.Value { return rt.ToValue(len(this(v).data)) })
	c.Getter("type", func(v goja.Value) goja.Value { return rt.ToValue(this(v).typ) })
	c.Method("slice", 0, func(call goja.FunctionCall) goja.Value {
		b := this(call.This)
		n := int64(len(b.data))
		rel := func(v goja.Value, def int64) int64 {
			if goja.IsUndefined(v) {
				return def
			}
			x := r.Integer(v, 64, true, webidl.Clamp)
			if x < 0 {
				return max(n+x, 0)
			}
			return min(x, n)
		}
		start, end := rel(call.Argument(0), 0), rel(call.Argument(1), n)
		typ := ""
		if t := call.Argument(2); !goja.IsUndefined(t) {
			typ = blobType(r.String(t))
		}
		var data []byte
		if end > start {
			data = b.data[start:end:end]
		}
		return s.newBlob(data, typ)
	})
	c.Method("stream", 0, func(call goja.FunctionCall) goja.Value {
		return streams.FromBytes(r, slices.Clone(this(call.This).data))
	})
	c.Method("text", 0, func(call goja.FunctionCall) goja.Value {
		return r.Resolved(decodeUTF8(this(call.This).data))
	})
	c.Method("arrayBuffer", 0, func(call goja.FunctionCall) goja.Value {
		return r.Resolved(r.ArrayBuffer(bytes.Clone(this(call.This).data)))
	})
	c.Method("bytes", 0, func(call goja.FunctionCall) goja.Value {
		return r.Resolved(s.uint8(this(call.This).data))
	})

	s.file = r.NewClass("File", 2, c, func(call goja.ConstructorCall) *goja.Object {
		if len(call.Arguments) < 2 {
			s.typeError("Failed to construct 'File': 2 arguments required, but only %d present.", len(call.Arguments))
		}
		b := &blob{file: true}
		parts := call.Argument(0)
		b.name = r.String(call.Argument(1))
		opts := r.Dict(call.Argument(2), "Failed to construct 'File'")
		native := s.endings(opts, "File")
		b.lastModified = time.Now().UnixMilli()
		if lm := webidl.Member(opts, "lastModified"); lm != nil {
			b.lastModified = r.Integer(lm, 64, true, webidl.Wrap)
		}
		if t := webidl.Member(opts, "type"); t != nil {
			b.typ = blobType(r.String(t))
		}
		b.data = s.blobParts(parts, native, "File")
		r.SetSlot(call.This, b)
		return nil
	})
	file := func(v goja.Value) *blob {
		b, ok := webidl.Slot[*blob](v)
		if !ok || !b.file {
			s.typeError("Illegal invocation")
		}
		return b
	}
	s.file.Getter("name", func(v goja.Value) goja.Value { return rt.ToValue(file(v).name) })
	s.file.Getter("lastModified", func(v goja.Value) goja.Value { return rt.ToValue(file(v).lastModified) })
}

// endings reads the endings option: true for "native".
func (s *state) endings(opts *goja.Object, what string) bool {
	e := webidl.Member(opts, "endings")
	if e == nil {
		return false
	}
	switch v := s.r.String(e); v {
	case "transparent":
		return false
	case "native":
		return true
	default:
		s.typeError("Failed to construct '%s': The provided value '%s' is not a valid enum value of type EndingType.", what, v)
	}
	return false
}

// blobParts concatenates a sequence<BlobPart>.
func (s *state) blobParts(parts goja.Value, native bool, what string) []byte {
	o, ok := parts.(*goja.Object)
	if !ok || !webidl.Iterable(o) {
		s.typeError("Failed to construct '%s': The provided value cannot be converted to a sequence.", what)
	}
	var out []byte
	s.r.Iterate(o, func(v goja.Value) {
		if b, ok := webidl.Slot[*blob](v); ok {
			out = append(out, b.data...)
			return
		}
		if b, ok := webidl.Bytes(v); ok {
			out = append(out, b...)
			return
		}
		str := s.r.String(v)
		if native {
			str = nativeEndings(str)
		}
		out = append(out, str...)
	})
	return out
}

// nativeEndings converts CR and CRLF to LF (the native line ending here).
func nativeEndings(s string) string {
	if strings.IndexByte(s, '\r') < 0 {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// newBlob makes a Blob holding data (shared, never changed).
func (s *state) newBlob(data []byte, typ string) *goja.Object {
	return s.blob.New(&blob{data: data, typ: typ})
}

// newFile makes a File holding data.
func (s *state) newFile(data []byte, name, typ string, lastModified int64) *goja.Object {
	return s.file.New(&blob{data: data, typ: typ, file: true, name: name, lastModified: lastModified})
}

// uint8 makes a Uint8Array holding a copy of b.
func (s *state) uint8(b []byte) *goja.Object {
	return s.r.Uint8Array(bytes.Clone(b))
}

// Blob and File are [Serializable]: structuredClone makes a new object of
// the same kind over the same (immutable) bytes.
func init() {
	clone.RegisterSerializable(func(r *webidl.Realm, v *goja.Object, _ func(goja.Value) goja.Value) (*goja.Object, bool) {
		b, ok := webidl.Slot[*blob](v)
		if !ok {
			return nil, false
		}
		s := get(r)
		if b.file {
			return s.newFile(b.data, b.name, b.typ, b.lastModified), true
		}
		return s.newBlob(b.data, b.typ), true
	})
}
