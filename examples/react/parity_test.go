package react

import (
	"strings"
	"testing"

	"bext/engine"
	"bext/engine/fastsink"
	"bext/internal/nodeparity"
)

// TestParityWithNode renders every page in goja and in Node from the same
// bundle and requires byte-identical output, with the fast sink on and off,
// in production and development builds.
func TestParityWithNode(t *testing.T) {
	var prodHTML map[string]string // production pages, to compare fast with stock
	for _, v := range []variant{{false, true}, {false, false}, {true, true}, {true, false}} {
		t.Run(v.String(), func(t *testing.T) {
			b := bundle(t, v)
			checkSink(t, v, string(b.Code), b.Warnings)
			iso := isolate(t, v)
			reqs := make([]*engine.Request, len(pages))
			for i, url := range pages {
				reqs[i] = nodeparity.Request(url)
			}
			want := nodeparity.Render(t, b.Code, reqs)
			for i, url := range pages {
				got := renderGoja(t, iso, url)
				if got.Error != "" || want[i].Error != "" {
					if got.Error == "" || want[i].Error == "" || !strings.Contains(got.Error, want[i].Error) {
						t.Errorf("%s: goja error %q, node error %q", url, got.Error, want[i].Error)
					}
					continue
				}
				if got.Status != want[i].Status || got.Headers["content-type"] != want[i].Headers["content-type"] {
					t.Errorf("%s: goja status %d %q, node %d %q", url, got.Status, got.Headers, want[i].Status, want[i].Headers)
				}
				if d := nodeparity.Diff(got.HTML, want[i].HTML); d != "" {
					t.Errorf("%s: %s", url, d)
				}
			}
			if !v.dev {
				if prodHTML == nil {
					prodHTML = map[string]string{}
					for i, url := range pages {
						prodHTML[url] = want[i].HTML
					}
				} else {
					for i, url := range pages {
						if prodHTML[url] != want[i].HTML {
							t.Errorf("%s: fast sink and stock bundles render different HTML", url)
						}
					}
				}
			}
			for _, l := range iso.Console() { // React's dev warnings (keys, props) land here
				t.Errorf("console.%s during renders: %s", l.Level, l.Text)
			}
		})
	}
}

// checkSink requires the fast-sink bundle to carry the rewrite, so this test
// fails if the plugin silently stops matching React.
func checkSink(t *testing.T, v variant, code string, warnings []string) {
	t.Helper()
	stock, fast := fastsink.Sinks(code)
	if v.fastSink && (stock != 0 || fast != 1) {
		t.Errorf("fast-sink bundle has %d string sinks and %d array sinks, want 0 and 1 (did the plugin stop matching react-dom?)", stock, fast)
	}
	if !v.fastSink && (stock != 1 || fast != 0) {
		t.Errorf("stock bundle has %d string sinks and %d array sinks, want 1 and 0", stock, fast)
	}
	for _, w := range warnings {
		if strings.Contains(w, "fast sink") {
			t.Errorf("build warning: %s", w)
		}
	}
}

// TestPages checks what the app promises: page sizes the benchmark names
// rely on, escaping of user input, the data-error fallback, the 404 and the
// failing route.
func TestPages(t *testing.T) {
	iso := isolate(t, variant{fastSink: true})
	sizes := map[string][2]int{"/small": {1500, 3000}, "/": {14000, 20000}, "/large": {85000, 115000}}
	for url, r := range sizes {
		if n := len(renderGoja(t, iso, url).HTML); n < r[0] || n > r[1] {
			t.Errorf("%s is %d bytes, want %d–%d", url, n, r[0], r[1])
		}
	}
	home := renderGoja(t, iso, "/").HTML
	for _, s := range []string{"<!DOCTYPE html><html lang=\"en\">", "茶壶 · Teapot 🍵", `dir="rtl"`, "<strong>Free shipping</strong>", `style="display:flex;`, `<input type="checkbox" name="stock" value="1"/>`} {
		if !strings.Contains(home, s) {
			t.Errorf("/ does not contain %q", s)
		}
	}
	if h := renderGoja(t, iso, "/?q=<script>alert(1)</script>").HTML; strings.Contains(h, "<script>alert") || !strings.Contains(h, `value="&lt;script&gt;alert(1)&lt;/script&gt;"`) {
		t.Errorf("query text is not escaped into the search box")
	}
	if h := renderGoja(t, iso, "/items/item-10").HTML; !strings.Contains(h, "Reviews are unavailable right now (review service unavailable for item 10)") {
		t.Errorf("/items/item-10 lacks the reviews fallback")
	}
	if r := renderGoja(t, iso, "/nope"); r.Status != 404 || !strings.Contains(r.HTML, "404 — nothing at /nope") {
		t.Errorf("/nope: status %d", r.Status)
	}
	if r := renderGoja(t, iso, "/broken"); !strings.Contains(r.Error, "Broken: this component always throws") {
		t.Errorf("/broken: error %q, want the component's message", r.Error)
	}
}
