package engine

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/dop251/goja"
)

// Compile compiles a server bundle once. The returned Program is immutable
// and is run by every isolate made from it, concurrently. A syntax error
// names the file, line and column.
func Compile(name string, code []byte) (*Program, error) {
	p, err := goja.Compile(name, string(code), false)
	if err != nil {
		return nil, fmt.Errorf("engine: compiling %s: %w (the bundle is not valid JavaScript for goja; check the esbuild target)", name, err)
	}
	sum := sha256.Sum256(code)
	return &Program{prog: p, Name: name, Hash: hex.EncodeToString(sum[:6]), Size: len(code)}, nil
}
