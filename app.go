package main

import (
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"runtime/debug"
	"time"

	"bext/config"
	"bext/engine"
	"bext/examples"
	"bext/lifecycle"
	"bext/pool"
)

// loadConfig loads -config FILE; with no flag, ./config.toml when present,
// else the embedded example app (unpacked to a temp folder so esbuild can
// read it). It applies BEXT_* env overrides and reports what it loaded.
func loadConfig(path string, log func(string)) (*config.Config, error) {
	if path == "" {
		if _, err := os.Stat("config.toml"); err == nil {
			path = "config.toml"
		}
	}
	if path == "" {
		dir, err := unpackExample()
		if err != nil {
			return nil, err
		}
		path = filepath.Join(dir, "config.toml")
		log("no config.toml here: serving the embedded example app (examples/basic)")
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

// newLogger logs JSON when stderr is not a terminal (or log_format = json).
func newLogger(cfg *config.Config) *slog.Logger {
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

// applyRuntime sets the GC knobs of [runtime]. The GOGC and GOMEMLIMIT
// environment variables, when set, win over the config (Go reads them at
// start-up), so an operator can override either without editing the file.
func applyRuntime(cfg *config.Config, log *slog.Logger) {
	if g := cfg.Runtime.GOGC; g != 0 && os.Getenv("GOGC") == "" {
		debug.SetGCPercent(g)
	}
	if m := cfg.Runtime.MemoryLimitMB; m > 0 && os.Getenv("GOMEMLIMIT") == "" {
		debug.SetMemoryLimit(m << 20)
	}
	log.Debug("runtime", "gogc", cfg.Runtime.GOGC, "memory_limit_mb", cfg.Runtime.MemoryLimitMB,
		"GOGC", os.Getenv("GOGC"), "GOMEMLIMIT", os.Getenv("GOMEMLIMIT"))
}

// policy turns the config into the lifecycle policy.
func policy(cfg *config.Config) lifecycle.Policy {
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
	}
}

func ms(n int) time.Duration { return time.Duration(n) * time.Millisecond }

// poolOptions turns the config into pool options.
func poolOptions(cfg *config.Config, log *slog.Logger) pool.Options {
	return pool.Options{
		Policy:        policy(cfg),
		RenderTimeout: ms(cfg.Render.RenderTimeoutMS),
		QueueTimeout:  ms(cfg.Render.QueueTimeoutMS),
		MemoryCheck:   ms(cfg.Render.Lifecycle.MemoryCheckMS),
		Log:           log,
	}
}

// isolateOptions are the engine options every worker gets.
func isolateOptions(cfg *config.Config, dev bool, log *slog.Logger) engine.Options {
	env := map[string]string{"NODE_ENV": "production"}
	if dev {
		env["NODE_ENV"] = "development"
	}
	return engine.Options{Env: env, Log: log}
}

// factory boots isolates from prog with the client asset URLs set.
func factory(prog *engine.Program, o engine.Options, js, css []string) pool.Factory {
	return func(id int) (pool.Isolate, error) {
		oo := o
		oo.WorkerID = id
		iso, err := engine.NewIsolate(prog, oo)
		if err != nil {
			return nil, err
		}
		iso.SetAssets(js, css)
		return iso, nil
	}
}

// checkBoot boots one isolate from f and closes it: a bundle that throws at
// load is reported before the server starts listening.
func checkBoot(f pool.Factory) error {
	iso, err := f(0)
	if err != nil {
		return fmt.Errorf("the server bundle does not boot: %w", err)
	}
	iso.Close()
	return nil
}

// waitReady waits for the pool's first ACTIVE worker.
func waitReady(p *pool.Pool, d time.Duration) error {
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	return p.WaitReady(ctx)
}
