package config

import (
	"slices"
	"testing"
)

// The fast paths a build applies follow fast_paths, fast_paths_off and the
// older fast_sink.
func TestEnabledFastPaths(t *testing.T) {
	all := FastPathNames
	for _, tc := range []struct {
		app  App
		want []string
	}{
		{App{FastPaths: true, FastSink: true}, all},
		{App{FastPaths: false, FastSink: true}, nil},
		{App{FastPaths: true, FastSink: false}, all[1:]},
		{App{FastPaths: true, FastSink: true, FastPathsOff: []string{"jsx", "escape"}}, []string{"sink", "flush", "chunks", "concat", "props"}},
	} {
		if got := tc.app.EnabledFastPaths(); !slices.Equal(got, tc.want) {
			t.Errorf("%+v: EnabledFastPaths() = %v, want %v", tc.app, got, tc.want)
		}
	}
}
