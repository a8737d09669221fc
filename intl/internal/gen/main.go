// Command gen turns the CLDR 48 JSON packages from npm (cldr-core,
// cldr-numbers-full, cldr-dates-full, cldr-localenames-full,
// cldr-units-full, cldr-misc-full) into the compact data the intl package
// embeds: intl/internal/cldr/locales.bin and supplemental.bin.
//
// Each locale becomes a flat list of "path\x00value" pairs holding only the
// fields intl reads, minus what equals its parent's (CLDR inheritance), and
// is compressed on its own so a runtime unpacks only the locales it uses.
//
// Run it through `go generate ./intl` (see intl/internal/gen/run.sh), which
// installs the npm packages into a temporary folder first.
package main

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

var src = flag.String("src", "", "node_modules folder holding the cldr-* packages")
var out = flag.String("out", "", "output folder (intl/internal/cldr)")

func main() {
	flag.Parse()
	if *src == "" || *out == "" {
		log.Fatal("usage: gen -src node_modules -out intl/internal/cldr")
	}
	supp := supplemental()
	parents := map[string]string{}
	var pl struct {
		Supplemental struct {
			ParentLocales struct {
				ParentLocale map[string]string `json:"parentLocale"`
			} `json:"parentLocales"`
		} `json:"supplemental"`
	}
	readJSON(filepath.Join(*src, "cldr-core/supplemental/parentLocales.json"), &pl)
	parents = pl.Supplemental.ParentLocales.ParentLocale

	ents, err := os.ReadDir(filepath.Join(*src, "cldr-numbers-full/main"))
	if err != nil {
		log.Fatal(err)
	}
	var locales []string
	for _, e := range ents {
		locales = append(locales, e.Name())
	}
	sort.Strings(locales)
	flat := map[string]map[string]string{}
	for _, l := range locales {
		flat[l] = localeData(l)
	}
	parentOf := func(l string) string {
		if p, ok := parents[l]; ok {
			if p == "root" {
				return "und"
			}
			return p
		}
		if i := strings.LastIndexByte(l, '-'); i > 0 {
			return l[:i]
		}
		if l == "und" {
			return ""
		}
		return "und"
	}
	var buf bytes.Buffer
	type entry struct {
		name, parent string
		off, n       int
	}
	var index []entry
	total := 0
	for _, l := range locales {
		p := parentOf(l)
		if _, ok := flat[p]; !ok && p != "" {
			p = "und"
		}
		m := flat[l]
		var pm map[string]string
		if p != "" {
			pm = flat[p]
		}
		var keys []string
		for k, v := range m {
			if pv, ok := pm[k]; ok && pv == v {
				continue
			}
			keys = append(keys, k)
		}
		for k := range pm {
			if _, ok := m[k]; !ok {
				keys = append(keys, k) // deleted in the child
			}
		}
		sort.Strings(keys)
		var raw bytes.Buffer
		for _, k := range keys {
			v, ok := m[k]
			if !ok {
				v = "\x01"
			}
			raw.WriteString(k)
			raw.WriteByte(0)
			raw.WriteString(v)
			raw.WriteByte(0)
		}
		total += raw.Len()
		off := buf.Len()
		compress(&buf, raw.Bytes())
		index = append(index, entry{l, p, off, buf.Len() - off})
	}
	// File: uint32 count, then per locale: name, parent (uint8 len + bytes),
	// uint32 offset, uint32 length; then the chunks.
	var hdr bytes.Buffer
	binary.Write(&hdr, binary.LittleEndian, uint32(len(index)))
	for _, e := range index {
		hdr.WriteByte(byte(len(e.name)))
		hdr.WriteString(e.name)
		hdr.WriteByte(byte(len(e.parent)))
		hdr.WriteString(e.parent)
		binary.Write(&hdr, binary.LittleEndian, uint32(e.off))
		binary.Write(&hdr, binary.LittleEndian, uint32(e.n))
	}
	hdr.Write(buf.Bytes())
	must(os.WriteFile(filepath.Join(*out, "locales.bin"), hdr.Bytes(), 0o644))
	var sb bytes.Buffer
	compress(&sb, supp)
	must(os.WriteFile(filepath.Join(*out, "supplemental.bin"), sb.Bytes(), 0o644))
	fmt.Printf("%d locales, %d bytes raw, %d compressed; supplemental %d -> %d\n", len(index), total, hdr.Len(), len(supp), sb.Len())
}

func compress(w *bytes.Buffer, b []byte) {
	fw, _ := flate.NewWriter(w, flate.BestCompression)
	fw.Write(b)
	fw.Close()
}

func must(err error) {
	if err != nil {
		log.Fatal(err)
	}
}

func readJSON(path string, v any) bool {
	b, err := os.ReadFile(path)
	if err != nil {
		if os.IsNotExist(err) {
			return false
		}
		log.Fatal(err)
	}
	must(json.Unmarshal(b, v))
	return true
}

// mainTree reads package/main/<l>/<file> and returns main[l].
func mainTree(pkg, l, file string) map[string]any {
	var v map[string]any
	if !readJSON(filepath.Join(*src, pkg, "main", l, file), &v) {
		return nil
	}
	m, _ := v["main"].(map[string]any)
	t, _ := m[l].(map[string]any)
	return t
}

func get(t map[string]any, path ...string) map[string]any {
	for _, p := range path {
		if t == nil {
			return nil
		}
		t, _ = t[p].(map[string]any)
	}
	return t
}

func flatten(dst map[string]string, prefix string, v any) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			flatten(dst, prefix+"/"+k, c)
		}
	case string:
		dst[prefix] = v
	case []any:
		for i, c := range v {
			flatten(dst, fmt.Sprintf("%s/%d", prefix, i), c)
		}
	}
}

// units ECMA-402 sanctions (and so Intl.NumberFormat accepts), by CLDR id.
var sanctioned = map[string]bool{}

func init() {
	for _, u := range strings.Fields(`area-acre digital-bit digital-byte temperature-celsius length-centimeter duration-day angle-degree temperature-fahrenheit volume-fluid-ounce length-foot volume-gallon digital-gigabit digital-gigabyte mass-gram area-hectare duration-hour length-inch digital-kilobit digital-kilobyte mass-kilogram length-kilometer volume-liter digital-megabit digital-megabyte length-meter duration-microsecond length-mile length-mile-scandinavian volume-milliliter length-millimeter duration-millisecond duration-minute duration-month duration-nanosecond mass-ounce concentr-percent digital-petabyte mass-pound duration-second mass-stone digital-terabit digital-terabyte duration-week length-yard duration-year duration-quarter speed-kilometer-per-hour speed-mile-per-hour speed-meter-per-second consumption-liter-per-kilometer consumption-mile-per-gallon`) {
		sanctioned[u] = true
	}
}

func localeData(l string) map[string]string {
	d := map[string]string{}
	if n := get(mainTree("cldr-numbers-full", l, "numbers.json"), "numbers"); n != nil {
		flatten(d, "n", n)
	}
	if c := get(mainTree("cldr-numbers-full", l, "currencies.json"), "numbers", "currencies"); c != nil {
		flatten(d, "c", c)
	}
	dates := mainTree("cldr-dates-full", l, "ca-gregorian.json")
	if g := get(dates, "dates", "calendars", "gregorian"); g != nil {
		delete(g, "dateSkeletons")
		delete(g, "timeSkeletons")
		flatten(d, "g", g)
	}
	// CLDR stopped publishing the Buddhist calendar to npm after 43.1.0
	// (cldr-cal-buddhist-modern); it is the only source of those patterns.
	if bd := get(mainTree("cldr-cal-buddhist-modern", l, "ca-buddhist.json"), "dates", "calendars", "buddhist"); bd != nil {
		// names are ICU aliases to the Gregorian ones (and newer there)
		for _, k := range []string{"dateSkeletons", "timeSkeletons", "months", "days", "quarters", "dayPeriods"} {
			delete(bd, k)
		}
		flatten(d, "b", bd)
	}
	if z := get(mainTree("cldr-dates-full", l, "timeZoneNames.json"), "dates", "timeZoneNames"); z != nil {
		flatten(d, "z", z)
	}
	if f := get(mainTree("cldr-dates-full", l, "dateFields.json"), "dates", "fields"); f != nil {
		flatten(d, "f", f)
	}
	if lp := get(mainTree("cldr-misc-full", l, "listPatterns.json"), "listPatterns"); lp != nil {
		flatten(d, "l", lp)
	}
	if u := get(mainTree("cldr-units-full", l, "units.json"), "units"); u != nil {
		for _, w := range []string{"long", "short", "narrow"} {
			wt := get(u, w)
			for k, v := range wt {
				if sanctioned[k] || k == "per" {
					flatten(d, "u/"+w+"/"+k, v)
				}
			}
		}
	}
	ln := mainTree("cldr-localenames-full", l, "languages.json")
	if x := get(ln, "localeDisplayNames", "languages"); x != nil {
		flatten(d, "dl", x)
	}
	if x := get(mainTree("cldr-localenames-full", l, "territories.json"), "localeDisplayNames", "territories"); x != nil {
		flatten(d, "dr", x)
	}
	if x := get(mainTree("cldr-localenames-full", l, "scripts.json"), "localeDisplayNames", "scripts"); x != nil {
		flatten(d, "ds", x)
	}
	if x := get(mainTree("cldr-localenames-full", l, "variants.json"), "localeDisplayNames", "variants"); x != nil {
		flatten(d, "dv", x)
	}
	if x := get(mainTree("cldr-localenames-full", l, "localeDisplayNames.json"), "localeDisplayNames"); x != nil {
		flatten(d, "dn", x)
	}
	return d
}

// supplemental gathers the cldr-core supplemental files intl reads into one
// JSON object keyed by file name.
func supplemental() []byte {
	all := map[string]json.RawMessage{}
	for _, f := range []string{"plurals", "ordinals", "pluralRanges", "parentLocales", "likelySubtags", "aliases", "currencyData", "timeData", "calendarPreferenceData", "metaZones", "numberingSystems", "primaryZones", "dayPeriods", "weekData"} {
		b, err := os.ReadFile(filepath.Join(*src, "cldr-core/supplemental", f+".json"))
		must(err)
		var v map[string]any
		must(json.Unmarshal(b, &v))
		s := v["supplemental"].(map[string]any)
		delete(s, "version")
		c, _ := json.Marshal(s)
		all[f] = c
	}
	dc, err := os.ReadFile(filepath.Join(*src, "cldr-core/defaultContent.json"))
	must(err)
	var dcv map[string]any
	must(json.Unmarshal(dc, &dcv))
	all["defaultContent"], _ = json.Marshal(dcv["defaultContent"])
	b, _ := json.Marshal(all)
	return b
}
