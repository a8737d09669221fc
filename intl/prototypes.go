package intl

import (
	"math"
	"math/big"
	"strings"

	"github.com/dop251/goja"
	"golang.org/x/text/cases"
	"golang.org/x/text/language"
)

// installPrototypes replaces goja's locale-insensitive built-ins with
// ECMA-402's versions. Each one creates its formatter on first call and
// keeps the default-argument ones per runtime.
func (r *realm) installPrototypes() error {
	rt := r.rt
	g := rt.GlobalObject()
	proto := func(ctor string) *goja.Object {
		c, _ := g.Get(ctor).(*goja.Object)
		if c == nil {
			return nil
		}
		p, _ := c.Get("prototype").(*goja.Object)
		return p
	}
	numP, bigP, dateP, strP, arrP := proto("Number"), proto("BigInt"), proto("Date"), proto("String"), proto("Array")
	var getTime goja.Callable // looked up on first use: goja builds it lazily
	def := func(o *goja.Object, name string, length int, f func(goja.FunctionCall) goja.Value) {
		if o == nil {
			return
		}
		fn := rt.ToValue(f).(*goja.Object)
		fn.DefineDataProperty("name", rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		if length != 0 { // a new native function already has length 0
			fn.DefineDataProperty("length", rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		}
		o.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	}
	def(numP, "toLocaleString", 0, func(c goja.FunctionCall) goja.Value {
		r.ensure()
		x := r.thisNumber(c.This)
		nf := r.cachedNumberFormat(c.Argument(0), c.Argument(1))
		return rt.ToValue(joinParts(nf.formatParts(decFromFloat(x))))
	})
	def(bigP, "toLocaleString", 0, func(c goja.FunctionCall) goja.Value {
		r.ensure()
		b, ok := c.This.Export().(*big.Int)
		if !ok {
			r.throwType("BigInt.prototype.toLocaleString requires that 'this' be a BigInt")
		}
		nf := r.cachedNumberFormat(c.Argument(0), c.Argument(1))
		return rt.ToValue(joinParts(nf.formatParts(decFromBig(b))))
	})
	dateMethod := func(name, required, defaults string) {
		def(dateP, name, 0, func(c goja.FunctionCall) goja.Value {
			r.ensure()
			o, ok := c.This.(*goja.Object)
			if !ok || o.ClassName() != "Date" {
				r.throwType("this is not a Date object.")
			}
			if getTime == nil {
				getTime, _ = goja.AssertFunction(dateP.Get("getTime"))
			}
			tv, err := getTime(o)
			if err != nil {
				panic(err)
			}
			x := tv.ToFloat()
			if math.IsNaN(x) {
				return rt.ToValue("Invalid Date")
			}
			df := r.cachedDateFormat(c.Argument(0), c.Argument(1), required, defaults)
			return rt.ToValue(formatString(df.formatParts(x)))
		})
	}
	dateMethod("toLocaleString", "any", "all")
	dateMethod("toLocaleDateString", "date", "date")
	dateMethod("toLocaleTimeString", "time", "time")
	def(strP, "localeCompare", 1, func(c goja.FunctionCall) goja.Value {
		r.ensure()
		s := r.thisString(c.This, "localeCompare")
		that := c.Argument(0).String()
		co := r.cachedCollator(c.Argument(1), c.Argument(2))
		return rt.ToValue(co.compare(s, that))
	})
	caseMethod := func(name string, upper bool) {
		def(strP, name, 0, func(c goja.FunctionCall) goja.Value {
			r.ensure()
			s := r.thisString(c.This, name)
			return rt.ToValue(r.transformCase(s, c.Argument(0), upper))
		})
	}
	caseMethod("toLocaleUpperCase", true)
	caseMethod("toLocaleLowerCase", false)
	def(arrP, "toLocaleString", 0, func(c goja.FunctionCall) goja.Value {
		o := c.This.ToObject(rt)
		n := toLength(o.Get("length"))
		var b strings.Builder
		for i := int64(0); i < n; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			v := o.Get(itoa(int(i)))
			if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
				continue
			}
			eo := v.ToObject(rt)
			f, ok := goja.AssertFunction(eo.Get("toLocaleString"))
			if !ok {
				r.throwType("toLocaleString is not a function")
			}
			res, err := f(v, c.Argument(0), c.Argument(1))
			if err != nil {
				panic(err)
			}
			b.WriteString(res.String())
		}
		return rt.ToValue(b.String())
	})
	return nil
}

func (r *realm) thisNumber(v goja.Value) float64 {
	if o, ok := v.(*goja.Object); ok {
		if o.ClassName() == "Number" {
			if f, ok := o.Export().(float64); ok {
				return f
			}
			if i, ok := o.Export().(int64); ok {
				return float64(i)
			}
		}
		r.throwType("Number.prototype.toLocaleString requires that 'this' be a Number")
	}
	switch x := v.Export().(type) {
	case float64:
		return x
	case int64:
		return float64(x)
	}
	r.throwType("Number.prototype.toLocaleString requires that 'this' be a Number")
	return 0
}

func (r *realm) thisString(v goja.Value, m string) string {
	if v == nil || goja.IsUndefined(v) || goja.IsNull(v) {
		r.throwType("String.prototype." + m + " called on null or undefined")
	}
	return v.String()
}

// cacheKey returns a key for the (locales, options) pair when both are
// simple enough to cache: undefined options and a string or no locale.
func cacheKey(locales, options goja.Value) (string, bool) {
	if options != nil && !goja.IsUndefined(options) {
		return "", false
	}
	if locales == nil || goja.IsUndefined(locales) {
		return "", true
	}
	if isString(locales) {
		return locales.String(), true
	}
	return "", false
}

func (r *realm) cachedNumberFormat(locales, options goja.Value) *numberFormat {
	k, ok := cacheKey(locales, options)
	if ok {
		if nf := r.numCache[k]; nf != nil {
			return nf
		}
	}
	nf := r.newNumberFormat(locales, options)
	if ok && len(r.numCache) < 64 {
		r.numCache[k] = nf
	}
	return nf
}

func (r *realm) cachedDateFormat(locales, options goja.Value, required, defaults string) *dateTimeFormat {
	k, ok := cacheKey(locales, options)
	k = required + "|" + k
	if ok {
		if df := r.dateCache[k]; df != nil {
			return df
		}
	}
	df := r.newDateTimeFormat(locales, options, required, defaults)
	if ok && len(r.dateCache) < 64 {
		r.dateCache[k] = df
	}
	return df
}

func (r *realm) cachedCollator(locales, options goja.Value) *collator {
	k, ok := cacheKey(locales, options)
	if ok {
		if co := r.collCache[k]; co != nil {
			return co
		}
	}
	co := r.newCollator(locales, options)
	if ok && len(r.collCache) < 64 {
		r.collCache[k] = co
	}
	return co
}

// transformCase is ECMA-402's TransformCase: the language of the first
// requested locale picks the special casing (tr, az, lt); the mapping is
// Unicode's full one, as in Node.
func (r *realm) transformCase(s string, locales goja.Value, upper bool) string {
	req := r.canonicalizeLocaleList(locales)
	lang := ""
	if len(req) > 0 {
		t, _ := parseTag(req[0])
		lang = t.lang
	} else {
		t, _ := parseTag(r.defLocale)
		lang = t.lang
	}
	var tag language.Tag
	switch lang {
	case "tr":
		tag = language.Turkish
	case "az":
		tag = language.Azerbaijani
	case "lt":
		tag = language.Lithuanian
	default:
		if isASCII(s) {
			if upper {
				return strings.ToUpper(s)
			}
			return strings.ToLower(s)
		}
		tag = language.Und
	}
	if upper {
		return cases.Upper(tag).String(s)
	}
	return cases.Lower(tag).String(s)
}
