package engine

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"net/http"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"golang.org/x/net/http/httpguts"
)

// newReq builds the JS `req` object by hand: plain JS objects and strings,
// no JSON round trip and no reflection-backed Go wrappers.
func (i *Isolate) newReq(r *Request) *goja.Object {
	rt := i.rt
	o := rt.NewObject()
	_ = o.Set("method", r.Method)
	_ = o.Set("url", r.URL)
	_ = o.Set("path", r.Path)
	_ = o.Set("query", i.stringMap(r.Query))
	_ = o.Set("headers", i.stringMap(r.Headers))
	return o
}

func (i *Isolate) stringMap(m map[string]string) *goja.Object {
	o := i.rt.NewObject()
	for k, v := range m {
		_ = o.Set(k, v)
	}
	return o
}

const errBadResult = "render must return a string of HTML, {status, headers, html} with a string html, or a Promise of one"

// guard runs f, which reads what the render produced. Reading runs the
// app's code (getters, toString, Proxy traps): a JS exception there fails
// the request and keeps the isolate (KindException), an interrupt is a
// timeout and a stack overflow an overflow, as anywhere else in a render.
func (i *Isolate) guard(ctx context.Context, f func()) (rerr *RenderError) {
	defer func() {
		if x := recover(); x != nil {
			rerr = classify(ctx, stopped(x))
		}
	}()
	if ex := i.rt.Try(f); ex != nil {
		return classify(ctx, ex)
	}
	return nil
}

// toResponse turns a string or a {status, headers, html} object into a
// Response, refusing everything else with a message naming what came back.
func (i *Isolate) toResponse(v goja.Value) (*Response, *RenderError) {
	bad := func(format string, args ...any) (*Response, *RenderError) {
		return nil, &RenderError{Kind: KindException, Message: fmt.Sprintf(format, args...)}
	}
	if s, ok := v.(goja.String); ok {
		return &Response{Status: http.StatusOK, HTML: s.String()}, nil
	}
	obj, ok := v.(*goja.Object)
	if !ok || !isPlainObject(obj) {
		return bad("%s; it returned %s", errBadResult, describe(v))
	}
	resp := &Response{Status: http.StatusOK}
	if st := obj.Get("status"); !isNullish(st) {
		n, ok := wholeNumber(st)
		if !ok || n < 200 || n > 599 {
			shown := describe(st)
			if _, isNum := wholeOrFloat(st); isNum {
				shown = st.String()
			}
			return bad("render returned status %s; status must be a whole number from 200 to 599", shown)
		}
		resp.Status = int(n)
	}
	if h := obj.Get("headers"); !isNullish(h) {
		ho, ok := h.(*goja.Object)
		if !ok || !isPlainObject(ho) {
			return bad("render returned headers that are %s; headers must be an object of name: value", describe(h))
		}
		hd, err := readHeaders(ho)
		if err != "" {
			return bad("%s", err)
		}
		resp.Headers = hd
	}
	html := obj.Get("html")
	switch {
	case isNullish(html) && noBody(resp):
	case isNullish(html):
		return bad("render returned an object without html (its keys: %s); add html: \"...\" (a string)", keyList(obj))
	default:
		s, ok := html.(goja.String)
		if !ok {
			return bad("render returned an object whose html is %s; html must be a string", describe(html))
		}
		resp.HTML = s.String()
	}
	return resp, nil
}

// wholeNumber returns v as an integer if it is a number without a fraction.
func wholeNumber(v goja.Value) (int64, bool) {
	switch x := v.Export().(type) {
	case int64:
		return x, true
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1e15 {
			return int64(x), true
		}
	}
	return 0, false
}

// noBody reports a response that needs no html: 204, 304, or a redirect
// with a Location.
func noBody(r *Response) bool {
	return r.Status == http.StatusNoContent || r.Status == http.StatusNotModified ||
		(r.Status >= 300 && r.Status < 400 && r.Headers.Get("Location") != "")
}

// readHeaders reads {name: value} where a value is a string, a number or
// an array of them (several headers of that name, e.g. Set-Cookie).
func readHeaders(o *goja.Object) (http.Header, string) {
	keys := o.Keys()
	h := make(http.Header, len(keys))
	for _, k := range keys {
		if !httpguts.ValidHeaderFieldName(k) {
			return nil, fmt.Sprintf("render returned a header named %q, which is not a valid header name", k)
		}
		v := o.Get(k)
		vals := []goja.Value{v}
		if arr, ok := v.(*goja.Object); ok && arr.ClassName() == "Array" {
			vals = nil
			n := int(arr.Get("length").ToInteger())
			for j := range n {
				vals = append(vals, arr.Get(strconv.Itoa(j)))
			}
		}
		for _, e := range vals {
			var s string
			if str, ok := e.(goja.String); ok {
				s = str.String()
			} else if _, ok := wholeOrFloat(e); ok {
				s = e.String()
			} else {
				return nil, fmt.Sprintf("render returned header %q = %s; header values must be strings or numbers", k, describe(e))
			}
			if !httpguts.ValidHeaderFieldValue(s) {
				return nil, fmt.Sprintf("render returned header %q with a value that has control characters (a line break?)", k)
			}
			h.Add(k, s)
		}
	}
	return h, ""
}

func wholeOrFloat(v goja.Value) (float64, bool) {
	switch x := v.Export().(type) {
	case int64:
		return float64(x), true
	case float64:
		return x, true
	}
	return 0, false
}

// isPlainObject: an ordinary object whose prototype is Object.prototype or
// null — not an array, function, boxed primitive, Date, Map, Promise …
func isPlainObject(o *goja.Object) bool {
	if o.ClassName() != "Object" {
		return false
	}
	p := o.Prototype()
	return p == nil || (p.Prototype() == nil && p.ClassName() == "Object")
}

func isNullish(v goja.Value) bool { return v == nil || goja.IsUndefined(v) || goja.IsNull(v) }

func keyList(o *goja.Object) string {
	ks := o.Keys()
	if len(ks) == 0 {
		return "none"
	}
	if len(ks) > 5 {
		ks = append(ks[:5], "…")
	}
	return strings.Join(ks, ", ")
}

// describe names a JS value for an error message without running any of
// its code (no toString, no getters).
func describe(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	switch x := v.(type) {
	case *goja.Symbol:
		return "a Symbol"
	case goja.String:
		s := x.String()
		if len(s) > 40 {
			s = s[:40] + "…"
		}
		return "the string " + strconv.Quote(s)
	case *goja.Object:
		if _, fn := goja.AssertFunction(v); fn {
			return "a function"
		}
		switch c := x.ClassName(); c {
		case "Array":
			return "an array"
		case "Object":
			if isPlainObject(x) {
				return "an object"
			}
			return "an object with a custom prototype"
		case "String", "Number", "Boolean", "Symbol", "BigInt":
			return "a " + c + " object (new " + c + "(…)); use the primitive value"
		default:
			return "a " + c
		}
	}
	switch v.Export().(type) {
	case int64, float64:
		return "the number " + v.String()
	case bool:
		return "the boolean " + v.String()
	case *big.Int:
		return "the BigInt " + v.String() + "n"
	}
	return "a " + v.ExportType().String()
}
