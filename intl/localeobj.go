package intl

import (
	"encoding/json"
	"sort"
	"strings"
	"sync"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

type localeObj struct{ tag langTag }

func (r *realm) installLocale() {
	_, proto := r.class("Locale", 1, true, func(args []goja.Value, proto *goja.Object) *goja.Object {
		return r.wrap(r.newLocale(arg(args, 0), arg(args, 1)), proto)
	})
	this := func(c goja.FunctionCall, m string) *localeObj {
		p, ok := unwrap[*localeObj](c.This)
		if !ok {
			r.throwType("Method Intl.Locale.prototype." + m + " called on incompatible receiver " + safeString(c.This))
		}
		return p
	}
	r.method(proto, "toString", 0, func(c goja.FunctionCall) goja.Value { return r.rt.ToValue(this(c, "toString").tag.String()) })
	r.method(proto, "maximize", 0, func(c goja.FunctionCall) goja.Value {
		l := this(c, "maximize")
		return r.wrap(&localeObj{tag: l.tag.maximize()}, proto)
	})
	r.method(proto, "minimize", 0, func(c goja.FunctionCall) goja.Value {
		l := this(c, "minimize")
		return r.wrap(&localeObj{tag: l.tag.minimize()}, proto)
	})
	str := func(name string, f func(l *localeObj) (string, bool)) {
		r.getter(proto, name, func(c goja.FunctionCall) goja.Value {
			v, ok := f(this(c, name))
			if !ok {
				return goja.Undefined()
			}
			return r.rt.ToValue(v)
		})
	}
	str("language", func(l *localeObj) (string, bool) { return l.tag.lang, l.tag.lang != "und" })
	str("script", func(l *localeObj) (string, bool) { return l.tag.script, l.tag.script != "" })
	str("region", func(l *localeObj) (string, bool) { return l.tag.region, l.tag.region != "" })
	str("baseName", func(l *localeObj) (string, bool) { return l.tag.base(), true })
	for _, k := range []struct{ name, key string }{{"calendar", "ca"}, {"caseFirst", "kf"}, {"collation", "co"}, {"hourCycle", "hc"}, {"numberingSystem", "nu"}} {
		k := k
		str(k.name, func(l *localeObj) (string, bool) { return l.tag.ukey(k.key) })
	}
	r.getter(proto, "numeric", func(c goja.FunctionCall) goja.Value {
		v, ok := this(c, "numeric").tag.ukey("kn")
		return r.rt.ToValue(ok && (v == "" || v == "true"))
	})
	list := func(name string, f func(l *localeObj) []string) {
		r.getter(proto, name, func(c goja.FunctionCall) goja.Value { return r.strArray(f(this(c, name))) })
	}
	list("calendars", func(l *localeObj) []string {
		if v, ok := l.tag.ukey("ca"); ok {
			return []string{v}
		}
		return regionCalendars(l.tag.maximize().region)
	})
	list("collations", func(l *localeObj) []string {
		if v, ok := l.tag.ukey("co"); ok {
			return []string{v}
		}
		return []string{"emoji", "eor"}
	})
	list("hourCycles", func(l *localeObj) []string {
		if v, ok := l.tag.ukey("hc"); ok {
			return []string{v}
		}
		p, _ := preferredHour(l.tag)
		return []string{map[string]string{"h": "h12", "H": "h23", "K": "h11", "k": "h24"}[strings.TrimRight(p, "b")]}
	})
	list("numberingSystems", func(l *localeObj) []string {
		if v, ok := l.tag.ukey("nu"); ok {
			return []string{v}
		}
		b := dataLocale(bestAvailableOr(l.tag.base()))
		return []string{b.S("n/defaultNumberingSystem")}
	})
	r.getter(proto, "timeZones", func(c goja.FunctionCall) goja.Value {
		l := this(c, "timeZones")
		if l.tag.region == "" {
			return goja.Undefined()
		}
		var zs []string
		for z, cc := range icuData().Country {
			if cc == l.tag.region {
				zs = append(zs, z)
			}
		}
		sort.Strings(zs)
		return r.strArray(zs)
	})
	r.getter(proto, "textInfo", func(c goja.FunctionCall) goja.Value {
		l := this(c, "textInfo")
		o := r.rt.NewObject()
		dir := "ltr"
		switch l.tag.maximize().script {
		case "Arab", "Hebr", "Thaa", "Syrc", "Nkoo", "Adlm", "Rohg", "Mand", "Samr":
			dir = "rtl"
		}
		r.cdp(o, "direction", dir)
		return o
	})
	r.getter(proto, "weekInfo", func(c goja.FunctionCall) goja.Value {
		l := this(c, "weekInfo")
		first, wk, min := weekInfo(l.tag.maximize().region)
		o := r.rt.NewObject()
		r.cdp(o, "firstDay", first)
		w := make([]any, len(wk))
		for i, x := range wk {
			w[i] = x
		}
		r.cdp(o, "weekend", r.rt.NewArray(w...))
		r.cdp(o, "minimalDays", min)
		return o
	})
}

func bestAvailableOr(base string) string {
	if b := bestAvailable(base); b != "" {
		return b
	}
	return "en"
}

func (r *realm) newLocale(tagV, options goja.Value) *localeObj {
	var tag langTag
	if l, ok := unwrap[*localeObj](tagV); ok {
		tag = l.tag
	} else {
		if !isString(tagV) {
			if _, isObj := tagV.(*goja.Object); !isObj {
				r.throwType("First argument to Intl.Locale constructor can't be empty or missing")
			}
		}
		t, ok := parseTag(tagV.String())
		if !ok {
			r.throwRange("Incorrect locale information provided")
		}
		tag = t
	}
	opts := r.coerceOptions(options)
	if v := r.getString(opts, "language", nil, ""); v != "" {
		if !isAlpha(v) || len(v) < 2 || len(v) > 8 || len(v) == 4 {
			r.throwRange("Incorrect locale information provided")
		}
		tag.lang = strings.ToLower(v)
	}
	if v := r.getString(opts, "script", nil, ""); v != "" {
		if len(v) != 4 || !isAlpha(v) {
			r.throwRange("Incorrect locale information provided")
		}
		tag.script = title(strings.ToLower(v))
	}
	if v := r.getString(opts, "region", nil, ""); v != "" {
		if !(len(v) == 2 && isAlpha(v) || len(v) == 3 && isDigit(v)) {
			r.throwRange("Incorrect locale information provided")
		}
		tag.region = strings.ToUpper(v)
	}
	set := func(opt, key string, allowed []string) {
		v := r.getString(opts, opt, allowed, "")
		if v == "" {
			return
		}
		if allowed == nil && !isUnicodeType(v) {
			r.throwRange("Incorrect locale information provided")
		}
		tag.setUKey(key, v)
	}
	set("calendar", "ca", nil)
	set("collation", "co", nil)
	set("hourCycle", "hc", []string{"h11", "h12", "h23", "h24"})
	set("caseFirst", "kf", []string{"upper", "lower", "false"})
	if b := r.getBool(opts, "numeric"); b != -1 {
		if b == 1 {
			tag.setUKey("kn", "")
		} else {
			tag.setUKey("kn", "false")
		}
	}
	set("numberingSystem", "nu", nil)
	tag.canonicalize()
	return &localeObj{tag: tag}
}

var calendarPrefs = sync.OnceValue(func() map[string][]string {
	var d struct {
		CalendarPreferenceData map[string][]string `json:"calendarPreferenceData"`
	}
	cldr.Supplemental("calendarPreferenceData", &d)
	return d.CalendarPreferenceData
})

func regionCalendars(region string) []string {
	l, ok := calendarPrefs()[region]
	if !ok {
		l = calendarPrefs()["001"]
	}
	out := make([]string, len(l))
	for i, c := range l {
		switch c {
		case "gregorian":
			c = "gregory"
		case "ethiopic-amete-alem":
			c = "ethioaa"
		}
		out[i] = c
	}
	return out
}

var weekData = sync.OnceValue(func() map[string]map[string]string {
	var d struct {
		WeekData map[string]json.RawMessage `json:"weekData"`
	}
	cldr.Supplemental("weekData", &d)
	out := map[string]map[string]string{}
	for k, v := range d.WeekData {
		var m map[string]string
		if json.Unmarshal(v, &m) == nil {
			out[k] = m
		}
	}
	return out
})

var dayNum = map[string]int{"mon": 1, "tue": 2, "wed": 3, "thu": 4, "fri": 5, "sat": 6, "sun": 7}

func weekInfo(region string) (int, []int, int) {
	w := weekData()
	look := func(k string) string {
		if v, ok := w[k][region]; ok {
			return v
		}
		return w[k]["001"]
	}
	first := dayNum[look("firstDay")]
	ws, we := dayNum[look("weekendStart")], dayNum[look("weekendEnd")]
	var wk []int
	for d := ws; ; d = d%7 + 1 {
		wk = append(wk, d)
		if d == we || len(wk) > 7 {
			break
		}
	}
	sort.Ints(wk)
	min := 1
	if v := look("minDays"); v != "" {
		min = int(v[0] - '0')
	}
	return first, wk, min
}
