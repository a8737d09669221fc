package url

import (
	"testing"
)

var fastSeeds = []struct{ input, base string }{
	{"https://example.com/a/b?c=d&e=f#g", ""},
	{"http://localhost:3000/api/users?id=42", ""},
	{"https://example.com", ""},
	{"https://example.com?q", ""},
	{"https://example.com#f", ""},
	{"http://a.b.c.:8080/x", ""},
	{"http://example.com:80/", ""},
	{"http://example.com:0/", ""},
	{"http://example.com:080/", ""},
	{"http://example.com:65536/", ""},
	{"http://example.com:/", ""},
	{"ws://h/p/./q/../r", ""},
	{"http://h/%2e/x", ""},
	{"http://h/a/%2E%2e", ""},
	{"http://1.2.3.4/", ""},
	{"http://127.0.0.1:3000/", ""},
	{"http://10.0.0.255/", ""},
	{"http://1.2.3.04/", ""},
	{"http://0x7f.1/", ""},
	{"http://xn--nxasmq6b.com/", ""},
	{"http://EXAMPLE.com/", ""},
	{"HTTP://example.com/", ""},
	{"http://ex_ample.com/", ""},
	{"http://a..b/", ""},
	{"http://.a/", ""},
	{"http://a-/", ""},
	{"http://user:pass@host/", ""},
	{"http://h/a b", ""},
	{"http://h/a\"b?c'd#e`f", ""},
	{"http://h/{x}?<y>#<z>", ""},
	{"http://h\\p", ""},
	{"http:///h", ""},
	{"/path?x=1", "http://localhost"},
	{"/path?x=1#y", "https://example.com:8443/base/dir?q#f"},
	{"?x=1", "http://h/a/b?c#d"},
	{"#frag", "http://h/a/b?c#d"},
	{"", "http://h/a/b?c#d"},
	{"//other/x", "http://h/"},
	{"/\\x", "http://h/"},
	{"/./x", "http://h/"},
	{"/..", "http://h/a/b"},
	{"x/y", "http://h/a/b"},
	{"/x", "file:///C:/a"},
	{"/x", "sc://h/a"},
	{"https://other/", "http://h/"},
	{"http:x", "http://h/a/"},
	{"http://h/\x7f", ""},
	{" http://h/", ""},
	{"http://h/\t", ""},
}

// checkFast fails when the fast path accepts input but disagrees with
// the full parser.
func checkFast(t *testing.T, input, base string) {
	var b *record
	if base != "" {
		br, err := slowParse(base, nil)
		if err != nil {
			return
		}
		b = &br
	}
	fast, ok := fastParse(input, b)
	if !ok {
		return
	}
	slow, err := slowParse(input, b)
	if err != nil {
		t.Fatalf("%q against %q: fast path gives %q, the parser fails", input, base, fast.href)
	}
	if fast != slow {
		t.Fatalf("%q against %q:\nfast %+v\nfull %+v", input, base, fast, slow)
	}
}

func TestFastPathAgrees(t *testing.T) {
	for _, s := range fastSeeds {
		checkFast(t, s.input, s.base)
	}
}

// TestFastPathTaken keeps the fast path fast: the shapes a server sees
// on every request must not fall back to the full parser.
func TestFastPathTaken(t *testing.T) {
	base, _ := slowParse("http://localhost:3000/", nil)
	for _, s := range []struct{ input, base string }{
		{"https://example.com/a/b?c=d&e=f#g", ""},
		{"http://localhost:3000/api/users?id=42", ""},
		{"https://example.com", ""},
		{"http://127.0.0.1:8080/x", ""},
		{"/products/42?sort=price&page=2", "b"},
		{"?page=3", "b"},
	} {
		var b *record
		if s.base != "" {
			b = &base
		}
		_, ok := fastParse(s.input, b)
		if !ok {
			t.Errorf("fastParse(%q) falls back to the full parser", s.input)
		}
	}
}

// FuzzFastPath holds the fast path to the full parser: whatever it
// accepts must come out exactly as whatwg-url parses it.
func FuzzFastPath(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add(s.input, s.base)
	}
	f.Fuzz(func(t *testing.T, input, base string) {
		checkFast(t, input, base)
	})
}

// FuzzSplit checks that every href the parser makes splits back into
// the components the parser reports.
func FuzzSplit(f *testing.F) {
	for _, s := range fastSeeds {
		f.Add(s.input)
	}
	f.Add("sc://u:p@[::1]:8/p?q#f")
	f.Add("web+demo:/.//not-a-host/")
	f.Add("data:text/plain,x ?y")
	f.Fuzz(func(t *testing.T, input string) {
		u, err := parser.Parse(input)
		if err != nil {
			return
		}
		r := split(u.Href(false))
		for _, c := range []struct{ name, got, want string }{
			{"protocol", r.protocol(), u.Protocol()},
			{"username", r.username(), u.Username()},
			{"password", r.password(), u.Password()},
			{"host", r.host(), u.Host()},
			{"hostname", r.hostname(), u.Hostname()},
			{"port", r.port(), u.Port()},
			{"pathname", r.pathname(), u.Pathname()},
			{"search", r.search(), u.Search()},
			{"hash", r.hash(), u.Hash()},
		} {
			if c.got != c.want {
				t.Fatalf("%q (href %q): %s = %q, want %q", input, r.href, c.name, c.got, c.want)
			}
		}
	})
}

// TestFastPathGrammar builds URLs from pieces the fast path must judge
// (delimiters, dot segments, ports, hosts that are numbers or punycode)
// and checks each against the full parser, with and without a base.
func TestFastPathGrammar(t *testing.T) {
	schemes := []string{"http", "https", "ws", "wss", "ftp", "file", "sc", "Http"}
	hosts := []string{"example.com", "a", "a.", "a..b", "1.2.3.4", "127.0.0.1", "0.0.0.0", "255.255.255.255", "256.1.1.1", "1.2.3.4.", "01.2.3.4", "1.2.3", "1.2.3.4.5", "1.2.3.0004", "1..3.4", "1.2.3.4a", "a.1.2.3.4", "a.1", "a.0x1", "a.b1", "xn--a", "a.xn--b", "ex-ample", "-a", "A", "a_b", "", "[::1]", "u@h", "%61"}
	ports := []string{"", ":", ":0", ":80", ":443", ":21", ":8080", ":08", ":65535", ":65536", ":99999999999"}
	paths := []string{"", "/", "/a/b", "/a/./b", "/a/../b", "/.", "/..", "/%2e", "/%2E%2e/", "/.a", "/a.", "/a%", "/a%zz", "/^", "/|", "/a\\b", "/{}", "/`", "/\"", "/<>", "/~!$&'()*+,;=:@", "//", "/a//b"}
	queries := []string{"", "?", "?a=b", "?a=b&c", "?'", "?\"", "?<", "?`{}", "??", "?a/b?c"}
	frags := []string{"", "#", "#f", "#a#b", "#`", "#\"", "#'", "#{}"}
	n := 0
	for _, s := range schemes {
		for _, h := range hosts {
			for _, p := range ports {
				for i, pa := range paths {
					q := queries[(i+len(h))%len(queries)]
					f := frags[(i+len(p))%len(frags)]
					u := s + "://" + h + p + pa + q + f
					checkFast(t, u, "")
					checkFast(t, pa+q+f, "http://example.com:8080/x/y?z#w")
					n++
				}
			}
		}
	}
	for _, pa := range paths {
		for _, q := range queries {
			for _, f := range frags {
				checkFast(t, "https://example.com"+pa+q+f, "")
				checkFast(t, pa+q+f, "https://example.com/base?b#c")
				checkFast(t, q+f, "https://example.com/base?b#c")
				checkFast(t, f, "https://example.com/base?b#c")
				n += 4
			}
		}
	}
	t.Logf("%d URLs", n)
}
