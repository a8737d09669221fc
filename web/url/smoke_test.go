package url_test

import (
	"testing"

	"bext/web/internal/webtest"
)

func TestSmoke(t *testing.T) {
	got := webtest.Run(t, `
const u = new URL("/p?a=1&b=2#h", "https://example.com");
const sp = u.searchParams;
sp.append("c", "3 4");
const out = [u.href, u.origin, sp === u.searchParams, sp.get("a"), String(sp), sp.size];
u.search = "?x=y";
out.push(sp.get("x"), [...sp].join("|"));
try { new URL("nope") } catch (e) { out.push(e instanceof TypeError, e.message, e.code, e.input) }
out.push(URL.canParse("http://a"), URL.parse("x"), JSON.stringify({u}));
return out;`)
	want := `["https://example.com/p?a=1&b=2&c=3+4#h","https://example.com",true,"1","a=1&b=2&c=3+4",3,"y","x,y",true,"Invalid URL","ERR_INVALID_URL","nope",true,null,"{\"u\":\"https://example.com/p?x=y#h\"}"]`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
