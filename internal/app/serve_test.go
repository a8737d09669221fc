package app_test

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"bext/config"
	"bext/internal/adminclient"
	"bext/internal/app"
	"bext/internal/apptest"
)

func TestServeRootConfigExample(t *testing.T) {
	inst := apptest.Start(t, rootConfig, nil, app.Options{})
	code, body := apptest.Get(t, "http://"+inst.Addr()+"/")
	if code != 200 || !strings.Contains(body, "<") || !strings.Contains(strings.ToLower(body), "<html") {
		t.Fatalf("GET / = %d %.200q, want the example's HTML", code, body)
	}
	if code, _ := apptest.Get(t, "http://"+inst.Addr()+"/style.css"); code != 200 {
		t.Fatalf("public file: %d", code)
	}
}

func TestClientAssetsHashedAndCachedForever(t *testing.T) {
	inst := apptest.Start(t, rootConfig, nil, app.Options{})
	_, body := apptest.Get(t, "http://"+inst.Addr()+"/")
	m := regexp.MustCompile(`src="(/_bext/client-[A-Za-z0-9]+\.js)"`).FindStringSubmatch(body)
	if m == nil {
		t.Fatalf("page does not reference a hashed client bundle:\n%.400s", body)
	}
	resp, err := http.Get("http://" + inst.Addr() + m[1])
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" ||
		!strings.Contains(resp.Header.Get("Content-Type"), "javascript") {
		t.Fatalf("GET %s: %d %v", m[1], resp.StatusCode, resp.Header)
	}
	page, _ := http.Get("http://" + inst.Addr() + "/")
	page.Body.Close()
	if page.Header.Get("Cache-Control") != "no-cache" {
		t.Fatalf("HTML Cache-Control %q, want no-cache", page.Header.Get("Cache-Control"))
	}
}

func TestServeEmbeddedExampleWithoutConfig(t *testing.T) {
	t.Chdir(t.TempDir())
	inst := apptest.Start(t, "", nil, app.Options{})
	if code, body := apptest.Get(t, "http://"+inst.Addr()+"/"); code != 200 || !strings.Contains(strings.ToLower(body), "<html") {
		t.Fatalf("embedded example: %d %.200q", code, body)
	}
}

func TestBuildOutputIsUsedUntilSourcesChange(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n", map[string]string{
		"src/server.js": apptest.TinyServer, "src/greet.js": "export const greet = (p) => 'hi ' + p;\n"})
	dir := filepath.Dir(path)
	cfg := apptest.Config(t, path, nil)
	build := func() {
		t.Helper()
		b, err := app.Build(cfg, false)
		if err == nil {
			_, err = b.Write(cfg)
		}
		if err != nil {
			t.Fatalf("build: %v", err)
		}
	}
	build()
	if _, err := os.Stat(filepath.Join(dir, ".bext", "manifest.json")); err != nil {
		t.Fatal(err)
	}
	a, err := app.Load(cfg)
	if err != nil || !strings.HasPrefix(a.From, "using .bext") {
		t.Fatalf("serve after build: %v %q, want it to use .bext", err, a.From)
	}
	// A deploy without sources still works from the build.
	later := time.Now().Add(2 * time.Second)
	os.WriteFile(filepath.Join(dir, "src/greet.js"), []byte("export const greet = (p) => 'hello ' + p;\n"), 0o644)
	os.Chtimes(filepath.Join(dir, "src/greet.js"), later, later)
	a, err = app.Load(cfg)
	if err != nil || !strings.Contains(a.From, "src/greet.js changed") {
		t.Fatalf("after editing a source: %v %q, want a rebuild that says why", err, a.From)
	}
	if !bytes.Contains(a.ServerCode, []byte("hello ")) {
		t.Fatal("rebuild does not contain the edit")
	}

	// A deploy that ships config.toml and .bext/ without the sources.
	build()
	if err := os.RemoveAll(filepath.Join(dir, "src")); err != nil {
		t.Fatal(err)
	}
	inst := apptest.Start(t, path, nil, app.Options{})
	if code, body := apptest.Get(t, "http://"+inst.Addr()+"/x"); code != 200 || !strings.Contains(body, "hello /x") {
		t.Fatalf("serving from .bext without sources: %d %q", code, body)
	}
}

// TestRotationUnderLoad: max_requests = 20 with 4 workers; 2000 requests
// over 16 connections all succeed and every worker rotates.
func TestRotationUnderLoad(t *testing.T) {
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n[render]\njsc_workers = 4\n[render.lifecycle]\nmax_requests = 20\n",
		map[string]string{"src/server.js": apptest.TinyServer, "src/greet.js": "export const greet = (p) => 'hi ' + p;\n"})
	inst := apptest.Start(t, path, nil, app.Options{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var bad []string
	next := make(chan int)
	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 16}}
	for range 16 {
		wg.Go(func() {
			for i := range next {
				resp, err := client.Get(fmt.Sprintf("http://%s/r%d", inst.Addr(), i))
				if err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
				if err != nil || resp.StatusCode != 200 {
					mu.Lock()
					bad = append(bad, fmt.Sprint(i, err, resp))
					mu.Unlock()
				}
			}
		})
	}
	for i := range 2000 {
		next <- i
	}
	close(next)
	wg.Wait()
	if len(bad) > 0 {
		t.Fatalf("%d of 2000 requests failed, first: %s", len(bad), bad[0])
	}
	for _, st := range inst.Pool().Snapshot() {
		if st.Restarts < 1 {
			t.Errorf("worker %d never rotated: %+v", st.ID, st)
		}
	}
}

func TestAdminOnItsOwnListener(t *testing.T) {
	inst := apptest.Start(t, rootConfig, func(c *config.Config) { c.Admin.Addr = "127.0.0.1:0" }, app.Options{})
	if inst.AdminAddr() == "" || inst.AdminAddr() == inst.Addr() {
		t.Fatalf("admin listener %q", inst.AdminAddr())
	}
	if code, body := apptest.Get(t, "http://"+inst.AdminAddr()+"/__bext/workers"); code != 200 || !strings.HasPrefix(body, "[") {
		t.Fatalf("admin listener /__bext/workers: %d %.80q", code, body)
	}
	if code, _ := apptest.Get(t, "http://"+inst.AdminAddr()+"/metrics"); code != 200 {
		t.Fatalf("admin listener /metrics: %d", code)
	}
	// On the main listener the path is just another page of the app.
	if _, body := apptest.Get(t, "http://"+inst.Addr()+"/__bext/workers"); strings.HasPrefix(body, "[") {
		t.Fatal("admin API still answers on the main listener")
	}
	if code, _ := apptest.Get(t, "http://"+inst.AdminAddr()+"/healthz"); code != 200 {
		t.Fatalf("admin listener /healthz: %d", code)
	}
}

// [admin] addr = "unix:PATH" serves the admin API on a unix socket that
// only this user can open; the CLI's client finds it from the same config.
func TestAdminOnAUnixSocket(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "admin.sock")
	path := apptest.WriteApp(t, "[app]\nserver_entry = \"src/server.js\"\n[admin]\naddr = \"unix:"+sock+"\"\n",
		map[string]string{"src/server.js": apptest.TinyServer, "src/greet.js": "export const greet = (p) => 'hi ' + p;\n"})
	inst := apptest.Start(t, path, func(c *config.Config) { c.Admin.Addr = "unix:" + sock }, app.Options{})
	if inst.AdminAddr() != "unix:"+sock {
		t.Fatalf("AdminAddr %q", inst.AdminAddr())
	}
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Fatalf("socket %v %v, want mode 0600", fi, err)
	}
	c, err := adminclient.New("", path, func(string) string { return "" })
	if err != nil {
		t.Fatal(err)
	}
	ws, err := c.Workers("")
	if err != nil || len(ws) != 4 {
		t.Fatalf("workers over the socket: %v %v", ws, err)
	}
	if _, err := c.Restart(0, ""); err != nil {
		t.Fatalf("restart over the socket (a local client): %v", err)
	}
	if code, body := apptest.Get(t, "http://"+inst.Addr()+"/__bext/workers"); code == 200 && strings.HasPrefix(body, "[") {
		t.Fatal("the public listener serves the admin API without a token")
	}
}
