package fetch

import (
	"net/http"
	"slices"
	"strings"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// guard is a Headers object's guard (Fetch §5.2). Like undici, bext
// enforces only "immutable": a server has no forbidden request or response
// header names to protect.
type guard uint8

const (
	guardNone guard = iota
	guardRequest
	guardRequestNoCORS
	guardResponse
	guardImmutable
)

// header is one entry of a header list: name lower-cased, value
// normalised; both byte strings (one byte per Latin-1 code unit).
type header struct{ name, value string }

// headerList is the Go state of a Headers object, and the header list of
// a Request or Response (the JS Headers object is made on first access).
type headerList struct {
	h      []header
	guard  guard
	obj    *goja.Object
	sorted []header // sort-and-combine, cached until the next change
}

// tokenChar marks the bytes of an HTTP token (RFC 9110 tchar).
var tokenChar = func() (t [256]bool) {
	for c := '0'; c <= '9'; c++ {
		t[c] = true
	}
	for c := 'a'; c <= 'z'; c++ {
		t[c], t[c-'a'+'A'] = true, true
	}
	for _, c := range "!#$%&'*+-.^_`|~" {
		t[c] = true
	}
	return
}()

func isToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !tokenChar[s[i]] {
			return false
		}
	}
	return true
}

func isHTTPWhitespace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// normalizeValue strips leading and trailing HTTP whitespace.
func normalizeValue(v string) string {
	i, j := 0, len(v)
	for i < j && isHTTPWhitespace(v[i]) {
		i++
	}
	for j > i && isHTTPWhitespace(v[j-1]) {
		j--
	}
	return v[i:j]
}

// validValue reports whether a normalised value has no NUL, CR or LF.
func validValue(v string) bool {
	return strings.IndexByte(v, 0) < 0 && strings.IndexByte(v, '\n') < 0 && strings.IndexByte(v, '\r') < 0
}

// lower is ASCII lower-casing without an allocation when s has no upper case.
func lower(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; 'A' <= c && c <= 'Z' {
			return strings.ToLower(s)
		}
	}
	return s
}

func (l *headerList) changed() { l.sorted = nil }

// get returns the values of name (lower case) combined with ", ".
func (l *headerList) get(name string) (string, bool) {
	var out string
	found := false
	for _, e := range l.h {
		if e.name == name {
			if found {
				out += ", " + e.value
			} else {
				out, found = e.value, true
			}
		}
	}
	return out, found
}

func (l *headerList) has(name string) bool {
	for _, e := range l.h {
		if e.name == name {
			return true
		}
	}
	return false
}

func (l *headerList) append(name, value string) {
	l.h = append(l.h, header{name, value})
	l.changed()
}

// set replaces the first entry of name and removes the others, or appends.
func (l *headerList) set(name, value string) {
	out, done := l.h[:0], false
	for _, e := range l.h {
		if e.name == name {
			if done {
				continue
			}
			e.value, done = value, true
		}
		out = append(out, e)
	}
	clear(l.h[len(out):])
	l.h = out
	if !done {
		l.h = append(l.h, header{name, value})
	}
	l.changed()
}

func (l *headerList) del(name string) {
	n := len(l.h)
	l.h = slices.DeleteFunc(l.h, func(e header) bool { return e.name == name })
	if len(l.h) != n {
		l.changed()
	}
}

// sortCombine is the list iteration shows: names sorted, values of a name
// combined, except set-cookie, whose values stay separate.
func (l *headerList) sortCombine() []header {
	if l.sorted != nil {
		return l.sorted
	}
	names := make([]string, 0, len(l.h))
	for _, e := range l.h {
		if !slices.Contains(names, e.name) {
			names = append(names, e.name)
		}
	}
	slices.Sort(names)
	out := make([]header, 0, len(l.h))
	for _, n := range names {
		if n == "set-cookie" {
			for _, e := range l.h {
				if e.name == n {
					out = append(out, e)
				}
			}
			continue
		}
		v, _ := l.get(n)
		out = append(out, header{n, v})
	}
	l.sorted = out
	return out
}

// clone copies the list (not its guard or JS object).
func (l *headerList) clone() *headerList {
	return &headerList{h: slices.Clone(l.h)}
}

// removeNames deletes every entry whose name is in names.
func (l *headerList) removeNames(names ...string) {
	for _, n := range names {
		l.del(n)
	}
}

// HTTP converts the list to a Go header (canonical names, values in order).
func (l *headerList) HTTP() http.Header {
	h := make(http.Header, len(l.h))
	for _, e := range l.h {
		k := http.CanonicalHeaderKey(e.name)
		h[k] = append(h[k], e.value)
	}
	return h
}

// fromHTTP makes a list from a Go header, names sorted so it is the same
// every time (Go keeps no order between names).
func fromHTTP(h http.Header, g guard) *headerList {
	names := make([]string, 0, len(h))
	n := 0
	for k, vs := range h {
		names = append(names, k)
		n += len(vs)
	}
	slices.Sort(names)
	l := &headerList{h: make([]header, 0, n), guard: g}
	for _, k := range names {
		lk := lower(k)
		for _, v := range h[k] {
			l.h = append(l.h, header{lk, v})
		}
	}
	return l
}

// Headers class.

func (s *state) installHeaders() {
	r, rt := s.r, s.rt
	c := r.NewClass("Headers", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		l := &headerList{}
		if init := call.Argument(0); !goja.IsUndefined(init) {
			s.fillHeaders(l, init, "Headers constructor")
		}
		l.obj = call.This
		r.SetSlot(call.This, l)
		return nil
	})
	s.headers = c
	this := func(v goja.Value) *headerList { return webidl.This[*headerList](r, v) }
	name := func(op string, v goja.Value) string {
		n := r.ByteString(v)
		if !isToken(n) {
			s.typeError("Headers.%s: %q is an invalid header name.", op, webidl.FromByteString(n))
		}
		return lower(n)
	}
	args := func(call goja.FunctionCall, op string, n int) {
		if len(call.Arguments) < n {
			s.typeError("Headers.%s: %d argument%s required, but only %d present.", op, n, plural(n), len(call.Arguments))
		}
	}
	c.Method("append", 2, func(call goja.FunctionCall) goja.Value {
		l := this(call.This)
		args(call, "append", 2)
		s.appendHeader(l, call.Argument(0), call.Argument(1), "Headers.append")
		return goja.Undefined()
	})
	c.Method("delete", 1, func(call goja.FunctionCall) goja.Value {
		l := this(call.This)
		args(call, "delete", 1)
		n := name("delete", call.Argument(0))
		if l.guard == guardImmutable {
			s.typeError("immutable")
		}
		l.del(n)
		return goja.Undefined()
	})
	c.Method("get", 1, func(call goja.FunctionCall) goja.Value {
		l := this(call.This)
		args(call, "get", 1)
		v, ok := l.get(name("get", call.Argument(0)))
		if !ok {
			return goja.Null()
		}
		return rt.ToValue(webidl.FromByteString(v))
	})
	c.Method("getSetCookie", 0, func(call goja.FunctionCall) goja.Value {
		l := this(call.This)
		var out []any
		for _, e := range l.h {
			if e.name == "set-cookie" {
				out = append(out, webidl.FromByteString(e.value))
			}
		}
		return rt.NewArray(out...)
	})
	c.Method("has", 1, func(call goja.FunctionCall) goja.Value {
		l := this(call.This)
		args(call, "has", 1)
		return rt.ToValue(l.has(name("has", call.Argument(0))))
	})
	c.Method("set", 2, func(call goja.FunctionCall) goja.Value {
		l := this(call.This)
		args(call, "set", 2)
		n := name("set", call.Argument(0))
		v := normalizeValue(r.ByteString(call.Argument(1)))
		if !validValue(v) {
			s.typeError("Headers.set: %q is an invalid header value.", webidl.FromByteString(v))
		}
		if l.guard == guardImmutable {
			s.typeError("immutable")
		}
		l.set(n, v)
		return goja.Undefined()
	})
	c.PairIterable(func(this goja.Value) func(i int) (k, v goja.Value, ok bool) {
		l := webidl.This[*headerList](r, this)
		return func(i int) (goja.Value, goja.Value, bool) {
			list := l.sortCombine()
			if i >= len(list) {
				return nil, nil, false
			}
			return rt.ToValue(list[i].name), rt.ToValue(webidl.FromByteString(list[i].value)), true
		}
	})
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// appendHeader is "append (name, value) to a Headers object".
func (s *state) appendHeader(l *headerList, name, value goja.Value, op string) {
	n := s.r.ByteString(name)
	v := normalizeValue(s.r.ByteString(value))
	if !isToken(n) {
		s.typeError("%s: %q is an invalid header name.", op, webidl.FromByteString(n))
	}
	if !validValue(v) {
		s.typeError("%s: %q is an invalid header value.", op, webidl.FromByteString(v))
	}
	if l.guard == guardImmutable {
		s.typeError("immutable")
	}
	l.append(lower(n), v)
}

// fillHeaders fills l from a HeadersInit: a sequence of name/value pairs
// (a Headers object is one) or a record of names to values.
func (s *state) fillHeaders(l *headerList, init goja.Value, op string) {
	o, ok := init.(*goja.Object)
	if !ok {
		s.typeError("%s: Argument 1 could not be converted to one of: sequence<sequence<ByteString>>, record<ByteString, ByteString>.", op)
	}
	if src, ok := webidl.Slot[*headerList](o); ok && s.headers.Is(o) && o.GetSymbol(goja.SymIterator) == s.headers.Proto.GetSymbol(goja.SymIterator) {
		// A Headers object iterated by its own iterator: its sorted pairs.
		for _, e := range slices.Clone(src.sortCombine()) {
			if l.guard == guardImmutable {
				s.typeError("immutable")
			}
			l.append(e.name, e.value)
		}
		return
	}
	if webidl.Iterable(o) {
		s.r.Iterate(o, func(pair goja.Value) {
			var kv [2]goja.Value
			n := 0
			if _, isObj := pair.(*goja.Object); !isObj {
				s.typeError("%s: expected name/value pair to be an iterable.", op)
			}
			s.r.Iterate(pair, func(v goja.Value) {
				if n < 2 {
					kv[n] = v
				}
				n++
			})
			if n != 2 {
				s.typeError("%s: expected name/value pair to be length 2, found %d.", op, n)
			}
			s.appendHeader(l, kv[0], kv[1], "Headers.append")
		})
		return
	}
	for _, k := range o.Keys() {
		s.appendHeader(l, s.rt.ToValue(k), o.Get(k), "Headers.append")
	}
}

// headersObject returns the JS Headers object of l, making it on first use.
func (s *state) headersObject(l *headerList) *goja.Object {
	if l.obj == nil {
		l.obj = s.headers.New(l)
	}
	return l.obj
}
