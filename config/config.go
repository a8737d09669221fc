// Package config turns bext's TOML file into validated plain structs.
//
// Defaults live in Default() and nowhere else. Load reads a file on top of
// them, resolves paths against the file's folder, and reports every unknown
// key, wrong type and impossible value at once, each with its key and line.
// Other packages take their own small option structs built from these
// values; they never see TOML.
package config

// Config is the whole file. Field tags are the TOML key names.
type Config struct {
	Server  Server  `toml:"server"`
	App     App     `toml:"app"`
	Render  Render  `toml:"render"`
	Admin   Admin   `toml:"admin"`
	Runtime Runtime `toml:"runtime"`
	Dev     Dev     `toml:"dev"`
	Cache   Cache   `toml:"cache"`
	Fetch   Fetch   `toml:"fetch"`
	Fleet   Fleet   `toml:"fleet"`
	// Apps are the apps of a bext that hosts several ([[apps]]); empty when
	// the file has a single [app].
	Apps []AppEntry `toml:"apps"`

	// Path is the absolute path of the file loaded ("" when defaults only);
	// Dir is its folder, against which app paths were resolved.
	Path string `toml:"-"`
	Dir  string `toml:"-"`

	present map[string]bool // keys written in the file (Load)
}

// Server is the HTTP listener. *_ms fields are milliseconds; 0 means no timeout.
type Server struct {
	Addr                string `toml:"addr"`                                                                     // "127.0.0.1:3000"; -addr and BEXT_ADDR override
	ReadHeaderTimeoutMS int    `toml:"read_header_timeout_ms" range:"0,3600000" zero:"0 means no timeout"`       // 5000
	ReadTimeoutMS       int    `toml:"read_timeout_ms" range:"0,86400000" zero:"0 means no timeout"`             // 30000
	WriteTimeoutMS      int    `toml:"write_timeout_ms" range:"0,86400000" zero:"0 means no timeout"`            // 60000
	IdleTimeoutMS       int    `toml:"idle_timeout_ms" range:"0,86400000" zero:"0 means no timeout"`             // 120000
	MaxHeaderBytes      int    `toml:"max_header_bytes" range:"0,67108864" zero:"0 means Go's default of 1 MiB"` // 1 MiB
	MaxBodyBytes        int64  `toml:"max_body_bytes" range:"0,17179869184" zero:"0 means no limit"`             // 10 MiB
	Gzip                bool   `toml:"gzip"`                                                                     // true
	LogFormat           string `toml:"log_format"`                                                               // "auto" | "json" | "text"
	LogLevel            string `toml:"log_level"`                                                                // "info"
	AccessLog           bool   `toml:"access_log"`                                                               // true
	// MaxAppsRunning bounds how many [[apps]] are live at once; the least
	// recently used is evicted to start another.
	MaxAppsRunning int `toml:"max_apps_running" range:"0,100000" zero:"0 = no bound"`
}

// App names the JavaScript app. Load makes every path absolute.
type App struct {
	ServerEntry string `toml:"server_entry"` // "src/server.jsx" (resolved to absolute by Load)
	ClientEntry string `toml:"client_entry"` // "" = none
	PublicDir   string `toml:"public_dir"`   // "public"
	OutDir      string `toml:"out_dir"`      // ".bext" — bext build output
	FastSink    bool   `toml:"fast_sink"`    // true: rewrite React's string sink (issue 7); false is fast_paths_off = ["sink"]
	// FastPaths applies bext's rewrites of React's server renderer
	// (issue 18) while bundling; FastPathsOff turns single ones off by
	// name (FastPathNames).
	FastPaths    bool     `toml:"fast_paths"`     // true
	FastPathsOff []string `toml:"fast_paths_off"` // []
	// Env ([app.env]) are the app's variables: process.env of every
	// isolate, and the env argument of a fetch(request, env, ctx) handler.
	Env map[string]string `toml:"env"`
}

// FastPathNames are the rewrites fast_paths_off may name, as package
// engine/fastpath names them (a test in internal/app keeps the two equal).
var FastPathNames = []string{"sink", "flush", "chunks", "concat", "escape", "props", "jsx"}

// EnabledFastPaths lists the rewrites the app's build applies: none when
// fast_paths is false, else every one but those in fast_paths_off (and
// "sink" when fast_sink is false), in FastPathNames order.
func (a App) EnabledFastPaths() []string {
	if !a.FastPaths {
		return nil
	}
	out := []string{}
	for _, n := range FastPathNames {
		off := n == "sink" && !a.FastSink
		for _, o := range a.FastPathsOff {
			off = off || o == n
		}
		if !off {
			out = append(out, n)
		}
	}
	return out
}

// Render sizes the isolate pool.
type Render struct {
	JSCWorkers      int `toml:"jsc_workers" range:"1,1024"`          // 4
	RenderTimeoutMS int `toml:"render_timeout_ms" range:"1,3600000"` // 5000
	QueueTimeoutMS  int `toml:"queue_timeout_ms" range:"1,600000"`
	// WaitUntilTimeoutMS bounds a fetch handler's ctx.waitUntil work after
	// its response (the worker takes no request meanwhile).
	WaitUntilTimeoutMS int `toml:"wait_until_timeout_ms" range:"1,3600000"` // 30000
	// MaxRenderMemoryMB bounds what one render may allocate at once and
	// grow the live heap by (0 = no bound).
	MaxRenderMemoryMB int64     `toml:"max_render_memory_mb" range:"0,1048576" zero:"0 means no bound"` // 1000
	Lifecycle         Lifecycle `toml:"lifecycle"`
}

// Lifecycle holds worker rotation and file-watch settings; 0 means never / no limit.
type Lifecycle struct {
	MaxRequests     int64    `toml:"max_requests" range:"0,1000000000000" zero:"0 means never rotate by request count"` // 10000
	MaxMemoryMB     int64    `toml:"max_memory_mb" range:"0,1048576" zero:"0 means no memory limit"`                    // 512
	MaxUptimeHours  float64  `toml:"max_uptime_hours" range:"0,1000000" zero:"0 means never rotate by age"`             // 24
	DrainTimeoutMS  int      `toml:"drain_timeout_ms" range:"0,3600000" zero:"0 interrupts in-flight renders at once"`  // 5000
	WatchDirs       []string `toml:"watch_dirs"`                                                                        // [] (resolved to absolute)
	WatchDebounceMS int      `toml:"watch_debounce_ms" range:"0,60000" zero:"0 means no debounce"`                      // 500
	MemoryCheckMS   int      `toml:"memory_check_ms" range:"1,86400000"`                                                // 10000
	// HealthPath is a route rendered as each idle worker's health check
	// ("" = none; a globalThis.health function is checked instead).
	HealthPath        string `toml:"health_path"`                             // ""
	HealthIntervalMS  int    `toml:"health_interval_ms" range:"100,86400000"` // 30000
	MaxHealthFailures int    `toml:"max_health_failures" range:"1,1000"`      // 3
	// Degrade*: a worker failing clearly above its peers becomes DEGRADED.
	DegradeConsecutiveFailures int      `toml:"degrade_consecutive_failures" range:"0,1000000" zero:"0 turns the rule off"` // 5
	DegradeWindow              int      `toml:"degrade_window" range:"1,10000"`                                             // 20
	DegradeFailureRate         float64  `toml:"degrade_failure_rate" range:"0,1" zero:"0 turns the rule off"`               // 0.5
	DegradePeerRate            float64  `toml:"degrade_peer_rate" range:"0,1"`                                              // 0.1
	Recovery                   Recovery `toml:"recovery"`
}

// Recovery is the crash backoff schedule of a worker slot.
type Recovery struct {
	MaxConsecutiveFailures int     `toml:"max_consecutive_failures" range:"0,1000000" zero:"0 means never give up"`                             // 10
	BackoffInitialMS       int     `toml:"backoff_initial_ms" range:"0,86400000" zero:"0 means retry at once"`                                  // 100
	BackoffMaxMS           int     `toml:"backoff_max_ms" range:"0,86400000" zero:"0 means retry at once"`                                      // 60000
	BackoffMultiplier      float64 `toml:"backoff_multiplier" range:"1,1000" zero:"1 = constant delay"`                                         // 3.0
	HealthyResetMS         int     `toml:"healthy_reset_ms" range:"0,86400000" zero:"0 resets the failure count as soon as a worker is ACTIVE"` // 60000
}

// Admin guards /__bext/* and /metrics.
type Admin struct {
	Token      string `toml:"token"`       // ""; BEXT_ADMIN_TOKEN overrides
	Addr       string `toml:"addr"`        // "127.0.0.1:3001"; "unix:PATH" = a unix socket; "" = on the main listener (token needed there)
	PublicRead bool   `toml:"public_read"` // false
}

// Runtime tunes the Go runtime that all isolates share.
type Runtime struct {
	GOGC          int   `toml:"gogc" range:"-1,1000000" zero:"-1 turns the GC off, 0 leaves Go's default"`                                // chosen by benchmark (issue 5); 0 = leave Go's default; -1 = GC off
	MemoryLimitMB int64 `toml:"memory_limit_mb" range:"-1,16777216" zero:"0 = 90% of the container's or machine's memory, -1 = no limit"` // 0 = derived
}

// Dev holds `bext dev` settings.
type Dev struct {
	LiveReload bool `toml:"live_reload"` // true in `bext dev`
}

// Cache is the page cache: responses the app marks cacheable
// (Cache-Control s-maxage/max-age, CDN-Cache-Control, Surrogate-Control)
// or that a rule matches are served from memory with
// stale-while-revalidate.
type Cache struct {
	Enabled    bool        `toml:"enabled"`                                                      // true; bext dev turns it off unless dev_enabled
	DevEnabled bool        `toml:"dev_enabled"`                                                  // false: in bext dev every request renders
	MaxBytes   int64       `toml:"max_bytes" range:"0,68719476736" zero:"0 turns the cache off"` // 128 MiB, counted by the entries' real size
	MaxVary    int         `toml:"max_vary" range:"0,32"`                                        // 8: request headers a response's Vary may key on; more → not cached
	Rules      []CacheRule `toml:"rule"`                                                         // [[cache.rule]] tables
	// Redis shares the cache with the fleet: pages stored by one instance
	// are served by all, purges reach every instance. Needs [fleet] redis_url.
	Redis bool `toml:"redis"` // false
	// RedisTimeoutMS bounds each lookup in Redis: a slower answer is a miss.
	RedisTimeoutMS int `toml:"redis_timeout_ms" range:"1,10000"` // 50
}

// CacheRule caches the pages whose path matches Path even when the app
// sends no caching headers. Durations are seconds, as in Cache-Control.
type CacheRule struct {
	Path                 string   `toml:"path"`                                      // "/blog/*" (one segment), "/docs/**" (any depth), "/" (exact)
	MaxAge               int      `toml:"max_age" range:"0,31536000"`                // fresh for this long
	StaleWhileRevalidate int      `toml:"stale_while_revalidate" range:"0,31536000"` // then served stale while one background render refreshes it
	StaleIfError         int      `toml:"stale_if_error" range:"0,31536000"`         // a failed render serves the stale copy for this long
	Headers              []string `toml:"headers"`                                   // request headers that key the page (beyond the response's Vary)
	Cookies              []string `toml:"cookies"`                                   // cookies that key the page; requests with other cookies stay cacheable
}

// Fleet joins this instance to a fleet of bext instances sharing one Redis
// (6 or later): a registry refreshed by heartbeats, `bext ps --fleet` and
// `bext workers restart --fleet`. Without RedisURL nothing connects.
type Fleet struct {
	RedisURL string `toml:"redis_url"` // "" = no fleet; redis://[user:password@]host:port[/db], rediss:// for TLS
	// Name identifies the instance in the fleet; "" = hostname:port of the
	// public listener.
	Name                string `toml:"name"`
	HeartbeatIntervalMS int    `toml:"heartbeat_interval_ms" range:"10,3600000"` // 10000
	// TTLMS: an instance whose heartbeats stop disappears after this long.
	// Load sets it to 3 × heartbeat_interval_ms when the file sets only the
	// interval.
	TTLMS int `toml:"ttl_ms" range:"20,86400000"` // 30000
	// TimeoutMS bounds every Redis call of the registry and the commands.
	TimeoutMS int `toml:"timeout_ms" range:"1,60000"` // 500
}

// AppEntry is one app of a bext that hosts several: the keys of [app]
// directly in the table, how requests reach it, and overrides of [render].
type AppEntry struct {
	Name string `toml:"name"` // unique; labels metrics and the admin API
	App  `toml:",inline"`
	// Hosts route by the Host header: "a.example.com" or "*.tenant.example"
	// (any subdomain). PathPrefix routes by path ("/shop": /shop and
	// /shop/…). The most specific match wins; an app with neither is the
	// default (at most one).
	Hosts      []string `toml:"hosts"`
	PathPrefix string   `toml:"path_prefix"`
	// Preload boots the app at start instead of on its first request.
	Preload bool `toml:"preload"`
	// IdleTimeoutMS: with no request for this long the app's workers drain
	// and its pool is released; the next request cold-starts it.
	IdleTimeoutMS int `toml:"idle_timeout_ms" range:"0,2592000000" zero:"0 = never evicted"`
	// Render starts as a copy of the top-level [render]; [apps.render] and
	// [apps.render.lifecycle] override single keys.
	Render  Render  `toml:"render" inherit:"render"`
	Respawn Respawn `toml:"respawn"`
}

// Fetch configures fetch() in the isolates. *_ms fields are milliseconds.
type Fetch struct {
	TimeoutMS        int    `toml:"timeout_ms" range:"0,86400000" zero:"0 means none of its own (the render's deadline still applies)"` // 30000: request to last body byte
	ConnectTimeoutMS int    `toml:"connect_timeout_ms" range:"0,3600000" zero:"0 means no connect timeout"`                             // 10000: DNS, TCP and TLS
	MaxResponseBytes int64  `toml:"max_response_bytes" range:"0,17179869184" zero:"0 means no limit"`                                   // 32 MiB of decoded body
	MaxRedirects     int    `toml:"max_redirects" range:"0,1000" zero:"0 follows none"`                                                 // 20, the Fetch Standard's
	BaseURL          string `toml:"base_url"`                                                                                           // "" = http://[server] addr (loopback for 0.0.0.0)
	UserAgent        string `toml:"user_agent"`                                                                                         // "bext"
}

// Respawn stops an app that keeps crashing: max_crashes crashes (isolate
// replacements for crashes and boot failures) within window_ms and the app
// is failed until `bext workers restart --app NAME`.
type Respawn struct {
	MaxCrashes int `toml:"max_crashes" range:"0,1000000" zero:"0 = never stop respawning"` // 20
	WindowMS   int `toml:"window_ms" range:"1,86400000"`                                   // 60000
}
