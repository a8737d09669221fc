package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net"
	"os"

	"github.com/oklog/run"
	"github.com/prometheus/client_golang/prometheus"

	"bext/config"
	"bext/fleet"
	"bext/lifecycle"
	"bext/pool"
)

// openFleet connects the instance to its fleet when [fleet] redis_url is
// set: the client (no network yet: an unreachable Redis is an outage the
// agent lives with, never a start-up error), the agent, and with [cache]
// redis the shared page cache level the generations' caches use. Its name
// and addresses are set once the listeners are bound (nameFleet).
func (in *Instance) openFleet(cfg *config.Config) error {
	f := cfg.Fleet
	if f.RedisURL == "" {
		return nil
	}
	c, err := fleet.Open(fleet.Options{URL: f.RedisURL, Timeout: ms(f.TimeoutMS), Log: in.log})
	if err != nil {
		return err
	}
	in.fleet = fleet.NewAgent(c, fleet.AgentOptions{Version: in.o.Version, Interval: ms(f.HeartbeatIntervalMS), TTL: ms(f.TTLMS),
		Snapshot: in.fleetSnapshot, Restart: in.restartAll, Log: in.log})
	if cfg.Cache.Redis {
		// A fill lock outlasts the longest render, so a waiting instance
		// only renders itself when the holder died.
		in.shared = fleet.NewShared(in.fleet, fleet.CacheOptions{Timeout: ms(cfg.Cache.RedisTimeoutMS),
			LockTTL: ms(cfg.Render.RenderTimeoutMS) + ms(1000)})
	}
	return nil
}

// nameFleet gives the agent the instance's name (default: host name and
// port of the public listener) and addresses.
func (in *Instance) nameFleet(cfg *config.Config) {
	if in.fleet == nil {
		return
	}
	name := cfg.Fleet.Name
	if name == "" {
		host, _ := os.Hostname()
		_, port, _ := net.SplitHostPort(in.addr)
		name = host + ":" + port
	}
	in.fleet.SetIdentity(name, in.addr, in.adminAddr)
}

// addFleet runs the agent as an actor. It is added after the watch and
// before the listeners, so at shutdown it deregisters the instance (its
// interrupt waits for that) before the listeners drain: the fleet stops
// listing it, and no fleet restart is sent to it, while it finishes its
// requests.
func (in *Instance) addFleet(g *run.Group) {
	if in.fleet == nil {
		return
	}
	g.Add(in.fleet.Run, func(error) { in.fleet.Stop() })
}

// fleetCollectors are the fleet's metrics for the instance's registry.
func (in *Instance) fleetCollectors() []prometheus.Collector {
	var cs []prometheus.Collector
	if in.fleet != nil {
		cs = append(cs, in.fleet)
	}
	if in.shared != nil {
		cs = append(cs, in.shared)
	}
	return cs
}

// closeFleet closes the fleet's Redis client (after the agent stopped).
func (in *Instance) closeFleet() {
	if in.fleet != nil {
		in.fleet.Client().Close()
	}
}

// FleetName is the instance's name in its fleet ("" without [fleet]).
func (in *Instance) FleetName() string {
	if in.fleet == nil {
		return ""
	}
	return in.fleet.Name()
}

// fleetSnapshot is the instance as its registry entry shows it: every app
// with the hash of its bundle and its workers.
func (in *Instance) fleetSnapshot() []fleet.App {
	if in.main != nil {
		a := fleet.App{State: "running", Bundle: in.main.bundleHash(), Workers: []pool.WorkerStats{}}
		if g := in.main.current(); g != nil {
			a.Workers = g.pool.Snapshot()
		}
		return []fleet.App{a}
	}
	var out []fleet.App
	for _, st := range in.apps.stats() {
		s := in.apps.byName[st.Name]
		a := fleet.App{Name: st.Name, State: st.State, Bundle: s.bundleHash(), Workers: []pool.WorkerStats{}}
		if g := s.current(); g != nil {
			a.Workers = g.pool.Snapshot()
		}
		out = append(out, a)
	}
	return out
}

// restartAll restarts the workers of every running app on a rolling basis
// — one app after another, each surge-first and one worker at a time, and
// its page cache emptied, as `bext workers restart` does — and returns once
// every worker that has not given up runs a new isolate, or ctx ends.
func (in *Instance) restartAll(ctx context.Context) error {
	var sites []*site
	in.forSites(func(s *site) {
		if s.current() != nil {
			sites = append(sites, s)
		}
	})
	for _, s := range sites {
		g := s.current()
		if g == nil {
			continue // stopped meanwhile
		}
		p := g.pool
		before := p.Snapshot()
		if _, err := p.Restart(-1, lifecycle.ReasonManual); err != nil {
			return err
		}
		err := p.WaitFor(ctx, func(ws []pool.WorkerStats) bool {
			for i, w := range ws {
				if !w.GaveUp && (w.Generation <= before[i].Generation || w.State != lifecycle.Active.String()) {
					return false
				}
			}
			return true
		})
		if err != nil {
			return fmt.Errorf("waiting for the workers to restart: %w", err)
		}
		s.purgeCache("fleet restart") // as `bext workers restart` does
	}
	return nil
}

// hashBundle names a server bundle in the registry: the first 12 hex
// digits of its SHA-256, the same for the same code on every instance.
func hashBundle(code []byte) string {
	h := sha256.Sum256(code)
	return hex.EncodeToString(h[:6])
}
