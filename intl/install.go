package intl

import (
	"math"
	"strings"
	"time"

	"github.com/dop251/goja"
)

// Options configure Intl in one runtime.
type Options struct {
	// DefaultLocale is the locale used when JS names none; "" picks it from
	// LC_ALL, LC_MESSAGES or LANG as Node does, else "en-US".
	DefaultLocale string
	// TimeZone is the default time zone; nil means time.Local (TZ).
	TimeZone *time.Location
}

// Install puts Intl and the locale-aware prototype methods into rt. It only
// defines a lazy accessor for Intl and swaps seven prototype methods; no
// locale data is read until JS first uses one of them.
func Install(rt *goja.Runtime, o Options) error {
	r := &realm{rt: rt, opts: o}
	g := rt.GlobalObject()
	getter := rt.ToValue(func(goja.FunctionCall) goja.Value { return r.intlObject() })
	setter := rt.ToValue(func(c goja.FunctionCall) goja.Value {
		r.ensure()
		g.DefineDataProperty("Intl", c.Argument(0), goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
		return goja.Undefined()
	})
	if err := g.DefineAccessorProperty("Intl", getter, setter, goja.FLAG_TRUE, goja.FLAG_FALSE); err != nil {
		return err
	}
	return r.installPrototypes()
}

// realm is the Intl state of one runtime. Its data caches are global (see
// internal/cldr); what lives here is per-runtime: constructors, prototypes
// and the defaults.
type realm struct {
	rt   *goja.Runtime
	opts Options

	intl       *goja.Object
	rangeError goja.Value
	defLocale  string
	defTZ      *time.Location
	ctors      map[string]*goja.Object
	protos     map[string]*goja.Object

	// cached formatters of the prototype methods, keyed by locale argument
	numCache  map[string]*numberFormat
	dateCache map[string]*dateTimeFormat
	collCache map[string]*collator
}

func (r *realm) intlObject() *goja.Object {
	r.ensure()
	g := r.rt.GlobalObject()
	g.DefineDataProperty("Intl", r.intl, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	return r.intl
}

// ensure builds the Intl object the first time anything needs it.
func (r *realm) ensure() {
	if r.intl != nil {
		return
	}
	rt := r.rt
	r.rangeError = rt.GlobalObject().Get("RangeError")
	r.defLocale = r.opts.DefaultLocale
	if r.defLocale == "" {
		r.defLocale = defaultLocaleOnce()
	} else if t, ok := parseTag(r.defLocale); ok {
		if b := bestAvailable(t.base()); b != "" {
			r.defLocale = b
		} else {
			r.defLocale = "en-US"
		}
	} else {
		r.defLocale = "en-US"
	}
	r.defTZ = r.opts.TimeZone
	if r.defTZ == nil {
		r.defTZ = time.Local
	}
	r.ctors = map[string]*goja.Object{}
	r.protos = map[string]*goja.Object{}
	r.numCache = map[string]*numberFormat{}
	r.dateCache = map[string]*dateTimeFormat{}
	r.collCache = map[string]*collator{}
	in := rt.NewObject()
	r.intl = in
	in.DefineDataPropertySymbol(goja.SymToStringTag, rt.ToValue("Intl"), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	r.method(in, "getCanonicalLocales", 1, func(c goja.FunctionCall) goja.Value {
		l := r.canonicalizeLocaleList(c.Argument(0))
		return r.strArray(l)
	})
	r.method(in, "supportedValuesOf", 1, r.supportedValuesOf)
	r.installNumberFormat()
	r.installPluralRules()
	r.installDateTimeFormat()
	r.installRelativeTimeFormat()
	r.installListFormat()
	r.installCollator()
	r.installDisplayNames()
	r.installLocale()
	r.installSegmenter()
}

// ---- errors ----

func (r *realm) throwRange(msg string) {
	o, err := r.rt.New(r.rangeError, r.rt.ToValue(msg))
	if err != nil {
		panic(err)
	}
	panic(o)
}

func (r *realm) throwType(msg string) {
	panic(r.rt.NewTypeError(msg))
}

// ---- object plumbing ----

func (r *realm) method(o *goja.Object, name string, length int, f func(goja.FunctionCall) goja.Value) {
	fn := r.rt.ToValue(f).(*goja.Object)
	fn.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	fn.DefineDataProperty("length", r.rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	o.DefineDataProperty(name, fn, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

func (r *realm) getter(o *goja.Object, name string, f func(goja.FunctionCall) goja.Value) {
	fn := r.rt.ToValue(f).(*goja.Object)
	fn.DefineDataProperty("name", r.rt.ToValue("get "+name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	fn.DefineDataProperty("length", r.rt.ToValue(0), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	o.DefineAccessorProperty(name, fn, nil, goja.FLAG_TRUE, goja.FLAG_FALSE)
}

// slots is the Go side of an Intl object: the internal slots live in v.
// Own properties JS adds are kept in a small map.
type slots struct {
	v     any
	props map[string]goja.Value
	keys  []string
}

func (s *slots) Get(k string) goja.Value { return s.props[k] }
func (s *slots) Set(k string, v goja.Value) bool {
	if s.props == nil {
		s.props = map[string]goja.Value{}
	}
	if _, ok := s.props[k]; !ok {
		s.keys = append(s.keys, k)
	}
	s.props[k] = v
	return true
}
func (s *slots) Has(k string) bool { _, ok := s.props[k]; return ok }
func (s *slots) Delete(k string) bool {
	if _, ok := s.props[k]; ok {
		delete(s.props, k)
		for i, x := range s.keys {
			if x == k {
				s.keys = append(s.keys[:i], s.keys[i+1:]...)
				break
			}
		}
	}
	return true
}
func (s *slots) Keys() []string { return s.keys }

// wrap makes the JS object of an Intl instance with proto.
func (r *realm) wrap(v any, proto *goja.Object) *goja.Object {
	o := r.rt.NewDynamicObject(&slots{v: v})
	o.SetPrototype(proto)
	return o
}

func unwrap[T any](v goja.Value) (T, bool) {
	var zero T
	o, ok := v.(*goja.Object)
	if !ok {
		return zero, false
	}
	s, ok := o.Export().(*slots)
	if !ok {
		return zero, false
	}
	t, ok := s.v.(T)
	return t, ok
}

// class defines Intl[name]: a constructor whose construct function gets the
// arguments and the prototype of the new object. needNew makes a call
// without new a TypeError (as the spec says for the newer constructors).
func (r *realm) class(name string, length int, needNew bool, construct func(args []goja.Value, proto *goja.Object) *goja.Object) (*goja.Object, *goja.Object) {
	var proto *goja.Object
	ctor := r.rt.ToValue(func(c goja.ConstructorCall) *goja.Object {
		// goja passes no new.target for a plain `new X()`; a construct
		// call is recognised by its fresh receiver inheriting from proto.
		isNew := c.NewTarget != nil || c.This != nil && len(c.This.Keys()) == 0 && inherits(c.This, proto)
		if !isNew {
			if needNew {
				r.throwType("Constructor Intl." + name + " requires 'new'")
			}
			return construct(c.Arguments, proto)
		}
		p := c.This.Prototype()
		if p == nil {
			p = proto
		}
		return construct(c.Arguments, p)
	}).(*goja.Object)
	proto = ctor.Get("prototype").(*goja.Object)
	ctor.DefineDataProperty("length", r.rt.ToValue(length), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	ctor.DefineDataProperty("name", r.rt.ToValue(name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	ctor.DefineDataProperty("prototype", proto, goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	proto.DefineDataPropertySymbol(goja.SymToStringTag, r.rt.ToValue("Intl."+name), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	r.intl.DefineDataProperty(name, ctor, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	r.ctors[name] = ctor
	r.protos[name] = proto
	r.method(ctor, "supportedLocalesOf", 1, func(c goja.FunctionCall) goja.Value {
		req := r.canonicalizeLocaleList(c.Argument(0))
		opts := r.coerceOptions(c.Argument(1))
		r.getString(opts, "localeMatcher", []string{"lookup", "best fit"}, "best fit")
		var out []string
		for _, l := range req {
			t, _ := parseTag(l)
			if bestAvailable(t.base()) != "" {
				out = append(out, l)
			}
		}
		return r.strArray(out)
	})
	return ctor, proto
}

func (r *realm) strArray(l []string) goja.Value {
	a := make([]any, len(l))
	for i, s := range l {
		a[i] = s
	}
	return r.rt.NewArray(a...)
}

// ---- locales ----

// canonicalizeLocaleList is ECMA-402's CanonicalizeLocaleList.
func (r *realm) canonicalizeLocaleList(v goja.Value) []string {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	if goja.IsNull(v) {
		r.throwType("Cannot convert undefined or null to object")
	}
	var out []string
	seen := map[string]bool{}
	add := func(s string) {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	canon := func(s string) string {
		t, ok := parseTag(s)
		if !ok {
			r.throwRange("Incorrect locale information provided")
		}
		return t.String()
	}
	if _, isSym := v.(*goja.Symbol); !isSym && isString(v) {
		add(canon(v.String()))
		return out
	}
	if lt, ok := unwrap[*localeObj](v); ok {
		return []string{lt.tag.String()}
	}
	o := v.ToObject(r.rt)
	n := toLengthStrict(o.Get("length"))
	for k := int64(0); k < n; k++ {
		key := itoa(int(k))
		if !hasProperty(o, key) {
			continue
		}
		it := o.Get(key)
		if lt, ok := unwrap[*localeObj](it); ok {
			add(lt.tag.String())
			continue
		}
		if !isString(it) {
			if _, isObj := it.(*goja.Object); !isObj {
				r.throwType("Language ID should be string or object.")
			}
		}
		add(canon(it.String()))
	}
	return out
}

// toLengthStrict is ToLength with ToNumber's errors (a Symbol throws).
func toLengthStrict(v goja.Value) int64 {
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	f := v.ToNumber().ToFloat()
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	if f > 1<<53-1 {
		return 1<<53 - 1
	}
	return int64(f)
}

func hasProperty(o *goja.Object, key string) bool {
	for p := o; p != nil; p = p.Prototype() {
		for _, k := range p.GetOwnPropertyNames() {
			if k == key {
				return true
			}
		}
	}
	return false
}

func isString(v goja.Value) bool {
	if v == nil {
		return false
	}
	if _, ok := v.(*goja.Symbol); ok {
		return false
	}
	switch v.ExportType() {
	case nil:
		return false
	}
	_, isObj := v.(*goja.Object)
	if isObj {
		return false
	}
	return v.ExportType().Kind().String() == "string"
}

func toLength(v goja.Value) int64 {
	if v == nil || goja.IsUndefined(v) {
		return 0
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f <= 0 {
		return 0
	}
	if f > 1<<53-1 {
		return 1<<53 - 1
	}
	return int64(f)
}

func itoa(i int) string {
	if i == 0 {
		return "0"
	}
	var b [20]byte
	n := len(b)
	neg := i < 0
	if neg {
		i = -i
	}
	for i > 0 {
		n--
		b[n] = byte('0' + i%10)
		i /= 10
	}
	if neg {
		n--
		b[n] = '-'
	}
	return string(b[n:])
}

// resolved is the outcome of ResolveLocale.
type resolved struct {
	locale string // with the relevant -u- keys that were honoured
	base   string // the available locale without extensions
	tag    langTag
	kw     map[string]string
}

// resolveLocale is ECMA-402's ResolveLocale with the lookup matcher (ICU's
// best fit behaves the same for the locales CLDR has). keys are the relevant
// extension keys; valid tells whether a key's value is supported.
func (r *realm) resolveLocale(requested []string, keys []string, valid func(key, value string, base string) bool) resolved {
	return r.resolveLocaleIn(requested, keys, valid, available)
}

// resolveLocaleIn is resolveLocale over another set of available locales.
func (r *realm) resolveLocaleIn(requested []string, keys []string, valid func(key, value string, base string) bool, avail func(string) bool) resolved {
	var res resolved
	found := false
	for _, l := range requested {
		t, _ := parseTag(l)
		if b := bestAvailableIn(t.base(), avail); b != "" {
			res.base = b
			res.tag = t
			found = true
			break
		}
	}
	if !found {
		t, _ := parseTag(r.defLocale)
		res.base = bestAvailableIn(t.base(), avail)
		if res.base == "" {
			res.base = t.base()
		}
		res.tag = t
	}
	res.kw = map[string]string{}
	out, _ := parseTag(res.base)
	for _, k := range keys {
		v, ok := res.tag.ukey(k)
		if !ok {
			continue
		}
		if valid(k, v, res.base) {
			res.kw[k] = v
			out.setUKey(k, v)
		}
	}
	res.locale = out.String()
	res.tag = out
	return res
}

// dropKey removes a -u- key from the resolved locale (an option overrode it).
func (res *resolved) dropKey(k string) {
	for i, x := range res.tag.ukeys {
		if x.k == k {
			res.tag.ukeys = append(append([]kv{}, res.tag.ukeys[:i]...), res.tag.ukeys[i+1:]...)
			break
		}
	}
	delete(res.kw, k)
	res.locale = res.tag.String()
}

// ---- options ----

func (r *realm) coerceOptions(v goja.Value) *goja.Object {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	if goja.IsNull(v) {
		r.throwType("Cannot convert undefined or null to object")
	}
	return v.ToObject(r.rt)
}

// getOptionsObject is GetOptionsObject: undefined → none, object → it,
// anything else a TypeError.
func (r *realm) getOptionsObject(v goja.Value) *goja.Object {
	if v == nil || goja.IsUndefined(v) {
		return nil
	}
	if o, ok := v.(*goja.Object); ok {
		return o
	}
	r.throwType("Options must be an object")
	return nil
}

func (r *realm) getString(o *goja.Object, name string, allowed []string, fallback string) string {
	if o == nil {
		return fallback
	}
	v := o.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return fallback
	}
	if _, ok := v.(*goja.Symbol); ok {
		r.throwType("Cannot convert a Symbol value to a string")
	}
	s := v.String()
	if allowed != nil {
		for _, a := range allowed {
			if a == s {
				return s
			}
		}
		r.throwRange("Value " + s + " out of range for Intl options property " + name)
	}
	return s
}

// getBool returns -1 for undefined, 0 false, 1 true.
func (r *realm) getBool(o *goja.Object, name string) int {
	if o == nil {
		return -1
	}
	v := o.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return -1
	}
	if v.ToBoolean() {
		return 1
	}
	return 0
}

// getNumber is GetNumberOption; it returns fallback for undefined.
func (r *realm) getNumber(o *goja.Object, name string, min, max, fallback int) int {
	if o == nil {
		return fallback
	}
	return r.defaultNumber(o.Get(name), name, min, max, fallback)
}

func (r *realm) defaultNumber(v goja.Value, name string, min, max, fallback int) int {
	if v == nil || goja.IsUndefined(v) {
		return fallback
	}
	f := v.ToFloat()
	if math.IsNaN(f) || f < float64(min) || f > float64(max) {
		r.throwRange(name + " value is out of range.")
	}
	return int(math.Floor(f))
}

func (r *realm) supportedValuesOf(c goja.FunctionCall) goja.Value {
	key := c.Argument(0).String()
	var l []string
	switch key {
	case "calendar":
		l = []string{"buddhist", "chinese", "coptic", "dangi", "ethioaa", "ethiopic", "gregory", "hebrew", "indian", "islamic", "islamic-civil", "islamic-rgsa", "islamic-tbla", "islamic-umalqura", "iso8601", "japanese", "persian", "roc"}
	case "collation":
		l = []string{"compat", "dict", "emoji", "eor", "phonebk", "phonetic", "pinyin", "searchjl", "stroke", "trad", "unihan", "zhuyin"}
	case "currency":
		l = currencyCodes()
	case "numberingSystem":
		l = numberingSystemNames()
	case "timeZone":
		l = timeZoneNames()
	case "unit":
		l = strings.Fields("acre bit byte celsius centimeter day degree fahrenheit fluid-ounce foot gallon gigabit gigabyte gram hectare hour inch kilobit kilobyte kilogram kilometer liter megabit megabyte meter microsecond mile mile-scandinavian milliliter millimeter millisecond minute month nanosecond ounce percent petabyte pound second stone terabit terabyte week yard year")
	default:
		r.throwRange("Invalid key : " + key)
	}
	return r.strArray(l)
}

func inherits(o, proto *goja.Object) bool {
	for p := o.Prototype(); p != nil; p = p.Prototype() {
		if p == proto {
			return true
		}
	}
	return false
}

// toString is ToString: a Symbol is a TypeError.
func (r *realm) toString(v goja.Value) string {
	if _, ok := v.(*goja.Symbol); ok {
		r.throwType("Cannot convert a Symbol value to a string")
	}
	if v == nil {
		return "undefined"
	}
	return v.String()
}

// cdp is CreateDataProperty: results never run setters that a script put
// on Object.prototype.
func (r *realm) cdp(o *goja.Object, k string, v any) {
	var jv goja.Value
	if gv, ok := v.(goja.Value); ok {
		jv = gv
	} else {
		jv = r.rt.ToValue(v)
	}
	o.DefineDataProperty(k, jv, goja.FLAG_TRUE, goja.FLAG_TRUE, goja.FLAG_TRUE)
}

// getStringSet is GetOption for a free-form string; ok is false when the
// option is undefined (so "" is a value, and usually a RangeError).
func (r *realm) getStringSet(o *goja.Object, name string) (string, bool) {
	if o == nil {
		return "", false
	}
	v := o.Get(name)
	if v == nil || goja.IsUndefined(v) {
		return "", false
	}
	if _, ok := v.(*goja.Symbol); ok {
		r.throwType("Cannot convert a Symbol value to a string")
	}
	return v.String(), true
}
