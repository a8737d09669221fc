package fetch_test

import (
	"encoding/json"
	"path/filepath"
	"testing"

	"bext/web/internal/webtest"
)

// TestConformance runs the cases under testdata/conformance — bext's own,
// written from the Fetch, File API and XMLHttpRequest standards (the
// web-platform-tests files cannot be had at test time) — in a bext isolate
// and, when node is installed, in Node 20, which must pass every case. Both
// talk to the same loopback server, started anew for each file (SERVER,
// CLOSED). The cases listed in expectations.json are known to fail in bext
// (see webtest.Conformance). harness.js adds fetch's helpers to webtest's.
func TestConformance(t *testing.T) {
	webtest.Conformance(t, filepath.Join("testdata", "conformance"), webtest.Options{
		Prefix: func(t *testing.T) string {
			ts := newTestServer(t)
			return "const SERVER = " + strconvQuote(ts.URL) + ", CLOSED = " + strconvQuote(ts.closed) + ";\n"
		},
	})
}

func strconvQuote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
