package intl

import (
	"math/big"
	"sort"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

// part is one piece of formatToParts output.
type part struct {
	typ, val string
	src      string // formatRangeToParts source
}

func joinParts(ps []part) string {
	n := 0
	for _, p := range ps {
		n += len(p.val)
	}
	var b strings.Builder
	b.Grow(n)
	for _, p := range ps {
		b.WriteString(p.val)
	}
	return b.String()
}

type numberFormat struct {
	locale, nu                                     string
	b                                              *cldr.Bundle
	lang                                           string
	style, currency, currencyDisplay, currencySign string
	unit, unitDisplay                              string
	digits                                         digitOptions
	useGrouping                                    string // auto always min2 false
	notation, compactDisplay, signDisplay          string

	sym      *numSymbols
	plural   *pluralRules
	pos, neg affixPattern // the standard pattern's affixes
	hasNeg   bool
	grp1     int // primary grouping size, 0 = none
	grp2     int
	minGrp   int
	curStr   string // the currency text put for ¤
	bound    goja.Value
	pctScale bool
}

type numSymbols struct {
	decimal, group, percent, plus, minus, exp, perMille, inf, nan, approx string
	digits                                                                [10]string
	latnDigits                                                            bool
}

// affixPattern is the prefix and suffix of a number pattern, as tokens.
type affixPattern struct {
	prefix, suffix []affixTok
}

type affixTok struct {
	kind byte // 'l' literal, '-' minus, '+' plus, '%' percent, '¤' currency, '‰'
	s    string
}

var numberingSystems = sync.OnceValue(func() map[string][10]string {
	var m map[string]map[string]string
	var w struct {
		NumberingSystems map[string]map[string]string `json:"numberingSystems"`
	}
	cldr.Supplemental("numberingSystems", &w)
	m = w.NumberingSystems
	out := map[string][10]string{}
	for k, v := range m {
		if v["_type"] != "numeric" {
			continue
		}
		var d [10]string
		i := 0
		for _, r := range v["_digits"] {
			if i < 10 {
				d[i] = string(r)
			}
			i++
		}
		if i == 10 {
			out[k] = d
		}
	}
	return out
})

func numberingSystemNames() []string {
	var l []string
	for k := range numberingSystems() {
		switch k {
		case "native", "traditio", "finance", "default":
			continue
		}
		l = append(l, k)
	}
	sort.Strings(l)
	return l
}

var symbolDonors = map[string]string{"arab": "ar-EG", "arabext": "fa", "beng": "bn", "deva": "mr", "mymr": "my"}

var symCache sync.Map // locale/nu → *numSymbols

func symbolsFor(b *cldr.Bundle, nu string) *numSymbols {
	key := b.ID + "/" + nu
	if v, ok := symCache.Load(key); ok {
		return v.(*numSymbols)
	}
	s := &numSymbols{}
	sb := b
	if _, ok := b.Get("n/symbols-numberSystem-" + nu + "/decimal"); !ok {
		// ICU's root has the symbols of these systems; CLDR's JSON keeps
		// them with the locales that use them.
		if d, ok := symbolDonors[nu]; ok {
			sb = cldr.Load(d)
		}
	}
	get := func(k string) string {
		if v, ok := sb.Get("n/symbols-numberSystem-" + nu + "/" + k); ok {
			return v
		}
		return b.S("n/symbols-numberSystem-latn/" + k)
	}
	s.decimal, s.group, s.percent = get("decimal"), get("group"), get("percentSign")
	s.plus, s.minus, s.exp, s.perMille = get("plusSign"), get("minusSign"), get("exponential"), get("perMille")
	s.inf, s.nan, s.approx = get("infinity"), get("nan"), get("approximatelySign")
	s.digits = numberingSystems()[nu]
	if s.digits[0] == "" {
		s.digits = numberingSystems()["latn"]
	}
	s.latnDigits = s.digits[0] == "0"
	symCache.Store(key, s)
	return s
}

func (s *numSymbols) localizeDigits(ds string) string {
	if s.latnDigits {
		return ds
	}
	var b strings.Builder
	for i := 0; i < len(ds); i++ {
		c := ds[i]
		if c >= '0' && c <= '9' {
			b.WriteString(s.digits[c-'0'])
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

// parsePattern splits a CLDR number pattern into affixes and reads its
// grouping sizes.
func parsePattern(p string) (pos, neg affixPattern, hasNeg bool, g1, g2 int) {
	sub := splitUnquoted(p, ';')
	var num string
	pos, num = parseSub(sub[0])
	if len(sub) > 1 {
		neg, _ = parseSub(sub[1])
		hasNeg = true
	}
	ip := num
	if i := strings.IndexByte(num, '.'); i >= 0 {
		ip = num[:i]
	}
	if i := strings.IndexAny(ip, "E"); i >= 0 {
		ip = ip[:i]
	}
	if i := strings.LastIndexByte(ip, ','); i >= 0 {
		g1 = len(ip) - i - 1
		rest := ip[:i]
		if j := strings.LastIndexByte(rest, ','); j >= 0 {
			g2 = i - j - 1
		} else {
			g2 = g1
		}
	}
	return
}

func splitUnquoted(p string, sep byte) []string {
	var out []string
	q := false
	start := 0
	for i := 0; i < len(p); i++ {
		switch p[i] {
		case '\'':
			q = !q
		case sep:
			if !q {
				out = append(out, p[start:i])
				start = i + 1
			}
		}
	}
	return append(out, p[start:])
}

func parseSub(s string) (affixPattern, string) {
	var a affixPattern
	var num strings.Builder
	state := 0 // 0 prefix, 1 number, 2 suffix
	q := false
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			t := affixTok{kind: 'l', s: lit.String()}
			if state == 0 {
				a.prefix = append(a.prefix, t)
			} else {
				a.suffix = append(a.suffix, t)
			}
			lit.Reset()
		}
	}
	add := func(k byte) {
		flush()
		t := affixTok{kind: k}
		if state == 0 {
			a.prefix = append(a.prefix, t)
		} else {
			a.suffix = append(a.suffix, t)
		}
	}
	for _, r := range s {
		if q {
			if r == '\'' {
				q = false
			} else {
				lit.WriteRune(r)
			}
			continue
		}
		if state < 2 && strings.ContainsRune("#0123456789,.@E", r) && !(r == 'E' && state == 0) {
			if state == 0 {
				flush()
				state = 1
			}
			num.WriteRune(r)
			continue
		}
		if state == 1 {
			state = 2
		}
		switch r {
		case '\'':
			q = true
		case '-':
			add('-')
		case '+':
			add('+')
		case '%':
			add('%')
		case '‰':
			add('m')
		case '¤':
			add('C')
		default:
			lit.WriteRune(r)
		}
	}
	flush()
	return a, num.String()
}

var currencyDigits = sync.OnceValue(func() map[string]int {
	var d struct {
		CurrencyData struct {
			Fractions map[string]map[string]string `json:"fractions"`
		} `json:"currencyData"`
	}
	cldr.Supplemental("currencyData", &d)
	m := map[string]int{}
	for k, v := range d.CurrencyData.Fractions {
		n := 0
		for _, c := range v["_digits"] {
			n = n*10 + int(c-'0')
		}
		m[k] = n
	}
	return m
})

func currencyFractionDigits(c string) int {
	if n, ok := currencyDigits()[c]; ok {
		return n
	}
	return 2
}

func isWellFormedCurrency(c string) bool {
	return len(c) == 3 && isAlpha(c)
}

var simpleUnits = map[string]string{}

func init() {
	for _, u := range strings.Fields(`area-acre digital-bit digital-byte temperature-celsius length-centimeter duration-day angle-degree temperature-fahrenheit volume-fluid-ounce length-foot volume-gallon digital-gigabit digital-gigabyte mass-gram area-hectare duration-hour length-inch digital-kilobit digital-kilobyte mass-kilogram length-kilometer volume-liter digital-megabit digital-megabyte length-meter duration-microsecond length-mile length-mile-scandinavian volume-milliliter length-millimeter duration-millisecond duration-minute duration-month duration-nanosecond mass-ounce concentr-percent digital-petabyte mass-pound duration-second mass-stone digital-terabit digital-terabyte duration-week length-yard duration-year`) {
		i := strings.IndexByte(u, '-')
		simpleUnits[u[i+1:]] = u
	}
}

func isWellFormedUnit(u string) bool {
	if _, ok := simpleUnits[u]; ok {
		return true
	}
	if i := strings.Index(u, "-per-"); i > 0 {
		_, a := simpleUnits[u[:i]]
		_, b := simpleUnits[u[i+5:]]
		return a && b
	}
	return false
}

func (r *realm) installNumberFormat() {
	_, proto := r.class("NumberFormat", 0, false, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newNumberFormat(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *numberFormat {
		p, ok := unwrap[*numberFormat](c.This)
		if !ok {
			r.throwType("Method Intl.NumberFormat.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	r.getter(proto, "format", func(c goja.FunctionCall) goja.Value {
		nf := this(c, "format")
		if nf.bound == nil {
			fn := r.rt.ToValue(func(c goja.FunctionCall) goja.Value {
				return r.rt.ToValue(joinParts(nf.formatParts(r.toIntlMV(c.Argument(0)))))
			}).(*goja.Object)
			fn.DefineDataProperty("name", r.rt.ToValue(""), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			fn.DefineDataProperty("length", r.rt.ToValue(1), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			nf.bound = fn
		}
		return nf.bound
	})
	r.method(proto, "formatToParts", 1, func(c goja.FunctionCall) goja.Value {
		nf := this(c, "formatToParts")
		return r.partsArray(nf.formatParts(r.toIntlMV(c.Argument(0))), false)
	})
	r.method(proto, "formatRange", 2, func(c goja.FunctionCall) goja.Value {
		nf := this(c, "formatRange")
		x, y := r.rangeArgs(c)
		return r.rt.ToValue(joinParts(nf.formatRange(x, y)))
	})
	r.method(proto, "formatRangeToParts", 2, func(c goja.FunctionCall) goja.Value {
		nf := this(c, "formatRangeToParts")
		x, y := r.rangeArgs(c)
		return r.partsArray(nf.formatRange(x, y), true)
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		return this(c, "resolvedOptions").resolvedOptions(r)
	})
}

func safeString(v goja.Value) string {
	if o, ok := v.(*goja.Object); ok {
		_ = o
		return "#<Object>"
	}
	if v == nil {
		return "undefined"
	}
	return v.String()
}

func (r *realm) rangeArgs(c goja.FunctionCall) (decimal, decimal) {
	if goja.IsUndefined(c.Argument(0)) || goja.IsUndefined(c.Argument(1)) {
		r.throwType("start or end is undefined")
	}
	x, y := r.toIntlMV(c.Argument(0)), r.toIntlMV(c.Argument(1))
	if x.nan || y.nan {
		r.throwRange("Invalid start or end: NaN")
	}
	return x, y
}

func (r *realm) partsArray(ps []part, withSource bool) goja.Value {
	a := make([]any, len(ps))
	for i, p := range ps {
		o := r.rt.NewObject()
		r.cdp(o, "type", p.typ)
		r.cdp(o, "value", p.val)
		if withSource {
			r.cdp(o, "source", p.src)
		}
		a[i] = o
	}
	return r.rt.NewArray(a...)
}

// toIntlMV is ToIntlMathematicalValue.
func (r *realm) toIntlMV(v goja.Value) decimal {
	if v == nil {
		return decimal{nan: true}
	}
	if o, ok := v.(*goja.Object); ok {
		v = toPrimitiveNumber(r.rt, o)
	}
	switch x := v.Export().(type) {
	case *big.Int:
		return decFromBig(x)
	case string:
		if isString(v) {
			d, ok := decFromString(x)
			if !ok {
				return decimal{nan: true}
			}
			return d
		}
	}
	if _, ok := v.(*goja.Symbol); ok {
		r.throwType("Cannot convert a Symbol value to a number")
	}
	return decFromFloat(v.ToFloat())
}

func toPrimitiveNumber(rt *goja.Runtime, o *goja.Object) goja.Value {
	if tp := o.GetSymbol(goja.SymToPrimitive); tp != nil && !goja.IsUndefined(tp) && !goja.IsNull(tp) {
		f, ok := goja.AssertFunction(tp)
		if !ok {
			panic(rt.NewTypeError("Symbol.toPrimitive is not a function"))
		}
		v, err := f(o, rt.ToValue("number"))
		if err != nil {
			panic(err)
		}
		if _, isObj := v.(*goja.Object); isObj {
			panic(rt.NewTypeError("Cannot convert object to primitive value"))
		}
		return v
	}
	for _, m := range []string{"valueOf", "toString"} {
		if f, ok := goja.AssertFunction(o.Get(m)); ok {
			v, err := f(o)
			if err != nil {
				panic(err)
			}
			if _, isObj := v.(*goja.Object); !isObj {
				return v
			}
		}
	}
	if n, ok := o.Export().(float64); ok {
		return rt.ToValue(n)
	}
	return goja.NaN()
}

func (r *realm) newNumberFormat(locales, options goja.Value) *numberFormat {
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
	nf := &numberFormat{}
	b := dataLocale(res.base)
	nf.b = b
	t, _ := parseTag(res.base)
	nf.lang = t.lang
	nu := b.S("n/defaultNumberingSystem")
	if v, ok := res.kw["nu"]; ok {
		nu = v
	}
	if nuOpt != "" {
		if _, ok := numberingSystems()[nuOpt]; ok {
			if res.kw["nu"] != nuOpt {
				res.dropKey("nu")
			}
			nu = nuOpt
		}
	}
	if nu == "" {
		nu = "latn"
	}
	nf.nu = nu
	nf.locale = res.locale

	// SetNumberFormatUnitOptions
	nf.style = r.getString(opts, "style", []string{"decimal", "percent", "currency", "unit"}, "decimal")
	cur, curSet := r.getStringSet(opts, "currency")
	if !curSet && nf.style == "currency" {
		r.throwType("Currency code is required with currency style.")
	}
	if curSet && !isWellFormedCurrency(cur) {
		r.throwRange("Invalid currency code : " + cur)
	}
	nf.currencyDisplay = r.getString(opts, "currencyDisplay", []string{"code", "symbol", "narrowSymbol", "name"}, "symbol")
	nf.currencySign = r.getString(opts, "currencySign", []string{"standard", "accounting"}, "standard")
	unit, unitSet := r.getStringSet(opts, "unit")
	if !unitSet && nf.style == "unit" {
		r.throwType("Invalid unit argument for Intl.NumberFormat() ''")
	}
	if unitSet && !isWellFormedUnit(unit) {
		r.throwRange("Invalid unit argument for Intl.NumberFormat() '" + unit + "'")
	}
	nf.unitDisplay = r.getString(opts, "unitDisplay", []string{"short", "narrow", "long"}, "short")
	if nf.style == "currency" {
		if cur == "" {
			r.throwType("Currency code is required with currency style.")
		}
		nf.currency = strings.ToUpper(cur)
	}
	if nf.style == "unit" {
		if unit == "" {
			r.throwType("Invalid unit argument for Intl.NumberFormat() ''")
		}
		nf.unit = unit
	}
	nf.notation = r.getString(opts, "notation", []string{"standard", "scientific", "engineering", "compact"}, "standard")
	mnfd, mxfd := 0, 3
	if nf.style == "currency" && nf.notation == "standard" {
		cd := currencyFractionDigits(nf.currency)
		mnfd, mxfd = cd, cd
	} else if nf.style == "percent" {
		mnfd, mxfd = 0, 0
	}
	nf.digits = r.digitOptions(opts, mnfd, mxfd, nf.notation)
	nf.compactDisplay = r.getString(opts, "compactDisplay", []string{"short", "long"}, "short")
	defGrouping := "auto"
	if nf.notation == "compact" {
		defGrouping = "min2"
	}
	nf.useGrouping = r.getGrouping(opts, defGrouping)
	nf.signDisplay = r.getString(opts, "signDisplay", []string{"auto", "never", "always", "exceptZero", "negative"}, "auto")
	nf.compile()
	return nf
}

func isUnicodeType(s string) bool {
	for _, p := range strings.Split(s, "-") {
		if len(p) < 3 || len(p) > 8 || !isAlnum(p) {
			return false
		}
	}
	return true
}

func (r *realm) getGrouping(o *goja.Object, def string) string {
	if o == nil {
		return def
	}
	v := o.Get("useGrouping")
	if v == nil || goja.IsUndefined(v) {
		return def
	}
	if b, ok := v.Export().(bool); ok && b {
		return "always"
	}
	if !v.ToBoolean() {
		return "false"
	}
	s := v.String()
	switch s {
	case "min2", "auto", "always":
		return s
	case "true", "false":
		return def
	}
	r.throwRange("Value " + s + " out of range for Intl.NumberFormat options property useGrouping")
	return ""
}

func (nf *numberFormat) compile() {
	b := nf.b
	nf.sym = symbolsFor(b, nf.nu)
	nf.plural = pluralRulesFor(b.ID, false)
	var pat string
	fmts := func(kind string) string {
		if v, ok := b.Get("n/" + kind + "-numberSystem-" + nf.nu + "/standard"); ok {
			return v
		}
		return b.S("n/" + kind + "-numberSystem-latn/standard")
	}
	switch {
	case nf.style == "percent":
		pat = fmts("percentFormats")
	case nf.style == "currency" && nf.currencyDisplay != "name":
		if nf.currencySign == "accounting" {
			pat = b.S("n/currencyFormats-numberSystem-" + nf.nu + "/accounting")
			if pat == "" {
				pat = b.S("n/currencyFormats-numberSystem-latn/accounting")
			}
		} else {
			pat = fmts("currencyFormats")
		}
	default:
		pat = fmts("decimalFormats")
	}
	nf.pos, nf.neg, nf.hasNeg, nf.grp1, nf.grp2 = parsePattern(pat)
	if nf.notation == "compact" || nf.notation == "scientific" || nf.notation == "engineering" {
		// grouping sizes come from the decimal pattern in these notations
		_, _, _, g1, g2 := parsePattern(fmts("decimalFormats"))
		nf.grp1, nf.grp2 = g1, g2
	}
	mg := 1
	if v := b.S("n/minimumGroupingDigits"); v != "" {
		mg = int(v[0] - '0')
	}
	switch nf.useGrouping {
	case "always":
		mg = 1
	case "min2":
		mg = max(mg, 2)
	}
	nf.minGrp = mg
	if nf.style == "currency" {
		switch nf.currencyDisplay {
		case "code":
			nf.curStr = nf.currency
		case "narrowSymbol":
			nf.curStr = b.S("c/" + nf.currency + "/symbol-alt-narrow")
			if nf.curStr == "" {
				nf.curStr = b.S("c/" + nf.currency + "/symbol")
			}
		default:
			nf.curStr = b.S("c/" + nf.currency + "/symbol")
		}
		if nf.curStr == "" {
			nf.curStr = nf.currency
		}
	}
}

// sign decides which sign to show: -1 minus, 0 none, 1 plus.
func (nf *numberFormat) sign(neg, zero bool) int {
	switch nf.signDisplay {
	case "never":
		return 0
	case "always":
		if neg {
			return -1
		}
		return 1
	case "exceptZero":
		if zero {
			return 0
		}
		if neg {
			return -1
		}
		return 1
	case "negative":
		if neg && !zero {
			return -1
		}
		return 0
	}
	if neg {
		return -1
	}
	return 0
}

// numLayers are the formatted pieces ICU's range formatter looks at:
// inner (compact), middle (pattern affixes with sign), outer (long names).
type formatted struct {
	num            []part // the digits
	inner          []part // compact suffix (after num) and prefix
	innerPre       []part
	pre, suf       []part // middle
	outPre, outSuf []part
	plural         string
}

func (f *formatted) parts() []part {
	var out []part
	out = append(out, f.outPre...)
	out = append(out, f.pre...)
	out = append(out, f.innerPre...)
	out = append(out, f.num...)
	out = append(out, f.inner...)
	out = append(out, f.suf...)
	out = append(out, f.outSuf...)
	return out
}

func (nf *numberFormat) formatParts(x decimal) []part {
	f := nf.format(x)
	return f.parts()
}

func (nf *numberFormat) format(x decimal) *formatted {
	f := &formatted{}
	s := nf.sym
	if nf.style == "percent" {
		x = x.shift(2)
	}
	neg := x.neg
	zero := false
	var exp int // scientific exponent
	var compact string
	var pat *affixPattern
	var cExp int // compact exponent (c operand)
	if x.nan {
		f.num = []part{{typ: "nan", val: s.nan}}
		zero = true // exceptZero shows no sign for NaN; always shows +
		neg = false
	} else if x.inf {
		f.num = []part{{typ: "infinity", val: s.inf}}
	} else {
		ax := x // the sign stays: directed rounding modes need it
		var rv decimal
		var minFrac int
		switch nf.notation {
		case "scientific", "engineering":
			rv, minFrac, exp = nf.scientific(ax)
		case "compact":
			rv, minFrac, compact, cExp = nf.compactRound(ax)
		default:
			rv, minFrac = nf.digits.roundShow(ax)
		}
		if nf.digits.trailingZero == "stripIfInteger" && rv.fracLen() == 0 {
			minFrac = 0
		}
		zero = rv.isZero()
		ip, fp := rv.digitStrings(nf.digits.minInt, minFrac)
		f.plural = nf.plural.selectOp(operandsOf(ip, fp, cExp))
		f.num = nf.digitParts(ip, fp)
		if nf.notation == "scientific" || nf.notation == "engineering" {
			f.num = append(f.num, part{typ: "exponentSeparator", val: s.exp})
			if exp < 0 {
				f.num = appendMarked(f.num, "exponentMinusSign", s.minus)
				exp = -exp
			}
			f.num = append(f.num, part{typ: "exponentInteger", val: s.localizeDigits(itoa(exp))})
		}
		if compact != "" {
			pat = nf.applyCompact(f, compact)
		}
	}
	if f.plural == "" {
		f.plural = "other"
	}
	sg := nf.sign(neg, zero)
	nf.affixes(f, sg, pat)
	nf.longNames(f)
	return f
}

func (nf *numberFormat) digitParts(ip, fp string) []part {
	s := nf.sym
	var out []part
	if nf.useGrouping != "false" && nf.grp1 > 0 && len(ip) >= nf.grp1+nf.minGrp {
		// split from the right: primary then secondary sizes
		var groups []string
		rest := ip
		g := nf.grp1
		for len(rest) > g {
			groups = append(groups, rest[len(rest)-g:])
			rest = rest[:len(rest)-g]
			g = nf.grp2
			if g == 0 {
				g = nf.grp1
			}
		}
		groups = append(groups, rest)
		for i := len(groups) - 1; i >= 0; i-- {
			out = append(out, part{typ: "integer", val: s.localizeDigits(groups[i])})
			if i > 0 {
				out = append(out, part{typ: "group", val: s.group})
			}
		}
	} else {
		out = append(out, part{typ: "integer", val: s.localizeDigits(ip)})
	}
	if fp != "" {
		out = append(out, part{typ: "decimal", val: s.decimal}, part{typ: "fraction", val: s.localizeDigits(fp)})
	}
	return out
}

func (nf *numberFormat) scientific(ax decimal) (decimal, int, int) {
	interval := 1
	if nf.notation == "engineering" {
		interval = 3
	}
	mult := func(mag int) int {
		shown := 1
		if interval > 1 {
			shown = ((mag%interval+interval)%interval + 1)
		}
		return shown - mag - 1
	}
	if ax.isZero() {
		v, mf := nf.digits.roundShow(ax)
		return v, mf, 0
	}
	mag := ax.magnitude()
	m := mult(mag)
	v, mf := nf.digits.roundShow(ax.shift(m))
	if !v.isZero() && v.magnitude() != mag+m {
		m2 := mult(mag + 1)
		if m2 != m {
			v, mf = nf.digits.roundShow(ax.shift(m2))
			m = m2
		}
	}
	return v, mf, -m
}

// compactData returns the compact pattern for magnitude mag and plural
// count (falling back to other), or "" when the number stays as is.
func (nf *numberFormat) compactPattern(mag int, count string) string {
	if mag < 3 {
		return ""
	}
	if mag > 14 {
		mag = 14
	}
	key := "1" + strings.Repeat("0", mag)
	base := nf.compactBase()
	v, ok := nf.b.Get(base + key + "-count-" + count)
	if !ok {
		v = nf.b.S(base + key + "-count-other")
	}
	if v == "0" {
		return ""
	}
	return v
}

func (nf *numberFormat) compactBase() string {
	var kind string
	switch {
	case nf.style == "currency" && nf.currencyDisplay != "name":
		kind = "currencyFormats-numberSystem-%s/short/standard/"
	case nf.compactDisplay == "long":
		kind = "decimalFormats-numberSystem-%s/long/decimalFormat/"
	default:
		kind = "decimalFormats-numberSystem-%s/short/decimalFormat/"
	}
	base := "n/" + strings.Replace(kind, "%s", nf.nu, 1)
	if _, ok := nf.b.Get(base + "1000-count-other"); ok {
		return base
	}
	return "n/" + strings.Replace(kind, "%s", "latn", 1)
}

func zerosIn(p string) int {
	n := 0
	q := false
	for _, r := range p {
		if r == '\'' {
			q = !q
		} else if r == '0' && !q {
			n++
		}
	}
	return n
}

func (nf *numberFormat) multiplier(mag int) int {
	if mag < 3 {
		return 0
	}
	if mag > 14 {
		// the largest pattern's divisor
		p := nf.compactPattern(14, "other")
		if p == "" {
			return 0
		}
		return -(14 - (zerosIn(p) - 1))
	}
	p := nf.compactPattern(mag, "other")
	if p == "" {
		return 0
	}
	return -(mag - (zerosIn(p) - 1))
}

func (nf *numberFormat) compactRound(ax decimal) (decimal, int, string, int) {
	if ax.isZero() {
		v, mf := nf.digits.roundShow(ax)
		return v, mf, "", 0
	}
	mag := ax.magnitude()
	m := nf.multiplier(mag)
	v, mf := nf.digits.roundShow(ax.shift(m))
	if !v.isZero() && v.magnitude() != mag+m {
		m2 := nf.multiplier(mag + 1)
		if m2 != m {
			v, mf = nf.digits.roundShow(ax.shift(m2))
			m = m2
		}
	}
	pmag := 0
	if !v.isZero() {
		pmag = v.magnitude()
	}
	pmag -= m
	if m == 0 {
		return v, mf, "", 0
	}
	ip, fp := v.digitStrings(1, mf)
	count := nf.plural.selectOp(operandsOf(ip, fp, 0))
	p := nf.compactPattern(pmag, count)
	return v, mf, p, -m
}

// applyCompact puts the compact pattern's text around the digits. For
// compact currency the pattern holds the currency too and replaces the
// standard affixes: it is returned then.
func (nf *numberFormat) applyCompact(f *formatted, p string) *affixPattern {
	a, _ := parseSub(p)
	hasCur := false
	for _, t := range append(append([]affixTok{}, a.prefix...), a.suffix...) {
		if t.kind == 'C' {
			hasCur = true
		}
	}
	mark := func(toks []affixTok) []affixTok {
		out := make([]affixTok, 0, len(toks))
		for _, t := range toks {
			if t.kind == 'l' {
				out = append(out, splitCompactLiteral(t.s)...)
				continue
			}
			out = append(out, t)
		}
		return out
	}
	if hasCur {
		return &affixPattern{prefix: mark(a.prefix), suffix: mark(a.suffix)}
	}
	f.innerPre = nf.tokParts(mark(a.prefix), 0)
	f.inner = nf.tokParts(mark(a.suffix), 0)
	return nil
}

// splitCompactLiteral types a compact pattern literal: white space is a
// literal part, the rest the compact part.
func splitCompactLiteral(s string) []affixTok {
	var out []affixTok
	start := 0
	isSp := func(r rune) bool { return unicode.IsSpace(r) || r == 0x200F || r == 0x200E }
	prev := -1
	for i, r := range s {
		k := 0
		if isSp(r) {
			k = 1
		}
		if prev != -1 && k != prev {
			out = append(out, compactTok(s[start:i], prev))
			start = i
		}
		prev = k
	}
	if start < len(s) {
		out = append(out, compactTok(s[start:], prev))
	}
	return out
}

func compactTok(s string, sp int) affixTok {
	if sp == 1 {
		return affixTok{kind: 'l', s: s}
	}
	return affixTok{kind: 'c', s: s}
}

// tokParts renders affix tokens; sg is the sign to put for '-'.
func (nf *numberFormat) tokParts(toks []affixTok, sg int) []part {
	var out []part
	s := nf.sym
	for _, t := range toks {
		switch t.kind {
		case 'l':
			if len(out) > 0 && out[len(out)-1].typ == "literal" {
				out[len(out)-1].val += t.s
				continue
			}
			out = append(out, part{typ: "literal", val: t.s})
		case 'c':
			out = append(out, part{typ: "compact", val: t.s})
		case '-':
			if sg > 0 {
				out = appendMarked(out, "plusSign", s.plus)
			} else {
				out = appendMarked(out, "minusSign", s.minus)
			}
		case '+':
			out = appendMarked(out, "plusSign", s.plus)
		case '%':
			out = appendMarked(out, "percentSign", s.percent)
		case 'm':
			out = append(out, part{typ: "permille", val: s.perMille})
		case 'C':
			out = append(out, part{typ: "currency", val: nf.curStr})
		}
	}
	return out
}

func hasMinus(toks []affixTok) bool {
	for _, t := range toks {
		if t.kind == '-' {
			return true
		}
	}
	return false
}

// affixes sets the pattern's prefix and suffix with the sign, following
// ICU's MutablePatternModifier: an explicit negative subpattern is used for
// negatives (and for a plus when it has a minus to replace); otherwise the
// sign goes in front of the prefix.
func (nf *numberFormat) affixes(f *formatted, sg int, pat *affixPattern) {
	pos, neg, hasNeg := nf.pos, nf.neg, nf.hasNeg
	if pat != nil {
		pos, hasNeg = *pat, false
	}
	if nf.style == "currency" && nf.currencyDisplay == "name" || nf.style == "unit" {
		// the decimal pattern; the name goes outside
	}
	useNeg := hasNeg && (sg < 0 || sg > 0 && hasMinus(neg.prefix) || sg > 0 && hasMinus(neg.suffix))
	a := pos
	if useNeg {
		a = neg
	}
	pre := nf.tokParts(a.prefix, sg)
	suf := nf.tokParts(a.suffix, sg)
	if !useNeg && sg != 0 {
		var sp []part
		if sg > 0 {
			sp = appendMarked(nil, "plusSign", nf.sym.plus)
		} else {
			sp = appendMarked(nil, "minusSign", nf.sym.minus)
		}
		pre = append(sp, pre...)
	}
	if nf.style == "currency" && nf.currencyDisplay != "name" && len(f.num) > 0 && f.num[0].typ == "integer" {
		pre, suf = nf.currencySpacing(a, pre, suf)
	}
	f.pre, f.suf = pre, suf
}

// currencySpacing inserts the locale's space between a currency symbol and
// the digits when the symbol's edge is not a symbol character (UTS 35
// currencySpacing, [[:^S:]&[:^Z:]] next to a digit).
func (nf *numberFormat) currencySpacing(a affixPattern, pre, suf []part) ([]part, []part) {
	if len(pre) > 0 && pre[len(pre)-1].typ == "currency" {
		r, _ := utf8.DecodeLastRuneInString(pre[len(pre)-1].val)
		if !unicode.IsSymbol(r) && !unicode.IsSpace(r) && !unicode.In(r, unicode.Zs) {
			ins := nf.b.S("n/currencyFormats-numberSystem-latn/currencySpacing/beforeCurrency/insertBetween")
			if ins == "" {
				ins = "\u00a0"
			}
			pre = append(pre, part{typ: "literal", val: ins})
		}
	}
	if len(suf) > 0 && suf[0].typ == "currency" {
		r, _ := utf8.DecodeRuneInString(suf[0].val)
		if !unicode.IsSymbol(r) && !unicode.IsSpace(r) && !unicode.In(r, unicode.Zs) {
			ins := nf.b.S("n/currencyFormats-numberSystem-latn/currencySpacing/afterCurrency/insertBetween")
			if ins == "" {
				ins = "\u00a0"
			}
			suf = append([]part{{typ: "literal", val: ins}}, suf...)
		}
	}
	return pre, suf
}

// longNames wraps the number in a unit or currency-name pattern.
func (nf *numberFormat) longNames(f *formatted) {
	var pat string
	var typ, name string
	switch {
	case nf.style == "currency" && nf.currencyDisplay == "name":
		typ = "currency"
		b := nf.b
		name = b.S("c/" + nf.currency + "/displayName-count-" + f.plural)
		if name == "" {
			name = b.S("c/" + nf.currency + "/displayName-count-other")
		}
		if name == "" {
			name = b.S("c/" + nf.currency + "/displayName")
		}
		if name == "" {
			name = nf.currency
		}
		pat = b.S("n/currencyFormats-numberSystem-" + nf.nu + "/unitPattern-count-" + f.plural)
		if pat == "" {
			pat = b.S("n/currencyFormats-numberSystem-latn/unitPattern-count-" + f.plural)
		}
		if pat == "" {
			pat = b.S("n/currencyFormats-numberSystem-latn/unitPattern-count-other")
		}
		pat = strings.Replace(pat, "{1}", "\x00", 1)
	case nf.style == "unit":
		typ = "unit"
		pat = nf.unitPattern(f.plural)
	default:
		return
	}
	i := strings.Index(pat, "{0}")
	if i < 0 {
		return
	}
	toParts := func(s string) []part {
		var out []part
		for s != "" {
			j := strings.IndexByte(s, 0)
			if j < 0 {
				out = append(out, splitUnitText(s, typ)...)
				break
			}
			if j > 0 {
				out = append(out, splitUnitText(s[:j], typ)...)
			}
			out = append(out, part{typ: typ, val: name})
			s = s[j+1:]
		}
		return out
	}
	f.outPre = toParts(pat[:i])
	f.outSuf = toParts(pat[i+3:])
}

// splitUnitText splits "  km/h" into a literal (the spaces) and the unit.
func splitUnitText(s, typ string) []part {
	if typ == "currency" {
		return []part{{typ: "literal", val: s}}
	}
	var out []part
	t := strings.TrimLeftFunc(s, unicode.IsSpace)
	if lead := s[:len(s)-len(t)]; lead != "" {
		out = append(out, part{typ: "literal", val: lead})
	}
	u := strings.TrimRightFunc(t, unicode.IsSpace)
	if u != "" {
		out = append(out, part{typ: typ, val: u})
	}
	if trail := t[len(u):]; trail != "" {
		out = append(out, part{typ: "literal", val: trail})
	}
	return out
}

var unitWidth = map[string]string{"long": "long", "short": "short", "narrow": "narrow"}

func (nf *numberFormat) unitPattern(count string) string {
	w := unitWidth[nf.unitDisplay]
	b := nf.b
	get := func(id, count string) (string, bool) {
		base := "u/" + w + "/" + id + "/unitPattern-count-"
		if v, ok := b.Get(base + count); ok {
			return v, true
		}
		v, ok := b.Get(base + "other")
		return v, ok
	}
	full := func(u string) string {
		if id, ok := simpleUnits[u]; ok {
			return id
		}
		for _, c := range []string{"speed-", "consumption-"} {
			if _, ok := b.Get("u/" + w + "/" + c + u + "/unitPattern-count-other"); ok {
				return c + u
			}
		}
		return ""
	}
	if id := full(nf.unit); id != "" {
		p, _ := get(id, count)
		return p
	}
	i := strings.Index(nf.unit, "-per-")
	num, den := full(nf.unit[:i]), full(nf.unit[i+5:])
	np, _ := get(num, count)
	if per, ok := b.Get("u/" + w + "/" + den + "/perUnitPattern"); ok {
		return strings.Replace(per, "{0}", np, 1)
	}
	dp, _ := get(den, "one")
	dp = strings.TrimSpace(strings.Replace(dp, "{0}", "", 1))
	comp := b.S("u/" + w + "/per/compoundUnitPattern")
	comp = strings.Replace(comp, "{1}", dp, 1)
	return strings.Replace(comp, "{0}", np, 1)
}

func (nf *numberFormat) resolvedOptions(r *realm) goja.Value {
	o := r.rt.NewObject()
	r.cdp(o, "locale", nf.locale)
	r.cdp(o, "numberingSystem", nf.nu)
	r.cdp(o, "style", nf.style)
	if nf.style == "currency" {
		r.cdp(o, "currency", nf.currency)
		r.cdp(o, "currencyDisplay", nf.currencyDisplay)
		r.cdp(o, "currencySign", nf.currencySign)
	}
	if nf.style == "unit" {
		r.cdp(o, "unit", nf.unit)
		r.cdp(o, "unitDisplay", nf.unitDisplay)
	}
	nf.digits.resolvedInto(r, o, true)
	if nf.useGrouping == "false" {
		r.cdp(o, "useGrouping", false)
	} else {
		r.cdp(o, "useGrouping", nf.useGrouping)
	}
	r.cdp(o, "notation", nf.notation)
	if nf.notation == "compact" {
		r.cdp(o, "compactDisplay", nf.compactDisplay)
	}
	r.cdp(o, "signDisplay", nf.signDisplay)
	r.cdp(o, "roundingMode", nf.digits.mode)
	r.cdp(o, "roundingIncrement", nf.digits.increment)
	r.cdp(o, "trailingZeroDisplay", nf.digits.trailingZero)
	r.cdp(o, "roundingPriority", nf.digits.priority)
	return o
}

// formatRange follows ICU's NumberRangeFormatter with collapse "auto" and
// identity fallback "approximately".
func (nf *numberFormat) formatRange(x, y decimal) []part {
	fx, fy := nf.format(x), nf.format(y)
	px, py := fx.parts(), fy.parts()
	if joinParts(px) == joinParts(py) {
		return nf.approximately(x)
	}
	collapseOuter := partsEqual(fx.outPre, fy.outPre) && partsEqual(fx.outSuf, fy.outSuf)
	collapseMiddle := collapseOuter && partsEqual(fx.pre, fy.pre) && partsEqual(fx.suf, fy.suf)
	if collapseMiddle && runeLen(fx.pre)+runeLen(fx.suf) <= 1 {
		collapseMiddle = false
	}
	// When the middle (sign, currency, percent) does not collapse, neither
	// does the outer layer in ICU's "auto" heuristic for units.
	repeat := (!collapseMiddle && runeLen(fx.pre)+runeLen(fx.suf) > 0) ||
		(!collapseOuter && runeLen(fx.outPre)+runeLen(fx.outSuf) > 0) ||
		runeLen(fx.inner)+runeLen(fx.innerPre) > 0
	sep := nf.b.S("n/miscPatterns-numberSystem-latn/range")
	if v, ok := nf.b.Get("n/miscPatterns-numberSystem-" + nf.nu + "/range"); ok {
		sep = v
	}
	i0, i1 := strings.Index(sep, "{0}"), strings.Index(sep, "{1}")
	mid := sep[i0+3 : i1]
	if repeat {
		if r, _ := utf8.DecodeRuneInString(mid); !unicode.IsSpace(r) {
			mid = " " + mid
		}
		if r, _ := utf8.DecodeLastRuneInString(mid); !unicode.IsSpace(r) {
			mid = mid + " "
		}
	}
	mark := func(ps []part, src string) []part {
		out := make([]part, len(ps))
		for i, p := range ps {
			p.src = src
			out[i] = p
		}
		return out
	}
	var out []part
	if collapseOuter {
		out = append(out, mark(fx.outPre, "shared")...)
	}
	if collapseMiddle {
		out = append(out, mark(fx.pre, "shared")...)
	}
	first := func(f *formatted) []part {
		var ps []part
		if !collapseOuter {
			ps = append(ps, f.outPre...)
		}
		if !collapseMiddle {
			ps = append(ps, f.pre...)
		}
		ps = append(ps, f.innerPre...)
		ps = append(ps, f.num...)
		ps = append(ps, f.inner...)
		if !collapseMiddle {
			ps = append(ps, f.suf...)
		}
		if !collapseOuter {
			ps = append(ps, f.outSuf...)
		}
		return ps
	}
	out = append(out, mark(first(fx), "startRange")...)
	if sep[:i0] != "" {
		out = append([]part{{typ: "literal", val: sep[:i0], src: "shared"}}, out...)
	}
	out = append(out, part{typ: "literal", val: mid, src: "shared"})
	out = append(out, mark(first(fy), "endRange")...)
	if collapseMiddle {
		out = append(out, mark(fx.suf, "shared")...)
	}
	if collapseOuter {
		out = append(out, mark(fx.outSuf, "shared")...)
	}
	return out
}

func (nf *numberFormat) approximately(x decimal) []part {
	f := nf.format(x)
	ps := f.parts()
	approx := part{typ: "approximatelySign", val: nf.sym.approx, src: "shared"}
	// The sign goes where a sign would: before the first sign or affix
	// element, else before the number.
	out := make([]part, 0, len(ps)+1)
	done := false
	for _, p := range ps {
		if !done && p.typ != "literal" {
			out = append(out, approx)
			done = true
		}
		p.src = "shared"
		out = append(out, p)
	}
	return out
}

func partsEqual(a, b []part) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i].typ != b[i].typ || a[i].val != b[i].val {
			return false
		}
	}
	return true
}

func runeLen(ps []part) int {
	n := 0
	for _, p := range ps {
		n += utf8.RuneCountInString(p.val)
	}
	return n
}

func isBidiMark(r rune) bool { return r == 0x200E || r == 0x200F || r == 0x061C }

// appendMarked appends a sign part, with the bidi marks around it as
// literal parts (as ICU reports them).
func appendMarked(out []part, typ, v string) []part {
	core := strings.TrimFunc(v, isBidiMark)
	if core == v || core == "" {
		return append(out, part{typ: typ, val: v})
	}
	lead := v[:strings.Index(v, core)]
	trail := v[len(lead)+len(core):]
	if lead != "" {
		if len(out) > 0 && out[len(out)-1].typ == "literal" {
			out[len(out)-1].val += lead
		} else {
			out = append(out, part{typ: "literal", val: lead})
		}
	}
	out = append(out, part{typ: typ, val: core})
	if trail != "" {
		out = append(out, part{typ: "literal", val: trail})
	}
	return out
}
