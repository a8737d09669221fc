package url

import (
	"github.com/dop251/goja"
	"github.com/dunglas/go-urlpattern"

	"bext/web/webidl"
)

// URLPattern (the WHATWG URL Pattern Standard) on
// github.com/dunglas/go-urlpattern. Node 20 has no URLPattern; the
// reference is the standard and the WPT urlpatterntestdata.json.

// patternParts are the components of a pattern and of a match result,
// in the standard's order.
var patternParts = [...]string{"protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"}

// patternState is the Go state of a JS URLPattern.
type patternState struct{ p *urlpattern.URLPattern }

func (c *classes) thisPattern(v goja.Value) *patternState {
	st, ok := webidl.Slot[*patternState](v)
	if !ok {
		c.throw(`Value of "this" must be of type URLPattern`, "code", "ERR_INVALID_THIS")
	}
	return st
}

// patternInput is a converted URLPatternInput: a string, or an init
// dictionary.
type patternInput struct {
	str     string
	init    *urlpattern.URLPatternInit
	isInit  bool
	members []string // the init members given, for the result's inputs
}

// input converts a URLPatternInput (undefined and null are the empty
// init, as for an optional dictionary).
func (c *classes) input(v goja.Value) patternInput {
	o, isObj := v.(*goja.Object)
	if !isObj && !webidl.IsNullish(v) {
		return patternInput{str: c.r.String(v)}
	}
	in := patternInput{init: &urlpattern.URLPatternInit{}, isInit: true}
	fields := []struct {
		name string
		dst  **string
	}{ // WebIDL reads dictionary members in lexicographic order
		{"baseURL", &in.init.BaseURL}, {"hash", &in.init.Hash}, {"hostname", &in.init.Hostname},
		{"password", &in.init.Password}, {"pathname", &in.init.Pathname}, {"port", &in.init.Port},
		{"protocol", &in.init.Protocol}, {"search", &in.init.Search}, {"username", &in.init.Username},
	}
	for _, f := range fields {
		if m := webidl.Member(o, f.name); m != nil {
			s := c.r.String(m)
			*f.dst = &s
			in.members = append(in.members, f.name)
		}
	}
	return in
}

// baseArg returns argument i as the optional baseURL string.
func (c *classes) baseArg(args []goja.Value, i int) (string, bool) {
	return c.optional(args, i)
}

func (c *classes) installPattern() {
	r, rt := c.r, c.rt
	c.pattern = r.NewClass("URLPattern", 0, nil, func(call goja.ConstructorCall) *goja.Object {
		in := c.input(call.Argument(0))
		// Overloads: (input, baseURL, options) when the second argument
		// is neither an object nor undefined/null, else (input, options).
		var base string
		hasBase := false
		opts := call.Argument(1)
		if a := call.Argument(1); !webidl.IsNullish(a) {
			if _, isObj := a.(*goja.Object); !isObj {
				base, hasBase = r.String(a), true
				opts = call.Argument(2)
			}
		}
		var o urlpattern.Options
		if d := r.Dict(opts, "URLPattern"); d != nil {
			o.IgnoreCase = webidl.Bool(webidl.Member(d, "ignoreCase"))
		}
		var p *urlpattern.URLPattern
		var err error
		switch {
		case in.isInit && hasBase:
			c.throw("URLPattern: a baseURL argument cannot go with a URLPatternInit input; use its baseURL member")
		case in.isInit:
			p, err = in.init.New(&o)
		case hasBase && base == "":
			c.throw("URLPattern: Invalid base URL", "code", "ERR_INVALID_URL", "input", base)
		default:
			p, err = urlpattern.New(in.str, base, &o)
		}
		if err != nil {
			c.throw("URLPattern: " + err.Error())
		}
		r.SetSlot(call.This, &patternState{p})
		return nil
	})
	cls := c.pattern
	cls.Method("test", 0, func(call goja.FunctionCall) goja.Value {
		_, _, res := c.exec(call)
		return rt.ToValue(res != nil)
	})
	cls.Method("exec", 0, func(call goja.FunctionCall) goja.Value {
		st, in, res := c.exec(call)
		if res == nil {
			return goja.Null()
		}
		return c.patternResult(st, in, call.Arguments, res)
	})
	get := map[string]func(*urlpattern.URLPattern) string{
		"protocol": (*urlpattern.URLPattern).Protocol, "username": (*urlpattern.URLPattern).Username,
		"password": (*urlpattern.URLPattern).Password, "hostname": (*urlpattern.URLPattern).Hostname,
		"port": (*urlpattern.URLPattern).Port, "pathname": (*urlpattern.URLPattern).Pathname,
		"search": (*urlpattern.URLPattern).Search, "hash": (*urlpattern.URLPattern).Hash,
	}
	for _, name := range patternParts {
		fn := get[name]
		cls.Getter(name, func(this goja.Value) goja.Value { return rt.ToValue(fn(c.thisPattern(this).p)) })
	}
	cls.Getter("hasRegExpGroups", func(this goja.Value) goja.Value {
		return rt.ToValue(c.thisPattern(this).p.HasRegexpGroups())
	})
}

// exec runs the pattern's match for test and exec: nil for no match
// (or an input that is no URL).
func (c *classes) exec(call goja.FunctionCall) (*patternState, patternInput, *urlpattern.URLPatternResult) {
	st := c.thisPattern(call.This)
	in := c.input(call.Argument(0))
	base, hasBase := c.baseArg(call.Arguments, 1)
	switch {
	case in.isInit && hasBase:
		c.throw("URLPattern: a baseURL argument cannot go with a URLPatternInit input; use its baseURL member")
	case in.isInit:
		return st, in, st.p.ExecInit(in.init)
	case hasBase && base == "":
		return st, in, nil // "" is no base URL
	}
	return st, in, st.p.Exec(in.str, base)
}

// patternResult makes the URLPatternResult dictionary: the inputs as
// given, then each component's input and groups.
func (c *classes) patternResult(st *patternState, in patternInput, args []goja.Value, res *urlpattern.URLPatternResult) goja.Value {
	rt := c.rt
	out := rt.NewObject()
	var inputs []any
	if in.isInit {
		o := rt.NewObject()
		vals := map[string]*string{
			"baseURL": in.init.BaseURL, "hash": in.init.Hash, "hostname": in.init.Hostname,
			"password": in.init.Password, "pathname": in.init.Pathname, "port": in.init.Port,
			"protocol": in.init.Protocol, "search": in.init.Search, "username": in.init.Username,
		}
		for _, m := range in.members {
			_ = o.Set(m, *vals[m])
		}
		inputs = append(inputs, o)
	} else {
		inputs = append(inputs, in.str)
		if base, ok := c.baseArg(args, 1); ok {
			inputs = append(inputs, base)
		}
	}
	_ = out.Set("inputs", rt.NewArray(inputs...))
	comps := []urlpattern.URLPatternComponentResult{res.Protocol, res.Username, res.Password, res.Hostname, res.Port, res.Pathname, res.Search, res.Hash}
	for i, name := range patternParts {
		cr := rt.NewObject()
		_ = cr.Set("input", comps[i].Input)
		_ = cr.Set("groups", c.groups(st.p, name, comps[i]))
		_ = out.Set(name, cr)
	}
	return out
}
