package intl

import (
	"sort"
	"strconv"
	"strings"
	"sync"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

// pluralOperands are UTS 35's plural operands of a formatted number.
type pluralOperands struct {
	n    float64
	i    uint64
	v, w int
	f, t uint64
	e    int
}

// operandsOf takes the operands from a decimal as it would be displayed
// (ip, fp digit strings, e the compact/scientific exponent).
func operandsOf(ip, fp string, e int) pluralOperands {
	var o pluralOperands
	o.i, _ = strconv.ParseUint(lastDigits(ip, 18), 10, 64)
	o.v = len(fp)
	o.f, _ = strconv.ParseUint(lastDigits(fp, 18), 10, 64)
	t := strings.TrimRight(fp, "0")
	o.w = len(t)
	o.t, _ = strconv.ParseUint(lastDigits(t, 18), 10, 64)
	s := ip
	if fp != "" {
		s += "." + fp
	}
	o.n, _ = strconv.ParseFloat(s, 64)
	o.e = e
	if e != 0 {
		// the operands are those of the full value, with e kept apart
		m := decimal{}
		m, _ = decFromString(s)
		m = m.shift(e)
		ip2, fp2 := m.digitStrings(1, 0)
		o2 := operandsOf(ip2, fp2, 0)
		o2.e = e
		return o2
	}
	return o
}

func lastDigits(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	if s == "" {
		return "0"
	}
	return s
}

// pluralRule is one category's condition: or of ands of relations.
type pluralRule struct {
	cat string
	or  [][]relation
}

type relation struct {
	op     byte // n i v w f t e(c)
	mod    uint64
	not    bool
	ranges [][2]float64
}

func compileRule(cat, src string) pluralRule {
	if i := strings.IndexByte(src, '@'); i >= 0 {
		src = src[:i]
	}
	r := pluralRule{cat: cat}
	src = strings.TrimSpace(src)
	if src == "" {
		return r
	}
	for _, ors := range strings.Split(src, " or ") {
		var ands []relation
		for _, a := range strings.Split(ors, " and ") {
			a = strings.TrimSpace(a)
			var rel relation
			var lhs, rhs string
			if i := strings.Index(a, "!="); i >= 0 {
				rel.not = true
				lhs, rhs = a[:i], a[i+2:]
			} else {
				i := strings.IndexByte(a, '=')
				lhs, rhs = a[:i], a[i+1:]
			}
			lhs = strings.TrimSpace(lhs)
			rel.op = lhs[0]
			if rel.op == 'c' {
				rel.op = 'e'
			}
			if i := strings.IndexByte(lhs, '%'); i >= 0 {
				rel.mod, _ = strconv.ParseUint(strings.TrimSpace(lhs[i+1:]), 10, 64)
			}
			for _, rg := range strings.Split(strings.TrimSpace(rhs), ",") {
				lo, hi := rg, rg
				if i := strings.Index(rg, ".."); i >= 0 {
					lo, hi = rg[:i], rg[i+2:]
				}
				l, _ := strconv.ParseFloat(strings.TrimSpace(lo), 64)
				h, _ := strconv.ParseFloat(strings.TrimSpace(hi), 64)
				rel.ranges = append(rel.ranges, [2]float64{l, h})
			}
			ands = append(ands, rel)
		}
		r.or = append(r.or, ands)
	}
	return r
}

func (r *pluralRule) match(o pluralOperands) bool {
	if len(r.or) == 0 {
		return true
	}
	for _, ands := range r.or {
		ok := true
		for _, rel := range ands {
			if !rel.match(o) {
				ok = false
				break
			}
		}
		if ok {
			return true
		}
	}
	return false
}

func (rel *relation) match(o pluralOperands) bool {
	var x float64
	isInt := true
	switch rel.op {
	case 'n':
		x = o.n
		if rel.mod != 0 {
			// n % m keeps the fraction
			ip := float64(o.i % rel.mod)
			x = ip + (o.n - float64(uint64(o.n)))
		}
		isInt = x == float64(uint64(x))
	case 'i':
		x = float64(o.i)
	case 'v':
		x = float64(o.v)
	case 'w':
		x = float64(o.w)
	case 'f':
		x = float64(o.f)
	case 't':
		x = float64(o.t)
	case 'e':
		x = float64(o.e)
	}
	if rel.mod != 0 && rel.op != 'n' {
		x = float64(uint64(x) % rel.mod)
	}
	in := false
	for _, rg := range rel.ranges {
		if rg[0] == rg[1] {
			if x == rg[0] {
				in = true
			}
		} else if isInt && x >= rg[0] && x <= rg[1] {
			in = true
		}
	}
	return in != rel.not
}

// pluralRules is one locale's rules of one type, in CLDR order with
// "other" last.
type pluralRules struct {
	rules []pluralRule
	cats  []string
}

func (p *pluralRules) selectOp(o pluralOperands) string {
	for i := range p.rules {
		if p.rules[i].match(o) {
			return p.rules[i].cat
		}
	}
	return "other"
}

var pluralData = sync.OnceValue(func() [2]map[string]map[string]string {
	var c, o map[string]map[string]map[string]string
	cldr.Supplemental("plurals", &c)
	cldr.Supplemental("ordinals", &o)
	return [2]map[string]map[string]string{c["plurals-type-cardinal"], o["plurals-type-ordinal"]}
})

var pluralCache sync.Map // "type/lang" → *pluralRules

var catOrder = []string{"zero", "one", "two", "few", "many", "other"}

// pluralRulesFor returns the rules of the locale (language, then parents).
func pluralRulesFor(locale string, ordinal bool) *pluralRules {
	key := locale
	if ordinal {
		key = "o/" + locale
	}
	if v, ok := pluralCache.Load(key); ok {
		return v.(*pluralRules)
	}
	d := pluralData()[0]
	if ordinal {
		d = pluralData()[1]
	}
	id := locale
	var m map[string]string
	for {
		if x, ok := d[id]; ok {
			m = x
			break
		}
		i := strings.LastIndexByte(id, '-')
		if i < 0 {
			m = d["root"]
			if m == nil {
				m = d["und"]
			}
			break
		}
		id = id[:i]
	}
	p := &pluralRules{}
	for _, c := range catOrder {
		if src, ok := m["pluralRule-count-"+c]; ok {
			if c != "other" {
				p.rules = append(p.rules, compileRule(c, src))
			}
			p.cats = append(p.cats, c)
		}
	}
	if len(p.cats) == 0 {
		p.cats = []string{"other"}
	}
	pluralCache.Store(key, p)
	return p
}

var pluralRangeData = sync.OnceValue(func() map[string]map[string]string {
	var r struct {
		Plurals map[string]map[string]string `json:"plurals"`
	}
	cldr.Supplemental("pluralRanges", &r)
	return r.Plurals
})

func pluralRange(lang, a, b string) string {
	m := pluralRangeData()[lang]
	if v, ok := m["pluralRange-start-"+a+"-end-"+b]; ok {
		return v
	}
	return b
}

// ---- Intl.PluralRules ----

type pluralRulesObj struct {
	locale string
	typ    string
	digits digitOptions
	rules  *pluralRules
	lang   string
}

func (r *realm) installPluralRules() {
	_, proto := r.class("PluralRules", 0, true, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newPluralRules(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *pluralRulesObj {
		p, ok := unwrap[*pluralRulesObj](c.This)
		if !ok {
			r.throwType("Method Intl.PluralRules.prototype." + m + " called on incompatible receiver " + c.This.String())
		}
		return p
	}
	r.method(proto, "select", 1, func(c goja.FunctionCall) goja.Value {
		p := this(c, "select")
		x := c.Argument(0).ToFloat()
		return r.rt.ToValue(p.selectDec(decFromFloat(x)))
	})
	r.method(proto, "selectRange", 2, func(c goja.FunctionCall) goja.Value {
		p := this(c, "selectRange")
		if goja.IsUndefined(c.Argument(0)) || goja.IsUndefined(c.Argument(1)) {
			r.throwType("start or end is undefined")
		}
		a, b := c.Argument(0).ToFloat(), c.Argument(1).ToFloat()
		if a != a || b != b {
			r.throwRange("Invalid start or end: NaN")
		}
		return r.rt.ToValue(pluralRange(p.lang, p.selectDec(decFromFloat(a)), p.selectDec(decFromFloat(b))))
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		p := this(c, "resolvedOptions")
		o := r.rt.NewObject()
		r.cdp(o, "locale", p.locale)
		r.cdp(o, "type", p.typ)
		p.digits.resolvedInto(r, o, false)
		// ICU lists the categories in its resource order: sorted, other last
		var cats []any
		sorted := append([]string{}, p.rules.cats...)
		sort.Strings(sorted)
		for _, c := range sorted {
			if c != "other" {
				cats = append(cats, c)
			}
		}
		cats = append(cats, "other")
		r.cdp(o, "pluralCategories", r.rt.NewArray(cats...))
		return o
	})
}

func arg(args []goja.Value, i int) goja.Value {
	if i < len(args) {
		return args[i]
	}
	return goja.Undefined()
}

func (r *realm) newPluralRules(locales, options goja.Value) *pluralRulesObj {
	req := r.canonicalizeLocaleList(locales)
	opts := r.coerceOptions(options)
	r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	typ := r.getString(opts, "type", []string{"cardinal", "ordinal"}, "cardinal")
	d := r.digitOptions(opts, 0, 3, "standard")
	res := r.resolveLocaleIn(req, nil, nil, hasPluralData)
	p := &pluralRulesObj{locale: res.locale, typ: typ, digits: d}
	t, _ := parseTag(res.base)
	p.lang = t.lang
	p.rules = pluralRulesFor(res.base, typ == "ordinal")
	return p
}

func (p *pluralRulesObj) selectDec(x decimal) string {
	if x.inf || x.nan {
		return "other"
	}
	x.neg = false
	ip, fp := p.digits.strings(x)
	return p.rules.selectOp(operandsOf(ip, fp, 0))
}

// hasPluralData is PluralRules' availability: ICU keys plural rules by
// language (and a few regional variants), so "en-US" resolves to "en".
func hasPluralData(base string) bool {
	d := pluralData()
	_, ok := d[0][base]
	return ok
}
