package app_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"bext/devserver"
	"bext/examples"
	"bext/internal/app"
	"bext/internal/apptest"
	"bext/internal/testenv"
)

// Integration tests of `bext dev` and of serve with watch_dirs: real
// fsnotify, esbuild, goja and HTTP on loopback, in real time. Changes are
// asynchronous, so the tests wait for signals the server sends — the dev
// loop's output lines and the browsers' live-reload events, both emitted
// once a change has been fully applied — never by polling.

const devDeadline = 15 * time.Second

// devExample copies examples/basic to a temp folder, with a short debounce,
// two workers and quiet logs, plus extra config lines.
func devExample(t testing.TB, extra string) string {
	t.Helper()
	dir := t.TempDir()
	sub, err := fs.Sub(examples.Basic, "basic")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.CopyFS(dir, sub); err != nil {
		t.Fatal(err)
	}
	cfg := filepath.Join(dir, "config.toml")
	// CopyFS keeps the embed's read-only modes; the test edits the files.
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil {
			mode := os.FileMode(0o644)
			if d.IsDir() {
				mode = 0o755
			}
			os.Chmod(p, mode)
		}
		return err
	})
	editFile(t, cfg, "render_timeout_ms = 1000", "render_timeout_ms = 1000\njsc_workers = 2\n"+extra)
	b, _ := os.ReadFile(cfg)
	os.WriteFile(cfg, append(b, "\n[server]\nlog_level = \"error\"\naccess_log = false\n"...), 0o644)
	return dir
}

// output is the dev loop's output (Options.Out): every line is kept and
// also sent to lines, so a test waits for the line that says a change was
// applied.
type output struct {
	mu    sync.Mutex
	all   bytes.Buffer
	part  []byte
	lines chan string
}

func newOutput() *output { return &output{lines: make(chan string, 1024)} }

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.all.Write(p)
	o.part = append(o.part, p...)
	for {
		i := bytes.IndexByte(o.part, '\n')
		if i < 0 {
			break
		}
		select {
		case o.lines <- string(o.part[:i]):
		default: // nobody reads this many lines: the test fails on what it waits for
		}
		o.part = o.part[i+1:]
	}
	return len(p), nil
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.all.String()
}

// waitLine waits for an output line containing want.
func (o *output) waitLine(t testing.TB, want string) {
	t.Helper()
	timeout := time.After(devDeadline)
	for {
		select {
		case l := <-o.lines:
			if strings.Contains(l, want) {
				return
			}
		case <-timeout:
			t.Fatalf("no line with %q within %v; output:\n%s", want, devDeadline, o)
		}
	}
}

// devEnv is a running `bext dev`: its public and admin base URLs and its
// output.
type devEnv struct {
	base, admin string
	out         *output
}

// startDev runs `bext dev` on the app in dir until the test ends.
func startDev(t testing.TB, dir string, trace func(devserver.Phase, time.Duration)) devEnv {
	t.Helper()
	out := newOutput()
	inst := apptest.Start(t, filepath.Join(dir, "config.toml"), nil, app.Options{Dev: true, Out: out, Trace: trace})
	return devEnv{base: "http://" + inst.Addr(), admin: "http://" + inst.AdminAddr(), out: out}
}

func editFile(t testing.TB, path, old, repl string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s does not contain %q", path, old)
	}
	if err := os.WriteFile(path, bytes.Replace(b, []byte(old), []byte(repl), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func get(t testing.TB, url string) string {
	t.Helper()
	_, body := apptest.Get(t, url)
	return body
}

type sseEvent struct{ name, data string }

// openEvents reads the live-reload stream like a browser's EventSource.
func openEvents(t testing.TB, base string) <-chan sseEvent {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, base+devserver.LiveReloadPath, nil)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		t.Fatalf("GET %s: %s %s", devserver.LiveReloadPath, resp.Status, resp.Header.Get("Content-Type"))
	}
	ch := make(chan sseEvent, 16)
	go func() {
		defer resp.Body.Close()
		sc := bufio.NewScanner(resp.Body)
		var ev sseEvent
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				ev.name = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				ev.data = strings.TrimPrefix(line, "data: ")
			case line == "" && ev.name != "":
				ch <- ev
				ev = sseEvent{}
			}
		}
	}()
	return ch
}

func waitEvent(t testing.TB, ch <-chan sseEvent, name string) sseEvent {
	t.Helper()
	timeout := time.After(devDeadline)
	for {
		select {
		case ev := <-ch:
			if ev.name == name {
				return ev
			}
			t.Logf("event %s %s (waiting for %s)", ev.name, ev.data, name)
		case <-timeout:
			t.Fatalf("no %q event within %v", name, devDeadline)
		}
	}
}

// lineOf is the 1-based line of the first occurrence of s in file.
func lineOf(t testing.TB, file, s string) int {
	b, _ := os.ReadFile(file)
	i := bytes.Index(b, []byte(s))
	if i < 0 {
		t.Fatalf("%s: no %q", file, s)
	}
	return bytes.Count(b[:i], []byte("\n")) + 1
}

func TestDevReloadsServerEditsAndRecoversFromErrors(t *testing.T) {
	dir := devExample(t, "[render.lifecycle]\nwatch_debounce_ms = 50")
	d := startDev(t, dir, nil)
	base, out := d.base, d.out
	server := filepath.Join(dir, "src", "server.jsx")

	body := get(t, base+"/")
	if !strings.Contains(body, "Hello, world!") || !strings.Contains(body, "__bextLiveReload") {
		t.Fatalf("first page lacks its heading or the live-reload client:\n%s", body)
	}
	events := openEvents(t, base)

	editFile(t, server, "<h1>Hello, {who}!</h1>", "<h1>Howdy, {who}!</h1>")
	out.waitLine(t, "[bext] Workers restarted (file change: src/server.jsx)")
	waitEvent(t, events, "reload")
	if body := get(t, base+"/"); !strings.Contains(body, "Howdy, world!") {
		t.Fatalf("after the restart line and the reload event, / must serve the edit; got:\n%s", body)
	}

	// A syntax error: the old workers keep serving the last good HTML, and
	// the browser gets esbuild's message with the location.
	editFile(t, server, "<h1>Howdy, {who}!</h1>", "<h1>Howdy, {who!</h1>")
	ev := waitEvent(t, events, "error")
	var o devserver.ErrorOverlay
	if err := json.Unmarshal([]byte(ev.data), &o); err != nil {
		t.Fatalf("error event data %q: %v", ev.data, err)
	}
	if want := lineOf(t, server, "{who!"); o.Title != devserver.TitleBuildFailed || o.File != "src/server.jsx" || o.Line != want ||
		!strings.Contains(o.LineText, "{who!") || !strings.Contains(o.Text, "src/server.jsx:") {
		t.Errorf("overlay = %+v, want a build error at src/server.jsx:%d", o, want)
	}
	if body := get(t, base+"/"); !strings.Contains(body, "Howdy, world!") {
		t.Errorf("while broken, / should serve the old HTML; got:\n%s", body)
	}
	// A browser that connects now still sees the error.
	waitEvent(t, openEvents(t, base), "error")

	editFile(t, server, "<h1>Howdy, {who!</h1>", "<h1>Fixed, {who}!</h1>")
	waitEvent(t, events, "ok")
	if body := get(t, base+"/"); !strings.Contains(body, "Fixed, world!") {
		t.Errorf("after the fix and the ok event, / should serve the new HTML at once; got:\n%s", body)
	}

	// A bundle that builds but throws at load fails the boot check.
	editFile(t, server, "const sleep =", "throw new Error(\"boot check: nope\");\nconst sleep =")
	ev = waitEvent(t, events, "error")
	if !strings.Contains(ev.data, devserver.TitleBootFailed) || !strings.Contains(ev.data, "boot check: nope") {
		t.Errorf("error event %s, want the boot failure", ev.data)
	}
	if body := get(t, base+"/"); !strings.Contains(body, "Fixed, world!") {
		t.Errorf("after a boot failure the old workers should serve; got:\n%s", body)
	}
	editFile(t, server, "throw new Error(\"boot check: nope\");\n", "")
	waitEvent(t, events, "ok")
}

// workerStarts is each worker's start time, from the admin API.
func workerStarts(t testing.TB, base string) string {
	var ws []struct {
		ID        int    `json:"id"`
		StartedAt string `json:"started_at"`
	}
	if err := json.Unmarshal([]byte(get(t, base+"/__bext/workers")), &ws); err != nil || len(ws) == 0 {
		t.Fatalf("GET /__bext/workers: %v %v", ws, err)
	}
	b, _ := json.Marshal(ws)
	return string(b)
}

func TestDevClientEditReloadsWithoutRestart(t *testing.T) {
	dir := devExample(t, "[render.lifecycle]\nwatch_debounce_ms = 50")
	d := startDev(t, dir, nil)
	base, out := d.base, d.out
	body := get(t, base+"/")
	if !strings.Contains(body, `src="/_bext/client.js"`) {
		t.Fatalf("dev pages should reference the client by a stable name; got:\n%s", body)
	}
	before := workerStarts(t, d.admin)
	events := openEvents(t, base)

	f, err := os.OpenFile(filepath.Join(dir, "src", "client.css"), os.O_APPEND|os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString("\n.dev-test-rule { color: rebeccapurple }\n")
	f.Close()
	waitEvent(t, events, "reload")
	if css := get(t, base+"/_bext/client.css"); !strings.Contains(css, "dev-test-rule") {
		t.Errorf("client.css after the edit lacks the new rule:\n%s", css)
	}
	if after := workerStarts(t, d.admin); after != before {
		t.Errorf("a CSS edit restarted workers:\nbefore %s\nafter  %s", before, after)
	}
	if strings.Contains(out.String(), "Workers restarted") {
		t.Errorf("a CSS edit logged a restart:\n%s", out)
	}
}

func TestDevConfigChangeReappliesPoolSize(t *testing.T) {
	dir := devExample(t, "[render.lifecycle]\nwatch_debounce_ms = 50")
	d := startDev(t, dir, nil)
	base, out := d.base, d.out
	events := openEvents(t, base)
	cfg := filepath.Join(dir, "config.toml")

	editFile(t, cfg, "jsc_workers = 2", "jsc_workers = 0")
	ev := waitEvent(t, events, "error")
	if !strings.Contains(ev.data, "jsc_workers") {
		t.Errorf("config error event %s should name the key", ev.data)
	}
	editFile(t, cfg, "jsc_workers = 0", "jsc_workers = 3")
	waitEvent(t, events, "ok")
	if n := strings.Count(workerStarts(t, d.admin), `"id"`); n != 3 {
		t.Errorf("after jsc_workers = 3: %d workers", n)
	}
	if !strings.Contains(get(t, d.admin+"/metrics"), "bext_pool_workers 3") {
		t.Error("metrics do not describe the new pool")
	}
	out.waitLine(t, "config change: config.toml")
}

func TestServeWatchDirsHotDeploys(t *testing.T) {
	dir := devExample(t, "[render.lifecycle]\nwatch_dirs = [\"src\"]\nwatch_debounce_ms = 50")
	out := newOutput()
	inst := apptest.Start(t, filepath.Join(dir, "config.toml"), nil, app.Options{Out: out})
	base := "http://" + inst.Addr()

	body := get(t, base+"/")
	if !strings.Contains(body, "Hello, world!") || strings.Contains(body, "__bextLiveReload") {
		t.Fatalf("serve page: want the heading and no live-reload client:\n%s", body)
	}
	server := filepath.Join(dir, "src", "server.jsx")
	editFile(t, server, "<h1>Hello, {who}!</h1>", "<h1>Deployed, {who}!</h1>")
	out.waitLine(t, "[bext] Workers restarted (file change: src/server.jsx)")
	if body := get(t, base+"/"); !strings.Contains(body, "Deployed, world!") {
		t.Fatalf("after the restart line / must serve the edit; got:\n%s", body)
	}

	editFile(t, server, "<h1>Deployed, {who}!</h1>", "<h1>Deployed, {who!</h1>")
	out.waitLine(t, "Build failed (file change: src/server.jsx)")
	if body := get(t, base+"/"); !strings.Contains(body, "Deployed, world!") {
		t.Errorf("a broken build must leave the old workers serving; got:\n%s", body)
	}
	editFile(t, server, "<h1>Deployed, {who!</h1>", "<h1>Again, {who}!</h1>")
	out.waitLine(t, "[bext] Workers restarted (file change: src/server.jsx)")
	if body := get(t, base+"/"); !strings.Contains(body, "Again, world!") {
		t.Fatalf("after the fix / must serve it; got:\n%s", body)
	}
}

// newBrowser starts headless Chromium (Debian's chromium package) with a
// fresh profile and returns a tab's context.
func newBrowser(t testing.TB) context.Context {
	t.Helper()
	exe := testenv.Tool(t, "chromium", "install Debian's chromium (apt-get install -y chromium)")
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-dev-shm-usage", true), // containers have a small /dev/shm
		chromedp.UserDataDir(t.TempDir()),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	if err := chromedp.Do(ctx); err != nil { // launches the browser
		t.Fatalf("start %s: %v", exe, err)
	}
	return ctx
}

// waitJS evaluates the boolean expression in the page until it is true. The
// page reloads by itself meanwhile, so failed evaluations (the document
// being replaced) are retried.
func waitJS(t testing.TB, ctx context.Context, expr string) {
	t.Helper()
	deadline := time.Now().Add(devDeadline)
	var lastErr error
	for time.Now().Before(deadline) {
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](expr))
		if lastErr = err; err == nil && ok {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	html, _ := chromedp.Run(ctx, chromedp.Evaluate[string](`document.documentElement.outerHTML`))
	t.Fatalf("page: %s not true within %v (last error %v); page:\n%.2000s", expr, devDeadline, lastErr, html)
}

// openLive opens url and waits until its live-reload stream is connected.
func openLive(t testing.TB, ctx context.Context, url string) {
	t.Helper()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		t.Fatal(err)
	}
	waitJS(t, ctx, `window.__bextLiveReloadOpen === true`)
}

const overlayJS = `document.getElementById("__bext_overlay")`

func h1Is(s string) string {
	return `(document.querySelector("main h1") || {}).textContent === ` + strconv.Quote(s)
}

func TestDevBrowserReloadsAndShowsOverlay(t *testing.T) {
	dir := devExample(t, "[render.lifecycle]\nwatch_debounce_ms = 50")
	base := startDev(t, dir, nil).base
	ctx := newBrowser(t)
	server := filepath.Join(dir, "src", "server.jsx")

	openLive(t, ctx, base+"/")
	waitJS(t, ctx, h1Is("Hello, world!"))
	// Mark this document: after a reload the mark is gone, which proves the
	// page reloaded itself (the test never navigates again).
	if _, err := chromedp.Run(ctx, chromedp.Evaluate[int](`window.__testMark = 1`)); err != nil {
		t.Fatal(err)
	}

	editFile(t, server, "<h1>Hello, {who}!</h1>", "<h1>Howdy, {who}!</h1>")
	waitJS(t, ctx, h1Is("Howdy, world!")+` && window.__testMark === undefined`)
	waitJS(t, ctx, `window.__bextLiveReloadOpen === true`)

	editFile(t, server, "<h1>Howdy, {who}!</h1>", "<h1>Howdy, {who!</h1>")
	waitJS(t, ctx, `!!`+overlayJS+` && `+overlayJS+`.textContent.includes("src/server.jsx:")`)
	text, _ := chromedp.Run(ctx, chromedp.Evaluate[string](overlayJS+`.textContent`))
	if !strings.Contains(text, devserver.TitleBuildFailed) || !strings.Contains(text, "{who!") {
		t.Errorf("overlay text %q: want the title and the source line", text)
	}

	editFile(t, server, "<h1>Howdy, {who!</h1>", "<h1>Fixed, {who}!</h1>")
	waitJS(t, ctx, `!`+overlayJS+` && `+h1Is("Fixed, world!"))
}
