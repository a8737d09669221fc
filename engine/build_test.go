package engine

import (
	"errors"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

func TestBuildErrorSyntax(t *testing.T) {
	_, err := BuildServer(BuildOptions{Dir: fixtureDir(t, "syntax-error"), Entry: "server.jsx"})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("err = %T %v, want *BuildError", err, err)
	}
	for _, want := range []string{"server.jsx:3:", "return <p>{x +}</p>;", "^"} {
		if !strings.Contains(be.Text, want) {
			t.Errorf("build error text lacks %q:\n%s", want, be.Text)
		}
	}
	if len(be.Messages) == 0 || be.Messages[0].Location == nil || be.Messages[0].Location.Line != 3 {
		t.Errorf("messages: %+v", be.Messages)
	}
}

func TestBuildErrorUnresolvedImport(t *testing.T) {
	_, err := BuildServer(BuildOptions{Dir: fixtureDir(t, "unresolved-import"), Entry: "server.js"})
	var be *BuildError
	if !errors.As(err, &be) {
		t.Fatalf("err = %T %v, want *BuildError", err, err)
	}
	for _, want := range []string{"server.js:1:", `Could not resolve "./missing.js"`, `import { missing } from "./missing.js";`, "~~~~"} {
		if !strings.Contains(be.Text, want) {
			t.Errorf("build error text lacks %q:\n%s", want, be.Text)
		}
	}
}

func TestBuildServerInputsAndNodeEnv(t *testing.T) {
	dir := fixtureDir(t, "kitchen")
	b, err := BuildServer(BuildOptions{Dir: dir, Entry: "server.jsx", Dev: true})
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"server.jsx", "Item.jsx", "h.js"} {
		if !slices.Contains(b.Inputs, filepath.Join(dir, f)) {
			t.Errorf("Inputs %v lack %s", b.Inputs, f)
		}
	}
	if !strings.Contains(string(b.Code), `"development"`) || strings.Contains(string(b.Code), "process.env.NODE_ENV") {
		t.Errorf("process.env.NODE_ENV was not defined as \"development\"")
	}
	if !strings.Contains(string(b.Code), "sourceMappingURL=data:") {
		t.Errorf("dev server bundle has no inline source map")
	}
}

func TestDevStackNamesSourceFile(t *testing.T) {
	dir := fixtureDir(t, "render-throws")
	b, err := BuildServer(BuildOptions{Dir: dir, Entry: "server.js", Dev: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := Compile("server.js", b.Code)
	if err != nil {
		t.Fatal(err)
	}
	iso, err := NewIsolate(p, Options{})
	if err != nil {
		t.Fatal(err)
	}
	re := renderErr(t, iso, t.Context(), get("/boom"))
	if !strings.Contains(re.Stack, "at explode (server.js:2:") {
		t.Fatalf("dev stack does not point into the source file:\n%s", re.Stack)
	}
}

func TestCompileSyntaxErrorNamesPosition(t *testing.T) {
	_, err := Compile("bundle.js", []byte("var a = 1;\nvar = ;\n"))
	if err == nil || !strings.Contains(err.Error(), "bundle.js") || !strings.Contains(err.Error(), "2:5") {
		t.Fatalf("err = %v, want file and line:col", err)
	}
}

func TestCompileHashAndSize(t *testing.T) {
	a, _ := Compile("a.js", []byte("1"))
	b, _ := Compile("b.js", []byte("2"))
	if a.Hash == b.Hash || len(a.Hash) != 12 || a.Size != 1 {
		t.Fatalf("hash %q %q size %d", a.Hash, b.Hash, a.Size)
	}
}

func TestBuildClientHashedNames(t *testing.T) {
	b, err := BuildClient(BuildOptions{Dir: fixtureDir(t, "client"), Entry: "client.js"})
	if err != nil {
		t.Fatal(err)
	}
	hashed := regexp.MustCompile(`^client-[A-Z0-9]{8}\.(js|css)$`)
	if !hashed.MatchString(b.Entry) || len(b.CSS) != 1 || !hashed.MatchString(b.CSS[0]) {
		t.Fatalf("entry %q css %v (files %v)", b.Entry, b.CSS, keys(b.Files))
	}
	if !strings.Contains(string(b.Files[b.CSS[0]]), "#639") && !strings.Contains(string(b.Files[b.CSS[0]]), "rebeccapurple") {
		t.Errorf("css: %s", b.Files[b.CSS[0]])
	}
	if strings.Contains(string(b.Code), "\n  ") {
		t.Errorf("production client bundle is not minified:\n%s", b.Code)
	}
}

func keys(m map[string][]byte) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func TestBuilderRebuildSeesChanges(t *testing.T) {
	dir := t.TempDir()
	write := func(s string) {
		if err := writeFile(filepath.Join(dir, "server.js"), s); err != nil {
			t.Fatal(err)
		}
	}
	write(`globalThis.render = () => "v1";`)
	b, err := NewServerBuilder(BuildOptions{Dir: dir, Entry: "server.js"})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	out1, err := b.Build()
	if err != nil || !strings.Contains(string(out1.Code), "v1") {
		t.Fatalf("first build: %v", err)
	}
	write(`globalThis.render = () => "v2";`)
	out2, err := b.Build()
	if err != nil || !strings.Contains(string(out2.Code), "v2") {
		t.Fatalf("rebuild did not pick up the change: %v\n%s", err, out2.Code)
	}
	write(`globalThis.render = () => ;`)
	if _, err := b.Build(); err == nil {
		t.Fatalf("rebuild of a broken file succeeded")
	}
}

func TestNodeBuiltinShims(t *testing.T) {
	iso := newTestIsolate(t, "node-builtins", "server.js", Options{})
	if got := mustRender(t, iso, get("/")).HTML; got != "bytes=5 after=undefined" {
		t.Fatalf("got %q", got)
	}
	// node:stream is real now: the render returns a Readable, which is no
	// response.
	re := renderErr(t, iso, t.Context(), get("/stream"))
	if re.Kind != KindException || !strings.Contains(re.Message, "custom prototype") {
		t.Fatalf("got %v", re)
	}
}
