package app

import (
	"cmp"
	"context"
	"fmt"
	"io/fs"
	"math"
	"net"
	"net/http"

	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"github.com/KimMachineGun/automemlimit/memlimit"

	"bext/config"
	"bext/engine"
	"bext/examples"
	"bext/lifecycle"
	"bext/pool"
	"bext/render"
	"bext/web/fetch"
)

// LoadConfig loads the config file config.Find picks for flag; with none,
// it unpacks the embedded example app (examples/basic) to a temp folder and
// loads its config, saying so through note. BEXT_* variables override the
// file (ApplyEnv).
func LoadConfig(flag string, note func(string)) (*config.Config, error) {
	path := config.Find(flag)
	if path == "" {
		dir, err := unpackExample()
		if err != nil {
			return nil, err
		}
		path = filepath.Join(dir, config.DefaultFile)
		if note != nil {
			note("no config.toml here: serving the embedded example app (examples/basic)")
		}
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	cfg.ApplyEnv(os.Getenv)
	return cfg, nil
}

// unpackExample writes the embedded examples/basic to a temp folder.
func unpackExample() (string, error) {
	dir, err := os.MkdirTemp("", "bext-example-")
	if err != nil {
		return "", err
	}
	sub, err := fs.Sub(examples.Basic, "basic")
	if err != nil {
		return "", err
	}
	return dir, os.CopyFS(dir, sub)
}

// NewLogger logs JSON when stderr is not a terminal (or log_format = json).
func NewLogger(cfg *config.Config) *slog.Logger {
	var lvl slog.Level
	if err := lvl.UnmarshalText([]byte(cfg.Server.LogLevel)); err != nil {
		lvl = slog.LevelInfo
	}
	o := &slog.HandlerOptions{Level: lvl}
	format := cfg.Server.LogFormat
	if format == "" || format == "auto" {
		format = "json"
		if fi, err := os.Stderr.Stat(); err == nil && fi.Mode()&os.ModeCharDevice != 0 {
			format = "text"
		}
	}
	if format == "text" {
		return slog.New(slog.NewTextHandler(os.Stderr, o))
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, o))
}

// ApplyRuntime sets the GC knobs of [runtime]. The GOGC and GOMEMLIMIT
// environment variables, when set, win over the config (Go reads them at
// start-up), so an operator can override either without editing the file.
// It returns the soft memory limit in force (math.MaxInt64 = none).
func ApplyRuntime(cfg *config.Config, log *slog.Logger) int64 {
	if g := cfg.Runtime.GOGC; g != 0 && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(g)
	}
	if os.Getenv("GOMEMLIMIT") == "" {
		limit, from := int64(math.MaxInt64), "none ([runtime] memory_limit_mb = -1)"
		switch m := cfg.Runtime.MemoryLimitMB; {
		case m > 0:
			limit, from = m<<20, "[runtime] memory_limit_mb"
		case m == 0:
			limit, from = derivedMemoryLimit()
		}
		debug.SetMemoryLimit(limit)
		log.Debug("runtime: soft memory limit", "bytes", limit, "from", from)
	}
	limit := debug.SetMemoryLimit(-1)
	log.Debug("runtime", "gogc", cfg.Runtime.GOGC, "memory_limit_bytes", limit,
		"GOGC", os.Getenv("GOGC"), "GOMEMLIMIT", os.Getenv("GOMEMLIMIT"))
	return limit
}

// derivedMemoryLimit is 90% of the container's memory limit (cgroup v1 or
// v2), else of the machine's memory: the headroom is for what the Go heap
// limit does not count (stacks, the binary, esbuild's buffers).
func derivedMemoryLimit() (int64, string) {
	if n, err := memlimit.FromCgroup(); err == nil && n > 0 && n < 1<<60 {
		return int64(float64(n) * 0.9), "90% of the container's memory limit"
	}
	if n, err := memlimit.FromSystem(); err == nil && n > 0 {
		return int64(float64(n) * 0.9), "90% of the machine's memory"
	}
	return math.MaxInt64, "none (the machine's memory is unknown)"
}

// Policy turns the config into the lifecycle policy.
func Policy(cfg *config.Config) lifecycle.Policy {
	l, r := cfg.Render.Lifecycle, cfg.Render.Lifecycle.Recovery
	return lifecycle.Policy{
		Workers:        cfg.Render.JSCWorkers,
		MaxRequests:    l.MaxRequests,
		MaxUptime:      time.Duration(l.MaxUptimeHours * float64(time.Hour)),
		MaxMemoryBytes: l.MaxMemoryMB << 20,
		DrainTimeout:   ms(l.DrainTimeoutMS),
		Recovery: lifecycle.Recovery{
			MaxConsecutiveFailures: r.MaxConsecutiveFailures,
			BackoffInitial:         ms(r.BackoffInitialMS),
			BackoffMax:             ms(r.BackoffMaxMS),
			BackoffMultiplier:      r.BackoffMultiplier,
			HealthyReset:           ms(r.HealthyResetMS),
		},
		Degrade: lifecycle.Degrade{ConsecutiveFailures: l.DegradeConsecutiveFailures, Window: l.DegradeWindow,
			FailureRate: l.DegradeFailureRate, PeerRate: l.DegradePeerRate},
		MaxHealthFailures: l.MaxHealthFailures,
	}
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// PoolOptions turns the config into pool options.
func PoolOptions(cfg *config.Config, log *slog.Logger) pool.Options {
	return pool.Options{
		Policy:             Policy(cfg),
		RenderMemoryBudget: cfg.Render.MaxRenderMemoryMB << 20,
		RenderTimeout:      ms(cfg.Render.RenderTimeoutMS),
		QueueTimeout:       ms(cfg.Render.QueueTimeoutMS),
		MemoryCheck:        ms(cfg.Render.Lifecycle.MemoryCheckMS),
		HealthCheck:        HealthCheck(cfg.Render.Lifecycle.HealthPath, cfg.Server.Addr),
		HealthInterval:     ms(cfg.Render.Lifecycle.HealthIntervalMS),
		Log:                log,
	}
}

// HealthCheck is the check of one idle worker: a GET of path rendered in
// it (passing with a status of 200–399), or with no path the bundle's
// globalThis.health() (a bundle without one is not checked).
func HealthCheck(path, addr string) func(ctx context.Context, iso pool.Isolate) error {
	if path == "" {
		return func(ctx context.Context, iso pool.Isolate) error {
			if h, ok := iso.(interface{ Health(context.Context) error }); ok {
				return h.Health(ctx)
			}
			return engine.ErrNoHealth
		}
	}
	origin := cmp.Or(selfURL(addr), "http://localhost")
	return func(ctx context.Context, iso pool.Isolate) error {
		req := engine.NewRequest("GET", path)
		req.Origin, req.Header = origin, http.Header{"User-Agent": {"bext-health-check"}}
		req.Headers["user-agent"] = "bext-health-check"
		resp, err := iso.Render(ctx, req)
		if err != nil {
			return err
		}
		if resp.Status < 200 || resp.Status > 399 {
			return fmt.Errorf("GET %s answered %d", path, resp.Status)
		}
		return nil
	}
}

// IsolateOptions are the engine options every worker gets.
func IsolateOptions(cfg *config.Config, dev bool, log *slog.Logger) engine.Options {
	o := engine.Options{Env: cfg.App.Env, Log: log, MaxAllocation: cfg.Render.MaxRenderMemoryMB << 20, Fetch: FetchOptions(cfg),
		WaitUntil: ms(cfg.Render.WaitUntilTimeoutMS)}
	if dev {
		o.NodeEnv = "development"
	}
	return o
}

// FetchOptions turns [fetch] into fetch() options: 0 in the config is
// "none" (negative for the fetch package, where 0 is its default), and an
// empty base_url is this server's own address.
func FetchOptions(cfg *config.Config) fetch.Options {
	f := cfg.Fetch
	none := func(n int64) int64 {
		if n == 0 {
			return -1
		}
		return n
	}
	return fetch.Options{
		Timeout:          time.Duration(none(int64(f.TimeoutMS))) * time.Millisecond,
		ConnectTimeout:   time.Duration(none(int64(f.ConnectTimeoutMS))) * time.Millisecond,
		MaxResponseBytes: none(f.MaxResponseBytes),
		MaxRedirects:     int(none(int64(f.MaxRedirects))),
		BaseURL:          cmp.Or(f.BaseURL, selfURL(cfg.Server.Addr)),
		UserAgent:        f.UserAgent,
	}
}

// selfURL is http://addr with a loopback host for an all-interfaces addr;
// "" when the port is not known before listening (0) or addr is a socket.
func selfURL(addr string) string {
	host, port, err := net.SplitHostPort(addr)
	if err != nil || port == "0" || port == "" {
		return ""
	}
	if ip := net.ParseIP(host); host == "" || ip != nil && ip.IsUnspecified() {
		host = "127.0.0.1"
	}
	return "http://" + net.JoinHostPort(host, port)
}

// RenderOptions turns the config into the HTTP layer's options (the
// registry and dev hooks are the instance's to add).
func RenderOptions(cfg *config.Config, dev bool, log *slog.Logger) render.Options {
	return render.Options{
		PublicDir: cfg.App.PublicDir, Gzip: cfg.Server.Gzip, MaxBodyBytes: cfg.Server.MaxBodyBytes,
		QueueTimeout: ms(cfg.Render.QueueTimeoutMS), AccessLog: cfg.Server.AccessLog, Dev: dev,
		AdminToken: cfg.Admin.Token, AdminPublicRead: cfg.Admin.PublicRead, AdminSeparate: cfg.Admin.Addr != "",
		Log: log,
	}
}

// buildOptions are the esbuild options of one entry of the app.
func buildOptions(cfg *config.Config, entry string, dev bool) engine.BuildOptions {
	return engine.BuildOptions{Entry: entry, Dir: cfg.Dir, Dev: dev, FastPaths: cfg.App.EnabledFastPaths()}
}
