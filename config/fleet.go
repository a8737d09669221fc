package config

import (
	"errors"
	"net/url"
	"strconv"
	"strings"
	"unicode"

	"github.com/redis/go-redis/v9"
)

// deriveFleet sets ttl_ms to 3 × heartbeat_interval_ms when the file sets
// the interval and leaves the TTL out, as the default TTL is 3 × the
// default interval.
func (c *Config) deriveFleet() {
	if c.present["fleet.heartbeat_interval_ms"] && !c.present["fleet.ttl_ms"] {
		c.Fleet.TTLMS = min(3*c.Fleet.HeartbeatIntervalMS, 86400000)
	}
}

func (c *Config) validateFleet(ch *checker) {
	f := c.Fleet
	if f.RedisURL != "" {
		if msg := checkRedisURL(f.RedisURL); msg != "" {
			ch.addf("fleet.redis_url", "%s", msg)
		}
	}
	if f.TTLMS <= f.HeartbeatIntervalMS {
		ch.addf("fleet.ttl_ms", "%d is not more than heartbeat_interval_ms = %d: an instance would vanish between two heartbeats; use about 3 × the interval", f.TTLMS, f.HeartbeatIntervalMS)
	}
	if f.Name != "" && !validInstanceName(f.Name) {
		ch.addf("fleet.name", "%q may hold up to 200 printable characters and no spaces", f.Name)
	}
	if c.Cache.Redis && f.RedisURL == "" {
		ch.addf("cache.redis", "needs [fleet] redis_url: the shared cache lives in the fleet's Redis")
	}
}

// checkRedisURL accepts redis://[user:password@]host[:port][/db] and
// rediss:// (TLS), with the query options the Redis client knows
// (?dial_timeout=3s …). It returns "" or what is wrong, without the
// password.
func checkRedisURL(s string) string {
	const how = `; write e.g. "redis://127.0.0.1:6379/0", or "rediss://user:password@redis.example:6380" for TLS`
	u, err := url.Parse(s)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return "is not a URL (" + err.Error() + ")" + how
	}
	if u.Scheme != "redis" && u.Scheme != "rediss" {
		return strconv.Quote(s) + " has scheme " + strconv.Quote(u.Scheme) + "; bext speaks redis:// and rediss:// (TLS)" + how
	}
	if u.Hostname() == "" {
		return strconv.Quote(u.Redacted()) + " names no host" + how
	}
	if p := u.Port(); p != "" {
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return strconv.Quote(u.Redacted()) + " has port " + strconv.Quote(p) + "; a port is a number from 1 to 65535"
		}
	}
	if db := strings.Trim(u.Path, "/"); db != "" {
		if n, err := strconv.Atoi(db); err != nil || n < 0 {
			return strconv.Quote(u.Redacted()) + " selects database " + strconv.Quote(db) + "; the path is a database number (/0, /1, …)"
		}
	}
	if _, err := redis.ParseURL(s); err != nil {
		return strconv.Quote(u.Redacted()) + ": " + strings.TrimPrefix(err.Error(), "redis: ") + how
	}
	return ""
}

// validInstanceName: printable, no spaces, at most 200 bytes (it is part of
// Redis keys and of the ps table).
func validInstanceName(s string) bool {
	if len(s) > 200 {
		return false
	}
	for _, r := range s {
		if !unicode.IsPrint(r) || unicode.IsSpace(r) {
			return false
		}
	}
	return true
}
