package url

import (
	"github.com/dop251/goja"

	"bext/web/webidl"
)

// urlState is the Go state of a JS URL object.
type urlState struct {
	rec record
	// params is the URL's query object, made when searchParams is first
	// read; obj is its JS object, the same one at every read.
	params *paramsState
	obj    *goja.Object
}

// set replaces the URL and, when the query object exists, its list (the
// URL Standard's href and search setters).
func (st *urlState) set(rec record) {
	st.rec = rec
	if st.params != nil {
		st.params.list = parseQuery(rec.rawQuery(), st.params.list[:0])
	}
}

func (c *classes) thisURL(v goja.Value) *urlState {
	st, ok := webidl.Slot[*urlState](v)
	if !ok {
		c.throw("Receiver must be an instance of class URL")
	}
	return st
}

// parse parses the arguments of new URL, URL.parse and URL.canParse;
// ok is false for an invalid URL.
func (c *classes) parse(args []goja.Value) (rec record, input string, base *string, ok bool) {
	c.missing(len(args), 1, `"url"`)
	input = c.r.String(args[0])
	var b *record
	if len(args) > 1 && !goja.IsUndefined(args[1]) {
		s := c.r.String(args[1])
		base = &s
		br, err := parseRecord(s, nil)
		if err != nil {
			return record{}, input, base, false
		}
		b = &br
	}
	rec, err := parseRecord(input, b)
	return rec, input, base, err == nil
}

func (c *classes) installURL() {
	r, rt := c.r, c.rt
	c.url = r.NewClass("URL", 1, nil, func(call goja.ConstructorCall) *goja.Object {
		rec, input, base, ok := c.parse(call.Arguments)
		if !ok {
			c.invalidURL(input, base)
		}
		r.SetSlot(call.This, &urlState{rec: rec})
		return nil
	})
	cls := c.url
	str := func(s string) goja.Value { return rt.ToValue(s) }
	href := func(call goja.FunctionCall) goja.Value { return str(c.thisURL(call.This).rec.href) }
	cls.Method("toString", 0, href)
	cls.Accessor("href", func(this goja.Value) goja.Value {
		return str(c.thisURL(this).rec.href)
	}, func(this, v goja.Value) {
		st := c.thisURL(this)
		s := r.String(v)
		rec, err := parseRecord(s, nil)
		if err != nil {
			c.invalidURL(s, nil)
		}
		st.set(rec)
	})
	cls.Getter("origin", func(this goja.Value) goja.Value { return str(c.thisURL(this).rec.origin()) })
	attr := func(name string, get func(*record) string, comp component) {
		cls.Accessor(name, func(this goja.Value) goja.Value {
			return str(get(&c.thisURL(this).rec))
		}, func(this, v goja.Value) {
			st := c.thisURL(this)
			rec := st.rec.with(comp, r.String(v))
			if comp == cSearch {
				st.set(rec)
			} else {
				st.rec = rec
			}
		})
	}
	attr("protocol", (*record).protocol, cProtocol)
	attr("username", (*record).username, cUsername)
	attr("password", (*record).password, cPassword)
	attr("host", (*record).host, cHost)
	attr("hostname", (*record).hostname, cHostname)
	attr("port", (*record).port, cPort)
	attr("pathname", (*record).pathname, cPathname)
	attr("search", (*record).search, cSearch)
	cls.Getter("searchParams", func(this goja.Value) goja.Value {
		st := c.thisURL(this)
		if st.obj == nil {
			st.params = &paramsState{list: parseQuery(st.rec.rawQuery(), nil), url: st}
			st.obj = c.params.New(st.params)
		}
		return st.obj
	})
	attr("hash", (*record).hash, cHash)
	cls.Method("toJSON", 0, href)

	cls.Static("parse", 1, func(call goja.FunctionCall) goja.Value {
		rec, _, _, ok := c.parse(call.Arguments)
		if !ok {
			return goja.Null()
		}
		return cls.New(&urlState{rec: rec})
	})
	cls.Static("canParse", 1, func(call goja.FunctionCall) goja.Value {
		_, _, _, ok := c.parse(call.Arguments)
		return rt.ToValue(ok)
	})
	cls.Static("createObjectURL", 1, func(call goja.FunctionCall) goja.Value {
		c.missing(len(call.Arguments), 1, `"obj"`)
		c.throw("URL.createObjectURL is not supported by bext: there is no blob: URL store; pass the Blob itself, or a data: URL", "code", "ERR_METHOD_NOT_IMPLEMENTED")
		return nil
	})
	cls.Static("revokeObjectURL", 1, func(call goja.FunctionCall) goja.Value {
		c.missing(len(call.Arguments), 1, `"url"`)
		r.String(call.Arguments[0])
		return goja.Undefined() // createObjectURL makes none, so there is nothing to revoke
	})
}
