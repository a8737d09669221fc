package fastpath

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/dop251/goja"
	"github.com/evanw/esbuild/pkg/api"
)

// applyNamed runs the rewrite called name of package pkg on src as a file
// of the given package version.
func applyNamed(name, pkg, src, version string) (string, error) {
	for _, r := range rewrites {
		if r.name == name && r.pkg == pkg {
			return r.applyChecked(src, version)
		}
	}
	panic("no rewrite " + name + " of " + pkg)
}

// writeFiles writes files (slash paths relative to dir, contents) under dir.
func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// build bundles dir/entry.js into an IIFE with the given plugins; packages
// (bare imports) stay external.
func build(t *testing.T, dir string, minify bool, plugins ...api.Plugin) string {
	t.Helper()
	res := api.Build(api.BuildOptions{
		EntryPoints:       []string{filepath.Join(dir, "entry.js")},
		Bundle:            true,
		Format:            api.FormatIIFE,
		Platform:          api.PlatformNeutral,
		Packages:          api.PackagesExternal,
		MinifyWhitespace:  minify,
		MinifySyntax:      minify,
		MinifyIdentifiers: minify,
		Plugins:           plugins,
		LogLevel:          api.LogLevelSilent,
	})
	if len(res.Errors) > 0 {
		t.Fatalf("build: %v", res.Errors)
	}
	return string(res.OutputFiles[0].Contents)
}

// runBundle runs code in a fresh runtime, with bext's native helpers when
// natives is set, and returns globalThis.out as a string.
func runBundle(t *testing.T, code string, natives bool) string {
	t.Helper()
	vm := goja.New()
	if natives {
		if err := Install(vm); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := vm.RunString(code); err != nil {
		t.Fatal(err)
	}
	return vm.Get("out").String()
}
