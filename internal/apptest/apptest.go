// Package apptest starts real bext instances for tests: an app written to
// a temp folder, app.Start on a free loopback port, HTTP helpers. The CLI
// tests and the assembly's own tests share it.
package apptest

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"runtime"
	"sort"
	"strings"
	"testing"

	"bext/config"
	"bext/internal/app"

	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"
)

// TinyServer is a server entry that imports ./greet (write src/greet.js
// beside it) and renders "<h1>" + greet(path) + "</h1>".
const TinyServer = `
import { greet } from "./greet";
globalThis.render = (req) => "<!doctype html><h1>" + greet(req.path) + "</h1>";
`

// QuietLog discards logs in tests and benchmarks.
var QuietLog = slog.New(slog.DiscardHandler)

// RepoRoot is the module root.
func RepoRoot() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(filepath.Dir(filepath.Dir(file)))
}

// WriteApp writes files and config.toml (cfg) into a temp folder and
// returns the config's path.
func WriteApp(tb testing.TB, cfg string, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	path := filepath.Join(dir, "config.toml")
	if err := os.WriteFile(path, []byte(cfg), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// Config loads cfgPath ("" = the embedded example) for a test: free
// loopback ports for the public and the admin listener, no access log,
// then mod.
func Config(tb testing.TB, cfgPath string, mod func(*config.Config)) *config.Config {
	tb.Helper()
	cfg, err := app.LoadConfig(cfgPath, nil)
	if err != nil {
		tb.Fatal(err)
	}
	cfg.Server.Addr = "127.0.0.1:0"
	if cfg.Admin.Addr != "" {
		cfg.Admin.Addr = "127.0.0.1:0"
	}
	cfg.Server.AccessLog = false
	if mod != nil {
		mod(cfg)
	}
	return cfg
}

// Start starts the app of cfgPath (see Config) with o (Log defaults to
// QuietLog, Out to io.Discard) and stops it when the test ends.
func Start(tb testing.TB, cfgPath string, mod func(*config.Config), o app.Options) *app.Instance {
	tb.Helper()
	if o.Log == nil {
		o.Log = QuietLog
	}
	if o.Out == nil {
		o.Out = io.Discard
	}
	inst, err := app.Start(context.Background(), Config(tb, cfgPath, mod), o)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { inst.Stop() })
	return inst
}

// Get fetches url and returns the status and body; a transport error fails
// the test.
func Get(tb testing.TB, url string) (int, string) {
	tb.Helper()
	resp, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// Metrics scrapes url with the Prometheus text parser and returns every
// sample by `name{label="value",…}` (labels sorted, no braces without
// labels); a scrape or parse error fails the test.
func Metrics(tb testing.TB, url string) map[string]float64 {
	tb.Helper()
	resp, err := http.Get(url)
	if err != nil {
		tb.Fatal(err)
	}
	defer resp.Body.Close()
	parser := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := parser.TextToMetricFamilies(resp.Body)
	if err != nil {
		tb.Fatalf("%s: %v", url, err)
	}
	out := map[string]float64{}
	for name, f := range fams {
		for _, m := range f.Metric {
			var ls []string
			for _, l := range m.Label {
				ls = append(ls, fmt.Sprintf("%s=%q", l.GetName(), l.GetValue()))
			}
			sort.Strings(ls)
			key := name
			if len(ls) > 0 {
				key += "{" + strings.Join(ls, ",") + "}"
			}
			switch {
			case m.Counter != nil:
				out[key] = m.Counter.GetValue()
			case m.Gauge != nil:
				out[key] = m.Gauge.GetValue()
			case m.Untyped != nil:
				out[key] = m.Untyped.GetValue()
			case m.Histogram != nil:
				out[key+"_count"] = float64(m.Histogram.GetSampleCount())
			}
		}
	}
	return out
}
