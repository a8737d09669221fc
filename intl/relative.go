package intl

import (
	"math"
	"strings"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

type relativeTimeFormat struct {
	locale, style, numeric, nu string
	b                          *cldr.Bundle
	nf                         *numberFormat
	pr                         *pluralRules
}

var relUnits = map[string]string{
	"second": "second", "seconds": "second", "minute": "minute", "minutes": "minute", "hour": "hour", "hours": "hour",
	"day": "day", "days": "day", "week": "week", "weeks": "week", "month": "month", "months": "month",
	"quarter": "quarter", "quarters": "quarter", "year": "year", "years": "year",
}

func (r *realm) installRelativeTimeFormat() {
	_, proto := r.class("RelativeTimeFormat", 0, true, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newRelativeTimeFormat(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *relativeTimeFormat {
		p, ok := unwrap[*relativeTimeFormat](c.This)
		if !ok {
			r.throwType("Method Intl.RelativeTimeFormat.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	r.method(proto, "format", 2, func(c goja.FunctionCall) goja.Value {
		rf := this(c, "format")
		return r.rt.ToValue(joinParts(r.relParts(rf, c)))
	})
	r.method(proto, "formatToParts", 2, func(c goja.FunctionCall) goja.Value {
		rf := this(c, "formatToParts")
		ps := r.relParts(rf, c)
		a := make([]any, len(ps))
		for i, p := range ps {
			o := r.rt.NewObject()
			r.cdp(o, "type", p.typ)
			r.cdp(o, "value", p.val)
			if p.src != "" {
				r.cdp(o, "unit", p.src)
			}
			a[i] = o
		}
		return r.rt.NewArray(a...)
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		rf := this(c, "resolvedOptions")
		o := r.rt.NewObject()
		r.cdp(o, "locale", rf.locale)
		r.cdp(o, "style", rf.style)
		r.cdp(o, "numeric", rf.numeric)
		r.cdp(o, "numberingSystem", rf.nu)
		return o
	})
}

func (r *realm) newRelativeTimeFormat(locales, options goja.Value) *relativeTimeFormat {
	req := r.canonicalizeLocaleList(locales)
	opts := r.coerceOptions(options)
	r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	nuOpt, nuSet := r.getStringSet(opts, "numberingSystem")
	if nuSet && !isUnicodeType(nuOpt) {
		r.throwRange("Invalid numberingSystem : " + nuOpt)
	}
	res := r.resolveLocale(req, []string{"nu"}, func(k, v, base string) bool {
		_, ok := numberingSystems()[v]
		return ok
	})
	rf := &relativeTimeFormat{}
	rf.b = dataLocale(res.base)
	rf.nu = rf.b.S("n/defaultNumberingSystem")
	if v, ok := res.kw["nu"]; ok {
		rf.nu = v
	}
	if nuOpt != "" {
		if _, ok := numberingSystems()[nuOpt]; ok {
			if res.kw["nu"] != nuOpt {
				res.dropKey("nu")
			}
			rf.nu = nuOpt
		}
	}
	rf.locale = res.locale
	rf.style = r.getString(opts, "style", []string{"long", "short", "narrow"}, "long")
	rf.numeric = r.getString(opts, "numeric", []string{"always", "auto"}, "always")
	rf.nf = &numberFormat{b: rf.b, nu: rf.nu, style: "decimal", notation: "standard", useGrouping: "auto", signDisplay: "auto",
		digits: digitOptions{minInt: 1, maxFrac: 3, roundingType: "fractionDigits", increment: 1, mode: "halfExpand", trailingZero: "auto", priority: "auto"}}
	rf.nf.compile()
	rf.pr = pluralRulesFor(rf.b.ID, false)
	return rf
}

func (r *realm) relParts(rf *relativeTimeFormat, c goja.FunctionCall) []part {
	x := c.Argument(0).ToFloat()
	us := r.toString(c.Argument(1))
	unit, ok := relUnits[us]
	if !ok {
		r.throwRange("Invalid unit argument for format() '" + us + "'")
	}
	if math.IsNaN(x) || math.IsInf(x, 0) {
		r.throwRange("Invalid number value")
	}
	key := unit
	if rf.style != "long" {
		key += "-" + rf.style
	}
	b := rf.b
	if rf.numeric == "auto" {
		vs := itoa(int(x))
		if float64(int(x)) == x {
			if v, ok := b.Get("f/" + key + "/relative-type-" + vs); ok {
				return []part{{typ: "literal", val: v}}
			}
		}
	}
	tl := "future"
	if x < 0 || x == 0 && math.Signbit(x) {
		tl = "past"
	}
	ax := decFromFloat(math.Abs(x))
	f := rf.nf.format(ax)
	cat := f.plural
	pat, ok := b.Get("f/" + key + "/relativeTime-type-" + tl + "/relativeTimePattern-count-" + cat)
	if !ok {
		pat = b.S("f/" + key + "/relativeTime-type-" + tl + "/relativeTimePattern-count-other")
	}
	i := strings.Index(pat, "{0}")
	var out []part
	if i < 0 {
		return []part{{typ: "literal", val: pat}}
	}
	if pat[:i] != "" {
		out = append(out, part{typ: "literal", val: pat[:i]})
	}
	for _, p := range f.num {
		p.src = unit
		out = append(out, p)
	}
	if pat[i+3:] != "" {
		out = append(out, part{typ: "literal", val: pat[i+3:]})
	}
	return out
}
