package cldr

import "testing"

func TestBundlesInherit(t *testing.T) {
	if !Has("en-GB") || Has("xx-XX") {
		t.Fatal("Has")
	}
	b := Load("en-GB")
	if b == nil || b.Parent == nil || b.Parent.ID != "en-001" {
		t.Fatalf("en-GB's parent: %+v", b)
	}
	if got := b.S("n/symbols-numberSystem-latn/decimal"); got != "." {
		t.Fatalf("inherited decimal: %q", got)
	}
	if got := b.S("g/dateFormats/short"); got != "dd/MM/y" {
		t.Fatalf("own short date: %q", got)
	}
	if _, ok := b.Get("z/metazone/America_Eastern/short/standard"); ok {
		t.Fatal("en-001 removes the US short zone names, en-GB must not inherit them from en")
	}
	if Load("en-GB") != b {
		t.Fatal("bundles are not cached")
	}
}

func TestSupplemental(t *testing.T) {
	var p map[string]map[string]map[string]string
	Supplemental("plurals", &p)
	if p["plurals-type-cardinal"]["ru"]["pluralRule-count-few"] == "" {
		t.Fatal("ru plural rules missing")
	}
}
