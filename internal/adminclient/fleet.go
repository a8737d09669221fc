package adminclient

import (
	"fmt"
	"log/slog"
	"time"

	"bext/config"
	"bext/fleet"
)

// Fleet opens the fleet's Redis named by [fleet] redis_url of the config
// (the file config.Find picks for cfgFlag), for `--fleet` commands.
func Fleet(cfgFlag string) (*fleet.Client, error) {
	path := config.Find(cfgFlag)
	if path == "" {
		return nil, fmt.Errorf("--fleet needs the config with [fleet] redis_url: pass -config FILE (no ./config.toml here)")
	}
	cfg, err := config.Load(path)
	if err != nil {
		return nil, err
	}
	if cfg.Fleet.RedisURL == "" {
		return nil, fmt.Errorf("%s has no [fleet] redis_url: --fleet reaches the instances through the fleet's Redis", path)
	}
	// The CLI is not on a request path: a slow Redis gets a few seconds.
	return fleet.Open(fleet.Options{URL: cfg.Fleet.RedisURL, Timeout: max(time.Duration(cfg.Fleet.TimeoutMS)*time.Millisecond, 3*time.Second),
		Log: slog.New(slog.DiscardHandler)}) // the command reports errors itself
}
