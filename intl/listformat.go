package intl

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

type listFormat struct {
	locale, typ, style, lang string
	b                        *cldr.Bundle
}

func (r *realm) installListFormat() {
	_, proto := r.class("ListFormat", 0, true, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newListFormat(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *listFormat {
		p, ok := unwrap[*listFormat](c.This)
		if !ok {
			r.throwType("Method Intl.ListFormat.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	r.method(proto, "format", 1, func(c goja.FunctionCall) goja.Value {
		lf := this(c, "format")
		return r.rt.ToValue(joinParts(lf.parts(r.stringList(c.Argument(0)))))
	})
	r.method(proto, "formatToParts", 1, func(c goja.FunctionCall) goja.Value {
		lf := this(c, "formatToParts")
		return r.partsArray(lf.parts(r.stringList(c.Argument(0))), false)
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		lf := this(c, "resolvedOptions")
		o := r.rt.NewObject()
		r.cdp(o, "locale", lf.locale)
		r.cdp(o, "type", lf.typ)
		r.cdp(o, "style", lf.style)
		return o
	})
}

func (r *realm) newListFormat(locales, options goja.Value) *listFormat {
	req := r.canonicalizeLocaleList(locales)
	opts := r.getOptionsObject(options)
	r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	res := r.resolveLocale(req, nil, nil)
	lf := &listFormat{locale: res.locale}
	lf.typ = r.getString(opts, "type", []string{"conjunction", "disjunction", "unit"}, "conjunction")
	lf.style = r.getString(opts, "style", []string{"long", "short", "narrow"}, "long")
	lf.b = dataLocale(res.base)
	t, _ := parseTag(res.base)
	lf.lang = t.lang
	return lf
}

// stringList is StringListFromIterable: undefined is empty; every element
// must be a string, and a bad one closes the iterator before the TypeError.
func (r *realm) stringList(v goja.Value) []string {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	o := v.ToObject(r.rt)
	getIter, ok := goja.AssertFunction(o.GetSymbol(goja.SymIterator))
	if !ok {
		r.throwType(safeString(v) + " is not iterable")
	}
	itv, err := getIter(v)
	if err != nil {
		panic(err)
	}
	it := itv.ToObject(r.rt)
	next, ok := goja.AssertFunction(it.Get("next"))
	if !ok {
		r.throwType("iterator.next is not a function")
	}
	var out []string
	for {
		res, err := next(it)
		if err != nil {
			panic(err)
		}
		ro, ok := res.(*goja.Object)
		if !ok {
			r.throwType("Iterator result is not an object")
		}
		if ro.Get("done").ToBoolean() {
			return out
		}
		e := ro.Get("value")
		if !isString(e) {
			if ret, ok := goja.AssertFunction(it.Get("return")); ok {
				ret(it)
			}
			r.throwType("Iterable yielded " + safeString(e) + " which is not a string")
		}
		out = append(out, e.String())
	}
}

func (lf *listFormat) pattern(which string) string {
	t := map[string]string{"conjunction": "standard", "disjunction": "or", "unit": "unit"}[lf.typ]
	if lf.style != "long" {
		t += "-" + lf.style
	}
	return lf.b.S("l/listPattern-type-" + t + "/" + which)
}

func (lf *listFormat) parts(l []string) []part {
	switch len(l) {
	case 0:
		return nil
	case 1:
		return []part{{typ: "element", val: l[0]}}
	}
	// build from the end: end pattern, then middles, then start
	var apply func(p string, a []part, b string) []part
	apply = func(p string, a []part, b string) []part {
		p = lf.adjust(p, b)
		i0, i1 := strings.Index(p, "{0}"), strings.Index(p, "{1}")
		var out []part
		lit := func(s string) {
			if s != "" {
				out = append(out, part{typ: "literal", val: s})
			}
		}
		lit(p[:i0])
		out = append(out, a...)
		lit(p[i0+3 : i1])
		out = append(out, part{typ: "element", val: b})
		lit(p[i1+3:])
		return out
	}
	if len(l) == 2 {
		return apply(lf.pattern("2"), []part{{typ: "element", val: l[0]}}, l[1])
	}
	// ICU composes start, middle…, end left to right
	acc := []part{{typ: "element", val: l[0]}}
	for i := 1; i < len(l); i++ {
		which := "middle"
		if i == 1 {
			which = "start"
		}
		if i == len(l)-1 {
			which = "end"
		}
		if i == 1 && len(l) > 2 {
			which = "start"
		}
		acc = apply(lf.pattern(which), acc, l[i])
	}
	return acc
}

// adjust applies ICU's contextual list patterns: Spanish y→e before an
// /i/ sound and o→u before an /o/ sound; Hebrew ו gets a hyphen before a
// non-Hebrew word.
func (lf *listFormat) adjust(p, next string) string {
	switch lf.lang {
	case "es":
		lower := strings.ToLower(next)
		if strings.Contains(p, " y ") && (strings.HasPrefix(lower, "i") && !strings.HasPrefix(lower, "ia") && !strings.HasPrefix(lower, "ie") && !strings.HasPrefix(lower, "io") && !strings.HasPrefix(lower, "iu") ||
			strings.HasPrefix(lower, "hi") && !strings.HasPrefix(lower, "hia") && !strings.HasPrefix(lower, "hie") && !strings.HasPrefix(lower, "hio") && !strings.HasPrefix(lower, "hiu")) {
			return strings.Replace(p, " y ", " e ", 1)
		}
		if strings.Contains(p, " o ") && (strings.HasPrefix(lower, "o") || strings.HasPrefix(lower, "ho") || strings.HasPrefix(lower, "8") || strings.HasPrefix(lower, "11") && !strings.HasPrefix(lower, "111")) {
			return strings.Replace(p, " o ", " u ", 1)
		}
	case "he", "iw":
		if r, _ := utf8.DecodeRuneInString(next); r != utf8.RuneError && !unicode.Is(unicode.Hebrew, r) && strings.Contains(p, "ו{1}") {
			return strings.Replace(p, "ו{1}", "ו-{1}", 1)
		}
	}
	return p
}
