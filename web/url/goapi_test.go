package url

import (
	"errors"
	"testing"

	"github.com/dop251/goja"

	"bext/web/webidl"
)

func newRealm(t testing.TB) (*webidl.Realm, *goja.Runtime) {
	rt := goja.New()
	r := webidl.NewRealm(benchHost{rt})
	Install(r)
	Install(r) // idempotent
	return r, rt
}

func TestParse(t *testing.T) {
	for _, c := range []struct{ input, base, href string }{
		{"https://example.com/a?b#c", "", "https://example.com/a?b#c"},
		{"/x?y", "http://localhost:3000/p", "http://localhost:3000/x?y"},
		{"../up", "http://h/a/b/c", "http://h/a/up"},
		{"HTTP://H:80", "", "http://h/"},
		{"https://ÉXAMPLE.com/ü", "", "https://xn--xample-9ua.com/%C3%BC"},
	} {
		href, err := Parse(c.input, c.base)
		if err != nil || href != c.href {
			t.Errorf("Parse(%q, %q) = %q, %v; want %q", c.input, c.base, href, err, c.href)
		}
	}
	for _, c := range []struct{ input, base string }{
		{"foo", ""},
		{"/x", "not a base"},
		{"http://exa mple.com/", ""},
		{"http://h:99999/", ""},
	} {
		if href, err := Parse(c.input, c.base); !errors.Is(err, ErrInvalid) || href != "" {
			t.Errorf("Parse(%q, %q) = %q, %v; want ErrInvalid", c.input, c.base, href, err)
		}
	}
}

func TestParseURLComponents(t *testing.T) {
	u, err := ParseURL("wss://u:p@[::1]:8443/a/b?c=d#e", "")
	if err != nil {
		t.Fatal(err)
	}
	got := []string{u.Href(), u.Protocol(), u.Scheme(), u.Username(), u.Password(), u.Host(), u.Hostname(), u.Port(), u.Pathname(), u.Search(), u.Hash(), u.Origin(), u.String()}
	want := []string{"wss://u:p@[::1]:8443/a/b?c=d#e", "wss:", "wss", "u", "p", "[::1]:8443", "[::1]", "8443", "/a/b", "?c=d", "#e", "wss://[::1]:8443", "wss://u:p@[::1]:8443/a/b?c=d#e"}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("component %d = %q, want %q", i, got[i], want[i])
		}
	}
}

func TestOf(t *testing.T) {
	_, rt := newRealm(t)
	v, err := rt.RunString(`new URL("/p?q=1", "https://example.com")`)
	if err != nil {
		t.Fatal(err)
	}
	if href, ok := Of(v); !ok || href != "https://example.com/p?q=1" {
		t.Errorf("Of(URL) = %q, %v", href, ok)
	}
	// A change through searchParams shows in Of at once.
	if _, err := rt.RunString(`globalThis.u = new URL("http://h/"); u.searchParams.append("a", "b c")`); err != nil {
		t.Fatal(err)
	}
	if href, _ := Of(rt.Get("u")); href != "http://h/?a=b+c" {
		t.Errorf("Of after searchParams.append = %q", href)
	}
	for _, src := range []string{`"http://h/"`, `({href: "http://h/"})`, `new URLSearchParams("a=b")`, `undefined`} {
		v, _ := rt.RunString(src)
		if href, ok := Of(v); ok {
			t.Errorf("Of(%s) = %q, true; want false", src, href)
		}
	}
}

func TestSearchParamsOf(t *testing.T) {
	_, rt := newRealm(t)
	v, err := rt.RunString(`new URLSearchParams({a: "1 2", "é": "&"})`)
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := SearchParamsOf(v); !ok || s != "a=1+2&%C3%A9=%26" {
		t.Errorf("SearchParamsOf = %q, %v", s, ok)
	}
	if _, ok := SearchParamsOf(rt.ToValue("a=b")); ok {
		t.Error("SearchParamsOf(string) = true")
	}
}

func TestCreateObjectURL(t *testing.T) {
	_, rt := newRealm(t)
	v, err := rt.RunString(`try { URL.createObjectURL({}); "no throw" } catch (e) { [e instanceof TypeError, e.code, /not supported/.test(e.message)].join() }`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != "true,ERR_METHOD_NOT_IMPLEMENTED,true" {
		t.Errorf("createObjectURL: %s", got)
	}
}

// TestPatternGroupsFromLibrary guards the read of go-urlpattern's
// compiled components (groups.go): if the library's layout changes, the
// undefined groups of the WPT data fail too, but this says why.
func TestPatternGroupsFromLibrary(t *testing.T) {
	_, rt := newRealm(t)
	v, err := rt.RunString(`const m = new URLPattern({pathname: "/books/:id/:rest?"}).exec({pathname: "/books/7"}); JSON.stringify([Object.keys(m.pathname.groups), m.pathname.groups.id, m.pathname.groups.rest === undefined])`)
	if err != nil {
		t.Fatal(err)
	}
	if got := v.String(); got != `[["id","rest"],"7",true]` {
		t.Errorf("groups = %s (go-urlpattern's compiled component layout changed? see compiledPart)", got)
	}
}

// TestParseConcurrent: Parse is called from any goroutine (fetch's
// redirects, the engine); the shared whatwg-url parser holds only
// options.
func TestParseConcurrent(t *testing.T) {
	inputs := []string{"https://example.com/a?b", "HTTP://Ex.com/../x", "http://[::1]/", "/rel", "http://xn--nxasmq6b.com/"}
	done := make(chan string)
	for g := range 8 {
		go func() {
			for i := range 200 {
				in := inputs[(g+i)%len(inputs)]
				if _, err := Parse(in, "http://base/"); err != nil {
					done <- in
					return
				}
			}
			done <- ""
		}()
	}
	for range 8 {
		if in := <-done; in != "" {
			t.Errorf("Parse(%q) failed", in)
		}
	}
}
