package intl

import (
	"sort"
	"strings"
	"sync"

	"bext/intl/internal/cldr"
)

// This file is a port of the parts of ICU's DateTimePatternGenerator that
// Intl.DateTimeFormat uses: skeleton → best pattern from CLDR's
// availableFormats, field-length adjustment, append items and the
// date-time combination.

const (
	fEra = iota
	fYear
	fQuarter
	fMonth
	fWeekOfYear
	fWeekOfMonth
	fWeekday
	fDayOfYear
	fDayOfWeekInMonth
	fDay
	fDayPeriod
	fHour
	fMinute
	fSecond
	fFraction
	fZone
	fCount
)

const dateMask = 1<<fDayPeriod - 1
const timeMask = (1<<fCount - 1) &^ dateMask

const (
	dtNarrow  = -0x101
	dtShorter = -0x102
	dtShort   = -0x103
	dtLong    = -0x104
	dtNumeric = 0x100
	dtDelta   = 0x10
)

type dtType struct {
	ch     rune
	field  int
	typ    int
	minLen int
}

var dtTypes = []dtType{
	{'G', fEra, dtShort, 1}, {'G', fEra, dtLong, 4}, {'G', fEra, dtNarrow, 5},
	{'y', fYear, dtNumeric, 1}, {'Y', fYear, dtNumeric + dtDelta, 1}, {'u', fYear, dtNumeric + 2*dtDelta, 1}, {'r', fYear, dtNumeric + 3*dtDelta, 1},
	{'U', fYear, dtShort, 1}, {'U', fYear, dtLong, 4}, {'U', fYear, dtNarrow, 5},
	{'Q', fQuarter, dtNumeric, 1}, {'Q', fQuarter, dtShort, 3}, {'Q', fQuarter, dtLong, 4}, {'Q', fQuarter, dtNarrow, 5},
	{'q', fQuarter, dtNumeric + dtDelta, 1}, {'q', fQuarter, dtShort - dtDelta, 3}, {'q', fQuarter, dtLong - dtDelta, 4}, {'q', fQuarter, dtNarrow - dtDelta, 5},
	{'M', fMonth, dtNumeric, 1}, {'M', fMonth, dtShort, 3}, {'M', fMonth, dtLong, 4}, {'M', fMonth, dtNarrow, 5},
	{'L', fMonth, dtNumeric + dtDelta, 1}, {'L', fMonth, dtShort - dtDelta, 3}, {'L', fMonth, dtLong - dtDelta, 4}, {'L', fMonth, dtNarrow - dtDelta, 5},
	{'l', fMonth, dtNumeric + dtDelta, 1},
	{'w', fWeekOfYear, dtNumeric, 1}, {'W', fWeekOfMonth, dtNumeric, 1},
	{'E', fWeekday, dtShort, 1}, {'E', fWeekday, dtLong, 4}, {'E', fWeekday, dtNarrow, 5}, {'E', fWeekday, dtShorter, 6},
	{'c', fWeekday, dtNumeric + 2*dtDelta, 1}, {'c', fWeekday, dtShort - 2*dtDelta, 3}, {'c', fWeekday, dtLong - 2*dtDelta, 4}, {'c', fWeekday, dtNarrow - 2*dtDelta, 5}, {'c', fWeekday, dtShorter - 2*dtDelta, 6},
	{'e', fWeekday, dtNumeric + dtDelta, 1}, {'e', fWeekday, dtShort - dtDelta, 3}, {'e', fWeekday, dtLong - dtDelta, 4}, {'e', fWeekday, dtNarrow - dtDelta, 5}, {'e', fWeekday, dtShorter - dtDelta, 6},
	{'d', fDay, dtNumeric, 1}, {'g', fDay, dtNumeric + dtDelta, 1},
	{'D', fDayOfYear, dtNumeric, 1}, {'F', fDayOfWeekInMonth, dtNumeric, 1},
	{'a', fDayPeriod, dtShort, 1}, {'a', fDayPeriod, dtLong, 4}, {'a', fDayPeriod, dtNarrow, 5},
	{'b', fDayPeriod, dtShort - dtDelta, 1}, {'b', fDayPeriod, dtLong - dtDelta, 4}, {'b', fDayPeriod, dtNarrow - dtDelta, 5},
	{'B', fDayPeriod, dtShort - 3*dtDelta, 1}, {'B', fDayPeriod, dtLong - 3*dtDelta, 4}, {'B', fDayPeriod, dtNarrow - 3*dtDelta, 5},
	{'H', fHour, dtNumeric + 10*dtDelta, 1}, {'k', fHour, dtNumeric + 11*dtDelta, 1}, {'h', fHour, dtNumeric, 1}, {'K', fHour, dtNumeric + dtDelta, 1},
	{'m', fMinute, dtNumeric, 1},
	{'s', fSecond, dtNumeric, 1}, {'A', fSecond, dtNumeric + dtDelta, 1},
	{'S', fFraction, dtNumeric, 1},
	{'v', fZone, dtShort - 2*dtDelta, 1}, {'v', fZone, dtLong - 2*dtDelta, 4},
	{'z', fZone, dtShort, 1}, {'z', fZone, dtLong, 4},
	{'Z', fZone, dtNarrow - dtDelta, 1}, {'Z', fZone, dtLong - dtDelta, 4}, {'Z', fZone, dtShort - dtDelta, 5},
	{'O', fZone, dtShort - dtDelta, 1}, {'O', fZone, dtLong - dtDelta, 4},
	{'V', fZone, dtShort - dtDelta, 1}, {'V', fZone, dtLong - dtDelta, 2}, {'V', fZone, dtLong - 1 - dtDelta, 3}, {'V', fZone, dtLong - 2 - dtDelta, 4},
	{'X', fZone, dtNarrow - dtDelta, 1}, {'X', fZone, dtShort - dtDelta, 2}, {'X', fZone, dtLong - dtDelta, 4},
	{'x', fZone, dtNarrow - dtDelta, 1}, {'x', fZone, dtShort - dtDelta, 2}, {'x', fZone, dtLong - dtDelta, 4},
}

func findType(ch rune, n int) *dtType {
	var best *dtType
	for i := range dtTypes {
		t := &dtTypes[i]
		if t.ch == ch && t.minLen <= n {
			best = t
		}
	}
	return best
}

// skeleton is a parsed skeleton: per field the char, length and type.
type skeleton struct {
	ch   [fCount]rune
	n    [fCount]int
	typ  [fCount]int
	mask int
}

func parseSkeleton(s string) skeleton {
	var k skeleton
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		n := j - i
		i = j
		t := findType(c, n)
		if t == nil {
			continue
		}
		k.ch[t.field], k.n[t.field] = c, n
		k.typ[t.field] = t.typ
		if t.typ > 0 {
			k.typ[t.field] += n
		}
		k.mask |= 1 << t.field
	}
	// a 12-hour skeleton without a day period gets "a"; a 24-hour one
	// drops its day period (ICU #13183)
	if k.mask&(1<<fHour) != 0 {
		if k.ch[fHour] == 'h' || k.ch[fHour] == 'K' {
			if k.mask&(1<<fDayPeriod) == 0 {
				k.ch[fDayPeriod], k.n[fDayPeriod], k.typ[fDayPeriod] = 'a', 1, dtShort
				k.mask |= 1 << fDayPeriod
			}
		} else if k.mask&(1<<fDayPeriod) != 0 {
			k.ch[fDayPeriod], k.n[fDayPeriod], k.typ[fDayPeriod] = 0, 0, 0
			k.mask &^= 1 << fDayPeriod
		}
	}
	return k
}

const extraField = 0x10000
const missingField = 0x1000

func (req *skeleton) distance(c *skeleton, include int) (int, int) {
	d, missing := 0, 0
	for i := 0; i < fCount; i++ {
		my := 0
		if include&(1<<i) != 0 {
			my = req.typ[i]
		}
		other := c.typ[i]
		if my == other {
			continue
		}
		switch {
		case my == 0:
			d += extraField
		case other == 0:
			d += missingField
			missing |= 1 << i
		default:
			x := my - other
			if x < 0 {
				x = -x
			}
			d += x
		}
	}
	return d, missing
}

type availFormat struct {
	skel      skeleton
	pattern   string
	specified bool   // the skeleton came from availableFormats
	base      string // field chars in field order (ICU's baseOriginal)
	src       string // the skeleton as written
}

// dtpg is one locale's pattern generator data.
type dtpg struct {
	avail      []availFormat
	appendItem [fCount]string
	fieldNames [fCount]string
	dateTime   map[string]string // full long medium short → "{1} {0}"
	decimal    string
	hourChar   rune // the locale's default hour char (h H K k)
	allowed    string
}

var dtpgCache sync.Map

var timeData = sync.OnceValue(func() map[string]map[string]string {
	var m struct {
		TimeData map[string]map[string]string `json:"timeData"`
	}
	cldr.Supplemental("timeData", &m)
	return m.TimeData
})

// preferredHour returns the preferred and allowed hour formats of a locale
// (timeData, by region of the maximized locale, then language_region).
func preferredHour(t langTag) (string, string) {
	td := timeData()
	m := t.maximize()
	region := m.region
	if hc, ok := t.ukey("rg"); ok && len(hc) >= 2 {
		region = strings.ToUpper(hc[:2])
	}
	for _, k := range []string{t.lang + "-" + region, region, "001"} {
		if v, ok := td[k]; ok {
			return v["_preferred"], v["_allowed"]
		}
	}
	return "h", "h H"
}

func loadDTPG(b calData, t langTag, nuDecimal string) *dtpg {
	key := b.b.ID + "|" + t.String() + "|" + nuDecimal + "|" + map[bool]string{true: "buddhist"}[b.buddhist]
	if v, ok := dtpgCache.Load(key); ok {
		return v.(*dtpg)
	}
	g := &dtpg{dateTime: map[string]string{}, decimal: nuDecimal}
	pref, allowed := preferredHour(t)
	g.allowed = allowed
	g.hourChar = []rune(pref)[0]
	g.loadPatterns(b)
	names := map[string]int{"Era": fEra, "Year": fYear, "Quarter": fQuarter, "Month": fMonth, "Week": fWeekOfYear, "Day-Of-Week": fWeekday, "Day": fDay, "Hour": fHour, "Minute": fMinute, "Second": fSecond, "Timezone": fZone}
	fieldKeys := map[int]string{fEra: "era", fYear: "year", fQuarter: "quarter", fMonth: "month", fWeekOfYear: "week", fWeekday: "weekday", fDay: "day", fDayPeriod: "dayperiod", fHour: "hour", fMinute: "minute", fSecond: "second", fZone: "zone"}
	for n, f := range names {
		g.appendItem[f] = b.S("g/dateTimeFormats/appendItems/" + n)
	}
	for f, k := range fieldKeys {
		g.fieldNames[f] = b.S("f/" + k + "/displayName")
	}
	for _, s := range []string{"full", "long", "medium", "short"} {
		v, ok := b.Get("g/dateTimeFormats-atTime/standard/" + s)
		if !ok {
			v = b.S("g/dateTimeFormats/" + s)
		}
		g.dateTime[s] = v
	}
	dtpgCache.Store(key, g)
	return g
}

// loadPatterns fills the pattern map as ICU does: canonical one-field
// items, then the date and time style patterns, then availableFormats;
// it is searched bucket by bucket (first char of the base skeleton) in
// insertion order, which decides ties.
func (g *dtpg) loadPatterns(b calData) {
	var list []availFormat
	add := func(skelSrc, pattern string, specified bool) {
		sk := parseSkeleton(skelSrc)
		base := baseOf(&sk)
		for i := range list {
			if list[i].src == skelSrc || !list[i].specified && !specified && list[i].base == base && sameSkel(&list[i].skel, &sk) {
				if specified {
					list[i].pattern, list[i].specified, list[i].skel = pattern, true, sk
				}
				return
			}
		}
		list = append(list, availFormat{skel: sk, pattern: pattern, specified: specified, base: base, src: skelSrc})
	}
	for _, c := range "GyQMwWEDFdaHmsSv" {
		add(string(c), string(c), false)
	}
	for _, st := range []string{"full", "long", "medium", "short"} {
		if p := b.S("g/dateFormats/" + st); p != "" {
			add(patternSkeleton(p), p, false)
		}
		if p := b.S("g/timeFormats/" + st); p != "" {
			add(patternSkeleton(p), p, false)
		}
	}
	var keys []string
	b.Keys("g/dateTimeFormats/availableFormats/", func(k, v string) {
		if strings.Contains(k, "-alt-") || strings.Contains(k, "-count-") {
			return
		}
		keys = append(keys, k)
	})
	sort.Slice(keys, func(i, j int) bool {
		a, c := strings.ToLower(keys[i]), strings.ToLower(keys[j])
		if a != c {
			return a < c
		}
		return keys[i] < keys[j]
	})
	for _, k := range keys {
		add(k, b.S("g/dateTimeFormats/availableFormats/"+k), true)
	}
	idx := make([]int, len(list))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(list, func(i, j int) bool { return firstByte(list[i].base) < firstByte(list[j].base) })
	g.avail = list
}

func firstByte(s string) byte {
	if s == "" {
		return 0
	}
	return s[0]
}

func sameSkel(a, b *skeleton) bool {
	return a.ch == b.ch && a.n == b.n
}

// baseOf is the skeleton's fields, one char each, in field order.
func baseOf(k *skeleton) string {
	var b strings.Builder
	for f := 0; f < fCount; f++ {
		if k.ch[f] != 0 {
			b.WriteRune(k.ch[f])
		}
	}
	return b.String()
}

func (g *dtpg) bestRaw(req *skeleton, include int) (*availFormat, int) {
	bestD := 1 << 30
	var best *availFormat
	bestMissing := -1
	for i := range g.avail {
		a := &g.avail[i]
		d, missing := req.distance(&a.skel, include)
		if d < bestD || d == bestD && bestMissing < missing {
			bestD, best, bestMissing = d, a, missing
			if d == 0 {
				break
			}
		}
	}
	if bestMissing < 0 {
		bestMissing = 0
	}
	return best, bestMissing
}

// specOf is the skeleton adjust compares against: only a specified one.
func specOf(a *availFormat) *skeleton {
	if a.specified {
		return &a.skel
	}
	return nil
}

// bestPattern is getBestPattern(skeleton, UDATPG_MATCH_HOUR_FIELD_LENGTH).
func (g *dtpg) bestPattern(skel string) string {
	// j → the locale's hour char (with its day period)
	usesJ := strings.ContainsRune(skel, 'j')
	if usesJ {
		hc := g.hourChar
		skel = strings.ReplaceAll(skel, "j", string(hc))
	}
	req := parseSkeleton(skel)
	best, missing := g.bestRaw(&req, -1)
	if best != nil {
		d, _ := req.distance(&best.skel, -1)
		if d < missingField && missing == 0 {
			return g.adjust(best.pattern, specOf(best), &req, usesJ, false)
		}
	}
	datePat := g.bestAppending(&req, req.mask&dateMask, usesJ)
	timePat := g.bestAppending(&req, req.mask&timeMask, usesJ)
	if datePat == "" {
		return timePat
	}
	if timePat == "" {
		return datePat
	}
	style := "short"
	switch req.n[fMonth] {
	case 4:
		style = "long"
		if req.mask&(1<<fWeekday) != 0 {
			style = "full"
		}
	case 3:
		style = "medium"
	}
	return strings.Replace(strings.Replace(g.dateTime[style], "{1}", datePat, 1), "{0}", timePat, 1)
}

func (g *dtpg) bestAppending(req *skeleton, fields int, usesJ bool) string {
	if fields == 0 {
		return ""
	}
	best, missing := g.bestRaw(req, fields)
	if best == nil {
		return ""
	}
	result := g.adjust(best.pattern, specOf(best), req, usesJ, false)
	last := 0
	for missing != 0 {
		if last == missing {
			break
		}
		if missing&(1<<fSecond|1<<fFraction) == 1<<fFraction && fields&(1<<fSecond|1<<fFraction) == 1<<fSecond|1<<fFraction {
			result = g.adjust(result, specOf(best), req, usesJ, true)
			missing &^= 1 << fFraction
			continue
		}
		start := missing
		b2, m2 := g.bestRaw(req, missing)
		if b2 == nil {
			break
		}
		temp := g.adjust(b2.pattern, specOf(b2), req, usesJ, false)
		found := start &^ m2
		top := 0
		for i := fCount - 1; i >= 0; i-- {
			if found&(1<<i) != 0 {
				top = i
				break
			}
		}
		if g.appendItem[top] != "" {
			p := strings.Replace(g.appendItem[top], "{0}", result, 1)
			p = strings.Replace(p, "{1}", temp, 1)
			p = strings.Replace(p, "{2}", "'"+g.fieldNames[top]+"'", 1)
			result = p
		}
		last = m2
		missing = m2
	}
	return result
}

// adjust is ICU's adjustFieldTypes: it fits the fields of a found pattern
// to the requested widths.
func (g *dtpg) adjust(pattern string, spec, req *skeleton, usesJ, fixFraction bool) string {
	var b strings.Builder
	rs := []rune(pattern)
	q := false
	for i := 0; i < len(rs); {
		c := rs[i]
		if c == '\'' {
			q = !q
			b.WriteRune(c)
			i++
			continue
		}
		if q || !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z') {
			b.WriteRune(c)
			i++
			continue
		}
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		n := j - i
		i = j
		t := findType(c, n)
		if t == nil {
			b.WriteString(strings.Repeat(string(c), n))
			continue
		}
		f := t.field
		if fixFraction && f == fSecond {
			b.WriteString(strings.Repeat(string(c), n))
			b.WriteString(g.decimal)
			b.WriteString(strings.Repeat("S", req.n[fFraction]))
			continue
		}
		if req.typ[f] == 0 || f == fDayPeriod && req.ch[f] == 'a' && req.n[f] == 1 {
			b.WriteString(strings.Repeat(string(c), n))
			continue
		}
		reqCh, reqN := req.ch[f], req.n[f]
		if reqCh == 'E' && reqN < 3 {
			reqN = 3
		}
		adj := reqN
		switch {
		case f == fMinute || f == fSecond:
			adj = n
		case spec != nil && reqCh != 'c' && reqCh != 'e':
			// UDATPG_MATCH_HOUR_FIELD_LENGTH makes the hour behave like
			// the other fields here
			patNum := t.typ > 0
			skelNum := req.typ[f] > 0
			if spec.n[f] == reqN || patNum != skelNum {
				adj = n
			}
		}
		ch := reqCh
		if f == fHour || f == fMonth || f == fWeekday || f == fYear && reqCh != 'Y' {
			ch = c
		}
		if f == fHour {
			if usesJ || reqCh == g.hourChar {
				ch = g.hourChar
			} else if reqCh == 'h' && g.hourChar == 'K' {
				ch = 'K'
			} else if reqCh == 'H' && g.hourChar == 'k' {
				ch = 'k'
			} else if reqCh == 'k' && g.hourChar == 'H' {
				ch = 'H'
			} else if reqCh == 'K' && g.hourChar == 'h' {
				ch = 'h'
			}
		}
		if ch == 'E' && adj < 3 {
			adj = 3
		}
		b.WriteString(strings.Repeat(string(ch), adj))
	}
	return b.String()
}
