package config

import (
	"strings"
	"testing"
)

func TestFleetLoads(t *testing.T) {
	c, err := Load(writeApp(t, "[fleet]\nredis_url = \"rediss://bext:s3cret@redis.example:6380/2\"\nname = \"web-1\"\n[cache]\nredis = true\n"))
	if err != nil {
		t.Fatal(err)
	}
	if f := c.Fleet; f.RedisURL != "rediss://bext:s3cret@redis.example:6380/2" || f.Name != "web-1" || f.HeartbeatIntervalMS != 10000 || f.TTLMS != 30000 || !c.Cache.Redis {
		t.Fatalf("fleet %+v, cache.redis %v", f, c.Cache.Redis)
	}
}

// The default TTL is 3 × the interval: setting only the interval moves
// the TTL with it; setting both keeps both.
func TestFleetTTLFollowsTheInterval(t *testing.T) {
	c, err := Load(writeApp(t, "[fleet]\nheartbeat_interval_ms = 100\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Fleet.TTLMS != 300 {
		t.Fatalf("ttl_ms = %d, want 300", c.Fleet.TTLMS)
	}
	c, err = Load(writeApp(t, "[fleet]\nheartbeat_interval_ms = 100\nttl_ms = 250\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Fleet.TTLMS != 250 {
		t.Fatalf("ttl_ms = %d, want 250", c.Fleet.TTLMS)
	}
}

func TestFleetRejectsImpossibleValues(t *testing.T) {
	for _, tc := range []struct {
		text, key string
		line      int
		frag      string
	}{
		{"[fleet]\nredis_url = \"http://redis:6379\"\n", "fleet.redis_url", 2, `scheme "http"`},
		{"[fleet]\nredis_url = \"redis://\"\n", "fleet.redis_url", 2, "names no host"},
		{"[fleet]\nredis_url = \"redis://h:99999\"\n", "fleet.redis_url", 2, "from 1 to 65535"},
		{"[fleet]\nredis_url = \"redis://h:6379/x\"\n", "fleet.redis_url", 2, "database"},
		{"[fleet]\nredis_url = \"redis://h:6379/0?bogus=1\"\n", "fleet.redis_url", 2, "bogus"},
		{"[fleet]\nredis_url = \"redis://u:pw@h:6379/0?bogus=1\"\n", "fleet.redis_url", 2, "xxxxx"},
		{"[fleet]\nredis_url = \"redis://u:pw@h\\u0000:6379\"\n", "fleet.redis_url", 2, "not a URL"},
		{"[fleet]\nheartbeat_interval_ms = 1000\nttl_ms = 1000\n", "fleet.ttl_ms", 3, "not more than heartbeat_interval_ms"},
		{"[fleet]\nheartbeat_interval_ms = 0\n", "fleet.heartbeat_interval_ms", 2, "at least 10"},
		{"[fleet]\ntimeout_ms = 0\n", "fleet.timeout_ms", 2, "at least 1"},
		{"[fleet]\nname = \"web 1\"\n", "fleet.name", 2, "no spaces"},
		{"[cache]\nredis = true\n", "cache.redis", 2, "needs [fleet] redis_url"},
		{"[cache]\nredis_timeout_ms = 0\n", "cache.redis_timeout_ms", 2, "at least 1"},
	} {
		t.Run(tc.text, func(t *testing.T) {
			ps := loadProblems(t, tc.text)
			wantProblem(t, ps, tc.key, tc.line, tc.frag)
			for _, p := range ps {
				if strings.Contains(p.Msg, ":pw@") {
					t.Errorf("the password is in the message: %q", p.Msg)
				}
			}
		})
	}
}
