package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// writeApp makes a folder holding config.toml with the given text and the
// default server entry (src/server.jsx), and returns the config's path.
func writeApp(t *testing.T, text string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "src"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "src", "server.jsx"), []byte("globalThis.render = () => 'hi'"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// loadProblems loads text and returns its problems, failing if Load succeeds
// or returns anything but a *Error.
func loadProblems(t *testing.T, text string) []Problem {
	t.Helper()
	_, err := Load(writeApp(t, text))
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("Load(%q) error = %v, want *Error", text, err)
	}
	return ce.Problems
}

// wantProblem fails unless ps holds a problem for key at line whose message
// contains every fragment.
func wantProblem(t *testing.T, ps []Problem, key string, line int, fragments ...string) {
	t.Helper()
	for _, p := range ps {
		if p.Key != key || p.Line != line {
			continue
		}
		for _, f := range fragments {
			if !strings.Contains(p.Msg, f) {
				t.Errorf("problem %s:%d = %q, want it to mention %q", key, line, p.Msg, f)
			}
		}
		return
	}
	t.Errorf("no problem for %s at line %d; got %+v", key, line, ps)
}

func TestLoadKeepsDefaultsForAbsentKeys(t *testing.T) {
	path := writeApp(t, "[render]\njsc_workers = 8\n\n[render.lifecycle.recovery]\nbackoff_multiplier = 2\n")
	got, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	want := Default()
	want.Render.JSCWorkers = 8
	want.Render.Lifecycle.Recovery.BackoffMultiplier = 2 // an integer is accepted for a float
	want.Path, want.Dir = path, filepath.Dir(path)
	want.resolvePaths()
	got.present = nil
	if !reflect.DeepEqual(*got, want) {
		t.Errorf("Load =\n%+v\nwant\n%+v", *got, want)
	}
}

func TestLoadRejectsImpossibleValues(t *testing.T) {
	for _, tc := range []struct {
		name, text, key string
		line            int
		fragments       []string
	}{
		{"zero workers", "# c\n[render]\njsc_workers = 0\n", "render.jsc_workers", 3, []string{"at least 1", "got 0"}},
		{"negative workers", "[render]\njsc_workers = -2\n", "render.jsc_workers", 2, []string{"at least 1"}},
		{"zero render timeout", "[render]\nrender_timeout_ms = 0\n", "render.render_timeout_ms", 2, []string{"at least 1"}},
		{"zero queue timeout", "[render]\nqueue_timeout_ms = 0\n", "render.queue_timeout_ms", 2, []string{"at least 1"}},
		{"negative max_requests", "[render.lifecycle]\nmax_requests = -1\n", "render.lifecycle.max_requests", 2, []string{"negative", "0 means never"}},
		{"negative max_memory_mb", "[render.lifecycle]\n\nmax_memory_mb = -5\n", "render.lifecycle.max_memory_mb", 3, []string{"negative"}},
		{"negative uptime", "[render.lifecycle]\nmax_uptime_hours = -0.5\n", "render.lifecycle.max_uptime_hours", 2, []string{"between 0"}},
		{"nan uptime", "[render.lifecycle]\nmax_uptime_hours = nan\n", "render.lifecycle.max_uptime_hours", 2, []string{"NaN"}},
		{"negative drain", "[render.lifecycle]\ndrain_timeout_ms = -1\n", "render.lifecycle.drain_timeout_ms", 2, []string{"negative"}},
		{"zero memory check", "[render.lifecycle]\nmemory_check_ms = 0\n", "render.lifecycle.memory_check_ms", 2, []string{"at least 1"}},
		{"negative read timeout", "[server]\nread_timeout_ms = -1\n", "server.read_timeout_ms", 2, []string{"negative", "no timeout"}},
		{"negative body limit", "[server]\nmax_body_bytes = -1\n", "server.max_body_bytes", 2, []string{"negative"}},
		{"negative header limit", "[server]\nmax_header_bytes = -1\n", "server.max_header_bytes", 2, []string{"negative"}},
		{"multiplier below 1", "[render.lifecycle.recovery]\nbackoff_multiplier = 0.5\n", "render.lifecycle.recovery.backoff_multiplier", 2, []string{"at least 1", "0.5"}},
		{"initial above max", "[render.lifecycle.recovery]\nbackoff_initial_ms = 5000\nbackoff_max_ms = 1000\n", "render.lifecycle.recovery.backoff_initial_ms", 2, []string{"backoff_max_ms"}},
		{"negative failures", "[render.lifecycle.recovery]\nmax_consecutive_failures = -1\n", "render.lifecycle.recovery.max_consecutive_failures", 2, []string{"negative"}},
		{"bad log format", "[server]\nlog_format = \"yaml\"\n", "server.log_format", 2, []string{"auto, json, text", `"yaml"`}},
		{"bad log level", "[server]\nlog_level = \"loud\"\n", "server.log_level", 2, []string{"debug"}},
		{"gogc below -1", "[runtime]\ngogc = -2\n", "runtime.gogc", 2, []string{"at least -1"}},
		{"memory limit below -1", "[runtime]\nmemory_limit_mb = -2\n", "runtime.memory_limit_mb", 2, []string{"at least -1"}},
		{"bad server addr", "[server]\naddr = \"3000\"\n", "server.addr", 2, []string{"host:port", ":3000"}},
		{"bad admin addr", "[admin]\naddr = \"localhost\"\n", "admin.addr", 2, []string{"host:port"}},
		{"missing entry", "[app]\nserver_entry = \"src/nope.jsx\"\n", "app.server_entry", 2, []string{filepath.Join("src", "nope.jsx"), "does not exist", "relative to the config file"}},
		{"entry is a folder", "[app]\nserver_entry = \"src\"\n", "app.server_entry", 2, []string{"is a folder"}},
		{"missing client entry", "[app]\nclient_entry = \"src/client.js\"\n", "app.client_entry", 2, []string{"does not exist", `client_entry = ""`}},
		{"public_dir is a file", "[app]\npublic_dir = \"src/server.jsx\"\n", "app.public_dir", 2, []string{"not a folder"}},
		{"unknown fast path", "[app]\nfast_paths_off = [\"escape\", \"sinks\"]\n", "app.fast_paths_off", 2, []string{"sink, flush, chunks, concat, escape, props, jsx", `"sinks"`}},
		{"missing watch dir", "[render.lifecycle]\nwatch_dirs = [\"src\", \"gone\"]\n", "render.lifecycle.watch_dirs", 2, []string{"entry 1", "gone", "does not exist"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := loadProblems(t, tc.text)
			if len(ps) != 1 {
				t.Errorf("got %d problems, want 1: %+v", len(ps), ps)
			}
			wantProblem(t, ps, tc.key, tc.line, tc.fragments...)
		})
	}
}

func TestLoadAcceptsEdgeValues(t *testing.T) {
	path := writeApp(t, `
[server]
addr = ":8080"
[render.lifecycle]
max_requests = 0
max_uptime_hours = 0
[render.lifecycle.recovery]
backoff_multiplier = 1.0
backoff_initial_ms = 0
max_consecutive_failures = 0
[runtime]
gogc = -1
[admin]
addr = "[::1]:9090"
`)
	if _, err := Load(path); err != nil {
		t.Fatalf("values that mean never/off/all interfaces were rejected: %v", err)
	}
}

func TestLoadReportsUnknownKeys(t *testing.T) {
	ps := loadProblems(t, `[render]
jsc_workers = 2

[render.lifecycle]
max_request = 5

[rendr]
jsc_workers = 3
more = 1

[server]
max_requests = 1
`)
	if len(ps) != 3 {
		t.Errorf("got %d problems, want 3 (an unknown table is reported once): %+v", len(ps), ps)
	}
	wantProblem(t, ps, "render.lifecycle.max_request", 5, "unknown key", `did you mean "max_requests"?`)
	wantProblem(t, ps, "rendr", 7, "unknown key", `"render"`)
	wantProblem(t, ps, "server.max_requests", 12, "unknown key", "[render.lifecycle]")
}

func TestLoadReportsWrongTypes(t *testing.T) {
	for _, tc := range []struct {
		name, text, key string
		line            int
		fragment        string
	}{
		{"string for int", "[render]\njsc_workers = \"four\"\n", "render.jsc_workers", 2, `must be an integer, got string "four"`},
		{"float for int", "[render]\njsc_workers = 2.5\n", "render.jsc_workers", 2, "must be an integer, got float 2.5"},
		{"int for string", "[server]\naddr = 3000\n", "server.addr", 2, "must be a string, got integer 3000"},
		{"string for bool", "[server]\ngzip = \"yes\"\n", "server.gzip", 2, "true or false"},
		{"string for float", "[render.lifecycle]\nmax_uptime_hours = \"1h\"\n", "render.lifecycle.max_uptime_hours", 2, "must be a number"},
		{"string for array", "[render.lifecycle]\nwatch_dirs = \"src\"\n", "render.lifecycle.watch_dirs", 2, `array of strings like ["src"]`},
		{"int in array", "[render.lifecycle]\nwatch_dirs = [\"src\", 1]\n", "render.lifecycle.watch_dirs", 2, "element 1 must be a string"},
		{"value for table", "render = 4\n", "render", 1, "must be a table"},
		{"table for value", "[render.jsc_workers]\nx = 1\n", "render.jsc_workers", 1, "must be an integer, got a table"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := loadProblems(t, tc.text)
			if len(ps) != 1 {
				t.Errorf("got %d problems, want 1: %+v", len(ps), ps)
			}
			wantProblem(t, ps, tc.key, tc.line, tc.fragment)
		})
	}
}

func TestLoadReportsSyntaxErrorLine(t *testing.T) {
	ps := loadProblems(t, "[server]\ngzip = true\naddr = \"127.0.0.1:3000\n")
	if len(ps) != 1 || ps[0].Line != 3 || !strings.Contains(ps[0].Msg, "syntax error") {
		t.Errorf("problems = %+v, want one syntax error at line 3", ps)
	}
}

func TestLoadReportsAllProblemsTogether(t *testing.T) {
	path := writeApp(t, `[render]
jsc_workers = 0
render_timeout_ms = "slow"

[render.lifecycle.recovery]
backoff_multiplier = 0.9
colour = "red"
`)
	_, err := Load(path)
	var ce *Error
	if !errors.As(err, &ce) {
		t.Fatalf("error = %v, want *Error", err)
	}
	want := []struct {
		key  string
		line int
	}{
		{"render.jsc_workers", 2},
		{"render.render_timeout_ms", 3},
		{"render.lifecycle.recovery.backoff_multiplier", 6},
		{"render.lifecycle.recovery.colour", 7},
	}
	if len(ce.Problems) != len(want) {
		t.Fatalf("got %d problems, want %d: %v", len(ce.Problems), len(want), err)
	}
	for i, w := range want {
		if p := ce.Problems[i]; p.Key != w.key || p.Line != w.line {
			t.Errorf("problem %d = %s:%d, want %s:%d (in file order)", i, p.Key, p.Line, w.key, w.line)
		}
	}
	if n := strings.Count(err.Error(), "\n"); n != len(want)-1 {
		t.Errorf("message has %d lines, want one per problem:\n%v", n+1, err)
	}
}

func TestErrorMessageNamesFileLineTableAndKey(t *testing.T) {
	path := writeApp(t, "[server]\ngzip = true\n\n[render]\n# workers\n\njsc_workers = 0\n")
	_, err := Load(path)
	want := path + ":7: [render] jsc_workers: must be at least 1, got 0"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v\nwant    %s", err, want)
	}
}

func TestMissingDefaultEntryNamesKeyWithoutLine(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte("[render]\njsc_workers = 2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := Load(path)
	want := path + ": [app] server_entry: " + filepath.Join(dir, "src", "server.jsx") + " does not exist"
	if err == nil || !strings.HasPrefix(err.Error(), want) {
		t.Errorf("error = %v\nwant prefix %s", err, want)
	}
}

// With a `bext build` output in out_dir the entries may be absent: a deploy
// ships the build without sources.
func TestMissingEntriesAreFineWithABuild(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "config.toml")
	text := "[app]\nserver_entry = \"src/server.jsx\"\nclient_entry = \"src/client.js\"\n"
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err == nil {
		t.Fatal("missing entries with no build: want an error")
	}
	os.MkdirAll(filepath.Join(dir, ".bext"), 0o755)
	if err := os.WriteFile(filepath.Join(dir, ".bext", "manifest.json"), []byte("{}"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(path); err != nil {
		t.Fatalf("missing entries next to a build: %v", err)
	}
}

func TestLoadMissingFile(t *testing.T) {
	_, err := Load(filepath.Join(t.TempDir(), "nope.toml"))
	if !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "-config") {
		t.Errorf("error = %v, want a not-exist error that mentions -config", err)
	}
}

func TestLoadResolvesPathsAgainstConfigFolder(t *testing.T) {
	path := writeApp(t, `[app]
server_entry = "src/server.jsx"
client_entry = "src/server.jsx"
public_dir = "static"
out_dir = "/tmp/bext-out"
[render.lifecycle]
watch_dirs = ["src", "."]
`)
	dir := filepath.Dir(path)
	t.Chdir(t.TempDir()) // the working directory must not matter
	c, err := Load(path)
	if err != nil {
		t.Fatal(err)
	}
	checks := map[string][2]string{
		"Path":         {c.Path, path},
		"Dir":          {c.Dir, dir},
		"ServerEntry":  {c.App.ServerEntry, filepath.Join(dir, "src", "server.jsx")},
		"ClientEntry":  {c.App.ClientEntry, filepath.Join(dir, "src", "server.jsx")},
		"PublicDir":    {c.App.PublicDir, filepath.Join(dir, "static")},
		"OutDir":       {c.App.OutDir, "/tmp/bext-out"},
		"WatchDirs[0]": {c.Render.Lifecycle.WatchDirs[0], filepath.Join(dir, "src")},
		"WatchDirs[1]": {c.Render.Lifecycle.WatchDirs[1], dir},
	}
	for name, v := range checks {
		if v[0] != v[1] {
			t.Errorf("%s = %q, want %q", name, v[0], v[1])
		}
	}
}

func TestLoadRelativeConfigPathBecomesAbsolute(t *testing.T) {
	path := writeApp(t, "")
	t.Chdir(filepath.Dir(path))
	c, err := Load("config.toml")
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != path || c.App.ClientEntry != "" {
		t.Errorf("Path = %q, ClientEntry = %q; want %q and unset", c.Path, c.App.ClientEntry, path)
	}
}

func TestApplyEnv(t *testing.T) {
	env := map[string]string{"BEXT_ADDR": "0.0.0.0:8080", "BEXT_ADMIN_TOKEN": "s3cret"}
	c := Default()
	c.ApplyEnv(func(k string) string { return env[k] })
	if c.Server.Addr != "0.0.0.0:8080" || c.Admin.Token != "s3cret" {
		t.Errorf("after ApplyEnv addr = %q, token = %q", c.Server.Addr, c.Admin.Token)
	}
	c = Default()
	c.Admin.Token = "from-file"
	c.ApplyEnv(func(string) string { return "" })
	if c.Server.Addr != Default().Server.Addr || c.Admin.Token != "from-file" {
		t.Errorf("empty env changed config: addr = %q, token = %q", c.Server.Addr, c.Admin.Token)
	}
}

// [app.env] and an [[apps]] entry's env are tables of strings; a value
// that is not a string names its key and line.
func TestAppEnv(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "server.js"), []byte("x"), 0o644)
	write := func(text string) string {
		p := filepath.Join(dir, "config.toml")
		os.WriteFile(p, []byte(text), 0o644)
		return p
	}
	c, err := Load(write("[app]\nserver_entry = \"server.js\"\n[app.env]\nAPI_ORIGIN = \"http://x\"\nFLAG = \"1\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.App.Env["API_ORIGIN"] != "http://x" || c.App.Env["FLAG"] != "1" || len(c.App.Env) != 2 {
		t.Fatalf("env %v", c.App.Env)
	}
	c, err = Load(write("[[apps]]\nname = \"a\"\nserver_entry = \"server.js\"\nenv = { K = \"v\" }\n[[apps]]\nname = \"b\"\nserver_entry = \"server.js\"\npath_prefix = \"/b\"\n[apps.env]\nK = \"w\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Apps[0].Env["K"] != "v" || c.Apps[1].Env["K"] != "w" {
		t.Fatalf("apps env %v %v", c.Apps[0].Env, c.Apps[1].Env)
	}
	_, err = Load(write("[app]\nserver_entry = \"server.js\"\n\n[app.env]\nPORT = 3000\n"))
	if err == nil || !strings.Contains(err.Error(), "PORT") || !strings.Contains(err.Error(), "must be a string") || !strings.Contains(err.Error(), ":5") {
		t.Fatalf("a number in [app.env]: %v", err)
	}
	_, err = Load(write("[app]\nserver_entry = \"server.js\"\n[fetch]\nbase_url = \"/api\"\n"))
	if err == nil || !strings.Contains(err.Error(), "[fetch] base_url") {
		t.Fatalf("a relative base_url: %v", err)
	}
}
