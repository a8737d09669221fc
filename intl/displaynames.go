package intl

import (
	"strings"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

type displayNames struct {
	locale, style, typ, fallback, languageDisplay string
	b                                             *cldr.Bundle
}

var dateTimeFields = map[string]string{"era": "era", "year": "year", "quarter": "quarter", "month": "month", "weekOfYear": "week", "weekday": "weekday", "day": "day", "dayPeriod": "dayperiod", "hour": "hour", "minute": "minute", "second": "second", "timeZoneName": "zone"}

var calendarKeys = map[string]string{"gregory": "gregorian", "ethioaa": "ethiopic-amete-alem", "iso8601": "iso8601"}

func (r *realm) installDisplayNames() {
	_, proto := r.class("DisplayNames", 2, true, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newDisplayNames(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *displayNames {
		p, ok := unwrap[*displayNames](c.This)
		if !ok {
			r.throwType("Method Intl.DisplayNames.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	r.method(proto, "of", 1, func(c goja.FunctionCall) goja.Value {
		d := this(c, "of")
		code := c.Argument(0).String()
		name, fb := d.of(r, code)
		if name != "" {
			return r.rt.ToValue(name)
		}
		if d.fallback == "none" {
			return goja.Undefined()
		}
		return r.rt.ToValue(fb)
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		d := this(c, "resolvedOptions")
		o := r.rt.NewObject()
		r.cdp(o, "locale", d.locale)
		r.cdp(o, "style", d.style)
		r.cdp(o, "type", d.typ)
		r.cdp(o, "fallback", d.fallback)
		if d.typ == "language" {
			r.cdp(o, "languageDisplay", d.languageDisplay)
		}
		return o
	})
}

func (r *realm) newDisplayNames(locales, options goja.Value) *displayNames {
	req := r.canonicalizeLocaleList(locales)
	if options == nil || goja.IsUndefined(options) {
		r.throwType("Required options object is missing")
	}
	opts := r.getOptionsObject(options)
	r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	res := r.resolveLocale(req, nil, nil)
	d := &displayNames{locale: res.locale}
	d.style = r.getString(opts, "style", []string{"narrow", "short", "long"}, "long")
	d.typ = r.getString(opts, "type", []string{"language", "region", "script", "currency", "calendar", "dateTimeField"}, "")
	if d.typ == "" {
		r.throwType("Required option 'type' is missing")
	}
	d.fallback = r.getString(opts, "fallback", []string{"code", "none"}, "code")
	d.languageDisplay = r.getString(opts, "languageDisplay", []string{"dialect", "standard"}, "dialect")
	d.b = dataLocale(res.base)
	return d
}

// of returns the name, or "" and the code to fall back to. An invalid code
// is a RangeError.
func (d *displayNames) of(r *realm, code string) (string, string) {
	b := d.b
	alt := func(prefix, key string) string {
		if d.style != "long" {
			if v, ok := b.Get(prefix + key + "-alt-short"); ok {
				return v
			}
		}
		return b.S(prefix + key)
	}
	switch d.typ {
	case "region":
		if !(len(code) == 2 && isAlpha(code) || len(code) == 3 && isDigit(code)) {
			r.throwRange("invalid_argument")
		}
		c := strings.ToUpper(code)
		return alt("dr/", c), c
	case "script":
		if len(code) != 4 || !isAlpha(code) {
			r.throwRange("invalid_argument")
		}
		// ICU's lookup is case-sensitive: "latn" has no name
		return alt("ds/", code), code
	case "currency":
		if !isWellFormedCurrency(code) {
			r.throwRange("invalid_argument")
		}
		c := strings.ToUpper(code)
		// V8 asks ICU for the long name whatever the style
		return b.S("c/" + c + "/displayName"), c
	case "calendar":
		if !isUnicodeType(code) {
			r.throwRange("invalid_argument")
		}
		c := strings.ToLower(code)
		k := c
		if v, ok := calendarKeys[c]; ok {
			k = v
		}
		return b.S("dn/types/calendar/" + k), c
	case "dateTimeField":
		f, ok := dateTimeFields[code]
		if !ok {
			r.throwRange("invalid_argument")
		}
		if d.style != "long" {
			f += "-" + d.style
		}
		return b.S("f/" + f + "/displayName"), code
	}
	// language
	t, ok := parseTag(code)
	if !ok || len(t.ukeys) > 0 || len(t.other) > 0 || len(t.uattrs) > 0 {
		r.throwRange("invalid_argument")
	}
	c := t.String()
	return d.languageName(t), c
}

func (d *displayNames) languageName(t langTag) string {
	b := d.b
	get := func(k string) (string, bool) {
		if d.style != "long" {
			if v, ok := b.Get("dl/" + k + "-alt-short"); ok {
				return v, true
			}
		}
		return b.Get("dl/" + k)
	}
	var name string
	var quals []string
	found := false
	if d.languageDisplay == "dialect" {
		switch {
		case t.script != "" && t.region != "":
			if v, ok := get(t.lang + "-" + t.script + "-" + t.region); ok {
				name, found = v, true
			}
		case t.script != "":
			if v, ok := get(t.lang + "-" + t.script); ok {
				name, found = v, true
			}
		case t.region != "":
			if v, ok := get(t.lang + "-" + t.region); ok {
				name, found = v, true
			}
		}
	}
	if !found {
		v, ok := get(t.lang)
		if !ok {
			return ""
		}
		name = v
		if t.script != "" {
			quals = append(quals, d.b.S("ds/"+t.script))
		}
		if t.region != "" {
			if d.style != "long" {
				if v, ok := b.Get("dr/" + t.region + "-alt-short"); ok {
					quals = append(quals, v)
				} else {
					quals = append(quals, b.S("dr/"+t.region))
				}
			} else {
				quals = append(quals, b.S("dr/"+t.region))
			}
		}
	}
	for _, v := range t.variants {
		if n, ok := b.Get("dv/" + strings.ToUpper(v)); ok {
			quals = append(quals, n)
		} else {
			quals = append(quals, v)
		}
	}
	if len(quals) == 0 {
		return name
	}
	sep := b.S("dn/localeDisplayPattern/localeSeparator")
	q := quals[0]
	for _, x := range quals[1:] {
		q = strings.Replace(strings.Replace(sep, "{0}", q, 1), "{1}", x, 1)
	}
	pat := b.S("dn/localeDisplayPattern/localePattern")
	return strings.Replace(strings.Replace(pat, "{0}", name, 1), "{1}", q, 1)
}
