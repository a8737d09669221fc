package engine

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// examples/basic is the embedded default app; these tests pin what a
// visitor of each route sees.

func basicIsolate(t testing.TB) *Isolate {
	t.Helper()
	key := "examples/basic"
	p, ok := progCache.Load(key)
	if !ok {
		b, err := BuildServer(BuildOptions{Dir: filepath.Join(repoRoot(t), "examples", "basic"), Entry: "src/server.jsx"})
		if err != nil {
			t.Fatal(err)
		}
		prog, err := Compile("server.js", b.Code)
		if err != nil {
			t.Fatal(err)
		}
		progCache.Store(key, prog)
		p = prog
	}
	iso, err := NewIsolate(p.(*Program), Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(iso.Close)
	return iso
}

func TestBasicExampleRoutes(t *testing.T) {
	iso := basicIsolate(t)
	iso.SetAssets([]string{"/_bext/client-AAAA.js"}, []string{"/_bext/client-AAAA.css"})

	home := mustRender(t, iso, get("/"))
	for _, want := range []string{
		"<!doctype html><html", "Hello, world!", `<li data-id="50"`,
		`<script type="module" src="/_bext/client-AAAA.js"></script>`,
		`<link rel="stylesheet" href="/_bext/client-AAAA.css">`,
		// text and attributes escaped exactly once
		`title="needs &lt;escaping&gt; &amp; &quot;quotes&quot;"`, `— needs &lt;escaping&gt; &amp; "quotes"`,
	} {
		if !strings.Contains(home.HTML, want) {
			t.Errorf("home lacks %q", want)
		}
	}
	if home.Status != 200 || home.Headers.Get("content-type") != "text/html; charset=utf-8" || strings.Count(home.HTML, "<li ") != 50 {
		t.Errorf("home: status %d headers %v items %d", home.Status, home.Headers, strings.Count(home.HTML, "<li "))
	}

	req := get("/")
	req.Query["name"] = `<script>alert("x")</script>`
	if got := mustRender(t, iso, req).HTML; strings.Contains(got, "<script>alert") || !strings.Contains(got, "Hello, &lt;script&gt;alert(\"x\")&lt;/script&gt;!") {
		t.Errorf("query text not escaped")
	}

	if got := mustRender(t, iso, get("/about")); !strings.Contains(got.HTML, "<h1>About</h1>") || !strings.Contains(got.HTML, `<a href="/about" class="active">`) {
		t.Errorf("about: %s", got.HTML)
	}
	if got := mustRender(t, iso, get("/api/time")); !strings.Contains(got.HTML, "epoch_ms") {
		t.Errorf("time: %s", got.HTML)
	}
	if got := mustRender(t, iso, get("/missing")); got.Status != 404 || !strings.Contains(got.HTML, "<code>/missing</code>") {
		t.Errorf("404: %d %s", got.Status, got.HTML)
	}
	start := time.Now()
	if got := mustRender(t, iso, get("/slow")); !strings.Contains(got.HTML, "waited 50 ms") || time.Since(start) < 50*time.Millisecond {
		t.Errorf("slow: %v %s", time.Since(start), got.HTML)
	}
	if re := renderErr(t, iso, context.Background(), get("/boom")); re.Kind != KindException || !strings.Contains(re.Message, "boom") {
		t.Errorf("boom: %v", re)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Millisecond)
	defer cancel()
	if re := renderErr(t, iso, ctx, get("/loop")); re.Kind != KindTimeout {
		t.Errorf("loop: %v", re)
	}
}

func TestBasicExampleClientBuild(t *testing.T) {
	b, err := BuildClient(BuildOptions{Dir: filepath.Join(repoRoot(t), "examples", "basic"), Entry: "src/client.js"})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(b.Entry, "client-") || len(b.CSS) != 1 || !strings.Contains(string(b.Code), "counter") {
		t.Fatalf("entry %q css %v", b.Entry, b.CSS)
	}
}

func BenchmarkRenderOneIsolate(b *testing.B) {
	iso := basicIsolate(b)
	req := get("/")
	ctx := context.Background()
	mustRender(b, iso, req)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		if _, err := iso.Render(ctx, req); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "renders/s")
}
