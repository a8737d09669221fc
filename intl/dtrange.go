package intl

import (
	"strings"
	"time"
)

// formatRange follows ICU's DateIntervalFormat: the greatest calendar
// field that differs picks a CLDR interval pattern for the skeleton; equal
// dates format once; without a pattern the fallback "{0} – {1}" joins two
// full formats.
func (df *dateTimeFormat) formatRange(x, y float64) []part {
	a := time.UnixMilli(int64(x)).In(df.zone.loc)
	b := time.UnixMilli(int64(y)).In(df.zone.loc)
	pa := df.formatPattern(df.pattern, a)
	pb := df.formatPattern(df.pattern, b)
	if joinParts(pa) == joinParts(pb) {
		return markSource(pa, "shared")
	}
	diff := greatestDiff(a, b, df.pattern)
	skel := df.skeleton
	if skel == "" {
		skel = patternSkeleton(df.pattern)
	}
	if diff != 0 {
		if ip := df.intervalPattern(skel, diff); ip != "" {
			first, second := splitInterval(ip)
			return intervalParts(df.formatPattern(first, a), df.formatPattern(second, b), first, second)
		}
		// a time-only format whose dates differ shows the dates too
		req := parseSkeleton(strings.ReplaceAll(skel, "j", string(df.g.hourChar)))
		if req.mask&dateMask == 0 && strings.ContainsRune("GyMd", diff) {
			p := df.g.bestPattern("yMd" + skel)
			if df.hc != "" && df.skeleton != "" && !strings.ContainsRune(df.skeleton, 'j') {
				p = replaceHourCycle(p, df.hc)
			}
			pa, pb = df.formatPattern(p, a), df.formatPattern(p, b)
		}
	}
	fb := df.cb.S("g/dateTimeFormats/intervalFormats/intervalFormatFallback")
	if fb == "" {
		fb = "{0} – {1}"
	}
	i0, i1 := strings.Index(fb, "{0}"), strings.Index(fb, "{1}")
	var out []part
	if fb[:i0] != "" {
		out = append(out, part{typ: "literal", val: fb[:i0], src: "shared"})
	}
	out = append(out, markSource(pa, "startRange")...)
	out = append(out, part{typ: "literal", val: fb[i0+3 : i1], src: "shared"})
	out = append(out, markSource(pb, "endRange")...)
	if rest := fb[i1+3:]; rest != "" {
		out = append(out, part{typ: "literal", val: rest, src: "shared"})
	}
	return out
}

func markSource(ps []part, src string) []part {
	out := make([]part, len(ps))
	for i, p := range ps {
		p.src = src
		out[i] = p
	}
	return out
}

// intervalParts joins the two halves of an interval pattern: the fields
// that appear in both halves (and what lies between them) belong to the
// start or end range; what comes before, between and after is shared.
func intervalParts(pa, pb []part, first, second string) []part {
	inFirst := map[string]bool{}
	for _, p := range pa {
		if p.typ != "literal" {
			inFirst[p.typ] = true
		}
	}
	repeated := map[string]bool{}
	for _, p := range pb {
		if p.typ != "literal" && inFirst[p.typ] {
			repeated[p.typ] = true
		}
	}
	start := len(pa)
	for i, p := range pa {
		if repeated[p.typ] {
			start = i
			break
		}
	}
	endA := start
	for i, p := range pa {
		if p.typ != "literal" && i >= start {
			endA = i
		}
	}
	lastB := -1
	for i, p := range pb {
		if repeated[p.typ] {
			lastB = i
		}
	}
	var out []part
	for i, p := range pa {
		switch {
		case i < start || i > endA:
			p.src = "shared"
		default:
			p.src = "startRange"
		}
		out = append(out, p)
	}
	for i, p := range pb {
		if i <= lastB {
			p.src = "endRange"
		} else {
			p.src = "shared"
		}
		if i == 0 && p.typ == "literal" && len(out) > 0 && out[len(out)-1].typ == "literal" {
			out[len(out)-1].val += p.val
			out[len(out)-1].src = "shared"
			continue
		}
		out = append(out, p)
	}
	// merge adjacent shared literals
	for i := 1; i < len(out); i++ {
		if out[i].typ == "literal" && out[i-1].typ == "literal" && out[i].src == out[i-1].src {
			out[i-1].val += out[i].val
			out = append(out[:i], out[i+1:]...)
			i--
		}
	}
	return out
}

// greatestDiff returns the pattern letter of the largest field that
// differs (G y M d a H m s), or 0.
func greatestDiff(a, b time.Time, pattern string) rune {
	switch {
	case (a.Year() <= 0) != (b.Year() <= 0):
		return 'G'
	case a.Year() != b.Year():
		return 'y'
	case a.Month() != b.Month():
		return 'M'
	case a.Day() != b.Day():
		return 'd'
	case (a.Hour() < 12) != (b.Hour() < 12):
		if strings.ContainsAny(patternSkeleton(pattern), "hK") {
			return 'a'
		}
		return 'H'
	case a.Hour() != b.Hour():
		return 'H'
	case a.Minute() != b.Minute():
		return 'm'
	case a.Second() != b.Second():
		return 's'
	}
	return 0
}

// intervalPattern finds the interval pattern for the format's skeleton
// and the differing field, fitted to the requested widths.
func (df *dateTimeFormat) intervalPattern(skel string, diff rune) string {
	usesJ := strings.ContainsRune(skel, 'j')
	skel = normalizeIntervalSkeleton(skel)
	if strings.ContainsRune(skel, 'j') {
		skel = strings.ReplaceAll(skel, "j", string(df.g.hourChar))
	}
	req := parseSkeleton(skel)
	if req.mask&(1<<fFraction|1<<fSecond) != 0 {
		return ""
	}
	hourCh := req.ch[fHour]
	if diff == 'H' && (hourCh == 'h' || hourCh == 'K') {
		diff = 'h'
	}
	if diff == 'a' && !(hourCh == 'h' || hourCh == 'K') {
		diff = 'H'
	}
	if req.mask&(1<<fHour) == 0 && (diff == 'a' || diff == 'H' || diff == 'h' || diff == 'm') {
		return ""
	}
	if req.mask&(1<<fMinute) == 0 && diff == 'm' {
		return ""
	}
	// a date-only skeleton shows no time; a differing time with equal
	// dates already returned
	var bestKey string
	bestD := 1 << 30
	var best skeleton
	df.cb.Keys("g/dateTimeFormats/intervalFormats/", func(k, v string) {
		i := strings.IndexByte(k, '/')
		if i < 0 {
			return
		}
		sk, f := k[:i], k[i+1:]
		if f != string(diff) {
			return
		}
		c := parseSkeleton(sk)
		d, _ := req.distance(&c, -1)
		if d < bestD || d == bestD && sk < bestKey {
			bestD, bestKey, best = d, sk, c
		}
	})
	if bestKey == "" || bestD >= missingField {
		return ""
	}
	p := df.cb.S("g/dateTimeFormats/intervalFormats/" + bestKey + "/" + string(diff))
	p = df.g.adjust(p, &best, &req, usesJ, false)
	if hc := df.hc; hc != "" && patternHourChar(p) != 0 && string(patternHourChar(p)) != hcChars[hc] {
		p = replaceHourCycle(p, hc)
	}
	return p
}

// splitInterval cuts an interval pattern where a field repeats.
func splitInterval(p string) (string, string) {
	seen := map[rune]bool{}
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
		f := c
		if t := findType(c, 1); t != nil {
			f = rune('A' + t.field)
		}
		if seen[f] {
			return string(rs[:i]), string(rs[i:])
		}
		seen[f] = true
		for i < len(rs) && rs[i] == c {
			i++
		}
	}
	return p, ""
}

// normalizeIntervalSkeleton is DateIntervalFormat's skeleton
// normalization: numeric fields to one letter, short weekdays to E.
func normalizeIntervalSkeleton(s string) string {
	var b strings.Builder
	rs := []rune(s)
	for i := 0; i < len(rs); {
		c := rs[i]
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		n := j - i
		i = j
		switch c {
		case 'y', 'd', 'h', 'H', 'k', 'K', 'm', 's', 'j':
			n = 1
		case 'M', 'L':
			if n < 3 {
				n = 1
			}
		case 'E':
			if n <= 3 {
				n = 1
			}
		}
		b.WriteString(strings.Repeat(string(c), n))
	}
	return b.String()
}
