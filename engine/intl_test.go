package engine_test

import (
	"os"
	"path/filepath"
	"testing"

	"bext/engine"
	"bext/internal/nodeparity"
)

// Every isolate has Intl (installed lazily) and locale-aware prototype
// methods: a page formatting prices, dates, plurals and Turkish casing
// renders what Node 20 renders from the same bundle.
func TestIsolatesHaveIntl(t *testing.T) {
	dir := t.TempDir()
	src := `globalThis.render = () => ({ html: [
		typeof Intl,
		new Intl.NumberFormat("de-DE", { style: "currency", currency: "EUR" }).format(1234.5),
		(1234.5).toLocaleString("en-US"), (1234.5).toLocaleString("ar-EG"),
		new Date(0).toLocaleDateString("ja-JP", { timeZone: "UTC" }),
		new Date(1e12).toLocaleString("fr-FR", { timeZone: "Europe/Paris", dateStyle: "full", timeStyle: "short" }),
		"I".toLocaleLowerCase("tr"), ["b", "a", "ä"].sort(new Intl.Collator("de").compare).join(),
		new Intl.PluralRules("en", { type: "ordinal" }).select(2),
		new Intl.RelativeTimeFormat("es", { numeric: "auto" }).format(-1, "day"),
	].join("|") });`
	if err := os.WriteFile(filepath.Join(dir, "server.js"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	b, err := engine.BuildServer(engine.BuildOptions{Dir: dir, Entry: "server.js"})
	if err != nil {
		t.Fatal(err)
	}
	p, err := engine.Compile("intl", b.Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := engine.NewIsolate(p, engine.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer iso.Close()
	req := nodeparity.Request("/")
	res, err := iso.Render(t.Context(), req)
	if err != nil {
		t.Fatal(err)
	}
	node := nodeparity.Render(t, b.Code, []*engine.Request{req})[0]
	if d := nodeparity.Diff(res.HTML, node.HTML); d != "" {
		t.Fatalf("bext and Node differ: %s", d)
	}
	if node.HTML[:6] != "object" {
		t.Fatalf("Node's render: %q", node.HTML)
	}
}
