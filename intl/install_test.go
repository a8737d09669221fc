package intl

import (
	"fmt"
	"sync"
	"testing"
	"time"

	"bext/intl/internal/cldr"

	"github.com/dop251/goja"
)

func TestInstallIsLazy(t *testing.T) {
	rt := goja.New()
	if err := Install(rt, Options{}); err != nil {
		t.Fatal(err)
	}
	if _, err := rt.RunString(`var x = 1 + 1; "no Intl here"`); err != nil {
		t.Fatal(err)
	}
	desc, err := rt.RunString(`typeof Object.getOwnPropertyDescriptor(globalThis, "Intl").get`)
	if err != nil || desc.String() != "function" {
		t.Fatalf("Intl is not a lazy accessor before first use: %v %v", desc, err)
	}
	v, err := rt.RunString(`typeof Intl + "," + Object.prototype.toString.call(Intl)`)
	if err != nil {
		t.Fatal(err)
	}
	if v.String() != "object,[object Intl]" {
		t.Fatalf("got %q", v)
	}
	d, _ := rt.RunString(`JSON.stringify(Object.getOwnPropertyDescriptor(globalThis, "Intl"), ["writable", "enumerable", "configurable"])`)
	if d.String() != `{"writable":true,"enumerable":false,"configurable":true}` {
		t.Fatalf("Intl descriptor after first use: %s", d)
	}
	if _, err := rt.RunString(`Intl = 5; if (Intl !== 5) throw new Error("not replaced")`); err != nil {
		t.Fatal(err)
	}
}

func TestInstallLoadsNoData(t *testing.T) {
	before := cldr.Loaded()
	for i := 0; i < 10; i++ {
		rt := goja.New()
		if err := Install(rt, Options{}); err != nil {
			t.Fatal(err)
		}
		if _, err := rt.RunString(`[1, 2, 3].map(String).join("")`); err != nil {
			t.Fatal(err)
		}
	}
	if after := cldr.Loaded(); after != before {
		t.Fatalf("Install unpacked %d locales", after-before)
	}
}

func TestDefaultsFromOptions(t *testing.T) {
	rt := goja.New()
	tz, _ := time.LoadLocation("Asia/Tokyo")
	if err := Install(rt, Options{DefaultLocale: "de-DE", TimeZone: tz}); err != nil {
		t.Fatal(err)
	}
	v, err := rt.RunString(`[new Intl.NumberFormat().resolvedOptions().locale, Intl.DateTimeFormat().resolvedOptions().timeZone,
		(1234.5).toLocaleString(), new Date(Date.UTC(2024, 0, 1, 20)).toLocaleString()].join("|")`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "de-DE|Asia/Tokyo|1.234,5|2.1.2024, 05:00:00"; v.String() != want {
		t.Fatalf("got %q, want %q", v, want)
	}
	rt2 := goja.New()
	Install(rt2, Options{DefaultLocale: "xx-invalid-!!"})
	v, _ = rt2.RunString(`new Intl.NumberFormat().resolvedOptions().locale`)
	if v.String() != "en-US" {
		t.Fatalf("bad default locale fell back to %q", v)
	}
}

func TestPosixLocale(t *testing.T) {
	for in, want := range map[string]string{"C.UTF-8": "en-US", "POSIX": "en-US", "de_DE.UTF-8": "de-DE", "pt_BR": "pt-BR", "sr_RS@latin": "sr-RS", "": "en-US", "zz_ZZ": "en-US"} {
		if got := posixToBCP47(in); got != want {
			t.Errorf("%q: got %q, want %q", in, got, want)
		}
	}
}

// TestConcurrentRuntimes runs many runtimes at once over shared caches
// (run with -race).
func TestConcurrentRuntimes(t *testing.T) {
	locales := []string{"en-US", "de", "ja", "ar-EG", "hi", "ru", "fr", "pt-BR"}
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for g := 0; g < 16; g++ {
		wg.Add(1)
		go func(g int) {
			defer wg.Done()
			rt := goja.New()
			if err := Install(rt, Options{TimeZone: time.UTC}); err != nil {
				errs <- err
				return
			}
			l := locales[g%len(locales)]
			src := fmt.Sprintf(`
				const nf = new Intl.NumberFormat(%[1]q, {style: "currency", currency: "EUR"});
				const df = new Intl.DateTimeFormat(%[1]q, {dateStyle: "full", timeStyle: "short", timeZone: "Europe/Berlin"});
				const pr = new Intl.PluralRules(%[1]q);
				let s = "";
				for (let i = 0; i < 50; i++) s = nf.format(i * 1.5) + df.format(i * 1e9) + pr.select(i) + new Intl.RelativeTimeFormat(%[1]q).format(i, "day");
				s`, l)
			if _, err := rt.RunString(src); err != nil {
				errs <- err
			}
		}(g)
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestErrorsAreTyped(t *testing.T) {
	rt := newTestRuntime(t)
	for expr, want := range map[string]string{
		`new Intl.NumberFormat("en", {style: "currency", currency: "EURO"})`: "RangeError",
		`new Intl.NumberFormat("en", {style: "currency"})`:                   "TypeError",
		`new Intl.DateTimeFormat("en", {timeZone: "Nowhere/City"})`:          "RangeError",
		`new Intl.NumberFormat("en_US")`:                                     "RangeError",
		`Intl.PluralRules()`:                                                 "TypeError",
		`Intl.NumberFormat.prototype.format`:                                 "TypeError",
		`new Intl.DateTimeFormat().format(NaN)`:                              "RangeError",
		`Intl.getCanonicalLocales([null])`:                                   "TypeError",
	} {
		if got := evalCase(rt, expr); got != "!"+want {
			t.Errorf("%s: got %s, want %s", expr, got, want)
		}
	}
}

func TestSubclassAndInstanceof(t *testing.T) {
	rt := newTestRuntime(t)
	v, err := rt.RunString(`
		class Money extends Intl.NumberFormat { constructor() { super("en-US", {style: "currency", currency: "USD"}) } }
		const m = new Money();
		[m instanceof Money, m instanceof Intl.NumberFormat, m.format(3), Intl.NumberFormat("en") instanceof Intl.NumberFormat,
		 Object.prototype.toString.call(new Intl.Segmenter()), Intl.NumberFormat.name, Intl.NumberFormat.prototype.constructor === Intl.NumberFormat].join()`)
	if err != nil {
		t.Fatal(err)
	}
	if want := "true,true,$3.00,true,[object Intl.Segmenter],NumberFormat,true"; v.String() != want {
		t.Fatalf("got %q, want %q", v, want)
	}
}
