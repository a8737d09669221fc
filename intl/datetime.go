package intl

import (
	"math"
	"strings"
	"sync"
	"time"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

type dateTimeFormat struct {
	locale, calendar, nu string
	tag                  langTag
	b                    *cldr.Bundle
	cb                   calData // b seen through the calendar
	zone                 *zone
	hc                   string // resolved hour cycle, "" without an hour
	dateStyle, timeStyle string
	pattern              string
	skeleton             string // the requested skeleton (for ranges)
	sym                  *numSymbols
	g                    *dtpg
	bound                goja.Value
	lang                 string
	hasMin, hasSec       bool // of the pattern being formatted (noon rules)
	askedDayPeriod       bool
}

var dtComponents = []struct {
	name   string
	values []string
}{
	{"weekday", []string{"narrow", "short", "long"}},
	{"era", []string{"narrow", "short", "long"}},
	{"year", []string{"2-digit", "numeric"}},
	{"month", []string{"2-digit", "numeric", "narrow", "short", "long"}},
	{"day", []string{"2-digit", "numeric"}},
	{"dayPeriod", []string{"narrow", "short", "long"}},
	{"hour", []string{"2-digit", "numeric"}},
	{"minute", []string{"2-digit", "numeric"}},
	{"second", []string{"2-digit", "numeric"}},
	{"fractionalSecondDigits", nil},
	{"timeZoneName", []string{"short", "long", "shortOffset", "longOffset", "shortGeneric", "longGeneric"}},
}

var calendarsSupported = map[string]bool{"gregory": true, "buddhist": true}

// buddhistEras are the Buddhist era names (ICU has them for th; others
// use root's "BE").
var buddhistEras = map[string][3]string{ // abbreviated, wide, narrow
	"th": {"พ.ศ.", "พุทธศักราช", "พ.ศ."},
	"":   {"BE", "BE", "BE"},
}

// defaultCalendar is the first calendar of the region's CLDR preference
// that bext implements (TH prefers buddhist).
func defaultCalendar(t langTag) string {
	for _, c := range regionCalendars(t.maximize().region) {
		if calendarsSupported[c] {
			return c
		}
	}
	return "gregory"
}

func (r *realm) installDateTimeFormat() {
	_, proto := r.class("DateTimeFormat", 0, false, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newDateTimeFormat(arg(args, 0), arg(args, 1), "any", "date"), proto)
	})
	this := func(c goja.FunctionCall, m string) *dateTimeFormat {
		p, ok := unwrap[*dateTimeFormat](c.This)
		if !ok {
			r.throwType("Method Intl.DateTimeFormat.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	r.getter(proto, "format", func(c goja.FunctionCall) goja.Value {
		df := this(c, "format")
		if df.bound == nil {
			fn := r.rt.ToValue(func(c goja.FunctionCall) goja.Value {
				return r.rt.ToValue(formatString(df.formatParts(r.dateArg(c.Argument(0)))))
			}).(*goja.Object)
			fn.DefineDataProperty("name", r.rt.ToValue(""), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			fn.DefineDataProperty("length", r.rt.ToValue(1), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
			df.bound = fn
		}
		return df.bound
	})
	r.method(proto, "formatToParts", 1, func(c goja.FunctionCall) goja.Value {
		df := this(c, "formatToParts")
		return r.partsArray(df.formatParts(r.dateArg(c.Argument(0))), false)
	})
	rangeArgs := func(c goja.FunctionCall) (float64, float64) {
		if goja.IsUndefined(c.Argument(0)) || goja.IsUndefined(c.Argument(1)) {
			r.throwType("startDate or endDate is undefined")
		}
		return r.dateArg(c.Argument(0)), r.dateArg(c.Argument(1))
	}
	r.method(proto, "formatRange", 2, func(c goja.FunctionCall) goja.Value {
		df := this(c, "formatRange")
		x, y := rangeArgs(c)
		ps := df.formatRange(x, y)
		if len(ps) > 0 && ps[0].src == "shared" && allShared(ps) {
			return r.rt.ToValue(formatString(ps))
		}
		return r.rt.ToValue(joinParts(ps))
	})
	r.method(proto, "formatRangeToParts", 2, func(c goja.FunctionCall) goja.Value {
		df := this(c, "formatRangeToParts")
		x, y := rangeArgs(c)
		return r.partsArray(df.formatRange(x, y), true)
	})
	r.method(proto, "resolvedOptions", 0, func(c goja.FunctionCall) goja.Value {
		return this(c, "resolvedOptions").resolvedOptions(r)
	})
}

// dateArg is the x of FormatDateTime: undefined → now, else ToNumber and
// TimeClip; NaN is a RangeError.
func (r *realm) dateArg(v goja.Value) float64 {
	var x float64
	if v == nil || goja.IsUndefined(v) {
		x = float64(time.Now().UnixMilli())
	} else {
		if o, ok := v.(*goja.Object); ok {
			if t, ok := o.Export().(time.Time); ok {
				_ = t
			}
			v = toPrimitiveNumber(r.rt, o)
		}
		x = v.ToFloat()
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || math.Abs(x) > 8.64e15 {
		r.throwRange("Invalid time value")
	}
	return math.Trunc(x) + 0
}

func (r *realm) newDateTimeFormat(locales, options goja.Value, required, defaults string) *dateTimeFormat {
	req := r.canonicalizeLocaleList(locales)
	opts := r.coerceOptions(options)
	r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
	cal, calSet := r.getStringSet(opts, "calendar")
	if calSet && !isUnicodeType(cal) {
		r.throwRange("Invalid calendar : " + cal)
	}
	nuOpt, nuSet := r.getStringSet(opts, "numberingSystem")
	if nuSet && !isUnicodeType(nuOpt) {
		r.throwRange("Invalid numberingSystem : " + nuOpt)
	}
	hour12 := r.getBool(opts, "hour12")
	hcOpt := r.getString(opts, "hourCycle", []string{"h11", "h12", "h23", "h24"}, "")
	if hour12 != -1 {
		hcOpt = ""
	}
	res := r.resolveLocale(req, []string{"ca", "hc", "nu"}, func(k, v, base string) bool {
		switch k {
		case "ca":
			return calendarsSupported[v]
		case "hc":
			return v == "h11" || v == "h12" || v == "h23" || v == "h24"
		case "nu":
			_, ok := numberingSystems()[v]
			return ok
		}
		return false
	})
	df := &dateTimeFormat{calendar: defaultCalendar(res.tag)}
	if v, ok := res.kw["ca"]; ok {
		df.calendar = v
	}
	if calSet && calendarsSupported[cal] {
		if res.kw["ca"] != cal {
			res.dropKey("ca")
		}
		df.calendar = cal
	}
	df.b = dataLocale(res.base)
	df.tag = res.tag
	t, _ := parseTag(res.base)
	df.lang = t.lang
	df.nu = df.b.S("n/defaultNumberingSystem")
	if v, ok := res.kw["nu"]; ok {
		df.nu = v
	}
	if nuOpt != "" {
		if _, ok := numberingSystems()[nuOpt]; ok {
			if res.kw["nu"] != nuOpt {
				res.dropKey("nu")
			}
			df.nu = nuOpt
		}
	}
	if df.nu == "" {
		df.nu = "latn"
	}
	hcKey, hasHcKey := res.kw["hc"]
	if hcOpt != "" || hour12 != -1 {
		if hasHcKey && hcKey != hcOpt {
			res.dropKey("hc")
		}
	}
	if hcOpt == "" && hour12 == -1 && hasHcKey {
		hcOpt = hcKey
	}
	df.locale = res.locale

	tzv := goja.Undefined()
	if opts != nil {
		tzv = opts.Get("timeZone")
		if tzv == nil {
			tzv = goja.Undefined()
		}
	}
	if goja.IsUndefined(tzv) {
		df.zone = localZone(r.defTZ)
	} else {
		name := tzv.String()
		z, ok := resolveZone(name)
		if !ok {
			r.throwRange("Invalid time zone specified: " + name)
		}
		df.zone = z
	}

	// components
	comp := map[string]string{}
	fsd := 0
	for _, c := range dtComponents {
		if c.name == "fractionalSecondDigits" {
			fsd = r.getNumber(opts, c.name, 1, 3, 0)
			continue
		}
		if v := r.getString(opts, c.name, c.values, ""); v != "" {
			comp[c.name] = v
		}
	}
	r.getString(opts, "formatMatcher", []string{"basic", "best fit"}, "best fit")
	df.dateStyle = r.getString(opts, "dateStyle", []string{"full", "long", "medium", "short"}, "")
	df.timeStyle = r.getString(opts, "timeStyle", []string{"full", "long", "medium", "short"}, "")
	if df.dateStyle != "" || df.timeStyle != "" {
		if len(comp) > 0 || fsd != 0 {
			for _, c := range dtComponents {
				if _, ok := comp[c.name]; ok || c.name == "fractionalSecondDigits" && fsd != 0 {
					r.throwType("Can't set option " + c.name + " when " + map[bool]string{true: "dateStyle", false: "timeStyle"}[df.dateStyle != ""] + " is used")
				}
			}
		}
		if required == "date" && df.timeStyle != "" {
			r.throwType("Invalid option : timeStyle")
		}
		if required == "time" && df.dateStyle != "" {
			r.throwType("Invalid option : dateStyle")
		}
	} else {
		need := true
		if required == "date" || required == "any" {
			for _, k := range []string{"weekday", "year", "month", "day"} {
				if comp[k] != "" {
					need = false
				}
			}
		}
		if required == "time" || required == "any" {
			for _, k := range []string{"dayPeriod", "hour", "minute", "second"} {
				if comp[k] != "" {
					need = false
				}
			}
			if fsd != 0 {
				need = false
			}
		}
		if need && (defaults == "date" || defaults == "all") {
			comp["year"], comp["month"], comp["day"] = "numeric", "numeric", "numeric"
		}
		if need && (defaults == "time" || defaults == "all") {
			comp["hour"], comp["minute"], comp["second"] = "numeric", "numeric", "numeric"
		}
	}
	df.sym = symbolsFor(df.b, df.nu)
	df.cb = calData{df.b, df.calendar == "buddhist"}
	df.g = loadDTPG(df.cb, df.tag, df.sym.decimal)

	// the hour cycle asked for (V8: hour12 picks between the pair of the
	// locale's default cycle)
	hcDefault := map[rune]string{'h': "h12", 'H': "h23", 'K': "h11", 'k': "h24"}[df.g.hourChar]
	hc := hcOpt
	if hour12 == 1 {
		if hcDefault == "h11" || hcDefault == "h23" {
			hc = "h11"
		} else {
			hc = "h12"
		}
	} else if hour12 == 0 {
		if hcDefault == "h11" || hcDefault == "h23" {
			hc = "h23"
		} else {
			hc = "h24"
		}
	}
	if df.dateStyle != "" || df.timeStyle != "" {
		df.pattern = df.stylePattern(hc)
	} else {
		_, df.askedDayPeriod = comp["dayPeriod"]
		skel := buildSkeleton(comp, fsd, hc)
		df.skeleton = skel
		p := df.g.bestPattern(skel)
		if hc != "" {
			p = replaceHourCycle(p, hc)
		}
		df.pattern = p
	}
	df.hc = ""
	if ch := patternHourChar(df.pattern); ch != 0 {
		df.hc = map[rune]string{'h': "h12", 'H': "h23", 'K': "h11", 'k': "h24"}[ch]
	}
	return df
}

var hcChars = map[string]string{"h11": "K", "h12": "h", "h23": "H", "h24": "k"}

func buildSkeleton(comp map[string]string, fsd int, hc string) string {
	var b strings.Builder
	w := func(k string, m map[string]string) {
		if v, ok := comp[k]; ok {
			b.WriteString(m[v])
		}
	}
	w("weekday", map[string]string{"narrow": "EEEEE", "short": "EEE", "long": "EEEE"})
	w("era", map[string]string{"narrow": "GGGGG", "short": "G", "long": "GGGG"})
	w("year", map[string]string{"2-digit": "yy", "numeric": "y"})
	w("month", map[string]string{"2-digit": "MM", "numeric": "M", "narrow": "MMMMM", "short": "MMM", "long": "MMMM"})
	w("day", map[string]string{"2-digit": "dd", "numeric": "d"})
	w("dayPeriod", map[string]string{"narrow": "BBBBB", "short": "B", "long": "BBBB"})
	if v, ok := comp["hour"]; ok {
		c := "j"
		if hc != "" {
			c = hcChars[hc]
		}
		if v == "2-digit" {
			c += c
		}
		b.WriteString(c)
	}
	w("minute", map[string]string{"2-digit": "mm", "numeric": "m"})
	w("second", map[string]string{"2-digit": "ss", "numeric": "s"})
	if fsd > 0 {
		b.WriteString(strings.Repeat("S", fsd))
	}
	w("timeZoneName", map[string]string{"short": "z", "long": "zzzz", "shortOffset": "O", "longOffset": "OOOO", "shortGeneric": "v", "longGeneric": "vvvv"})
	return b.String()
}

// replaceHourCycle is V8's ReplaceHourCycleInPattern.
func replaceHourCycle(p, hc string) string {
	repl := []rune(hcChars[hc])[0]
	var b strings.Builder
	q := false
	var last rune
	for _, c := range p {
		switch c {
		case '\'':
			q = !q
			b.WriteRune(c)
		case 'H', 'h', 'K', 'k':
			if !q {
				if last == 'd' {
					b.WriteByte(' ')
				}
				b.WriteRune(repl)
			} else {
				b.WriteRune(c)
			}
		default:
			b.WriteRune(c)
		}
		last = c
	}
	return b.String()
}

func patternHourChar(p string) rune {
	q := false
	for _, c := range p {
		if c == '\'' {
			q = !q
		} else if !q && (c == 'h' || c == 'H' || c == 'k' || c == 'K') {
			return c
		}
	}
	return 0
}

// stylePattern is the pattern of dateStyle/timeStyle; a requested hour
// cycle other than the pattern's regenerates the time part from its
// skeleton, as V8 does.
func (df *dateTimeFormat) stylePattern(hc string) string {
	b := df.cb
	var dp, tp string
	if df.dateStyle != "" {
		dp = b.S("g/dateFormats/" + df.dateStyle)
	}
	if df.timeStyle != "" {
		tp = b.S("g/timeFormats/" + df.timeStyle)
		if hc != "" {
			if ch := patternHourChar(tp); ch != 0 && string(ch) != hcChars[hc] {
				skel := patternSkeleton(tp)
				skel = strings.Map(func(r rune) rune {
					switch r {
					case 'h', 'H', 'k', 'K':
						return []rune(hcChars[hc])[0]
					case 'a':
						return -1
					}
					return r
				}, skel)
				tp = replaceHourCycle(df.g.bestPattern(skel), hc)
			}
		}
	}
	switch {
	case dp == "":
		return tp
	case tp == "":
		return dp
	}
	glue, ok := b.Get("g/dateTimeFormats-atTime/standard/" + df.dateStyle)
	if !ok {
		glue = b.S("g/dateTimeFormats/" + df.dateStyle)
	}
	return strings.Replace(strings.Replace(glue, "{1}", dp, 1), "{0}", tp, 1)
}

// patternSkeleton keeps the field letters of a pattern.
func patternSkeleton(p string) string {
	var b strings.Builder
	q := false
	for _, c := range p {
		if c == '\'' {
			q = !q
			continue
		}
		if !q && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteRune(c)
		}
	}
	return b.String()
}

func (df *dateTimeFormat) resolvedOptions(r *realm) goja.Value {
	o := r.rt.NewObject()
	r.cdp(o, "locale", df.locale)
	r.cdp(o, "calendar", df.calendar)
	r.cdp(o, "numberingSystem", df.nu)
	r.cdp(o, "timeZone", df.zone.name)
	if df.hc != "" {
		r.cdp(o, "hourCycle", df.hc)
		r.cdp(o, "hour12", df.hc == "h11" || df.hc == "h12")
	}
	if df.dateStyle == "" && df.timeStyle == "" {
		f := patternFields(df.pattern)
		for _, c := range dtComponents {
			if v, ok := f[c.name]; ok && (c.name != "dayPeriod" || df.askedDayPeriod) {
				if c.name == "fractionalSecondDigits" {
					r.cdp(o, c.name, len(v))
				} else {
					r.cdp(o, c.name, v)
				}
			}
		}
	}
	if df.dateStyle != "" {
		r.cdp(o, "dateStyle", df.dateStyle)
	}
	if df.timeStyle != "" {
		r.cdp(o, "timeStyle", df.timeStyle)
	}
	return o
}

// patternFields reads the component widths a pattern shows (V8's
// resolvedOptions does the same).
func patternFields(p string) map[string]string {
	out := map[string]string{}
	forFields(p, func(c rune, n int) {
		switch c {
		case 'E', 'c':
			out["weekday"] = pick(n, map[int]string{5: "narrow", 4: "long"}, "short")
		case 'G':
			out["era"] = pick(n, map[int]string{5: "narrow", 4: "long"}, "short")
		case 'y':
			out["year"] = pick(n, map[int]string{2: "2-digit"}, "numeric")
		case 'M', 'L':
			out["month"] = pick(n, map[int]string{1: "numeric", 2: "2-digit", 3: "short", 4: "long", 5: "narrow"}, "numeric")
		case 'd':
			out["day"] = pick(n, map[int]string{2: "2-digit"}, "numeric")
		case 'B':
			out["dayPeriod"] = pick(n, map[int]string{5: "narrow", 4: "long"}, "short")
		case 'h', 'H', 'k', 'K':
			out["hour"] = pick(n, map[int]string{2: "2-digit"}, "numeric")
		case 'm':
			out["minute"] = pick(n, map[int]string{2: "2-digit"}, "numeric")
		case 's':
			out["second"] = pick(n, map[int]string{2: "2-digit"}, "numeric")
		case 'S':
			out["fractionalSecondDigits"] = strings.Repeat("S", n)
		case 'z':
			out["timeZoneName"] = pick(n, map[int]string{4: "long"}, "short")
		case 'O':
			out["timeZoneName"] = pick(n, map[int]string{4: "longOffset"}, "shortOffset")
		case 'v':
			out["timeZoneName"] = pick(n, map[int]string{4: "longGeneric"}, "shortGeneric")
		}
	})
	return out
}

func pick(n int, m map[int]string, def string) string {
	if v, ok := m[n]; ok {
		return v
	}
	return def
}

// forFields calls f for every field of a pattern (quoted text skipped).
func forFields(p string, f func(c rune, n int)) {
	rs := []rune(p)
	q := false
	for i := 0; i < len(rs); {
		c := rs[i]
		if c == '\'' {
			q = !q
			i++
			continue
		}
		if q || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		f(c, j-i)
		i = j
	}
}

// ---- formatting ----

func (df *dateTimeFormat) formatParts(x float64) []part {
	t := time.UnixMilli(int64(x)).In(df.zone.loc)
	return df.formatPattern(df.pattern, t)
}

func (df *dateTimeFormat) num(v, minDigits int) string {
	s := itoa(v)
	for len(s) < minDigits {
		s = "0" + s
	}
	return df.sym.localizeDigits(s)
}

// dtToken is one piece of a compiled pattern: a literal or a field.
type dtToken struct {
	lit string
	c   rune
	n   int
}

type compiledPattern struct {
	toks           []dtToken
	hasMin, hasSec bool
}

var patternCache sync.Map // pattern → *compiledPattern (patterns are locale-free)

func compilePattern(p string) *compiledPattern {
	if v, ok := patternCache.Load(p); ok {
		return v.(*compiledPattern)
	}
	cp := &compiledPattern{}
	sk := patternSkeleton(p)
	cp.hasMin, cp.hasSec = strings.ContainsRune(sk, 'm'), strings.ContainsRune(sk, 's')
	rs := []rune(p)
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			cp.toks = append(cp.toks, dtToken{lit: lit.String()})
			lit.Reset()
		}
	}
	for i := 0; i < len(rs); {
		c := rs[i]
		if c == '\'' {
			if i+1 < len(rs) && rs[i+1] == '\'' {
				lit.WriteRune('\'')
				i += 2
				continue
			}
			j := i + 1
			for j < len(rs) {
				if rs[j] == '\'' {
					if j+1 < len(rs) && rs[j+1] == '\'' {
						lit.WriteRune('\'')
						j += 2
						continue
					}
					break
				}
				lit.WriteRune(rs[j])
				j++
			}
			i = j + 1
			continue
		}
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			lit.WriteRune(c)
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		flush()
		cp.toks = append(cp.toks, dtToken{c: c, n: j - i})
		i = j
	}
	flush()
	patternCache.Store(p, cp)
	return cp
}

func (df *dateTimeFormat) formatPattern(p string, t time.Time) []part {
	cp := compilePattern(p)
	df.hasMin, df.hasSec = cp.hasMin, cp.hasSec
	out := make([]part, 0, len(cp.toks))
	lit := func(s string) {
		if s == "" {
			return
		}
		if len(out) > 0 && out[len(out)-1].typ == "literal" {
			out[len(out)-1].val += s
			return
		}
		out = append(out, part{typ: "literal", val: s})
	}
	for _, tk := range cp.toks {
		if tk.c == 0 {
			lit(tk.lit)
			continue
		}
		typ, val := df.field(tk.c, tk.n, t)
		if typ == "" {
			continue
		}
		if typ == "literal" {
			lit(val)
			continue
		}
		out = append(out, part{typ: typ, val: val})
	}
	return out
}

// formatString is format's result: V8 (Node 20) prints U+202F NARROW
// NO-BREAK SPACE as a plain space there (formatToParts keeps it).
func formatString(ps []part) string {
	s := joinParts(ps)
	if strings.ContainsRune(s, '\u202f') {
		s = strings.ReplaceAll(s, "\u202f", " ")
	}
	return s
}

func (df *dateTimeFormat) field(c rune, n int, t time.Time) (string, string) {
	b := df.cb
	switch c {
	case 'G':
		if df.calendar == "buddhist" {
			e, ok := buddhistEras[df.lang]
			if !ok {
				e = buddhistEras[""]
			}
			return "era", e[map[int]int{4: 1, 5: 2}[n]]
		}
		era := "1"
		if t.Year() <= 0 {
			era = "0"
		}
		k := map[bool]string{true: "eraNames", false: "eraAbbr"}[n == 4]
		if n == 5 {
			k = "eraNarrow"
		}
		return "era", b.S("g/eras/" + k + "/" + era)
	case 'y', 'Y', 'u':
		y := t.Year()
		if df.calendar == "buddhist" {
			y += 543
		} else if c == 'y' && y <= 0 {
			y = 1 - y
		}
		if n == 2 {
			return "year", df.num(((y%100)+100)%100, 2)
		}
		return "year", df.num(y, n)
	case 'M', 'L':
		m := int(t.Month())
		ctx := "format"
		if c == 'L' {
			ctx = "stand-alone"
		}
		switch {
		case n <= 2:
			return "month", df.num(m, n)
		case n == 3:
			return "month", b.S("g/months/" + ctx + "/abbreviated/" + itoa(m))
		case n == 4:
			return "month", b.S("g/months/" + ctx + "/wide/" + itoa(m))
		default:
			return "month", b.S("g/months/" + ctx + "/narrow/" + itoa(m))
		}
	case 'd':
		return "day", df.num(t.Day(), n)
	case 'E', 'c', 'e':
		days := []string{"sun", "mon", "tue", "wed", "thu", "fri", "sat"}
		d := days[t.Weekday()]
		ctx := "format"
		if c == 'c' {
			ctx = "stand-alone"
		}
		if (c == 'c' || c == 'e') && n <= 2 {
			return "weekday", df.num(int(t.Weekday())+1, n)
		}
		w := "abbreviated"
		switch n {
		case 4:
			w = "wide"
		case 5:
			w = "narrow"
		case 6:
			w = "short"
		}
		return "weekday", b.S("g/days/" + ctx + "/" + w + "/" + d)
	case 'a':
		w := "abbreviated"
		if n == 4 {
			w = "wide"
		} else if n == 5 {
			w = "narrow"
		}
		k := "am"
		if t.Hour() >= 12 {
			k = "pm"
		}
		if df.lang == "ko" && w == "abbreviated" {
			// ICU 78's Korean data abbreviates these as AM/PM
			return "dayPeriod", strings.ToUpper(k)
		}
		return "dayPeriod", b.S("g/dayPeriods/format/" + w + "/" + k)
	case 'b', 'B':
		return "dayPeriod", df.flexibleDayPeriod(c, n, t)
	case 'h':
		h := t.Hour() % 12
		if h == 0 {
			h = 12
		}
		return "hour", df.num(h, n)
	case 'H':
		return "hour", df.num(t.Hour(), n)
	case 'K':
		return "hour", df.num(t.Hour()%12, n)
	case 'k':
		h := t.Hour()
		if h == 0 {
			h = 24
		}
		return "hour", df.num(h, n)
	case 'm':
		return "minute", df.num(t.Minute(), n)
	case 's':
		return "second", df.num(t.Second(), n)
	case 'S':
		ms := t.Nanosecond() / 1e6
		s := itoa(ms + 1000)[1:]
		if n < 3 {
			s = s[:n]
		}
		return "fractionalSecond", df.sym.localizeDigits(s)
	case 'z', 'O', 'v', 'V', 'Z', 'X', 'x':
		return "timeZoneName", df.zoneName(c, n, t)
	case 'Q', 'q':
		q := (int(t.Month())-1)/3 + 1
		return "quarter", df.num(q, n)
	}
	return "literal", ""
}

type dayPeriodRule struct {
	name     string
	at       int // minutes, -1 if a range
	from, to int
}

var dayPeriodRules = sync.OnceValue(func() map[string][]dayPeriodRule {
	var d struct {
		DayPeriodRuleSet map[string]map[string]map[string]string `json:"dayPeriodRuleSet"`
	}
	cldr.Supplemental("dayPeriods", &d)
	out := map[string][]dayPeriodRule{}
	mins := func(s string) int {
		if len(s) < 5 {
			return 0
		}
		return (int(s[0]-'0')*10+int(s[1]-'0'))*60 + int(s[3]-'0')*10 + int(s[4]-'0')
	}
	for lang, rules := range d.DayPeriodRuleSet {
		var rs []dayPeriodRule
		for name, r := range rules {
			if at, ok := r["_at"]; ok {
				rs = append(rs, dayPeriodRule{name, mins(at), 0, 0})
			} else {
				rs = append(rs, dayPeriodRule{name, -1, mins(r["_from"]), mins(r["_before"])})
			}
		}
		out[lang] = rs
	}
	return out
})

func (df *dateTimeFormat) flexibleDayPeriod(c rune, n int, t time.Time) string {
	w := "abbreviated"
	if n == 4 {
		w = "wide"
	} else if n == 5 {
		w = "narrow"
	}
	m := t.Hour()*60 + t.Minute()
	rm := m
	rules := dayPeriodRules()[df.lang]
	name := ""
	exact := (!df.hasMin || t.Minute() == 0) && (!df.hasSec || t.Second() == 0)
	m = t.Hour() * 60
	if df.hasMin {
		m += t.Minute()
	}
	for _, r := range rules {
		if r.at >= 0 && r.at == m && exact && (r.name == "noon" || r.name == "midnight") {
			if c == 'b' || r.name == "noon" {
				if v, ok := df.cb.Get("g/dayPeriods/format/" + w + "/" + r.name); ok {
					return v
				}
			}
		}
	}
	for _, r := range rules {
		if r.at >= 0 {
			continue
		}
		if r.from < r.to && rm >= r.from && rm < r.to || r.from > r.to && (rm >= r.from || rm < r.to) {
			name = r.name
			break
		}
	}
	if c == 'B' && name != "" {
		if v, ok := df.cb.Get("g/dayPeriods/format/" + w + "/" + name); ok {
			return v
		}
	}
	k := "am"
	if t.Hour() >= 12 {
		k = "pm"
	}
	return df.cb.S("g/dayPeriods/format/" + w + "/" + k)
}

func allShared(ps []part) bool {
	for _, p := range ps {
		if p.src != "shared" {
			return false
		}
	}
	return true
}

// calData reads calendar data ("g/…" paths) for a calendar: the Buddhist
// calendar's own fields ("b/…") first, then the Gregorian ones it shares.
type calData struct {
	b        *cldr.Bundle
	buddhist bool
}

func (c calData) Get(p string) (string, bool) {
	if c.buddhist && strings.HasPrefix(p, "g/") {
		if v, ok := c.b.Get("b/" + p[2:]); ok {
			return v, true
		}
	}
	return c.b.Get(p)
}

func (c calData) S(p string) string {
	v, _ := c.Get(p)
	return v
}

// Keys lists a calendar's own set (availableFormats, intervalFormats) when
// it has one, else the Gregorian set.
func (c calData) Keys(prefix string, f func(rest, v string)) {
	if c.buddhist && strings.HasPrefix(prefix, "g/") {
		n := 0
		c.b.Keys("b/"+prefix[2:], func(r, v string) { n++; f(r, v) })
		if n > 0 {
			return
		}
	}
	c.b.Keys(prefix, f)
}
