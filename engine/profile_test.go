package engine

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A profile of an app whose time goes into one function of one of its
// files names that function, that file and lines inside the function, in
// production (external source map) and development (inline) builds.
func TestProfileNamesSourceFunctions(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{
		"src/server.js": `import { spin } from "./hot.js";
globalThis.render = () => "<p>" + spin(20000) + "</p>";
`,
		"src/hot.js": `// padding so that source and bundle lines differ
//
//
export function spin(n) {
  let s = 0;
  for (let i = 0; i < n; i++) {
    s += (i * 7) % 13;
  }
  return [1, 2, 3].map((x) => x + s).join();
}
`,
	} {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, dev := range []bool{false, true} {
		b, err := BuildServer(BuildOptions{Dir: dir, Entry: "src/server.js", Dev: dev, SourceMap: true})
		if err != nil {
			t.Fatal(err)
		}
		code, sm := SplitSourceMap(b.Code)
		if dev == (b.SourceMap != nil) || dev != (sm != nil) {
			t.Fatalf("dev=%v: external map %d bytes, inline map %d bytes", dev, len(b.SourceMap), len(sm))
		}
		if sm == nil {
			sm = b.SourceMap
		}
		if bytes.Contains(code, []byte("sourceMappingURL")) {
			t.Fatalf("dev=%v: SplitSourceMap left the comment in", dev)
		}
		p, err := Compile("server.js", code)
		if err != nil {
			t.Fatal(err)
		}
		iso, err := NewIsolate(p, Options{})
		if err != nil {
			t.Fatal(err)
		}
		prof, err := iso.ProfileRenders(context.Background(), NewRequest("GET", "/"), 40)
		iso.Close()
		if err != nil {
			t.Fatal(err)
		}
		if err := MapProfile(prof, code, sm, dir); err != nil {
			t.Fatal(err)
		}
		var spin bool
		for _, f := range prof.Function {
			if f.Filename == "" || f.Filename == "server.js" {
				t.Errorf("dev=%v: function %q has file %q, want a source file", dev, f.Name, f.Filename)
			}
			spin = spin || f.Name == "spin" && f.Filename == "src/hot.js"
		}
		if !spin {
			t.Errorf("dev=%v: no function spin in src/hot.js among %v", dev, prof.Function)
		}
		for _, loc := range prof.Location {
			for _, l := range loc.Line {
				if l.Function.Name == "spin" && (l.Line < 4 || l.Line > 11) {
					t.Errorf("dev=%v: spin sampled at src/hot.js:%d, outside its lines 4–11", dev, l.Line)
				}
			}
		}
	}
}
