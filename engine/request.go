package engine

import (
	"fmt"
	"math"

	"github.com/dop251/goja"
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

var errBadResult = "render must return a string or {status, headers, html} (or a Promise of one)"

// toResponse validates what render produced.
func (i *Isolate) toResponse(v goja.Value) (*Response, *RenderError) {
	if s, ok := v.Export().(string); ok {
		return &Response{Status: 200, HTML: s}, nil
	}
	obj, ok := v.(*goja.Object)
	if !ok || goja.IsNull(v) || obj.ClassName() == "Array" || obj.ClassName() == "Function" {
		return nil, &RenderError{Kind: KindException, Message: errBadResult + "; it returned " + describe(v)}
	}
	resp := &Response{Status: 200}
	if st := obj.Get("status"); st != nil && !goja.IsUndefined(st) && !goja.IsNull(st) {
		f := st.ToFloat()
		if f != math.Trunc(f) || f < 100 || f > 599 {
			return nil, &RenderError{Kind: KindException, Message: fmt.Sprintf("render returned status %s; use a whole number from 100 to 599", st.String())}
		}
		resp.Status = int(f)
	}
	if h, ok := obj.Get("headers").(*goja.Object); ok && !goja.IsNull(h) {
		keys := h.Keys()
		resp.Headers = make(map[string]string, len(keys))
		for _, k := range keys {
			resp.Headers[k] = h.Get(k).String()
		}
	}
	if html := obj.Get("html"); html != nil && !goja.IsUndefined(html) && !goja.IsNull(html) {
		s, ok := html.Export().(string)
		if !ok {
			return nil, &RenderError{Kind: KindException, Message: "render returned an object whose html is " + describe(html) + "; html must be a string"}
		}
		resp.HTML = s
	}
	return resp, nil
}

func describe(v goja.Value) string {
	switch {
	case v == nil || goja.IsUndefined(v):
		return "undefined"
	case goja.IsNull(v):
		return "null"
	}
	if o, ok := v.(*goja.Object); ok {
		if o.ClassName() == "Array" {
			return "an array"
		}
		if _, fn := goja.AssertFunction(v); fn {
			return "a function"
		}
		return "an object"
	}
	switch v.Export().(type) {
	case int64, float64:
		return "a number (" + v.String() + ")"
	case bool:
		return "a boolean (" + v.String() + ")"
	}
	return "a " + v.ExportType().String()
}
