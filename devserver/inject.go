package devserver

// ClientScript is the live-reload client injected into every SSR page in dev.
// It is plain ES5 so it needs no build step and runs in any browser.
//
// It listens on LiveReloadPath: "reload" reloads the page; "error" shows a
// full-screen overlay with the title and esbuild's formatted message (all
// text HTML-escaped); "ok" removes the overlay and reloads. The server's
// "error" event shares its name with EventSource's own connection-error
// event, so the handler tells them apart by the presence of data. After a
// lost connection EventSource reconnects by itself (retry: 500); if the
// browser gave up (the restarting server answered with a non-200), the
// script opens a new EventSource. Either way the first successful reconnect
// reloads the page, since the server it reconnects to may run new code.
//
// The script never contains "</script", so it can be inlined.
const ClientScript = `(function () {
  if (window.__bextLiveReload) { return; }
  window.__bextLiveReload = true;
  var OVERLAY = '__bext_overlay';
  var lost = false;

  function esc(s) {
    return String(s == null ? '' : s).replace(/[&<>"']/g, function (c) {
      return { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' }[c];
    });
  }
  function hide() {
    var el = document.getElementById(OVERLAY);
    if (el && el.parentNode) { el.parentNode.removeChild(el); }
  }
  function show(e) {
    hide();
    var el = document.createElement('div');
    el.id = OVERLAY;
    el.setAttribute('style', 'position:fixed;top:0;left:0;right:0;bottom:0;z-index:2147483647;' +
      'overflow:auto;margin:0;padding:32px;background:rgba(24,24,27,0.97);color:#e4e4e7;' +
      'font:14px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace');
    el.innerHTML = '<div style="color:#f87171;font-size:20px;font-weight:bold;margin:0 0 16px">' +
      esc(e.title || 'Build failed') + '</div>' +
      '<pre style="margin:0;white-space:pre-wrap;font:inherit">' + esc(e.text || e.message) + '</pre>';
    (document.body || document.documentElement).appendChild(el);
  }
  function connect() {
    var es = new EventSource('/__bext/livereload');
    es.addEventListener('open', function () {
      window.__bextLiveReloadOpen = true; // tests wait for it before editing
      if (lost) { location.reload(); }
    });
    es.addEventListener('reload', function () { location.reload(); });
    es.addEventListener('ok', function () { hide(); location.reload(); });
    es.addEventListener('error', function (ev) {
      if (typeof ev.data === 'string') {
        var e;
        try { e = JSON.parse(ev.data); } catch (err) { e = { text: ev.data }; }
        show(e);
        return;
      }
      lost = true;
      if (es.readyState === 2) { // CLOSED: the browser will not retry
        es.close();
        setTimeout(connect, 1000);
      }
    });
  }
  connect();
})();`

// InjectHTML inserts ClientScript in a <script> element before the last
// </body> (matched case-insensitively), or appends it when the document has
// no </body> (browsers still run it).
func InjectHTML(html string) string {
	tag := "<script>" + ClientScript + "</script>"
	if i := lastIndexFoldASCII(html, "</body>"); i >= 0 {
		return html[:i] + tag + html[i:]
	}
	return html + tag
}

// lastIndexFoldASCII is strings.LastIndex with ASCII case folding. It avoids
// strings.ToLower, whose output can differ in length from its input for some
// non-ASCII text and would shift the index.
func lastIndexFoldASCII(s, sub string) int {
	for i := len(s) - len(sub); i >= 0; i-- {
		if equalFoldASCII(s[i:i+len(sub)], sub) {
			return i
		}
	}
	return -1
}

func equalFoldASCII(a, b string) bool {
	for i := 0; i < len(a); i++ {
		if lower(a[i]) != lower(b[i]) {
			return false
		}
	}
	return true
}

func lower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
