package clone_test

import (
	"path/filepath"
	"testing"

	"bext/web/internal/webtest"
)

// TestConformance runs the cases under testdata/conformance (bext's own,
// written from the HTML standard: the web-platform-tests files
// cannot be had at test time) in a bext isolate and, when node is
// installed, in Node 20, which must pass every case not named "spec: …".
// expectations.json lists the cases known to fail in bext by file and
// name; a listed case that passes, or an unlisted one that fails, fails
// the test.
func TestConformance(t *testing.T) {
	webtest.Conformance(t, filepath.Join("testdata", "conformance"), webtest.Options{CatchUncaught: true})
}
