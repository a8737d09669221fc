package config

import "reflect"

// Default returns bext's defaults. It is the only place they are written;
// config.toml at the repository root documents the same values and a test
// keeps the two equal.
func Default() Config {
	return Config{
		Server: Server{
			Addr:                "127.0.0.1:3000",
			ReadHeaderTimeoutMS: 5000,
			ReadTimeoutMS:       30000,
			WriteTimeoutMS:      60000,
			IdleTimeoutMS:       120000,
			MaxHeaderBytes:      1 << 20,
			MaxBodyBytes:        10 << 20,
			Gzip:                true,
			LogFormat:           "auto",
			LogLevel:            "info",
			AccessLog:           true,
		},
		App: App{
			ServerEntry:  "src/server.jsx",
			ClientEntry:  "",
			PublicDir:    "public",
			OutDir:       ".bext",
			FastSink:     true,
			FastPaths:    true,
			FastPathsOff: []string{},
			Env:          map[string]string{},
		},
		Render: Render{
			JSCWorkers:         4,
			RenderTimeoutMS:    5000,
			QueueTimeoutMS:     1000,
			WaitUntilTimeoutMS: 30000,
			// One render that allocates a few hundred MB is a bug or an
			// attack; React's large example page allocates ~60 MB, most
			// of it garbage.
			MaxRenderMemoryMB: 256,
			Lifecycle: Lifecycle{
				MaxRequests:                10000,
				MaxMemoryMB:                512,
				MaxUptimeHours:             24,
				DrainTimeoutMS:             5000,
				WatchDirs:                  []string{},
				WatchDebounceMS:            500,
				MemoryCheckMS:              10000,
				HealthIntervalMS:           30000,
				MaxHealthFailures:          3,
				DegradeConsecutiveFailures: 5,
				DegradeWindow:              20,
				DegradeFailureRate:         0.5,
				DegradePeerRate:            0.1,
				Recovery: Recovery{
					MaxConsecutiveFailures: 10,
					BackoffInitialMS:       100,
					BackoffMaxMS:           60000,
					BackoffMultiplier:      3.0,
					HealthyResetMS:         60000,
				},
			},
		},
		Admin: Admin{
			Token: "",
			// A listener of its own, on loopback, as Caddy's admin
			// endpoint: the public port never serves state changes
			// without the token.
			Addr:       "127.0.0.1:3001",
			PublicRead: false,
		},
		Runtime: Runtime{
			// GOGC 400: with 2 isolates rendering in parallel on 2 CPUs it
			// gave 1.70× (examples/basic) and 1.36× (examples/react) the
			// renders per CPU-second of Go's default 100, for a heap goal of
			// 5× the live heap; 800 added only 8–11% more for twice the heap
			// (go test -bench GC, table in README). The soft memory limit is
			// derived (0): 90% of the container's memory limit, else of the
			// machine's, so one spike can never switch the GC off.
			GOGC:          400,
			MemoryLimitMB: 0,
		},
		Dev: Dev{
			LiveReload: false,
		},
		Cache: Cache{
			Enabled:  true,
			MaxBytes: 128 << 20,
			MaxVary:  8,
			// A page cache lookup that waits longer for Redis than a
			// render of a small page takes is worse than rendering.
			RedisTimeoutMS: 50,
		},
		Fleet: Fleet{
			HeartbeatIntervalMS: 10000,
			TTLMS:               30000, // 3 × the interval: two heartbeats may be lost
			TimeoutMS:           500,
		},
		Fetch: Fetch{
			TimeoutMS:        30000,
			ConnectTimeoutMS: 10000,
			MaxResponseBytes: 32 << 20,
			MaxRedirects:     20,
			UserAgent:        "bext",
		},
	}
}

// elementDefault is a new element of the array of tables key, with its
// defaults: an [[apps]] entry has the defaults of [app], a 15-minute idle
// timeout and a respawn window; other elements start empty.
func elementDefault(key string, t reflect.Type) reflect.Value {
	if key == "apps" {
		return reflect.ValueOf(DefaultAppEntry())
	}
	return reflect.Zero(t)
}

// DefaultAppEntry is an [[apps]] entry before its keys are read.
func DefaultAppEntry() AppEntry {
	return AppEntry{
		App:           Default().App,
		IdleTimeoutMS: 15 * 60 * 1000,
		Respawn:       Respawn{MaxCrashes: 20, WindowMS: 60000},
	}
}
