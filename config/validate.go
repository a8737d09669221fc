package config

import (
	"fmt"
	"math"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strconv"
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

func (c *Config) validate() []Problem {
	var ch checker
	c.checkRanges(&ch)
	c.Server.validate(&ch)
	if len(c.Apps) == 0 {
		c.App.validate(&ch, "app.")
	}
	c.validateApps(&ch)
	c.Render.validate(&ch)
	c.Render.Lifecycle.validate(&ch)
	c.Render.Lifecycle.Recovery.validate(&ch)
	c.Admin.validate(&ch)
	c.Runtime.validate(&ch)
	c.Cache.validate(&ch)
	c.Fetch.validate(&ch)
	c.validateFleet(&ch)
	return ch.ps
}

// checkRanges holds every number to the bounds of its range tag, so no
// value can overflow a duration or size downstream.
func (c *Config) checkRanges(ch *checker) {
	root := reflect.ValueOf(c).Elem()
	for key, f := range schema {
		if !f.isNumber() {
			continue
		}
		if f.array == "" {
			checkRange(ch, key, f, root.FieldByIndex(f.index))
			continue
		}
		arr := root.FieldByIndex(schema[f.array].index)
		for n := range arr.Len() {
			checkRange(ch, elementKey(f.array, n+1)+strings.TrimPrefix(key, f.array), f, arr.Index(n).FieldByIndex(f.index))
		}
	}
}

func checkRange(ch *checker, key string, f field, v reflect.Value) {
	var x float64
	var shown string
	if v.CanInt() {
		x, shown = float64(v.Int()), strconv.FormatInt(v.Int(), 10)
	} else {
		x, shown = v.Float(), strconv.FormatFloat(v.Float(), 'g', -1, 64)
	}
	hint := ""
	if f.zero != "" {
		hint = " (" + f.zero + ")"
	}
	lo, hi := strconv.FormatFloat(f.min, 'f', -1, 64), strconv.FormatFloat(f.max, 'f', -1, 64)
	switch {
	case math.IsNaN(x) || math.IsInf(x, 0) || (x < f.min && f.min == 0 && !v.CanInt()):
		ch.addf(key, "must be between %s and %s, got %s%s", lo, hi, shown, hint)
	case x < f.min && f.min == 0:
		ch.addf(key, "must not be negative, got %s%s", shown, hint)
	case x < f.min:
		ch.addf(key, "must be at least %s, got %s%s", lo, shown, hint)
	case x > f.max:
		ch.addf(key, "must be at most %s, got %s", hi, shown)
	}
}

func (s Server) validate(ch *checker) {
	checkAddr(ch, "server.addr", s.Addr, false)
	oneOf(ch, "server.log_format", s.LogFormat, "auto", "json", "text")
	oneOf(ch, "server.log_level", s.LogLevel, "debug", "info", "warn", "error")
}

// Prebuilt reports whether [app] out_dir holds a `bext build` output. Then
// the entry files may be absent: a deploy can ship the build without sources.
func (a App) Prebuilt() bool {
	fi, err := os.Stat(filepath.Join(a.OutDir, "manifest.json"))
	return err == nil && fi.Mode().IsRegular()
}

func (a App) validate(ch *checker, p string) {
	prebuilt := a.Prebuilt()
	switch fi, err := os.Stat(a.ServerEntry); {
	case a.ServerEntry == "":
		ch.addf(p+"server_entry", "must name the file that sets globalThis.render, e.g. \"src/server.jsx\"")
	case err != nil && prebuilt:
		// served from out_dir
	case err != nil:
		ch.addf(p+"server_entry", "%s does not exist; set server_entry to your server entry file, relative to the config file's folder", a.ServerEntry)
	case fi.IsDir():
		ch.addf(p+"server_entry", "%s is a folder; set server_entry to the file that sets globalThis.render", a.ServerEntry)
	}
	if a.ClientEntry != "" {
		switch fi, err := os.Stat(a.ClientEntry); {
		case err != nil && prebuilt:
		case err != nil:
			ch.addf(p+"client_entry", "%s does not exist; fix the path or set client_entry = \"\" for no browser bundle", a.ClientEntry)
		case fi.IsDir():
			ch.addf(p+"client_entry", "%s is a folder; set client_entry to the browser entry file", a.ClientEntry)
		}
	}
	notAFile(ch, p+"public_dir", a.PublicDir)
	notAFile(ch, p+"out_dir", a.OutDir)
	for _, n := range a.FastPathsOff {
		oneOf(ch, p+"fast_paths_off", n, FastPathNames...)
	}
}

func (r Render) validate(ch *checker) {}

func (l Lifecycle) validate(ch *checker) {
	const p = "render.lifecycle."
	for i, d := range l.WatchDirs {
		switch fi, err := os.Stat(d); {
		case err != nil:
			ch.addf(p+"watch_dirs", "entry %d: %s does not exist; create it or remove it from watch_dirs", i, d)
		case !fi.IsDir():
			ch.addf(p+"watch_dirs", "entry %d: %s is not a folder; watch_dirs lists folders", i, d)
		}
	}
	if l.HealthPath != "" && !strings.HasPrefix(l.HealthPath, "/") {
		ch.addf(p+"health_path", "must be a path starting with /, like \"/healthz\", got %q", l.HealthPath)
	}
}

func (r Recovery) validate(ch *checker) {
	const p = "render.lifecycle.recovery."
	if r.BackoffInitialMS > r.BackoffMaxMS && r.BackoffMaxMS >= 0 {
		ch.addf(p+"backoff_initial_ms", "%d is more than backoff_max_ms = %d; raise backoff_max_ms or lower backoff_initial_ms", r.BackoffInitialMS, r.BackoffMaxMS)
	}
}

func (a Admin) validate(ch *checker) {
	if a.Addr != "" {
		checkAddr(ch, "admin.addr", a.Addr, true)
	}
}

func (r Runtime) validate(ch *checker) {}

// checkAddr accepts what net.Listen("tcp", addr) accepts: host:port, where
// the host may be empty (all interfaces), an IP or a host name, and the port
// a number from 0 to 65535 (0 = any free port). With unix set, "unix:PATH"
// (a Unix socket) is accepted too.
func checkAddr(ch *checker, key, addr string, unix bool) {
	if path, ok := strings.CutPrefix(addr, "unix:"); ok && unix {
		if path == "" {
			ch.addf(key, "%q names no socket file; write e.g. \"unix:/run/bext/admin.sock\"", addr)
		}
		return
	}
	const how = `; write e.g. "127.0.0.1:3000" or ":3000"`
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		ch.addf(key, "%q is not host:port (%v)%s", addr, err, how)
		return
	}
	if n, err := strconv.Atoi(port); err != nil || n < 0 || n > 65535 {
		ch.addf(key, "%q has port %q; a port is a number from 0 to 65535%s", addr, port, how)
	}
	if host != "" && net.ParseIP(host) == nil && !validHostname(host) {
		ch.addf(key, "%q has host %q, which is neither an IP address nor a host name%s", addr, host, how)
	}
}

// validHostname accepts letters, digits, hyphens and dots (RFC 1123).
func validHostname(h string) bool {
	if len(h) > 253 {
		return false
	}
	for _, label := range strings.Split(strings.TrimSuffix(h, "."), ".") {
		if label == "" || len(label) > 63 || label[0] == '-' || label[len(label)-1] == '-' {
			return false
		}
		for _, c := range label {
			if !(c == '-' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
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

// Warnings are settings that work but are probably not what was meant;
// bext logs them at start.
func (c *Config) Warnings() []string {
	var w []string
	if n, cpus := c.Render.JSCWorkers, runtime.NumCPU(); n > 4*cpus {
		w = append(w, fmt.Sprintf("[render] jsc_workers = %d is more than 4 × the %d CPUs of this machine: the isolates share those CPUs, so renders get slower and memory grows without more throughput", n, cpus))
	}
	return w
}

func (c Cache) validate(ch *checker) {
	for n, r := range c.Rules {
		key := elementKey("cache.rule", n+1)
		switch {
		case r.Path == "":
			ch.addf(key+".path", "is missing; write the paths the rule caches, e.g. path = \"/blog/**\"")
		case !strings.HasPrefix(r.Path, "/"):
			ch.addf(key+".path", "%q must start with /", r.Path)
		case strings.Contains(strings.ReplaceAll(r.Path, "**", ""), "***"):
			ch.addf(key+".path", "%q: use * for one path segment and ** for any depth", r.Path)
		}
		if r.MaxAge == 0 && r.StaleWhileRevalidate == 0 {
			ch.addf(key+".max_age", "a rule caches nothing without max_age (or stale_while_revalidate); set max_age = 60 for a minute")
		}
		for _, h := range r.Headers {
			if !validHeaderName(h) {
				ch.addf(key+".headers", "%q is not a header name", h)
			}
		}
		for _, c := range r.Cookies {
			if c == "" || strings.ContainsAny(c, " ;=,\t") {
				ch.addf(key+".cookies", "%q is not a cookie name", c)
			}
		}
	}
}

func validHeaderName(h string) bool {
	if h == "" {
		return false
	}
	for _, c := range h {
		if c > 0x7e || c <= 0x20 || strings.ContainsRune("\"(),/:;<=>?@[\\]{}", c) {
			return false
		}
	}
	return true
}

// validateApps checks the [[apps]] tables: unique names, entries that
// exist, and routes that no two apps claim.
func (c *Config) validateApps(ch *checker) {
	if len(c.Apps) == 0 {
		return
	}
	for k := range c.present {
		if k == "app" || strings.HasPrefix(k, "app.") {
			ch.addf("app", "a file with [[apps]] has no [app]: move its keys into an [[apps]] table with a name")
			break
		}
	}
	names := map[string]int{}
	claims := map[string]int{} // "host path_prefix" -> app number
	for n, a := range c.Apps {
		key := elementKey("apps", n+1)
		switch prev, dup := names[a.Name]; {
		case a.Name == "":
			ch.addf(key+".name", "is missing; every [[apps]] table needs a name, e.g. name = \"shop\"")
		case !validAppName(a.Name):
			ch.addf(key+".name", "%q may hold only letters, digits, '-', '_' and '.'", a.Name)
		case dup:
			ch.addf(key+".name", "%q is the name of %s too; names must be unique", a.Name, elementKey("apps", prev))
		default:
			names[a.Name] = n + 1
		}
		a.App.validate(ch, key+".")
		prefix := strings.TrimSuffix(a.PathPrefix, "/")
		if a.PathPrefix != "" && !strings.HasPrefix(a.PathPrefix, "/") {
			ch.addf(key+".path_prefix", "%q must start with /, e.g. \"/shop\"", a.PathPrefix)
		}
		hosts := a.Hosts
		if len(hosts) == 0 {
			hosts = []string{""}
		}
		for _, h := range hosts {
			if h != "" && !validHostPattern(h) {
				ch.addf(key+".hosts", "%q is not a host name or *.domain pattern", h)
				continue
			}
			claim := strings.ToLower(h) + " " + prefix
			if other, taken := claims[claim]; taken {
				what, field := "is the default app (no hosts, no path_prefix)", ".hosts"
				switch {
				case h != "" && prefix != "":
					what = fmt.Sprintf("claims host %q and path_prefix %q", h, prefix)
				case h != "":
					what = fmt.Sprintf("claims host %q", h)
				case prefix != "":
					what, field = fmt.Sprintf("claims path_prefix %q", prefix), ".path_prefix"
				}
				ch.addf(key+field, "app %q %s, as app %q does; each host and path prefix belongs to one app", a.Name, what, c.Apps[other-1].Name)
				continue
			}
			claims[claim] = n + 1
		}
	}
}

func validAppName(s string) bool {
	for _, r := range s {
		if !(r == '-' || r == '_' || r == '.' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9') {
			return false
		}
	}
	return s != ""
}

// validHostPattern accepts a host name or "*." followed by one.
func validHostPattern(h string) bool {
	return validHostname(strings.TrimPrefix(h, "*."))
}

func (f Fetch) validate(ch *checker) {
	if f.BaseURL != "" {
		u, err := url.Parse(f.BaseURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			ch.addf("fetch.base_url", "%q is not an absolute http(s) URL; write e.g. \"http://127.0.0.1:3000\", or \"\" for this server", f.BaseURL)
		}
	}
	for _, r := range f.UserAgent {
		if r < 0x20 && r != '\t' || r == 0x7f {
			ch.addf("fetch.user_agent", "%q has a control character, which a header value cannot hold", f.UserAgent)
			break
		}
	}
}
