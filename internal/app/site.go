package app

import (
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"bext/cache"
	"bext/config"
)

// site is one app the instance serves: its configuration, its current
// generation and, with dev or watch_dirs, the watch that redeploys it. A
// file with a single [app] has one site, started with the instance and
// never stopped before it; with [[apps]] every app is a site of its own,
// started on demand (apps.go).
type site struct {
	in    *Instance
	name  string         // "" for the single [app]
	cfg   *config.Config // this app's view of the file ([[apps]]: its entry as [app] and [render])
	gen   atomic.Pointer[generation]
	watch *devApp // the running watch, if any
	from  string  // how the bundle was obtained, for the start-up line

	watchMu   sync.Mutex // startWatch and closeWatch run on different actors
	stopWatch func()     // stops the watch's loop; nil when none runs

	// pageCache outlives generations: a deploy purges it, a stop closes it.
	// cacheMu guards the pointer: an idle eviction, the shutdown and a
	// fleet restart may reach it at once.
	cacheMu   sync.Mutex
	pageCache *cache.Cache

	bundleID atomic.Pointer[string] // hash of the server bundle it serves (the fleet registry shows it)
}

func (s *site) setBundle(code []byte) {
	h := hashBundle(code)
	s.bundleID.Store(&h)
}

func (s *site) bundleHash() string {
	if h := s.bundleID.Load(); h != nil {
		return *h
	}
	return ""
}

// cache returns the site's page cache, making it on first use; nil when
// [cache] is off (or in bext dev without dev_enabled).
func (s *site) cache() (*cache.Cache, error) {
	s.cacheMu.Lock()
	defer s.cacheMu.Unlock()
	c := s.cfg.Cache
	if s.pageCache != nil || !c.Enabled || c.MaxBytes <= 0 || (s.in.o.Dev && !c.DevEnabled) {
		return s.pageCache, nil
	}
	rules := make([]cache.Rule, len(c.Rules))
	for k, r := range c.Rules {
		rules[k] = cache.Rule{Pattern: r.Path, MaxAge: time.Duration(r.MaxAge) * time.Second,
			StaleWhileRevalidate: time.Duration(r.StaleWhileRevalidate) * time.Second,
			StaleIfError:         time.Duration(r.StaleIfError) * time.Second, Headers: r.Headers, Cookies: r.Cookies}
	}
	log := s.in.log
	if s.name != "" {
		log = log.With("app", s.name)
	}
	o := cache.Options{MaxBytes: c.MaxBytes, MaxVary: c.MaxVary, Rules: rules, Log: log}
	var made atomic.Pointer[cache.Cache] // a purge from the fleet may arrive before New returns
	if s.in.shared != nil {
		// With [cache] redis: the fleet's level behind memory; purges made
		// by other instances reach this memory.
		o.Second = s.in.shared.Level(s.name, func(sel cache.Selector) {
			if pc := made.Load(); pc != nil {
				pc.PurgeLocal(sel)
			}
		})
		o.SecondTimeout = time.Duration(c.RedisTimeoutMS) * time.Millisecond
	}
	pc, err := cache.New(o)
	if err != nil {
		return nil, err
	}
	made.Store(pc)
	s.pageCache = pc
	return pc, nil
}

// purgeCache empties the page cache (new code is serving).
func (s *site) purgeCache(why string) {
	s.cacheMu.Lock()
	pc := s.pageCache
	s.cacheMu.Unlock()
	if pc != nil {
		if n := pc.PurgeAll(); n > 0 {
			s.in.log.Info("page cache purged", "app", s.name, "entries", n, "why", why)
		}
	}
}

// current is the generation serving now (nil while the site is not
// running).
func (s *site) current() *generation { return s.gen.Load() }

// bundle builds the app: through the incremental builders of a watch when
// there is one (dev, or serve with watch_dirs), else from out_dir or a
// one-shot build.
func (s *site) bundle() (*Bundle, error) {
	in, cfg := s.in, s.cfg
	if b := in.o.Bundle; b != nil {
		s.from = b.From
		return b, nil
	}
	if in.o.Dev || len(cfg.Render.Lifecycle.WatchDirs) > 0 {
		d, err := newDevApp(s, cfg)
		if err != nil {
			return nil, err
		}
		s.watch = d
		return d.initial, nil
	}
	b, err := Load(cfg)
	if err != nil {
		return nil, err
	}
	s.from = b.From
	return b, nil
}

// start builds the app, starts a generation for it and waits for its
// first ACTIVE worker. On error nothing of it is left running.
func (s *site) start() error {
	started := time.Now()
	b, err := s.bundle()
	if err != nil {
		return err
	}
	for _, w := range b.Warnings {
		s.in.log.Warn("build warning", "app", s.name, "msg", w)
	}
	if len(b.FastPaths) > 0 {
		s.in.log.Debug("fast paths applied", "app", s.name, "rewrites", b.FastPaths)
	}
	g, err := s.in.newGeneration(s, s.cfg, b)
	if err == nil {
		if err = g.waitReady(30 * time.Second); err != nil {
			g.pool.Close()
		}
	}
	if err != nil {
		s.closeWatch()
		return err
	}
	s.gen.Store(g)
	s.setBundle(b.ServerCode)
	if s.from == "" {
		s.from = fmt.Sprintf("built %s in %s", b.Name, time.Since(started).Round(time.Millisecond))
	}
	return nil
}

// startWatch runs the site's watch loop, if it has one.
func (s *site) startWatch() {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.watch != nil && s.stopWatch == nil {
		s.stopWatch = s.watch.start(s.cfg)
	}
}

// closeWatch stops the watch loop (waiting for it) and releases the
// builders.
func (s *site) closeWatch() {
	s.watchMu.Lock()
	defer s.watchMu.Unlock()
	if s.stopWatch != nil {
		s.stopWatch()
		s.stopWatch = nil
	}
	if s.watch != nil {
		s.watch.close()
		s.watch = nil
	}
}

// stop stops the watch, then the generation: its requests finish (at most
// drain_timeout_ms) and its pool closes.
func (s *site) stop() {
	s.closeWatch()
	if g := s.gen.Swap(nil); g != nil {
		g.retire()
	}
	s.closeCache()
}

// closeCache drops the page cache and its memory (an evicted or stopped
// app); the next start makes a new one.
func (s *site) closeCache() {
	s.cacheMu.Lock()
	c := s.pageCache
	s.pageCache = nil
	s.cacheMu.Unlock()
	if c != nil {
		c.Close()
	}
}

// acquire returns the current generation with a request counted in, or
// nil when the site is not running.
func (s *site) acquire() *generation {
	for {
		g := s.gen.Load()
		if g == nil || g.acquire() {
			return g
		}
	}
}
