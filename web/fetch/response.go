package fetch

import (
	"strings"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

// response is the Go state of a Response (Fetch §2.2.6 and §5.5).
type response struct {
	typ        string // basic, cors, default, error, opaque, opaqueredirect
	status     int
	statusText string
	urls       []string // URL list: the request's URL and each redirect's
	headers    *headerList
	body       body
}

func nullBodyStatus(n int) bool { return n == 101 || n == 103 || n == 204 || n == 205 || n == 304 }
func redirectStatus(n int) bool { return n == 301 || n == 302 || n == 303 || n == 307 || n == 308 }

// validReason reports whether t matches HTTP's reason-phrase.
func validReason(t string) bool {
	for i := 0; i < len(t); i++ {
		if c := t[i]; c != '\t' && (c < 0x20 || c == 0x7F) {
			return false
		}
	}
	return true
}

func (s *state) installResponse() {
	r, rt := s.r, s.rt
	s.response = r.NewClass("Response", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		res := &response{typ: "default", status: 200, headers: &headerList{guard: guardResponse}}
		var ex *extracted
		if b := call.Argument(0); !webidl.IsNullish(b) {
			e := s.extract(b, false)
			ex = &e
		}
		s.initResponse(res, call.Argument(1), ex)
		r.SetSlot(call.This, res)
		return nil
	})
	c := s.response
	this := func(v goja.Value) *response { return webidl.This[*response](r, v) }
	c.Getter("type", func(v goja.Value) goja.Value { return rt.ToValue(this(v).typ) })
	c.Getter("url", func(v goja.Value) goja.Value {
		res := this(v)
		if len(res.urls) == 0 {
			return rt.ToValue("")
		}
		u := res.urls[len(res.urls)-1]
		if i := strings.IndexByte(u, '#'); i >= 0 {
			u = u[:i]
		}
		return rt.ToValue(u)
	})
	c.Getter("redirected", func(v goja.Value) goja.Value { return rt.ToValue(len(this(v).urls) > 1) })
	c.Getter("status", func(v goja.Value) goja.Value { return rt.ToValue(this(v).status) })
	c.Getter("ok", func(v goja.Value) goja.Value {
		n := this(v).status
		return rt.ToValue(n >= 200 && n <= 299)
	})
	c.Getter("statusText", func(v goja.Value) goja.Value { return rt.ToValue(webidl.FromByteString(this(v).statusText)) })
	c.Getter("headers", func(v goja.Value) goja.Value { return s.headersObject(this(v).headers) })
	s.bodyMixin(c, func(v goja.Value) (*body, *headerList) {
		res := this(v)
		return &res.body, res.headers
	})
	c.Method("clone", 0, func(call goja.FunctionCall) goja.Value {
		res := this(call.This)
		if res.body.unusable() {
			s.typeError("Response.clone: Body has already been consumed.")
		}
		return s.response.New(s.cloneResponse(res))
	})
	c.Static("error", 0, func(goja.FunctionCall) goja.Value {
		return s.response.New(&response{typ: "error", headers: &headerList{guard: guardImmutable}})
	})
	c.Static("redirect", 1, func(call goja.FunctionCall) goja.Value {
		href := s.parse(call.Argument(0))
		status := 302
		if st := call.Argument(1); !goja.IsUndefined(st) {
			status = int(r.Integer(st, 16, false, webidl.Wrap))
		}
		if !redirectStatus(status) {
			r.RangeError("Invalid status code %d", status)
		}
		res := &response{typ: "default", status: status, headers: &headerList{guard: guardImmutable}}
		res.headers.h = []header{{"location", href}}
		return s.response.New(res)
	})
	c.Static("json", 1, func(call goja.FunctionCall) goja.Value {
		v, err := s.jsonStringify(goja.Undefined(), call.Argument(0))
		if err != nil {
			panic(exceptionValue(err))
		}
		if goja.IsUndefined(v) {
			s.typeError("Value is not JSON serializable")
		}
		str := v.String()
		ex := extracted{body{kind: bodyBytes, str: str, isStr: true, length: int64(len(str))}, "application/json"}
		res := &response{typ: "default", status: 200, headers: &headerList{guard: guardResponse}}
		s.initResponse(res, call.Argument(1), &ex)
		return s.response.New(res)
	})
}

// initResponse is "initialize a response" with a ResponseInit and an
// optional body.
func (s *state) initResponse(res *response, initV goja.Value, ex *extracted) {
	r := s.r
	init := r.Dict(initV, "Response constructor")
	headers := webidl.Member(init, "headers")
	if st := webidl.Member(init, "status"); st != nil {
		res.status = int(r.Integer(st, 16, false, webidl.Wrap))
	}
	if t := webidl.Member(init, "statusText"); t != nil {
		res.statusText = r.ByteString(t)
	}
	if res.status < 200 || res.status > 599 {
		r.RangeError(`init["status"] must be in the range of 200 to 599, inclusive.`)
	}
	if !validReason(res.statusText) {
		s.typeError("Invalid statusText")
	}
	if headers != nil {
		s.fillHeaders(res.headers, headers, "Response constructor")
	}
	if ex == nil {
		return
	}
	if nullBodyStatus(res.status) {
		s.typeError("Response constructor: Invalid response status code %d", res.status)
	}
	res.body = ex.body
	if ex.ctype != "" && !res.headers.has("content-type") {
		res.headers.append("content-type", ex.ctype)
	}
}

// cloneResponse is "clone a response": the body is teed or shared.
func (s *state) cloneResponse(res *response) *response {
	c := *res
	c.headers = res.headers.clone()
	c.headers.guard = res.headers.guard
	c.body = s.cloneBody(&res.body)
	return &c
}
