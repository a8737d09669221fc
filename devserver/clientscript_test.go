package devserver

import (
	"strings"
	"testing"

	"github.com/dop251/goja"
)

// browser runs ClientScript in goja against a minimal fake of the DOM,
// location, setTimeout and EventSource, so the script's behaviour is tested,
// not just its text.
type browser struct {
	t       *testing.T
	vm      *goja.Runtime
	reloads int
}

const fakeDOM = `
var window = this;
var __els = {};
function __Elem(tag) { this.tagName = tag; this.id = ''; this.innerHTML = ''; this.style = ''; this.parentNode = null; }
__Elem.prototype.setAttribute = function (k, v) { if (k === 'style') { this.style = v; } };
var document = {
  body: { children: [], appendChild: function (el) { el.parentNode = this; this.children.push(el); __els[el.id] = el; },
          removeChild: function (el) { this.children.splice(this.children.indexOf(el), 1); delete __els[el.id]; el.parentNode = null; } },
  createElement: function (tag) { return new __Elem(tag); },
  getElementById: function (id) { return __els[id] || null; }
};
var __timers = [];
function setTimeout(fn) { __timers.push(fn); }
var __sources = [];
function EventSource(url) { this.url = url; this.readyState = 0; this.listeners = {}; __sources.push(this); }
EventSource.prototype.addEventListener = function (name, fn) { (this.listeners[name] = this.listeners[name] || []).push(fn); };
EventSource.prototype.close = function () { this.readyState = 2; };
function __fire(name, ev) { var es = __sources[__sources.length - 1]; (es.listeners[name] || []).forEach(function (fn) { fn(ev || {}); }); }
`

func newBrowser(t *testing.T) *browser {
	t.Helper()
	b := &browser{t: t, vm: goja.New()}
	loc := b.vm.NewObject()
	loc.Set("reload", func() { b.reloads++ })
	b.vm.Set("location", loc)
	b.run(fakeDOM)
	b.run(ClientScript)
	return b
}

func (b *browser) run(src string) goja.Value {
	b.t.Helper()
	v, err := b.vm.RunString(src)
	if err != nil {
		b.t.Fatalf("js: %v", err)
	}
	return v
}

func (b *browser) overlay() string {
	b.t.Helper()
	v := b.run(`var o = document.getElementById('__bext_overlay'); o ? o.innerHTML : ''`)
	return v.String()
}

func TestClientScriptConnectsOnce(t *testing.T) {
	b := newBrowser(t)
	b.run(ClientScript) // injected twice (e.g. nested layouts): still one connection
	if n := b.run(`__sources.length`).ToInteger(); n != 1 {
		t.Fatalf("%d EventSources, want 1", n)
	}
	if u := b.run(`__sources[0].url`).String(); u != LiveReloadPath {
		t.Fatalf("connects to %q", u)
	}
}

func TestClientScriptReload(t *testing.T) {
	b := newBrowser(t)
	b.run(`__fire('open')`)
	if b.reloads != 0 {
		t.Fatal("reloaded on the first connection")
	}
	b.run(`__fire('reload', {data: '{}'})`)
	if b.reloads != 1 {
		t.Fatalf("reloads = %d after a reload event", b.reloads)
	}
}

func TestClientScriptErrorOverlayThenOK(t *testing.T) {
	b := newBrowser(t)
	b.vm.Set("payload", `{"title":"Worker failed to boot","text":"src/a.tsx:1:5: <b>&\"bad\"\n    let x y\n        ^"}`)
	b.run(`__fire('error', {data: payload})`)
	html := b.overlay()
	for _, want := range []string{
		"Worker failed to boot",
		"<pre",
		"src/a.tsx:1:5: &lt;b&gt;&amp;&quot;bad&quot;\n    let x y\n        ^",
	} {
		if !strings.Contains(html, want) {
			t.Errorf("overlay missing %q:\n%s", want, html)
		}
	}
	if strings.Contains(html, "<b>") {
		t.Error("overlay text not HTML-escaped")
	}
	if style := b.run(`document.getElementById('__bext_overlay').style`).String(); !strings.Contains(style, "position:fixed") {
		t.Errorf("overlay is not a fixed full-screen layer: %q", style)
	}
	if b.reloads != 0 {
		t.Fatal("an error event reloaded the page")
	}

	// A second error replaces the first; default title.
	b.run(`__fire('error', {data: '{"message":"other"}'})`)
	if n := b.run(`document.body.children.length`).ToInteger(); n != 1 {
		t.Fatalf("%d overlays, want 1", n)
	}
	if html := b.overlay(); !strings.Contains(html, "Build failed") || !strings.Contains(html, "other") {
		t.Errorf("second overlay:\n%s", html)
	}

	b.run(`__fire('ok', {data: '{}'})`)
	if b.overlay() != "" {
		t.Error("overlay still shown after ok")
	}
	if b.reloads != 1 {
		t.Fatalf("reloads = %d after ok, want 1", b.reloads)
	}
}

func TestClientScriptReloadsAfterReconnect(t *testing.T) {
	b := newBrowser(t)
	b.run(`__fire('open')`)
	// Connection lost (a plain Event, no data): no overlay, no reload yet.
	b.run(`__sources[0].readyState = 0; __fire('error', {})`)
	if b.overlay() != "" || b.reloads != 0 {
		t.Fatalf("connection loss: overlay %q, reloads %d", b.overlay(), b.reloads)
	}
	b.run(`__fire('open')`) // EventSource reconnected by itself
	if b.reloads != 1 {
		t.Fatalf("reloads = %d after reconnect, want 1", b.reloads)
	}
}

func TestClientScriptReopensWhenBrowserGivesUp(t *testing.T) {
	b := newBrowser(t)
	b.run(`__fire('open'); __sources[0].readyState = 2; __fire('error', {})`)
	if n := b.run(`__timers.length`).ToInteger(); n != 1 {
		t.Fatalf("%d retries scheduled after a closed EventSource, want 1", n)
	}
	b.run(`__timers.shift()()`)
	if n := b.run(`__sources.length`).ToInteger(); n != 2 {
		t.Fatalf("%d EventSources after retry, want 2", n)
	}
	b.run(`__fire('open')`)
	if b.reloads != 1 {
		t.Fatalf("reloads = %d once the server is back, want 1", b.reloads)
	}
}
