package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"
)

// Values past a key's upper bound are refused, naming the key, the line and
// the bound: a duration that would overflow (18446744073710 ms wraps to
// about 0.45 ms once multiplied into nanoseconds) never reaches a timer.
func TestLoadRejectsValuesAboveTheirBound(t *testing.T) {
	for _, tc := range []struct{ text, key, frag string }{
		{"[render]\nrender_timeout_ms = 18446744073710\n", "render.render_timeout_ms", "at most 3600000"},
		{"[render]\njsc_workers = 100000\n", "render.jsc_workers", "at most 1024"},
		{"[render]\nqueue_timeout_ms = 9223372036854775807\n", "render.queue_timeout_ms", "at most"},
		{"[server]\nread_timeout_ms = 99999999999\n", "server.read_timeout_ms", "at most"},
		{"[server]\nmax_body_bytes = 9223372036854775807\n", "server.max_body_bytes", "at most"},
		{"[render.lifecycle]\ndrain_timeout_ms = 99999999999\n", "render.lifecycle.drain_timeout_ms", "at most"},
		{"[render.lifecycle]\nmax_memory_mb = 9223372036854775807\n", "render.lifecycle.max_memory_mb", "at most"},
		{"[render.lifecycle]\nmax_uptime_hours = inf\n", "render.lifecycle.max_uptime_hours", "between 0 and 1000000"},
		{"[render.lifecycle.recovery]\nbackoff_multiplier = 1e308\n", "render.lifecycle.recovery.backoff_multiplier", "at most 1000"},
		{"[render.lifecycle.recovery]\nbackoff_max_ms = 99999999999\n", "render.lifecycle.recovery.backoff_max_ms", "at most"},
		{"[runtime]\nmemory_limit_mb = 9223372036854775807\n", "runtime.memory_limit_mb", "at most"},
	} {
		t.Run(tc.key, func(t *testing.T) {
			wantProblem(t, loadProblems(t, tc.text), tc.key, 2, tc.frag)
		})
	}
}

// Every number in the file has bounds (buildSchema refuses a numeric field
// without a range tag), and the default of every number lies within them.
func TestEveryNumberHasBoundsAndTheDefaultIsInside(t *testing.T) {
	def := Default()
	root := reflect.ValueOf(&def).Elem()
	n := 0
	for key, f := range schema {
		if !f.isNumber() || f.array != "" {
			continue // elements of an array of tables have no default
		}
		n++
		v := root.FieldByIndex(f.index)
		x := 0.0
		if v.CanInt() {
			x = float64(v.Int())
		} else {
			x = v.Float()
		}
		if x < f.min || x > f.max {
			t.Errorf("default %s = %v is outside [%v, %v]", key, x, f.min, f.max)
		}
	}
	if n < 20 {
		t.Fatalf("only %d numeric keys found", n)
	}
}

func TestAddressesAreValidatedAtLoad(t *testing.T) {
	for _, tc := range []struct{ text, key, frag string }{
		{"[server]\naddr = \"127.0.0.1:99999\"\n", "server.addr", "from 0 to 65535"},
		{"[server]\naddr = \"127.0.0.1:http\"\n", "server.addr", "is a number"},
		{"[server]\naddr = \"exa mple.com:80\"\n", "server.addr", "neither an IP address nor a host name"},
		{"[server]\naddr = \"unix:/tmp/x.sock\"\n", "server.addr", "a port is a number"},
		{"[admin]\naddr = \"unix:\"\n", "admin.addr", "names no socket"},
		{"[admin]\naddr = \"localhost:-1\"\n", "admin.addr", "from 0 to 65535"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			wantProblem(t, loadProblems(t, tc.text), tc.key, 2, tc.frag)
		})
	}
	if _, err := Load(writeApp(t, "[server]\naddr = \"localhost:8080\"\n[admin]\naddr = \"unix:/run/bext/admin.sock\"\n")); err != nil {
		t.Fatalf("a host name and a unix socket were refused: %v", err)
	}
}

func TestWarningsNameManyWorkers(t *testing.T) {
	c := Default()
	if w := c.Warnings(); len(w) != 0 {
		t.Fatalf("defaults warn: %v", w)
	}
	c.Render.JSCWorkers = 4*runtime.NumCPU() + 1
	if w := c.Warnings(); len(w) != 1 || !strings.Contains(w[0], "jsc_workers") {
		t.Fatalf("warnings %v, want one about jsc_workers", w)
	}
}

// FuzzLoad feeds mutated config files to Load: it must never panic, and
// every problem it reports names a key or a line.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{"../config.toml", "../examples/basic/config.toml", "../examples/react/config.toml", "../examples/leaky/config.toml"} {
		if b, err := os.ReadFile(seed); err == nil {
			f.Add(string(b))
		}
	}
	f.Add("[render]\njsc_workers = 4\n[render.lifecycle]\nmax_requests = 10\n")
	f.Add("[server]\naddr = \"\"\nread_timeout_ms = -1\n[[app]]\n")
	dir := f.TempDir()
	os.MkdirAll(filepath.Join(dir, "src"), 0o755)
	os.WriteFile(filepath.Join(dir, "src", "server.jsx"), []byte("globalThis.render = () => ''"), 0o644)
	path := filepath.Join(dir, "config.toml")
	f.Fuzz(func(t *testing.T, text string) {
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		_, err := Load(path)
		if err == nil {
			return
		}
		var ce *Error
		if !errors.As(err, &ce) {
			t.Fatalf("Load error %T %v, want *Error", err, err)
		}
		for _, p := range ce.Problems {
			if p.Key == "" && p.Line == 0 {
				t.Errorf("problem names neither a key nor a line: %q (file %q)", p.Msg, text)
			}
			if strings.TrimSpace(p.Msg) == "" {
				t.Errorf("problem without a message: %+v", p)
			}
		}
		_ = fmt.Sprint(ce.Error())
	})
}

// Arrays of tables ([[cache.rule]]) load into slices; a problem names the
// element and the line.
func TestArrayOfTables(t *testing.T) {
	text := "[[cache.rule]]\npath = \"/a/**\"\nmax_age = 5\ncookies = [\"theme\"]\n\n[[cache.rule]]\npath = \"b\"\nmax_age = -1\nbogus = 1\n"
	ps := loadProblems(t, text)
	wantProblem(t, ps, "cache.rule[2].path", 7, "must start with /")
	wantProblem(t, ps, "cache.rule[2].max_age", 8, "negative")
	wantProblem(t, ps, "cache.rule[2].bogus", 9, "unknown key")
	if len(ps) != 3 {
		t.Errorf("problems %+v, want 3", ps)
	}
	c, err := Load(writeApp(t, "[[cache.rule]]\npath = \"/a/**\"\nmax_age = 5\nstale_while_revalidate = 60\ncookies = [\"theme\"]\n[[cache.rule]]\npath = \"/\"\nmax_age = 1\n"))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.Cache.Rules) != 2 || c.Cache.Rules[0].Path != "/a/**" || c.Cache.Rules[0].StaleWhileRevalidate != 60 ||
		c.Cache.Rules[0].Cookies[0] != "theme" || c.Cache.Rules[1].MaxAge != 1 {
		t.Fatalf("rules %+v", c.Cache.Rules)
	}
}
