package fetch

import (
	"bytes"

	"github.com/dop251/goja"

	"bext/web/streams"
	"bext/web/url"
	"bext/web/webidl"
)

// bodyKind says where a body's bytes are.
type bodyKind uint8

const (
	bodyNone   bodyKind = iota // null body
	bodyBytes                  // known in Go: str or data
	bodyStream                 // a JS ReadableStream (the app's, or made for .body)
	bodyNet                    // a response from the network, not (yet) a JS stream
)

// body is a Request's or Response's body (Fetch §5.1). Bytes stay in Go
// until someone asks for .body, so new Response(html).text() and
// (await fetch(u)).json() never build a JS stream.
type body struct {
	kind  bodyKind
	str   string // bodyBytes from a string: its text (data made on demand)
	isStr bool
	data  []byte
	owned bool // data belongs to this body alone (else it is shared: copy before JS sees it)

	stream *goja.Object // bodyStream
	net    *netBody     // bodyNet
	used   bool         // read from Go without a JS stream
	length int64        // bytes, -1 when unknown
}

// bytes returns the data of a bodyBytes body.
func (b *body) bytes() []byte {
	if b.isStr && b.data == nil {
		b.data, b.owned = []byte(b.str), true
	}
	return b.data
}

// owned returns data JS may keep: b's own bytes, or a copy of shared ones.
func (b *body) take() []byte {
	d := b.bytes()
	if b.owned {
		b.owned = false // handed out once; a second consumer is impossible (used)
		return d
	}
	return bytes.Clone(d)
}

// unusable is "body is unusable": it was read, or its stream is
// disturbed or locked.
func (b *body) unusable() bool {
	if b.used {
		return true
	}
	if b.kind == bodyStream {
		return streams.Disturbed(b.stream) || streams.Locked(b.stream)
	}
	return false
}

// disturbed reports bodyUsed.
func (b *body) disturbed() bool {
	if b.used {
		return true
	}
	return b.kind == bodyStream && streams.Disturbed(b.stream)
}

// streamOf is the body getter: null, or a ReadableStream made on first use.
func (s *state) streamOf(b *body) goja.Value {
	switch b.kind {
	case bodyNone:
		return goja.Null()
	case bodyStream:
		return b.stream
	}
	if b.used {
		// Read already from Go: a stream that is locked and disturbed, as
		// the spec's would be after being read to the end.
		st := streams.FromBytes(s.r, nil)
		if rd, err := streams.NewReader(s.r, st); err == nil {
			rd.Read(func(goja.Value, bool, goja.Value) {})
		}
		b.kind, b.stream, b.data, b.str, b.net = bodyStream, st, nil, "", nil
		return st
	}
	if b.kind == bodyNet {
		b.stream = b.net.stream()
	} else {
		b.stream = streams.FromBytes(s.r, b.take())
	}
	b.kind, b.data, b.str, b.isStr, b.net = bodyStream, nil, "", false, nil
	return b.stream
}

// cloneBody is "clone a body": bytes are shared, a stream is teed.
func (s *state) cloneBody(b *body) body {
	switch b.kind {
	case bodyBytes:
		b.bytes()
		b.owned = false
		return *b
	case bodyNet:
		s.streamOf(b)
	case bodyNone:
		return body{length: b.length}
	}
	x, y := streams.Tee(s.r, b.stream)
	b.stream = x
	return body{kind: bodyStream, stream: y, length: b.length}
}

// extracted is a BodyInit converted (Fetch's "extract a body").
type extracted struct {
	body
	ctype string // "" = none
}

// extract converts a BodyInit; keepalive forbids streams.
func (s *state) extract(v goja.Value, keepalive bool) extracted {
	r := s.r
	if b, ok := webidl.Slot[*blob](v); ok {
		return extracted{body{kind: bodyBytes, data: b.data, length: int64(len(b.data))}, b.typ}
	}
	if d, ok := webidl.Bytes(v); ok {
		return extracted{body{kind: bodyBytes, data: bytes.Clone(d), owned: true, length: int64(len(d))}, ""}
	}
	if f, ok := webidl.Slot[*formData](v); ok {
		bnd := boundary()
		data := encodeMultipart(f.entries, bnd)
		return extracted{body{kind: bodyBytes, data: data, owned: true, length: int64(len(data))}, "multipart/form-data; boundary=" + bnd}
	}
	if streams.IsReadable(v) {
		if keepalive {
			s.typeError("Cannot extract a body from a ReadableStream when keepalive is true")
		}
		if streams.Disturbed(v) || streams.Locked(v) {
			s.typeError("Response body object should not be disturbed or locked")
		}
		return extracted{body{kind: bodyStream, stream: v.(*goja.Object), length: -1}, ""}
	}
	if str, ok := url.SearchParamsOf(v); ok {
		return extracted{body{kind: bodyBytes, str: str, isStr: true, length: int64(len(str))}, "application/x-www-form-urlencoded;charset=UTF-8"}
	}
	str := r.String(v)
	return extracted{body{kind: bodyBytes, str: str, isStr: true, length: int64(len(str))}, "text/plain;charset=UTF-8"}
}

// consumeKind is what a Body mixin method makes of the bytes.
type consumeKind uint8

const (
	asText consumeKind = iota
	asJSON
	asArrayBuffer
	asBytes
	asBlob
	asFormData
)

// consume implements the Body mixin's text(), json(), … (Fetch §5.1
// "consume body"): the promise of the body's bytes packaged as kind. h is
// the message's header list (for blob's type and formData's parser).
func (s *state) consume(b *body, h *headerList, kind consumeKind) goja.Value {
	r := s.r
	if b.unusable() {
		return r.Rejected(r.RT.NewTypeError("Body is unusable: Body has already been read"))
	}
	switch b.kind {
	case bodyNone:
		return s.settle(nil, h, kind)
	case bodyBytes:
		b.used = true
		if b.isStr && kind == asText {
			return r.Resolved(b.str)
		}
		if b.isStr && kind == asJSON {
			return s.settleJSON(b.str)
		}
		if kind == asArrayBuffer || kind == asBytes || kind == asBlob {
			return s.settle(b.take(), h, kind)
		}
		return s.settle(b.bytes(), h, kind)
	}
	p, resolve, reject := r.NewPromise()
	done := func(data []byte, err goja.Value) {
		if err != nil {
			reject(err)
			return
		}
		v, ex := s.tryPackage(data, h, kind)
		if ex != nil {
			reject(ex)
			return
		}
		resolve(v)
	}
	if b.kind == bodyNet {
		b.used = true
		b.net.readAll(done)
	} else {
		streams.ReadAll(r, b.stream, 0, done)
	}
	return r.RT.ToValue(p)
}

// settle returns a promise settled with the packaged data.
func (s *state) settle(data []byte, h *headerList, kind consumeKind) goja.Value {
	v, ex := s.tryPackage(data, h, kind)
	if ex != nil {
		return s.r.Rejected(ex)
	}
	return s.r.Resolved(v)
}

func (s *state) settleJSON(str string) goja.Value {
	v, err := s.jsonParse(goja.Undefined(), s.rt.ToValue(str))
	if err != nil {
		return s.r.Rejected(exceptionValue(err))
	}
	return s.r.Resolved(v)
}

// exceptionValue is the JS value a Go error from a JS call carries.
func exceptionValue(err error) goja.Value {
	if ex, ok := err.(*goja.Exception); ok {
		return ex.Value()
	}
	panic(err)
}

// tryPackage packages data, returning a thrown JS value instead of panicking.
func (s *state) tryPackage(data []byte, h *headerList, kind consumeKind) (v goja.Value, ex goja.Value) {
	defer func() {
		if p := recover(); p != nil {
			switch e := p.(type) {
			case *goja.Object:
				ex = e
			case *goja.Exception:
				ex = e.Value()
			default:
				panic(p)
			}
		}
	}()
	return s.pack(data, h, kind), nil
}

// pack is "package data" for each consumer (data is owned by the caller
// for the binary kinds).
func (s *state) pack(data []byte, h *headerList, kind consumeKind) goja.Value {
	r := s.r
	switch kind {
	case asText:
		return r.RT.ToValue(textOf(data))
	case asJSON:
		v, err := s.jsonParse(goja.Undefined(), r.RT.ToValue(textOf(data)))
		if err != nil {
			panic(exceptionValue(err))
		}
		return v
	case asArrayBuffer:
		if data == nil {
			data = []byte{}
		}
		return r.ArrayBuffer(data)
	case asBytes:
		return r.Uint8Array(data)
	case asBlob:
		typ := ""
		if m, ok := extractMIME(h); ok {
			typ = lower(m.serialize())
		}
		return s.newBlob(data, typ)
	}
	return s.packFormData(data, h)
}

func (s *state) packFormData(data []byte, h *headerList) goja.Value {
	m, ok := extractMIME(h)
	if ok && m.essence == "multipart/form-data" {
		if bnd, ok := m.param("boundary"); ok {
			parts, err := parseMultipart(data, bnd)
			if err != nil {
				s.typeError("%s", err.Error())
			}
			return s.newFormData(s.formEntries(parts))
		}
		s.typeError("Failed to parse body as FormData: the multipart/form-data Content-Type has no boundary.")
	}
	if ok && m.essence == "application/x-www-form-urlencoded" {
		return s.newFormData(parseURLEncoded(data))
	}
	s.typeError(`Content-Type was not one of "multipart/form-data" or "application/x-www-form-urlencoded".`)
	return nil
}

// bodyMixin adds the Body interface mixin's members to c; of returns a
// receiver's body and header list (throwing for a wrong receiver).
func (s *state) bodyMixin(c *webidl.Class, of func(this goja.Value) (*body, *headerList)) {
	c.Getter("body", func(this goja.Value) goja.Value {
		b, _ := of(this)
		return s.streamOf(b)
	})
	c.Getter("bodyUsed", func(this goja.Value) goja.Value {
		b, _ := of(this)
		return s.rt.ToValue(b.disturbed())
	})
	method := func(name string, kind consumeKind) {
		c.Method(name, 0, func(call goja.FunctionCall) goja.Value {
			b, h, ex := s.tryOf(of, call.This)
			if ex != nil {
				return s.r.Rejected(ex)
			}
			return s.consume(b, h, kind)
		})
	}
	method("arrayBuffer", asArrayBuffer)
	method("blob", asBlob)
	method("bytes", asBytes)
	method("formData", asFormData)
	method("json", asJSON)
	method("text", asText)
}

// tryOf calls of, returning its TypeError as a value (promise-returning
// operations reject rather than throw).
func (s *state) tryOf(of func(goja.Value) (*body, *headerList), this goja.Value) (b *body, h *headerList, ex goja.Value) {
	defer func() {
		if p := recover(); p != nil {
			if e, ok := p.(*goja.Object); ok {
				ex = e
				return
			}
			panic(p)
		}
	}()
	b, h = of(this)
	return b, h, nil
}
