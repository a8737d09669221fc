package streams_test

import (
	"path/filepath"
	"testing"

	"github.com/evanw/esbuild/pkg/api"

	"bext/web/internal/webtest"
)

// TestConformance runs the cases under testdata/conformance (bext's own,
// written from the Streams, Encoding and Compression standards: the
// web-platform-tests files cannot be had at test time) in a bext isolate
// and, when node is installed, in Node 20, which must pass every case. The
// cases listed in expectations.json are known to fail in bext (see
// webtest.Conformance). A case named "spec: …" checks where Node departs
// from the standard's text; Node is not held to it. The harness is this
// folder's own; bext runs it lowered as the engine's server build is.
func TestConformance(t *testing.T) {
	webtest.Conformance(t, filepath.Join("testdata", "conformance"), webtest.Options{OwnHarness: true, Goja: lower})
}

// lower transforms for-await the way the engine's server build does
// (goja has no for-await or async generators).
func lower(t *testing.T, src string) string {
	res := api.Transform(src, api.TransformOptions{
		Target:    api.ES2022,
		Supported: map[string]bool{"async-generator": false, "for-await": false},
	})
	if len(res.Errors) > 0 {
		t.Fatalf("esbuild: %v", res.Errors[0].Text)
	}
	return string(res.Code)
}
