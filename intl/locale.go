package intl

import (
	"os"
	"sort"
	"strings"
	"sync"

	"bext/intl/internal/cldr"
)

// langTag is a parsed, canonical Unicode BCP 47 locale identifier.
type langTag struct {
	lang, script, region string
	variants             []string
	// uattrs and ukeys are the -u- extension: attributes and key/value
	// pairs in canonical (sorted) order.
	uattrs []string
	ukeys  []kv
	// other holds the other extensions and private use, already canonical,
	// each starting with its singleton ("t-…", "x-…").
	other []string
}

type kv struct{ k, v string }

func isAlpha(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c < 'a' || c > 'z' {
			return false
		}
	}
	return s != ""
}

func isDigit(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

func isAlnum(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= '0' && c <= '9' || c|0x20 >= 'a' && c|0x20 <= 'z') {
			return false
		}
	}
	return s != ""
}

func title(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// parseTag parses a Unicode locale identifier (UTS 35, as ECMA-402's
// IsStructurallyValidLanguageTag) and canonicalizes it. ok is false for an
// ill-formed tag.
func parseTag(s string) (t langTag, ok bool) {
	if s == "" || strings.ContainsAny(s, "_ ") || !isASCII(s) {
		return t, false
	}
	parts := strings.Split(strings.ToLower(s), "-")
	i := 0
	p := parts[0]
	if !isAlpha(p) || len(p) == 4 || len(p) < 2 || len(p) > 8 {
		return t, false
	}
	t.lang = p
	i++
	if i < len(parts) && len(parts[i]) == 4 && isAlpha(parts[i]) {
		t.script = title(parts[i])
		i++
	}
	if i < len(parts) && (len(parts[i]) == 2 && isAlpha(parts[i]) || len(parts[i]) == 3 && isDigit(parts[i])) {
		t.region = strings.ToUpper(parts[i])
		i++
	}
	seen := map[string]bool{}
	for i < len(parts) {
		p := parts[i]
		if len(p) >= 5 && len(p) <= 8 && isAlnum(p) || len(p) == 4 && p[0] >= '0' && p[0] <= '9' && isAlnum(p) {
			if seen[p] {
				return t, false
			}
			seen[p] = true
			t.variants = append(t.variants, p)
			i++
			continue
		}
		break
	}
	sort.Strings(t.variants)
	singletons := map[string]bool{}
	for i < len(parts) {
		p := parts[i]
		if len(p) != 1 || !isAlnum(p) {
			return t, false
		}
		if p == "x" {
			rest := parts[i+1:]
			if len(rest) == 0 {
				return t, false
			}
			for _, r := range rest {
				if !isAlnum(r) || len(r) > 8 {
					return t, false
				}
			}
			t.other = append(t.other, "x-"+strings.Join(rest, "-"))
			i = len(parts)
			break
		}
		if singletons[p] {
			return t, false
		}
		singletons[p] = true
		j := i + 1
		for j < len(parts) && len(parts[j]) > 1 {
			if !isAlnum(parts[j]) || len(parts[j]) > 8 {
				return t, false
			}
			j++
		}
		sub := parts[i+1 : j]
		if len(sub) == 0 {
			return t, false
		}
		if p == "u" {
			if !t.parseU(sub) {
				return t, false
			}
		} else {
			for _, x := range sub {
				if len(x) < 2 {
					return t, false
				}
			}
			t.other = append(t.other, p+"-"+strings.Join(sub, "-"))
		}
		i = j
	}
	// other extensions sort by singleton, private use last
	sort.SliceStable(t.other, func(a, b int) bool {
		if t.other[a][0] == 'x' {
			return false
		}
		if t.other[b][0] == 'x' {
			return true
		}
		return t.other[a] < t.other[b]
	})
	t.canonicalize()
	return t, true
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

func (t *langTag) parseU(sub []string) bool {
	i := 0
	for i < len(sub) && len(sub[i]) != 2 {
		if len(sub[i]) < 3 {
			return false
		}
		t.uattrs = append(t.uattrs, sub[i])
		i++
	}
	seen := map[string]bool{}
	for i < len(sub) {
		k := sub[i]
		if len(k) != 2 || !(k[1] < '0' || k[1] > '9') {
			return false
		}
		i++
		var vals []string
		for i < len(sub) && len(sub[i]) >= 3 {
			vals = append(vals, sub[i])
			i++
		}
		if seen[k] {
			continue // the first wins
		}
		seen[k] = true
		v := strings.Join(vals, "-")
		if v == "true" {
			v = ""
		}
		t.ukeys = append(t.ukeys, kv{k, canonUValue(k, v)})
	}
	sort.Strings(t.uattrs)
	sort.SliceStable(t.ukeys, func(a, b int) bool { return t.ukeys[a].k < t.ukeys[b].k })
	return true
}

func canonUValue(k, v string) string {
	switch k + "-" + v {
	case "ca-ethiopic-amete-alem":
		return "ethioaa"
	case "ca-islamicc":
		return "islamic-civil"
	case "ks-primary":
		return "level1"
	case "ks-tertiary":
		return "level3"
	case "ms-imperial":
		return "uksystem"
	case "kb-yes", "kc-yes", "kh-yes", "kk-yes", "kn-yes":
		return ""
	case "tz-cnsha":
		return "cnsha"
	}
	return v
}

type aliasData struct {
	lang      map[string]string
	territory map[string]string
	script    map[string]string
}

var aliases = sync.OnceValue(func() *aliasData {
	var a struct {
		Metadata struct {
			Alias struct {
				LanguageAlias map[string]struct {
					Replacement string `json:"_replacement"`
				} `json:"languageAlias"`
				TerritoryAlias map[string]struct {
					Replacement string `json:"_replacement"`
				} `json:"territoryAlias"`
				ScriptAlias map[string]struct {
					Replacement string `json:"_replacement"`
				} `json:"scriptAlias"`
			} `json:"alias"`
		} `json:"metadata"`
	}
	cldr.Supplemental("aliases", &a)
	d := &aliasData{map[string]string{}, map[string]string{}, map[string]string{}}
	for k, v := range a.Metadata.Alias.LanguageAlias {
		d.lang[k] = v.Replacement
	}
	for k, v := range a.Metadata.Alias.TerritoryAlias {
		d.territory[k] = v.Replacement
	}
	for k, v := range a.Metadata.Alias.ScriptAlias {
		d.script[k] = v.Replacement
	}
	return d
})

// canonicalize applies CLDR's language, script and territory aliases (the
// single-replacement ones UTS 35 canonicalization uses most).
func (t *langTag) canonicalize() {
	a := aliases()
	// language aliases, most specific first: lang-variant, lang-region, lang
	apply := func(r string, dropVariant string, dropRegion bool) {
		rt, ok := parseSimple(r)
		if !ok {
			return
		}
		t.lang = rt.lang
		if t.script == "" {
			t.script = rt.script
		}
		if dropRegion || t.region == "" {
			t.region = rt.region
		}
		if dropVariant != "" {
			for k, v := range t.variants {
				if v == dropVariant {
					t.variants = append(append([]string{}, t.variants[:k]...), t.variants[k+1:]...)
					break
				}
			}
			for _, p := range strings.Split(r, "-")[1:] {
				if len(p) >= 5 {
					t.variants = append(t.variants, p)
				}
			}
			sort.Strings(t.variants)
		}
	}
	done := false
	for _, v := range t.variants {
		if r, ok := a.lang[t.lang+"-"+v]; ok {
			apply(r, v, false)
			done = true
			break
		}
	}
	if !done && t.region != "" {
		if r, ok := a.lang[t.lang+"-"+strings.ToLower(t.region)]; ok {
			apply(r, "", true)
			done = true
		} else if r, ok := a.lang[t.lang+"-"+t.region]; ok {
			apply(r, "", true)
			done = true
		}
	}
	if !done {
		if r, ok := a.lang[t.lang]; ok {
			apply(r, "", false)
		}
	}
	if t.script != "" {
		if r, ok := a.script[t.script]; ok {
			t.script = r
		}
	}
	if t.region != "" {
		if r, ok := a.territory[t.region]; ok {
			if f := strings.Fields(r); len(f) == 1 {
				t.region = f[0]
			} else if len(f) > 1 {
				// the likely region of the language and script, if listed
				best := f[0]
				m := langTag{lang: t.lang, script: t.script}.maximize()
				for _, x := range f {
					if x == m.region {
						best = x
					}
				}
				t.region = best
			}
		}
	}
}

func parseSimple(s string) (langTag, bool) {
	var t langTag
	parts := strings.Split(s, "-")
	if len(parts) == 0 {
		return t, false
	}
	t.lang = parts[0]
	for _, p := range parts[1:] {
		switch {
		case len(p) == 4:
			t.script = p
		case len(p) == 2 || len(p) == 3 && isDigit(p):
			t.region = p
		}
	}
	return t, true
}

func (t langTag) String() string {
	var b strings.Builder
	b.WriteString(t.lang)
	if t.script != "" {
		b.WriteString("-" + t.script)
	}
	if t.region != "" {
		b.WriteString("-" + t.region)
	}
	for _, v := range t.variants {
		b.WriteString("-" + v)
	}
	ext := t.extensions()
	if ext != "" {
		b.WriteString("-" + ext)
	}
	return b.String()
}

// base returns the tag without extensions.
func (t langTag) base() string {
	t.uattrs, t.ukeys, t.other = nil, nil, nil
	return t.String()
}

func (t langTag) extensions() string {
	var parts []string
	var priv string
	uDone := false
	u := func() {
		if uDone || len(t.uattrs) == 0 && len(t.ukeys) == 0 {
			uDone = true
			return
		}
		uDone = true
		s := "u"
		for _, a := range t.uattrs {
			s += "-" + a
		}
		for _, k := range t.ukeys {
			s += "-" + k.k
			if k.v != "" {
				s += "-" + k.v
			}
		}
		parts = append(parts, s)
	}
	for _, o := range t.other {
		if o[0] == 'x' {
			priv = o
			continue
		}
		if o[0] > 'u' {
			u()
		}
		parts = append(parts, o)
	}
	u()
	if priv != "" {
		parts = append(parts, priv)
	}
	return strings.Join(parts, "-")
}

func (t langTag) ukey(k string) (string, bool) {
	for _, x := range t.ukeys {
		if x.k == k {
			return x.v, true
		}
	}
	return "", false
}

func (t *langTag) setUKey(k, v string) {
	for i := range t.ukeys {
		if t.ukeys[i].k == k {
			t.ukeys[i].v = v
			return
		}
	}
	t.ukeys = append(t.ukeys, kv{k, v})
	sort.SliceStable(t.ukeys, func(a, b int) bool { return t.ukeys[a].k < t.ukeys[b].k })
}

var likelyData = sync.OnceValue(func() map[string]string {
	var m struct {
		LikelySubtags map[string]string `json:"likelySubtags"`
	}
	cldr.Supplemental("likelySubtags", &m)
	return m.LikelySubtags
})

// likely returns the likely-subtags expansion of a language-script-region
// key, as UTS 35's "Add Likely Subtags" lookup order.
func likely(key string) (langTag, bool) {
	if v, ok := likelyData()[key]; ok {
		return parseSimple(v)
	}
	return langTag{}, false
}

// maximize adds likely subtags.
func (t langTag) maximize() langTag {
	lang := t.lang
	if lang == "root" {
		lang = "und"
	}
	try := []string{}
	if t.script != "" && t.region != "" {
		try = append(try, lang+"-"+t.script+"-"+t.region)
	}
	if t.script != "" {
		try = append(try, lang+"-"+t.script)
	}
	if t.region != "" {
		try = append(try, lang+"-"+t.region)
	}
	try = append(try, lang)
	if lang != "und" {
		if t.script != "" {
			try = append(try, "und-"+t.script)
		}
	}
	for _, k := range try {
		if m, ok := likely(k); ok {
			r := t
			if r.lang == "und" {
				r.lang = m.lang
			}
			if r.script == "" {
				r.script = m.script
			}
			if r.region == "" {
				r.region = m.region
			}
			return r
		}
	}
	return t
}

// minimize removes subtags that maximize would add back.
func (t langTag) minimize() langTag {
	max := t.maximize()
	for _, c := range []langTag{{lang: max.lang}, {lang: max.lang, region: max.region}, {lang: max.lang, script: max.script}} {
		m := c.maximize()
		if m.lang == max.lang && m.script == max.script && m.region == max.region {
			r := t
			r.lang, r.script, r.region = c.lang, c.script, c.region
			return r
		}
	}
	return t
}

var defaultContent = sync.OnceValue(func() map[string]bool {
	var l []string
	cldr.Supplemental("defaultContent", &l)
	m := map[string]bool{}
	for _, x := range l {
		m[strings.ReplaceAll(x, "_", "-")] = true
	}
	return m
})

// available reports whether ICU would name the locale (extension-free,
// canonical) as one it has: CLDR's locales, their default-content children
// (pt-BR, en-US), and aliases that the likely script resolves (zh-TW).
func available(base string) bool {
	if base == "und" {
		return false
	}
	if cldr.Has(base) || defaultContent()[base] {
		return true
	}
	t, ok := parseTag(base)
	if !ok || len(t.variants) > 0 {
		return false
	}
	if t.script == "" && t.region != "" {
		m := t.maximize()
		s := t.lang + "-" + m.script + "-" + t.region
		return cldr.Has(s) || defaultContent()[s]
	}
	return false
}

// dataLocale maps an available locale to the CLDR bundle that holds its data.
func dataLocale(base string) *cldr.Bundle {
	if b := cldr.Load(base); b != nil {
		return b
	}
	t, ok := parseTag(base)
	if ok && t.script == "" && t.region != "" {
		m := t.maximize()
		if b := cldr.Load(t.lang + "-" + m.script + "-" + t.region); b != nil {
			return b
		}
		if defaultContent()[t.lang+"-"+m.script+"-"+t.region] {
			if b := cldr.Load(t.lang + "-" + m.script); b != nil {
				return b
			}
		}
	}
	for {
		i := strings.LastIndexByte(base, '-')
		if i < 0 {
			break
		}
		base = base[:i]
		if b := cldr.Load(base); b != nil {
			return b
		}
	}
	return cldr.Load("und")
}

// bestAvailable is ECMA-402's BestAvailableLocale.
func bestAvailable(base string) string { return bestAvailableIn(base, available) }

func bestAvailableIn(base string, available func(string) bool) string {
	for {
		if available(base) {
			return base
		}
		i := strings.LastIndexByte(base, '-')
		if i < 0 {
			return ""
		}
		if i >= 2 && base[i-2] == '-' {
			i -= 2
		}
		base = base[:i]
	}
}

var defaultLocaleOnce = sync.OnceValue(func() string {
	for _, k := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		v := os.Getenv(k)
		if v == "" {
			continue
		}
		return posixToBCP47(v)
	}
	return "en-US"
})

func posixToBCP47(v string) string {
	if i := strings.IndexAny(v, ".@"); i >= 0 {
		v = v[:i]
	}
	if v == "C" || v == "POSIX" || v == "" {
		return "en-US"
	}
	v = strings.ReplaceAll(v, "_", "-")
	t, ok := parseTag(v)
	if !ok {
		return "en-US"
	}
	b := bestAvailable(t.base())
	if b == "" {
		return "en-US"
	}
	return b
}
