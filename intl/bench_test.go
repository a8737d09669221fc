package intl

import (
	"runtime"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// BenchmarkInstallWarm is Install on a runtime whose built-in prototypes
// already exist (any app that ran a line of code): Install's own cost.
func BenchmarkInstallWarm(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		rt := goja.New()
		rt.RunString("Number.prototype; BigInt.prototype; Date.prototype; String.prototype; Array.prototype")
		b.StartTimer()
		if err := Install(rt, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkInstall is the cost an isolate that never touches Intl pays,
// including goja's lazy creation of the five prototypes Install patches.
func BenchmarkInstall(b *testing.B) {
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		rt := goja.New()
		b.StartTimer()
		if err := Install(rt, Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// TestInstallRetainedHeap measures what Install keeps alive per runtime.
func TestInstallRetainedHeap(t *testing.T) {
	const n = 200
	rts := make([]*goja.Runtime, n)
	for i := range rts {
		rts[i] = goja.New()
	}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	for _, rt := range rts {
		if err := Install(rt, Options{}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.GC()
	runtime.ReadMemStats(&m1)
	per := (int64(m1.HeapAlloc) - int64(m0.HeapAlloc)) / n
	t.Logf("heap retained by Install: %d bytes per runtime", per)
	if per > 64<<10 {
		t.Errorf("Install retains %d bytes per runtime; it must not load locale data", per)
	}
	runtime.KeepAlive(rts)
}

func benchJS(b *testing.B, setup, loop string) {
	rt := goja.New()
	if err := Install(rt, Options{TimeZone: time.UTC}); err != nil {
		b.Fatal(err)
	}
	if _, err := rt.RunString(setup); err != nil {
		b.Fatal(err)
	}
	f, err := rt.RunString("(function(n) { let s; for (let i = 0; i < n; i++) { " + loop + " } return s })")
	if err != nil {
		b.Fatal(err)
	}
	fn, _ := goja.AssertFunction(f)
	// warm the shared caches, as a long-running server has them
	if _, err := fn(nil, rt.ToValue(2)); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	if _, err := fn(nil, rt.ToValue(b.N)); err != nil {
		b.Fatal(err)
	}
}

func BenchmarkNewNumberFormatCurrency(b *testing.B) {
	benchJS(b, ``, `s = new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"})`)
}

func BenchmarkNewDateTimeFormat(b *testing.B) {
	benchJS(b, ``, `s = new Intl.DateTimeFormat("de-DE", {dateStyle: "long", timeStyle: "short", timeZone: "Europe/Berlin"})`)
}

func BenchmarkNewDateTimeFormatComponents(b *testing.B) {
	benchJS(b, ``, `s = new Intl.DateTimeFormat("de-DE", {weekday: "long", year: "numeric", month: "long", day: "numeric", hour: "numeric", minute: "2-digit", timeZone: "Europe/Berlin"})`)
}

func BenchmarkFormatCurrencyEnUS(b *testing.B) {
	benchJS(b, `var nf = new Intl.NumberFormat("en-US", {style: "currency", currency: "USD"})`, `s = nf.format(i * 1.37 + 1234.5)`)
}

func BenchmarkFormatDateDeDE(b *testing.B) {
	benchJS(b, `var df = new Intl.DateTimeFormat("de-DE", {dateStyle: "long", timeStyle: "short", timeZone: "Europe/Berlin"})`, `s = df.format(1700000000000 + i * 60000)`)
}

func BenchmarkNumberToLocaleString(b *testing.B) {
	benchJS(b, ``, `s = (i * 1.5).toLocaleString("en-US")`)
}

func BenchmarkDateToLocaleDateString(b *testing.B) {
	benchJS(b, ``, `s = new Date(1700000000000 + i).toLocaleDateString("de-DE")`)
}

func BenchmarkPluralSelect(b *testing.B) {
	benchJS(b, `var pr = new Intl.PluralRules("ru")`, `s = pr.select(i)`)
}

func BenchmarkLocaleCompare(b *testing.B) {
	benchJS(b, `var c = new Intl.Collator("de")`, `s = c.compare("Äpfel" + (i & 7), "Apfel")`)
}

// TestFirstUseCost logs what the first use of a locale costs (unpacking
// its CLDR data and its parents'), which every later use skips.
func TestFirstUseCost(t *testing.T) {
	rt := goja.New()
	if err := Install(rt, Options{TimeZone: time.UTC}); err != nil {
		t.Fatal(err)
	}
	for _, l := range []string{"pl", "sv", "ko"} {
		start := time.Now()
		if _, err := rt.RunString(`new Intl.DateTimeFormat("` + l + `", {dateStyle: "long"}).format(0) + new Intl.NumberFormat("` + l + `").format(1)`); err != nil {
			t.Fatal(err)
		}
		t.Logf("first use of %s: %v", l, time.Since(start))
	}
}
