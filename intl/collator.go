package intl

import (
	"strings"
	"unicode"

	"github.com/dop251/goja"
	"golang.org/x/text/collate"
	"golang.org/x/text/language"
	"golang.org/x/text/unicode/norm"
)

// collator wraps golang.org/x/text/collate (UCA with CLDR tailorings).
// A collate.Collator is not safe for concurrent use; each Intl.Collator
// (and so each runtime) has its own.
type collator struct {
	locale, usage, sensitivity, caseFirst, collation string
	numeric, ignorePunct                             bool
	c                                                *collate.Collator
	noCase                                           *collate.Collator // for caseFirst
	bound                                            goja.Value
}

var collations = map[string]bool{"compat": true, "dict": true, "emoji": true, "eor": true, "phonebk": true, "phonetic": true, "pinyin": true, "searchjl": true, "stroke": true, "trad": true, "unihan": true, "zhuyin": true}

func (r *realm) installCollator() {
	_, proto := r.class("Collator", 0, false, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newCollator(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *collator {
		p, ok := unwrap[*collator](c.This)
		if !ok {
			r.throwType("Method Intl.Collator.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	r.getter(proto, "compare", func(c goja.FunctionCall) goja.Value {
		co := this(c, "compare")
		if co.bound == nil {
			fn := r.rt.ToValue(func(c goja.FunctionCall) goja.Value {
				return r.rt.ToValue(co.compare(c.Argument(0).String(), c.Argument(1).String()))
			}).(*goja.Object)
			fn.DefineDataProperty("name", r.rt.ToValue(""), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			fn.DefineDataProperty("length", r.rt.ToValue(2), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			co.bound = fn
		}
		return co.bound
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		co := this(c, "resolvedOptions")
		o := r.rt.NewObject()
		r.cdp(o, "locale", co.locale)
		r.cdp(o, "usage", co.usage)
		r.cdp(o, "sensitivity", co.sensitivity)
		r.cdp(o, "ignorePunctuation", co.ignorePunct)
		r.cdp(o, "collation", co.collation)
		r.cdp(o, "numeric", co.numeric)
		r.cdp(o, "caseFirst", co.caseFirst)
		return o
	})
}

func (r *realm) newCollator(locales, options goja.Value) *collator {
	req := r.canonicalizeLocaleList(locales)
	opts := r.coerceOptions(options)
	co := &collator{}
	co.usage = r.getString(opts, "usage", []string{"sort", "search"}, "sort")
	r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	colOpt, colSet := r.getStringSet(opts, "collation")
	if colSet && !isUnicodeType(colOpt) {
		r.throwRange("Invalid collation : " + colOpt)
	}
	num := r.getBool(opts, "numeric")
	cf := r.getString(opts, "caseFirst", []string{"upper", "lower", "false"}, "")
	res := r.resolveLocale(req, []string{"co", "kf", "kn"}, func(k, v, base string) bool {
		switch k {
		case "kn":
			return v == "" || v == "true" || v == "false"
		case "kf":
			return v == "upper" || v == "lower" || v == "false"
		case "co":
			return collations[v]
		}
		return false
	})
	co.numeric = num == 1
	if num == -1 {
		if v, ok := res.kw["kn"]; ok {
			co.numeric = v == "" || v == "true"
		}
	} else if v, ok := res.kw["kn"]; ok && (v == "" || v == "true") != co.numeric {
		res.dropKey("kn")
	}
	co.caseFirst = cf
	if cf == "" {
		co.caseFirst = "false"
		if v, ok := res.kw["kf"]; ok {
			co.caseFirst = v
		}
	} else if v, ok := res.kw["kf"]; ok && v != cf {
		res.dropKey("kf")
	}
	co.sensitivity = r.getString(opts, "sensitivity", []string{"base", "accent", "case", "variant"}, "")
	if co.sensitivity == "" {
		co.sensitivity = "variant"
	}
	ip := r.getBool(opts, "ignorePunctuation")
	co.ignorePunct = ip == 1
	if ip == -1 {
		t, _ := parseTag(res.base)
		co.ignorePunct = t.lang == "th" // CLDR's Thai collation sets alternate=shifted
	}
	co.collation = "default"
	if v, ok := res.kw["co"]; ok {
		co.collation = v
	}
	if colOpt != "" && collations[colOpt] {
		if co.collation != colOpt {
			res.dropKey("co")
		}
		co.collation = colOpt
	}
	co.locale = res.locale
	co.init(res.base)
	return co
}

func (co *collator) init(base string) {
	if co.collation != "default" {
		base += "-u-co-" + co.collation
	}
	tag, err := language.Parse(base)
	if err != nil {
		tag = language.Und
	}
	var o []collate.Option
	switch co.sensitivity {
	case "base":
		o = append(o, collate.Loose)
	case "accent":
		o = append(o, collate.IgnoreCase, collate.IgnoreWidth)
	case "case":
		o = append(o, collate.IgnoreWidth)
	}
	if co.numeric {
		o = append(o, collate.Numeric)
	}
	co.c = collate.New(tag, o...)
	if co.caseFirst == "upper" || co.caseFirst == "lower" {
		o2 := append([]collate.Option{collate.IgnoreCase}, o...)
		co.noCase = collate.New(tag, o2...)
	}
}

func (co *collator) compare(a, b string) int {
	if co.ignorePunct {
		a, b = stripPunct(a), stripPunct(b)
	}
	if co.sensitivity == "case" {
		// x/text's IgnoreDiacritics does not combine with case: fold the
		// accents away first
		a, b = stripMarks(a), stripMarks(b)
	}
	if co.noCase != nil && co.sensitivity != "base" && co.sensitivity != "accent" {
		if c := co.noCase.CompareString(a, b); c != 0 {
			return c
		}
		if c := caseOrder(a, b); c != 0 {
			if co.caseFirst == "upper" {
				return -c
			}
			return c
		}
	}
	return co.c.CompareString(a, b)
}

func stripMarks(s string) string {
	if isASCII(s) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if unicode.Is(unicode.Mn, r) {
			return -1
		}
		return r
	}, norm.NFD.String(s))
}

func caseOrder(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	for i := 0; i < len(ra) && i < len(rb); i++ {
		ua, ub := unicode.IsUpper(ra[i]), unicode.IsUpper(rb[i])
		if ua != ub {
			if ua {
				return 1
			}
			return -1
		}
	}
	return 0
}

func stripPunct(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsPunct(r) || unicode.IsSpace(r) || unicode.IsSymbol(r) && r < 0x80 {
			return -1
		}
		return r
	}, s)
}
