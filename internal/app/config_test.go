package app

import (
	"slices"
	"testing"

	"bext/config"
	"bext/engine/fastpath"
)

// config names the fast paths without importing the engine; the two
// lists must not drift apart, or fast_paths_off would refuse a real
// rewrite or accept a name the build then rejects.
func TestConfigKnowsEveryFastPath(t *testing.T) {
	if !slices.Equal(config.FastPathNames, fastpath.Names()) {
		t.Errorf("config.FastPathNames = %v, fastpath.Names() = %v", config.FastPathNames, fastpath.Names())
	}
}

// The build of an app applies the fast paths its [app] table leaves on.
func TestBuildOptionsCarryTheFastPaths(t *testing.T) {
	cfg := config.Default()
	cfg.App.FastPathsOff = []string{"jsx"}
	if got := buildOptions(&cfg, "src/server.jsx", false).FastPaths; !slices.Equal(got, fastpath.Without("jsx")) {
		t.Errorf("FastPaths = %v, want every one but jsx", got)
	}
	cfg.App.FastPaths = false
	if got := buildOptions(&cfg, "src/server.jsx", false).FastPaths; got != nil {
		t.Errorf("with fast_paths = false: FastPaths = %v, want none", got)
	}
}
