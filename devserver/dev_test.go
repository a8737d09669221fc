package devserver

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"github.com/evanw/esbuild/pkg/api"

	"bext/config"
	"bext/engine"
)

// The dev loop's reactions, in fake time, with fakes of its own seams
// (Builder, Target, Browsers, FileWatcher).

const (
	root     = "/app"
	debounce = 100 * time.Millisecond
)

var (
	header    = filepath.Join(root, "src/components/Header.tsx")
	clientCSS = filepath.Join(root, "src/client.css")
	cfgFile   = filepath.Join(root, "config.toml")
	initial   = Inputs{
		Server:     map[string]bool{header: true},
		Client:     map[string]bool{clientCSS: true},
		PublicDir:  filepath.Join(root, "public"),
		ConfigFile: cfgFile,
	}
)

type fakeWatcher struct {
	ev   chan string
	errs chan error
	once sync.Once
}

func (w *fakeWatcher) Events() <-chan string { return w.ev }
func (w *fakeWatcher) Errors() <-chan error  { return w.errs }
func (w *fakeWatcher) Close() error {
	w.once.Do(func() { close(w.ev); close(w.errs) })
	return nil
}

// fakeApp is the Builder and the Target. Errors set on it make the next
// calls fail; calls records what the loop asked for.
type fakeApp struct {
	mu        sync.Mutex
	calls     []string
	buildErr  error
	bootErr   error
	configErr error
	stale     bool   // ServeClient reports other asset URLs
	reconfig  Inputs // what Reconfigure returns
}

func (a *fakeApp) record(s string) {
	a.mu.Lock()
	a.calls = append(a.calls, s)
	a.mu.Unlock()
}

func (a *fakeApp) takeCalls() []string {
	a.mu.Lock()
	defer a.mu.Unlock()
	c := a.calls
	a.calls = nil
	return c
}

func (a *fakeApp) set(f func(*fakeApp)) {
	a.mu.Lock()
	f(a)
	a.mu.Unlock()
}

func (a *fakeApp) Build(ctx context.Context, server bool) (*Build, error) {
	a.record(fmt.Sprintf("build server=%v", server))
	time.Sleep(30 * time.Millisecond) // esbuild takes time; fake time here
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.buildErr != nil {
		return nil, a.buildErr
	}
	b := &Build{Client: &Client{JS: []string{"/_bext/client.js"}},
		Inputs: Inputs{Client: map[string]bool{clientCSS: true}}}
	if server {
		b.Server = []byte("globalThis.render = () => ({html: 'v2'})")
		b.Inputs.Server = map[string]bool{header: true}
	}
	return b, nil
}

func (a *fakeApp) Boot(ctx context.Context, b *Build) (Deployment, error) {
	a.record(fmt.Sprintf("boot server=%v", b.Server != nil))
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.bootErr != nil {
		return nil, a.bootErr
	}
	return fakeDeployment{a}, nil
}

type fakeDeployment struct{ a *fakeApp }

func (d fakeDeployment) Roll(ctx context.Context) error {
	d.a.record("roll")
	time.Sleep(50 * time.Millisecond)
	return nil
}

func (a *fakeApp) ServeClient(c *Client) bool {
	a.record("serve client")
	a.mu.Lock()
	defer a.mu.Unlock()
	return !a.stale
}

func (a *fakeApp) Reconfigure(ctx context.Context) (Inputs, error) {
	a.record("reconfigure")
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.reconfig, a.configErr
}

type fakeBrowsers struct {
	mu     sync.Mutex
	events []string
}

func (b *fakeBrowsers) add(s string) { b.mu.Lock(); b.events = append(b.events, s); b.mu.Unlock() }
func (b *fakeBrowsers) Reload()      { b.add("reload") }
func (b *fakeBrowsers) Clear()       { b.add("ok") }
func (b *fakeBrowsers) Error(e ErrorOverlay) {
	b.add(fmt.Sprintf("error %s: %s:%d: %s", e.Title, e.File, e.Line, e.Message))
}

func (b *fakeBrowsers) take() []string {
	b.mu.Lock()
	defer b.mu.Unlock()
	e := b.events
	b.events = nil
	return e
}

// harness runs the loop inside a synctest bubble.
type harness struct {
	t        *testing.T
	app      *fakeApp
	browsers *fakeBrowsers
	w        *fakeWatcher
	mu       sync.Mutex
	logs     []string
	traces   []string
	cancel   context.CancelFunc
	done     chan struct{}
}

func start(t *testing.T) *harness {
	h := &harness{t: t, app: &fakeApp{}, browsers: &fakeBrowsers{},
		w: &fakeWatcher{ev: make(chan string), errs: make(chan error)}, done: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	h.cancel = cancel
	o := Options{Dir: root, Debounce: debounce, Inputs: initial, Hub: h.browsers,
		Logf: func(f string, a ...any) {
			h.mu.Lock()
			h.logs = append(h.logs, fmt.Sprintf(f, a...))
			h.mu.Unlock()
		},
		Trace: func(p Phase, d time.Duration) {
			h.mu.Lock()
			h.traces = append(h.traces, fmt.Sprintf("%s %v", p, d))
			h.mu.Unlock()
		},
	}
	go func() { Run(ctx, h.w, h.app, h.app, o); close(h.done) }()
	t.Cleanup(h.stop)
	return h
}

func (h *harness) stop() {
	h.cancel()
	<-h.done
}

// save reports paths as changed, then lets the batch window close and the
// loop finish handling it.
func (h *harness) save(paths ...string) {
	for _, p := range paths {
		h.w.ev <- p
	}
	time.Sleep(debounce + time.Second)
	synctest.Wait()
}

func (h *harness) expect(calls, events []string) {
	h.t.Helper()
	if got := h.app.takeCalls(); !slices.Equal(got, calls) {
		h.t.Errorf("calls = %q, want %q", got, calls)
	}
	if got := h.browsers.take(); !slices.Equal(got, events) {
		h.t.Errorf("browser events = %q, want %q", got, events)
	}
}

func (h *harness) takeLogs() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	l := h.logs
	h.logs = nil
	return l
}

var deploy = []string{"build server=true", "boot server=true", "serve client", "roll"}

func TestRunClientChangeReloadsWithoutRestart(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.save(clientCSS)
		h.expect([]string{"build server=false", "serve client"}, []string{"reload"})
		// A public file is client-only too, even though no build lists it.
		h.save(filepath.Join(root, "public/logo.svg"))
		h.expect([]string{"build server=false", "serve client"}, []string{"reload"})
	})
}

func TestRunServerChangeDeploysOncePerBatch(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		for range 10 { // ten saves in 200 ms
			h.w.ev <- header
			time.Sleep(20 * time.Millisecond)
		}
		h.w.ev <- clientCSS // and a stylesheet: the server rebuild covers it
		time.Sleep(debounce + time.Second)
		synctest.Wait()
		h.expect(deploy, []string{"reload"})
		want := "[bext] Workers restarted (file change: src/components/Header.tsx)"
		if logs := h.takeLogs(); !slices.Contains(logs, want) {
			t.Errorf("logs = %q, want the line %q", logs, want)
		}
	})
}

func TestRunIgnoresFilesNoBuildUses(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.save(filepath.Join(root, "README.md"), filepath.Join(root, "notes.txt"))
		h.expect(nil, nil)
	})
}

func TestRunBuildErrorShowsOverlayUntilFixed(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.app.set(func(a *fakeApp) {
			a.buildErr = &engine.BuildError{Text: "✘ [ERROR] Unexpected \"!\"\n\n    src/components/Header.tsx:3:14: ...\n",
				Messages: []api.Message{{Text: `Unexpected "!"`, Location: &api.Location{
					File: "src/components/Header.tsx", Line: 3, Column: 14, LineText: "  <h1>{who!</h1>"}}}}
		})
		h.save(header)
		h.expect([]string{"build server=true"}, []string{`error Build failed: src/components/Header.tsx:3: Unexpected "!"`})

		// Saving again while still broken: another error, no deploy.
		h.save(header)
		h.expect([]string{"build server=true"}, []string{`error Build failed: src/components/Header.tsx:3: Unexpected "!"`})

		h.app.set(func(a *fakeApp) { a.buildErr = nil })
		h.save(header)
		h.expect(deploy, []string{"ok"})
		// Once cleared, the next change is a plain reload again.
		h.save(header)
		h.expect(deploy, []string{"reload"})
	})
}

func TestRunBootErrorKeepsOldWorkers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.app.set(func(a *fakeApp) { a.bootErr = &engine.BootError{Message: "ReferenceError: x is not defined"} })
		h.save(header)
		h.expect([]string{"build server=true", "boot server=true"},
			[]string{"error " + TitleBootFailed + ": :0: ReferenceError: x is not defined"})
		h.app.set(func(a *fakeApp) { a.bootErr = nil })
		h.save(header)
		h.expect(deploy, []string{"ok"})
	})
}

func TestRunClientFixDoesNotClearServerError(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.app.set(func(a *fakeApp) { a.bootErr = errors.New("boom") })
		h.save(header)
		h.expect([]string{"build server=true", "boot server=true"}, []string{"error " + TitleBootFailed + ": :0: boom"})
		h.save(clientCSS) // builds fine, but the server bundle is still broken
		h.expect([]string{"build server=false", "serve client"}, []string{"reload"})
		h.app.set(func(a *fakeApp) { a.bootErr = nil })
		h.save(header)
		h.expect(deploy, []string{"ok"})
	})
}

func TestRunClientChangeWithNewAssetURLsRestarts(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.app.set(func(a *fakeApp) { a.stale = true })
		h.save(clientCSS)
		h.expect([]string{"build server=false", "serve client", "boot server=false", "roll"}, []string{"reload"})
	})
}

func TestRunConfigChangeReapplies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		other := filepath.Join(root, "src/other.tsx")
		h.app.set(func(a *fakeApp) {
			a.configErr = &config.Error{File: cfgFile, Problems: []config.Problem{
				{Key: "render.jsc_workers", Line: 7, Msg: "must be at least 1"}}}
		})
		h.save(cfgFile, header) // the config change wins over the server change
		h.expect([]string{"reconfigure"}, []string{"error " + TitleConfigFailed + ": " + cfgFile + ":7: must be at least 1"})

		h.app.set(func(a *fakeApp) {
			a.configErr = nil
			a.reconfig = Inputs{Server: map[string]bool{other: true}, ConfigFile: cfgFile}
		})
		h.save(cfgFile)
		h.expect([]string{"reconfigure"}, []string{"ok"})
		if logs := h.takeLogs(); !strings.Contains(strings.Join(logs, "\n"), "config change: config.toml") {
			t.Errorf("logs = %q, want the config change logged", logs)
		}
		// The new config's inputs are used from now on: the client CSS is
		// no longer an input, but CSS is client-only by extension anyway;
		// other.tsx is a server input.
		h.save(other)
		h.expect(deploy, []string{"reload"})
	})
}

func TestRunTracesPhases(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.save(header)
		h.mu.Lock()
		got := h.traces
		h.mu.Unlock()
		// Fake time: the debounce is exactly the window after the last
		// event; rebuild and restart are the fakes' sleeps.
		want := []string{"debounce 100ms", "rebuild 30ms", "boot 0s", "restart 50ms"}
		if !slices.Equal(got, want) {
			t.Errorf("traces = %q, want %q", got, want)
		}
	})
}

func TestRunStopsOnCancel(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		h := start(t)
		h.w.ev <- header // pending when the loop is stopped: not handled
		h.stop()
		h.expect(nil, nil)
		if _, ok := <-h.w.ev; ok {
			t.Error("watcher not closed by Run")
		}
	})
}

func TestOverlayForKinds(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want ErrorOverlay
	}{
		{&engine.BuildError{Text: "T\n", Messages: []api.Message{{Text: "m", Location: &api.Location{File: "a.js", Line: 2, Column: 1, LineText: "x"}}}},
			ErrorOverlay{Title: TitleBuildFailed, Message: "m", File: "a.js", Line: 2, Column: 1, LineText: "x", Text: "T"}},
		{fmt.Errorf("wrapped: %w", &engine.BootError{Message: "no render", Stack: "at x (a.js:1)"}),
			ErrorOverlay{Title: TitleBootFailed, Message: "no render", Text: "wrapped: no render\n\nat x (a.js:1)"}},
		{errors.New("plain"), ErrorOverlay{Title: TitleBootFailed, Message: "plain", Text: "plain"}},
	} {
		if got := OverlayFor(TitleBootFailed, tc.err); got != tc.want {
			t.Errorf("OverlayFor(%v) = %+v, want %+v", tc.err, got, tc.want)
		}
	}
}
