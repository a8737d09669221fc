package intl

import (
	"strings"
	"time"
)

// zoneName formats a time zone field (z, O, v, V, Z, X, x) as ICU's
// TimeZoneFormat does for the styles Intl uses.
func (df *dateTimeFormat) zoneName(c rune, n int, t time.Time) string {
	_, off := t.Zone()
	z := df.zone
	switch c {
	case 'z':
		if n < 4 {
			if s := df.specificName(t, "short"); s != "" {
				return s
			}
			return df.gmt(off, false)
		}
		if s := df.specificName(t, "long"); s != "" {
			return s
		}
		return df.gmt(off, true)
	case 'O':
		return df.gmt(off, n == 4)
	case 'v':
		w := "short"
		if n == 4 {
			w = "long"
		}
		if s := df.genericName(t, w); s != "" {
			return s
		}
		if s := df.locationName(); s != "" {
			return s
		}
		return df.gmt(off, n == 4)
	case 'V':
		if n == 4 {
			if s := df.locationName(); s != "" {
				return s
			}
			return df.gmt(off, true)
		}
		return z.name
	}
	return df.gmt(off, true)
}

func (df *dateTimeFormat) specificName(t time.Time, w string) string {
	z := df.zone
	if z.offset || z.iana == "" {
		return ""
	}
	kind := "standard"
	if t.IsDST() {
		kind = "daylight"
	}
	b := df.b
	if v, ok := b.Get("z/zone/" + z.iana + "/" + w + "/" + kind); ok {
		return v
	}
	if mz := metaZoneAt(z.iana, t); mz != "" {
		if v, ok := b.Get("z/metazone/" + mz + "/" + w + "/" + kind); ok {
			return v
		}
	}
	return ""
}

// genericName is ICU's formatGenericNonLocationName: the zone's own
// generic name, else its metazone's; a zone without daylight time near the
// date uses its standard name instead.
func (df *dateTimeFormat) genericName(t time.Time, w string) string {
	z := df.zone
	if z.offset || z.iana == "" {
		return ""
	}
	b := df.b
	if v, ok := b.Get("z/zone/" + z.iana + "/" + w + "/generic"); ok {
		return v
	}
	mz := metaZoneAt(z.iana, t)
	if mz == "" {
		return ""
	}
	mzGeneric, _ := b.Get("z/metazone/" + mz + "/" + w + "/generic")
	if !dstNear(t) {
		std := df.specificName(t, w)
		if std != "" && !strings.EqualFold(std, mzGeneric) {
			return std
		}
	}
	return mzGeneric
}

// dstNear reports whether daylight time is in force within 184 days of t.
func dstNear(t time.Time) bool {
	for k := -12; k <= 12; k++ {
		if t.Add(time.Duration(k) * 15 * 24 * time.Hour).IsDST() {
			return true
		}
	}
	return false
}

func (df *dateTimeFormat) locationName() string {
	z := df.zone
	if z.offset || z.iana == "" || strings.HasPrefix(z.iana, "Etc/") {
		return ""
	}
	if c, whole := zoneCountry(z.iana); whole {
		if name, ok := df.b.Get("dr/" + c); ok {
			return strings.Replace(df.b.S("z/regionFormat"), "{0}", name, 1)
		}
	}
	city, ok := df.b.Get("z/zone/" + z.iana + "/exemplarCity")
	if !ok {
		i := strings.LastIndexByte(z.iana, '/')
		city = strings.ReplaceAll(z.iana[i+1:], "_", " ")
	}
	return strings.Replace(df.b.S("z/regionFormat"), "{0}", city, 1)
}

// gmt is the localized GMT format: long "GMT-05:00", short "GMT-5".
func (df *dateTimeFormat) gmt(off int, long bool) string {
	b := df.b
	hf := b.S("z/hourFormat")
	parts := strings.SplitN(hf, ";", 2)
	p := parts[0]
	if off < 0 {
		if len(parts) > 1 {
			p = parts[1]
		}
		off = -off
	}
	h, m, s := off/3600, off/60%60, off%60
	if !long {
		// "+HH:mm" → "+H", with minutes only when there are some
		p = strings.Replace(p, "HH", "H", 1)
		if m == 0 && s == 0 {
			if i := strings.Index(p, "mm"); i >= 0 {
				j := strings.LastIndexAny(p[:i], "H")
				p = p[:j+1] + p[i+2:]
			}
		}
	}
	var out strings.Builder
	rs := []rune(p)
	for i := 0; i < len(rs); {
		c := rs[i]
		j := i
		for j < len(rs) && rs[j] == c {
			j++
		}
		k := j - i
		switch c {
		case 'H':
			out.WriteString(df.num(h, k))
		case 'm':
			out.WriteString(df.num(m, k))
			if s != 0 {
				out.WriteString(":" + df.num(s, 2))
			}
		default:
			out.WriteString(string(rs[i:j]))
		}
		i = j
	}
	return strings.Replace(b.S("z/gmtFormat"), "{0}", out.String(), 1)
}
