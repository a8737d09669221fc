package intl

import (
	"encoding/json"
	"strings"
	"sync"
	"time"
	_ "time/tzdata" // zones work without /usr/share/zoneinfo

	"bext/intl/internal/cldr"
)

type icuLists struct {
	Currency   []string          `json:"currency"`
	TimeZone   []string          `json:"timeZone"`
	Zones      map[string]string `json:"zones"`
	Country    map[string]string `json:"country"`
	perCountry map[string]int
	lower      map[string]string // lower-case name → name as given
}

var icuData = sync.OnceValue(func() *icuLists {
	var l icuLists
	if err := json.Unmarshal(cldr.ICU, &l); err != nil {
		panic(err)
	}
	l.perCountry = map[string]int{}
	for _, c := range l.Country {
		l.perCountry[c]++
	}
	l.lower = map[string]string{}
	for k := range l.Zones {
		l.lower[strings.ToLower(k)] = k
	}
	return &l
})

func currencyCodes() []string { return icuData().Currency }
func timeZoneNames() []string { return icuData().TimeZone }

// zone is a resolved time zone: an IANA zone or a fixed offset.
type zone struct {
	name   string // as resolvedOptions reports it
	iana   string // the IANA id used for CLDR names ("" for offsets)
	loc    *time.Location
	offset bool
}

var zoneCache sync.Map

// resolveZone validates a timeZone option value (IANA name, any case, or
// ±HH:MM / ±HHMM / ±HH offset) and returns the zone; ok is false when invalid.
func resolveZone(s string) (*zone, bool) {
	if v, ok := zoneCache.Load(s); ok {
		return v.(*zone), true
	}
	z, ok := lookupZone(s)
	if ok {
		zoneCache.Store(s, z)
	}
	return z, ok
}

func lookupZone(s string) (*zone, bool) {
	if len(s) > 0 && (s[0] == '+' || s[0] == '-') {
		return offsetZone(s)
	}
	d := icuData()
	name, ok := d.lower[strings.ToLower(s)]
	if !ok {
		return nil, false
	}
	canon := d.Zones[name]
	switch strings.ToLower(s) {
	case "utc", "etc/utc", "gmt", "etc/gmt", "etc/uct", "uct", "etc/universal", "universal", "etc/zulu", "zulu", "etc/greenwich", "greenwich", "gmt0", "etc/gmt0", "gmt+0", "gmt-0", "etc/gmt+0", "etc/gmt-0":
		canon = "UTC"
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		if loc, err = time.LoadLocation(canon); err != nil {
			return nil, false
		}
	}
	iana := canon
	if canon == "UTC" {
		iana = "Etc/UTC"
	}
	return &zone{name: canon, iana: iana, loc: loc}, true
}

func offsetZone(s string) (*zone, bool) {
	sign := 1
	if s[0] == '-' {
		sign = -1
	}
	r := s[1:]
	var h, m string
	switch {
	case len(r) == 2:
		h, m = r, "00"
	case len(r) == 4:
		h, m = r[:2], r[2:]
	case len(r) == 5 && r[2] == ':':
		h, m = r[:2], r[3:]
	default:
		return nil, false
	}
	if !isDigit(h) || !isDigit(m) {
		return nil, false
	}
	hh, mm := int(h[0]-'0')*10+int(h[1]-'0'), int(m[0]-'0')*10+int(m[1]-'0')
	if hh > 23 || mm > 59 {
		return nil, false
	}
	name := s[:1] + h + ":" + m
	if hh == 0 && mm == 0 {
		name = "+00:00"
	}
	return &zone{name: name, loc: time.FixedZone(name, sign*(hh*3600+mm*60)), offset: true}, true
}

// localZone returns the zone for a Go location (the default time zone).
func localZone(loc *time.Location) *zone {
	name := loc.String()
	if name == "Local" {
		name = localZoneName()
	}
	if z, ok := resolveZone(name); ok {
		zz := *z
		zz.loc = loc
		return &zz
	}
	return &zone{name: "UTC", iana: "Etc/UTC", loc: time.UTC}
}

func localZoneName() string {
	if tz := getenv("TZ"); tz != "" {
		tz = strings.TrimPrefix(tz, ":")
		if i := strings.Index(tz, "zoneinfo/"); i >= 0 {
			tz = tz[i+9:]
		}
		return tz
	}
	if p, err := readlink("/etc/localtime"); err == nil {
		if i := strings.Index(p, "zoneinfo/"); i >= 0 {
			return p[i+9:]
		}
	}
	return "UTC"
}

type metaZoneRange struct {
	mzone    string
	from, to int64 // unix seconds; 0 = open
}

type metaZoneData struct {
	byZone map[string][]metaZoneRange
	golden map[string]map[string]string // metazone → territory → zone
}

var metaZones = sync.OnceValue(func() *metaZoneData {
	var raw struct {
		MetaZones struct {
			MetazoneInfo struct {
				Timezone map[string]json.RawMessage `json:"timezone"`
			} `json:"metazoneInfo"`
			Metazones []struct {
				MapZone struct {
					Other     string `json:"_other"`
					Type      string `json:"_type"`
					Territory string `json:"_territory"`
				} `json:"mapZone"`
			} `json:"metazones"`
		} `json:"metaZones"`
	}
	cldr.Supplemental("metaZones", &raw)
	d := &metaZoneData{byZone: map[string][]metaZoneRange{}, golden: map[string]map[string]string{}}
	var walk func(prefix string, m json.RawMessage)
	walk = func(prefix string, m json.RawMessage) {
		var arr []struct {
			Uses struct {
				Mzone string `json:"_mzone"`
				From  string `json:"_from"`
				To    string `json:"_to"`
			} `json:"usesMetazone"`
		}
		if json.Unmarshal(m, &arr) == nil {
			var rs []metaZoneRange
			for _, a := range arr {
				rs = append(rs, metaZoneRange{a.Uses.Mzone, parseMZTime(a.Uses.From), parseMZTime(a.Uses.To)})
			}
			d.byZone[prefix] = rs
			return
		}
		var obj map[string]json.RawMessage
		if json.Unmarshal(m, &obj) == nil {
			for k, v := range obj {
				p := k
				if prefix != "" {
					p = prefix + "/" + k
				}
				walk(p, v)
			}
		}
	}
	for k, v := range raw.MetaZones.MetazoneInfo.Timezone {
		walk(k, v)
	}
	for _, m := range raw.MetaZones.Metazones {
		g := d.golden[m.MapZone.Other]
		if g == nil {
			g = map[string]string{}
			d.golden[m.MapZone.Other] = g
		}
		g[m.MapZone.Territory] = m.MapZone.Type
	}
	return d
})

func parseMZTime(s string) int64 {
	if s == "" {
		return 0
	}
	t, err := time.Parse("2006-01-02 15:04", s)
	if err != nil {
		return 0
	}
	return t.Unix()
}

// metaZoneAt returns the metazone of an IANA zone at an instant.
func metaZoneAt(iana string, t time.Time) string {
	rs := metaZones().byZone[iana]
	u := t.Unix()
	for _, r := range rs {
		if (r.from == 0 || u >= r.from) && (r.to == 0 || u < r.to) {
			return r.mzone
		}
	}
	return ""
}

var primaryZones = sync.OnceValue(func() map[string]string {
	var p struct {
		PrimaryZones map[string]string `json:"primaryZones"`
	}
	cldr.Supplemental("primaryZones", &p)
	return p.PrimaryZones
})

// zoneCountry returns the zone's country and whether the zone stands for
// the whole country (the only zone there, or its primary zone).
func zoneCountry(iana string) (string, bool) {
	d := icuData()
	c, ok := d.Country[iana]
	if !ok {
		return "", false
	}
	if d.perCountry[c] == 1 {
		return c, true
	}
	if p, ok := primaryZones()[c]; ok {
		if p == iana || d.Zones[p] == iana {
			return c, true
		}
	}
	return c, false
}
