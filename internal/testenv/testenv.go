// Package testenv is the one place a test asks for something outside Go:
// a program on PATH (node, chromium, promtool, redis-server) or installed
// files (an example's node_modules). test.sh and CI install all of them
// and set BEXT_TEST_REQUIRE=1, which turns a missing one into a failure in
// every test alike; without it (a quick `go test` on a laptop) the test is
// skipped with the reason.
package testenv

import (
	"os"
	"os/exec"
	"testing"
)

// Required reports whether missing tools fail tests (BEXT_TEST_REQUIRE set).
func Required() bool { return os.Getenv("BEXT_TEST_REQUIRE") != "" }

// Missing skips t, or fails it under BEXT_TEST_REQUIRE, saying what is
// missing and how to get it.
func Missing(t testing.TB, what, how string) {
	t.Helper()
	if Required() {
		t.Fatalf("%s is missing: %s (test.sh installs it)", what, how)
	}
	t.Skipf("%s is missing: %s (run ./test.sh, or set BEXT_TEST_REQUIRE=1 to make this a failure)", what, how)
}

// Tool returns the path of program name on PATH, or calls Missing.
func Tool(t testing.TB, name, how string) string {
	t.Helper()
	p, err := exec.LookPath(name)
	if err != nil {
		Missing(t, name, how)
	}
	return p
}

// File calls Missing unless path exists.
func File(t testing.TB, path, how string) {
	t.Helper()
	if _, err := os.Stat(path); err != nil {
		Missing(t, path, how)
	}
}
