package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"sort"
	"strings"
	"time"

	"github.com/google/pprof/profile"

	"bext/config"
	"bext/engine"
)

// ProfileOptions say what `bext profile` renders.
type ProfileOptions struct {
	App     string        // with [[apps]]: the app's name (may be empty when there is one)
	Route   string        // path with an optional ?query; "/" when empty
	Renders int           // profiled renders; at least 1
	Warmup  int           // renders before the profile starts
	Dev     bool          // the development build (React's dev renderer, inline source map) instead of production
	Timeout time.Duration // per render; 0 = [render] render_timeout_ms
	Log     *slog.Logger  // console lines of the app; nil = discarded
}

// ProfileResult is what a profile run measured.
type ProfileResult struct {
	Status  int           // of the last render
	Bytes   int           // of its HTML
	Renders int           // profiled
	Elapsed time.Duration // wall time of the profiled renders
	Profile *profile.Profile
	Top     []ProfileFunc // by flat time, largest first
}

// ProfileFunc is one function's share of a profile.
type ProfileFunc struct {
	Name, File string
	Line       int
	Flat, Cum  float64 // fractions of the total
}

// Profile builds the app's server entry as bext serve does (production,
// the configured fast paths; with a source map), renders o.Route
// o.Warmup + o.Renders times in one isolate and profiles the last
// o.Renders with goja's JS profiler. The profile names the app's and its
// libraries' source functions, files and lines (through the source map).
func Profile(cfg *config.Config, o ProfileOptions) (*ProfileResult, error) {
	if o.Route == "" {
		o.Route = "/"
	}
	if o.Renders < 1 {
		return nil, errors.New("profile: renders must be at least 1")
	}
	cfg, err := profiledApp(cfg, o.App)
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(cfg.App.ServerEntry); err != nil {
		return nil, fmt.Errorf("profile: %s: %w (bext profile builds the app from its sources)", cfg.App.ServerEntry, err)
	}
	if o.Log == nil {
		o.Log = slog.New(slog.DiscardHandler)
	}
	bo := buildOptions(cfg, cfg.App.ServerEntry, o.Dev)
	bo.SourceMap = true
	b, err := engine.BuildServer(bo)
	if err != nil {
		return nil, err
	}
	code, sourceMap := engine.SplitSourceMap(b.Code)
	if sourceMap == nil {
		sourceMap = b.SourceMap
	}
	prog, err := engine.Compile(rel(cfg.Dir, cfg.App.ServerEntry), code)
	if err != nil {
		return nil, err
	}
	ApplyRuntime(cfg, o.Log)
	iso, err := engine.NewIsolate(prog, IsolateOptions(cfg, o.Dev, o.Log))
	if err != nil {
		return nil, err
	}
	defer iso.Close()

	timeout := o.Timeout
	if timeout <= 0 {
		timeout = ms(cfg.Render.RenderTimeoutMS)
	}
	req := engine.NewRequest("GET", o.Route)
	req.Headers["accept"] = "text/html"
	ctx, cancel := context.WithTimeout(context.Background(), timeout*time.Duration(o.Warmup+o.Renders+1))
	defer cancel()
	res := &ProfileResult{Renders: o.Renders}
	for range o.Warmup + 1 { // the first render compiles the app's functions
		resp, err := iso.Render(ctx, req)
		if err != nil {
			return nil, fmt.Errorf("profile: rendering %s: %w", o.Route, err)
		}
		res.Status, res.Bytes = resp.Status, len(resp.HTML)
	}
	start := time.Now()
	p, err := iso.ProfileRenders(ctx, req, o.Renders)
	if err != nil {
		return nil, fmt.Errorf("profile: rendering %s: %w", o.Route, err)
	}
	res.Elapsed = time.Since(start)
	if err := engine.MapProfile(p, code, sourceMap, bo.Dir); err != nil {
		return nil, err
	}
	res.Profile, res.Top = p, topFunctions(p)
	return res, nil
}

// profiledApp is the config of the app to profile: the file's [app], or
// the [[apps]] entry named name (the only one when name is empty).
func profiledApp(cfg *config.Config, name string) (*config.Config, error) {
	if len(cfg.Apps) == 0 {
		if name != "" {
			return nil, fmt.Errorf("profile: -app %s: the config has a single [app], not [[apps]]", name)
		}
		return cfg, nil
	}
	var names []string
	for _, e := range cfg.Apps {
		if e.Name == name || name == "" && len(cfg.Apps) == 1 {
			return appConfig(cfg, e), nil
		}
		names = append(names, e.Name)
	}
	return nil, fmt.Errorf("profile: name the app to profile with -app (one of %s)", strings.Join(names, ", "))
}

// WriteProfile writes the result's profile in pprof's format (gzipped
// protobuf), for `go tool pprof`.
func (r *ProfileResult) WriteProfile(w io.Writer) error { return r.Profile.Write(w) }

// topFunctions sums the profile's time per function: flat (the function
// itself was running) and cum (it was on the stack).
func topFunctions(p *profile.Profile) []ProfileFunc {
	idx := len(p.SampleType) - 1 // "cpu" nanoseconds, goja's last sample value
	var total int64
	flat, cum := map[*profile.Function]int64{}, map[*profile.Function]int64{}
	for _, s := range p.Sample {
		v := s.Value[idx]
		total += v
		seen := map[*profile.Function]bool{}
		for i, loc := range s.Location {
			for _, l := range loc.Line {
				if i == 0 {
					flat[l.Function] += v
				}
				if !seen[l.Function] {
					seen[l.Function] = true
					cum[l.Function] += v
				}
			}
		}
	}
	var out []ProfileFunc
	if total == 0 {
		return out
	}
	for f, c := range cum {
		out = append(out, ProfileFunc{Name: f.Name, File: f.Filename, Line: int(f.StartLine),
			Flat: float64(flat[f]) / float64(total), Cum: float64(c) / float64(total)})
	}
	sort.Slice(out, func(i, j int) bool {
		if out[i].Flat != out[j].Flat {
			return out[i].Flat > out[j].Flat
		}
		return out[i].Name < out[j].Name
	})
	return out
}
