package config

import (
	"fmt"
	"math"
	"net"
	"os"
	"path/filepath"
	"strings"
)

// Validate reports impossible values. Load calls it; call it yourself after
// building or changing a Config by hand. The *Error it returns has no line
// numbers (Load adds them) and names the file Path, or "config" when empty.
func (c *Config) Validate() error {
	ps := c.validate()
	if len(ps) == 0 {
		return nil
	}
	file := c.Path
	if file == "" {
		file = "config"
	}
	return &Error{File: file, Problems: ps}
}

// checker collects problems; each check names the key it is about.
type checker struct{ ps []Problem }

func (ch *checker) addf(key, format string, args ...any) {
	ch.ps = append(ch.ps, Problem{Key: key, Msg: fmt.Sprintf(format, args...)})
}

func (ch *checker) atLeast(key string, v, min int64) {
	if v < min {
		ch.addf(key, "must be at least %d, got %d", min, v)
	}
}

func (ch *checker) notNegative(key string, v int64, zero string) {
	if v < 0 {
		ch.addf(key, "must not be negative, got %d (%s)", v, zero)
	}
}

func (c *Config) validate() []Problem {
	var ch checker
	c.Server.validate(&ch)
	c.App.validate(&ch)
	c.Render.validate(&ch)
	c.Render.Lifecycle.validate(&ch)
	c.Render.Lifecycle.Recovery.validate(&ch)
	c.Admin.validate(&ch)
	c.Runtime.validate(&ch)
	return ch.ps
}

func (s Server) validate(ch *checker) {
	checkAddr(ch, "server.addr", s.Addr)
	ch.notNegative("server.read_header_timeout_ms", int64(s.ReadHeaderTimeoutMS), "0 means no timeout")
	ch.notNegative("server.read_timeout_ms", int64(s.ReadTimeoutMS), "0 means no timeout")
	ch.notNegative("server.write_timeout_ms", int64(s.WriteTimeoutMS), "0 means no timeout")
	ch.notNegative("server.idle_timeout_ms", int64(s.IdleTimeoutMS), "0 means no timeout")
	ch.notNegative("server.max_header_bytes", int64(s.MaxHeaderBytes), "0 means Go's default of 1 MiB")
	ch.notNegative("server.max_body_bytes", s.MaxBodyBytes, "0 means no limit")
	oneOf(ch, "server.log_format", s.LogFormat, "auto", "json", "text")
	oneOf(ch, "server.log_level", s.LogLevel, "debug", "info", "warn", "error")
}

// Prebuilt reports whether [app] out_dir holds a `bext build` output. Then
// the entry files may be absent: a deploy can ship the build without sources.
func (a App) Prebuilt() bool {
	fi, err := os.Stat(filepath.Join(a.OutDir, "manifest.json"))
	return err == nil && fi.Mode().IsRegular()
}

func (a App) validate(ch *checker) {
	prebuilt := a.Prebuilt()
	switch fi, err := os.Stat(a.ServerEntry); {
	case a.ServerEntry == "":
		ch.addf("app.server_entry", "must name the file that sets globalThis.render, e.g. \"src/server.jsx\"")
	case err != nil && prebuilt:
		// served from out_dir
	case err != nil:
		ch.addf("app.server_entry", "%s does not exist; set server_entry to your server entry file, relative to the config file's folder", a.ServerEntry)
	case fi.IsDir():
		ch.addf("app.server_entry", "%s is a folder; set server_entry to the file that sets globalThis.render", a.ServerEntry)
	}
	if a.ClientEntry != "" {
		switch fi, err := os.Stat(a.ClientEntry); {
		case err != nil && prebuilt:
		case err != nil:
			ch.addf("app.client_entry", "%s does not exist; fix the path or set client_entry = \"\" for no browser bundle", a.ClientEntry)
		case fi.IsDir():
			ch.addf("app.client_entry", "%s is a folder; set client_entry to the browser entry file", a.ClientEntry)
		}
	}
	notAFile(ch, "app.public_dir", a.PublicDir)
	notAFile(ch, "app.out_dir", a.OutDir)
}

func (r Render) validate(ch *checker) {
	ch.atLeast("render.jsc_workers", int64(r.JSCWorkers), 1)
	ch.atLeast("render.render_timeout_ms", int64(r.RenderTimeoutMS), 1)
	ch.atLeast("render.queue_timeout_ms", int64(r.QueueTimeoutMS), 1)
}

func (l Lifecycle) validate(ch *checker) {
	const p = "render.lifecycle."
	ch.notNegative(p+"max_requests", l.MaxRequests, "0 means never rotate by request count")
	ch.notNegative(p+"max_memory_mb", l.MaxMemoryMB, "0 means no memory limit")
	if h := l.MaxUptimeHours; math.IsNaN(h) || h < 0 || h > maxUptimeHours {
		ch.addf(p+"max_uptime_hours", "must be between 0 and %d, got %v (0 means never rotate by age)", maxUptimeHours, h)
	}
	ch.notNegative(p+"drain_timeout_ms", int64(l.DrainTimeoutMS), "0 interrupts in-flight renders at once")
	ch.notNegative(p+"watch_debounce_ms", int64(l.WatchDebounceMS), "0 means no debounce")
	ch.atLeast(p+"memory_check_ms", int64(l.MemoryCheckMS), 1)
	for i, d := range l.WatchDirs {
		switch fi, err := os.Stat(d); {
		case err != nil:
			ch.addf(p+"watch_dirs", "entry %d: %s does not exist; create it or remove it from watch_dirs", i, d)
		case !fi.IsDir():
			ch.addf(p+"watch_dirs", "entry %d: %s is not a folder; watch_dirs lists folders", i, d)
		}
	}
}

// maxUptimeHours keeps MaxUptime() inside time.Duration (about 292 years).
const maxUptimeHours = 1_000_000

func (r Recovery) validate(ch *checker) {
	const p = "render.lifecycle.recovery."
	ch.notNegative(p+"max_consecutive_failures", int64(r.MaxConsecutiveFailures), "0 means never give up")
	ch.notNegative(p+"backoff_initial_ms", int64(r.BackoffInitialMS), "0 means retry at once")
	ch.notNegative(p+"backoff_max_ms", int64(r.BackoffMaxMS), "0 means retry at once")
	if r.BackoffInitialMS > r.BackoffMaxMS && r.BackoffMaxMS >= 0 {
		ch.addf(p+"backoff_initial_ms", "%d is more than backoff_max_ms = %d; raise backoff_max_ms or lower backoff_initial_ms", r.BackoffInitialMS, r.BackoffMaxMS)
	}
	if m := r.BackoffMultiplier; math.IsNaN(m) || math.IsInf(m, 0) || m < 1 {
		ch.addf(p+"backoff_multiplier", "must be at least 1 (1 = constant delay), got %v", m)
	}
	ch.notNegative(p+"healthy_reset_ms", int64(r.HealthyResetMS), "0 resets the failure count as soon as a worker is ACTIVE")
}

func (a Admin) validate(ch *checker) {
	if a.Addr != "" {
		checkAddr(ch, "admin.addr", a.Addr)
	}
}

func (r Runtime) validate(ch *checker) {
	ch.atLeast("runtime.gogc", int64(r.GOGC), -1)
	ch.notNegative("runtime.memory_limit_mb", r.MemoryLimitMB, "0 means no limit")
}

// checkAddr accepts what net.Listen("tcp", addr) accepts: host:port, where
// the host may be empty (all interfaces) and the port a number or 0.
func checkAddr(ch *checker, key, addr string) {
	if _, _, err := net.SplitHostPort(addr); err != nil {
		ch.addf(key, "%q is not host:port (%v); write e.g. \"127.0.0.1:3000\" or \":3000\"", addr, err)
	}
}

func oneOf(ch *checker, key, v string, allowed ...string) {
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	ch.addf(key, "must be one of %s, got %q", strings.Join(allowed, ", "), v)
}

// notAFile reports a path that exists but is not a folder. A missing folder
// is fine: there are simply no static files yet, or bext build creates it.
func notAFile(ch *checker, key, dir string) {
	if fi, err := os.Stat(dir); err == nil && !fi.IsDir() {
		ch.addf(key, "%s is a file, not a folder; point %s at a folder", dir, key[strings.IndexByte(key, '.')+1:])
	}
}
