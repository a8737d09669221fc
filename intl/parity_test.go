package intl

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/dop251/goja"
)

// The parity matrix: testdata/golden.json holds Node 20's output (ICU 78.2,
// CLDR 48) for every case, made by testdata/cases.js. Each case runs here
// in goja with Intl installed and must give the same string. Known
// failures are listed by expression, with the reason, in
// testdata/expectations.json; a listed case that passes fails the test
// (so the list stays true), as does an unlisted failure or a pass rate
// below 99%.

var updateExpect = flag.Bool("update-expectations", false, "rewrite testdata/expectations.json with the current failures")

type parityCase struct {
	Group string `json:"group"`
	Expr  string `json:"expr"`
	Want  string `json:"want"`
}

func evalCase(rt *goja.Runtime, expr string) (got string) {
	defer func() {
		if p := recover(); p != nil {
			got = fmt.Sprintf("!panic: %v", p)
		}
	}()
	v, err := rt.RunString(expr)
	if err != nil {
		if ex, ok := err.(*goja.Exception); ok {
			if o, ok := ex.Value().(*goja.Object); ok {
				if c, ok := o.Get("constructor").(*goja.Object); ok {
					return "!" + c.Get("name").String()
				}
			}
		}
		return "!" + err.Error()
	}
	if s, ok := v.Export().(string); ok {
		return s
	}
	j, _ := json.Marshal(v.Export())
	if goja.IsUndefined(v) {
		return "undefined"
	}
	return string(j)
}

func newTestRuntime(t testing.TB) *goja.Runtime {
	rt := goja.New()
	if err := Install(rt, Options{DefaultLocale: "en-US", TimeZone: time.UTC}); err != nil {
		t.Fatal(err)
	}
	return rt
}

func TestParity(t *testing.T) {
	var cases []parityCase
	b, err := os.ReadFile("testdata/golden.json")
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	expect := map[string]string{}
	if b, err := os.ReadFile("testdata/expectations.json"); err == nil {
		if err := json.Unmarshal(b, &expect); err != nil {
			t.Fatal(err)
		}
	}
	rt := newTestRuntime(t)
	type stat struct{ pass, total int }
	groups := map[string]*stat{}
	pass := 0
	failures := map[string]string{}
	var unexpected []string
	for _, c := range cases {
		got := evalCase(rt, c.Expr)
		g := groups[c.Group]
		if g == nil {
			g = &stat{}
			groups[c.Group] = g
		}
		g.total++
		if got == c.Want {
			pass++
			g.pass++
			if _, listed := expect[c.Expr]; listed {
				t.Errorf("known failure now passes (remove it from expectations.json): %s", c.Expr)
			}
			continue
		}
		failures[c.Expr] = fmt.Sprintf("got %q, Node %q", got, c.Want)
		if _, listed := expect[c.Expr]; !listed {
			unexpected = append(unexpected, fmt.Sprintf("%s\n\tgot  %q\n\twant %q", c.Expr, got, c.Want))
		}
	}
	var names []string
	for n := range groups {
		names = append(names, n)
	}
	sort.Strings(names)
	var sum strings.Builder
	for _, n := range names {
		fmt.Fprintf(&sum, "%-36s %5d/%d\n", n, groups[n].pass, groups[n].total)
	}
	rate := float64(pass) / float64(len(cases))
	t.Logf("parity with Node 20: %d/%d (%.2f%%)\n%s", pass, len(cases), 100*rate, sum.String())
	if *updateExpect {
		out := map[string]string{}
		for k, v := range failures {
			if old, ok := expect[k]; ok && !strings.HasPrefix(old, "got ") {
				out[k] = old
			} else {
				out[k] = v
			}
		}
		b, _ := json.MarshalIndent(out, "", "  ")
		os.WriteFile("testdata/expectations.json", append(b, '\n'), 0o644)
		return
	}
	if dump := os.Getenv("INTL_PARITY_DUMP"); dump != "" {
		sort.Strings(unexpected)
		os.WriteFile(dump, []byte(strings.Join(unexpected, "\n")+"\n"), 0o644)
	}
	if len(unexpected) > 0 {
		sort.Strings(unexpected)
		n := len(unexpected)
		if n > 60 {
			unexpected = unexpected[:60]
		}
		t.Errorf("%d unexpected failures:\n%s", n, strings.Join(unexpected, "\n"))
	}
	if rate < 0.99 {
		t.Errorf("pass rate %.2f%% is below 99%%", 100*rate)
	}
}
