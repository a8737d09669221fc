package crypto_test

import (
	"path/filepath"
	"testing"

	"bext/web/internal/webtest"
)

// TestConformance runs the cases under testdata/conformance (bext's own,
// written from the Web Cryptography API and the RFC and NIST known-answer
// vectors: the web-platform-tests WebCryptoAPI files cannot be had at test
// time) in a bext isolate and, when node is installed, in Node 20, which
// must pass every case not named "spec: …"; the cases listed in
// expectations.json are known to fail in bext (see webtest.Conformance).
// testdata/conformance/harness.js adds the Web Crypto helpers.
func TestConformance(t *testing.T) {
	webtest.Conformance(t, filepath.Join("testdata", "conformance"), webtest.Options{})
}
