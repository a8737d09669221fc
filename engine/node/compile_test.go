package node

import (
	"io/fs"
	"strings"
	"testing"
)

// TestModulesCompile compiles every JS source of the built-ins with goja.
func TestModulesCompile(t *testing.T) {
	files, _ := fs.Glob(jsFiles, "js/*.js")
	for _, f := range files {
		if _, err := bodyProgram(strings.TrimPrefix(f, "js/")); err != nil {
			t.Errorf("%s: %v", f, err)
		}
	}
}
