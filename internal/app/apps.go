package app

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"bext/config"
	"bext/lifecycle"
	"bext/pool"
	"bext/render"
)

// apps serves the [[apps]] of the file (the WorkerRuntime of the design
// notes, keyed by app): it routes each request to its app by host and path
// prefix, starts an app on its first request (one boot for all the
// concurrent first requests; a failed boot answers 503 with Retry-After and
// is retried on the backoff schedule), evicts an app after idle_timeout_ms
// without a request, or to make room under max_apps_running (least
// recently used first), and stops respawning an app whose workers crash
// max_crashes times within window_ms, until a manual restart revives it.
// Each app is a site of its own: its own pool, watch and generation, so one
// app's failures never touch another's responses.
type apps struct {
	in           *Instance
	sites        []*appSite // in file order
	byName       map[string]*appSite
	routes       []route // most specific first
	registry     *prometheus.Registry
	maxRunning   int
	admin        http.Handler
	shuttingDown atomic.Bool
	// start starts an app's site: (*site).start; tests start fakes.
	start func(*appSite) error
}

// AppState is where an app of [[apps]] is in its life.
type AppState int

const (
	AppCold     AppState = iota // configured, never started
	AppBooting                  // building and booting its first worker
	AppRunning                  // serving
	AppDraining                 // being evicted: finishing its requests
	AppEvicted                  // stopped after idling (or to make room); starts again on demand
	AppFailed                   // its boot failed (retried after a backoff), or it crashed too often (until revived)
)

var appStates = []string{"cold", "booting", "running", "draining", "evicted", "failed"}

func (s AppState) String() string { return appStates[s] }

// appSite is one app: its site and its on-demand life.
type appSite struct {
	*site
	entry config.AppEntry

	mu         sync.Mutex
	state      AppState
	changed    chan struct{} // closed at every state change
	lastUsed   time.Time
	lastErr    string
	failures   int // consecutive failed boots
	retryAt    time.Time
	crashes    []time.Time // within the respawn window
	gaveUp     bool
	coldStarts int64
	evictions  int64
}

// route sends requests for host (exact, "*.domain" or "" for any) under
// prefix ("" for all) to an app.
type route struct {
	host, prefix string
	app          *appSite
}

func newApps(in *Instance, cfg *config.Config) (*apps, error) {
	a := &apps{in: in, byName: map[string]*appSite{}, registry: prometheus.NewRegistry(), maxRunning: cfg.Server.MaxAppsRunning,
		start: func(s *appSite) error { return s.start() }}
	a.registry.MustRegister(append(processCollectors(in.o.Version), in.fleetCollectors()...)...)
	a.registry.MustRegister(a)
	for _, e := range cfg.Apps {
		s := &appSite{site: &site{in: in, name: e.Name, cfg: appConfig(cfg, e)}, entry: e, changed: make(chan struct{})}
		a.sites = append(a.sites, s)
		a.byName[e.Name] = s
		hosts := e.Hosts
		if len(hosts) == 0 {
			hosts = []string{""}
		}
		for _, h := range hosts {
			a.routes = append(a.routes, route{host: strings.ToLower(h), prefix: strings.TrimSuffix(e.PathPrefix, "/"), app: s})
		}
	}
	slices.SortStableFunc(a.routes, func(x, y route) int {
		if c := cmp.Compare(hostRank(y.host), hostRank(x.host)); c != 0 {
			return c
		}
		return cmp.Compare(len(y.prefix), len(x.prefix))
	})
	a.admin = a.adminHandler(cfg)
	return a, nil
}

// preload starts the apps marked preload, in parallel. One that cannot
// start is logged and follows the backoff schedule; the others serve.
func (a *apps) preload() {
	in := a.in
	var wg sync.WaitGroup
	var errs []error
	var mu sync.Mutex
	for _, s := range a.sites {
		if s.entry.Preload {
			wg.Go(func() {
				if g, err := a.ensure(context.Background(), s); err != nil {
					mu.Lock()
					errs = append(errs, fmt.Errorf("app %s: %w", s.name, err))
					mu.Unlock()
				} else {
					g.release()
				}
			})
		}
	}
	wg.Wait()
	for _, err := range errs {
		in.log.Error("preloading an app failed; it is retried on demand", "err", err)
	}
}

// appConfig is the file's config as one app sees it: its entry as [app]
// and [render].
func appConfig(file *config.Config, e config.AppEntry) *config.Config {
	c := *file
	c.App, c.Render, c.Apps = e.App, e.Render, nil
	return &c
}

// hostRank orders routes: an exact host before a wildcard (longer domains
// first) before no host.
func hostRank(h string) int {
	switch {
	case h == "":
		return 0
	case strings.HasPrefix(h, "*."):
		return 1 + len(h)
	}
	return 10000 + len(h)
}

func (a *apps) summary() string {
	names := make([]string, len(a.sites))
	for k, s := range a.sites {
		names[k] = s.name
	}
	return fmt.Sprintf("%d apps: %s; started on first request", len(a.sites), strings.Join(names, ", "))
}

// route finds the app for a request: the most specific host, then the
// longest path prefix.
func (a *apps) route(r *http.Request) *appSite {
	host := strings.ToLower(r.Host)
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(host, ".")
	for _, rt := range a.routes {
		if !hostMatches(rt.host, host) {
			continue
		}
		if p := rt.prefix; p == "" || r.URL.Path == p || strings.HasPrefix(r.URL.Path, p+"/") {
			return rt.app
		}
	}
	return nil
}

func hostMatches(pattern, host string) bool {
	switch {
	case pattern == "":
		return true
	case strings.HasPrefix(pattern, "*."):
		return strings.HasSuffix(host, pattern[1:]) && len(host) > len(pattern)-1
	}
	return pattern == host
}

// serve routes one request (the public listener) or answers the admin API.
func (a *apps) serve(w http.ResponseWriter, r *http.Request, admin bool) {
	if admin {
		a.admin.ServeHTTP(w, r)
		return
	}
	s := a.route(r)
	if s == nil {
		render.WriteErrorPage(w, http.StatusNotFound, "no app serves "+r.Host+r.URL.Path)
		return
	}
	g, err := a.ensure(r.Context(), s)
	if err != nil {
		retry := time.Second
		var u *unavailable
		if errors.As(err, &u) && u.retry > retry {
			retry = u.retry
		}
		w.Header().Set("Retry-After", strconv.Itoa(int((retry+time.Second-1)/time.Second)))
		a.in.log.Warn("app unavailable", "app", s.name, "path", r.URL.Path, "err", err)
		render.WriteErrorPage(w, http.StatusServiceUnavailable, "")
		return
	}
	defer g.release()
	g.main.ServeHTTP(w, r)
}

// unavailable is why an app cannot take a request now.
type unavailable struct {
	msg   string
	retry time.Duration // when it may be worth trying again; 0 = unknown
}

func (u *unavailable) Error() string { return u.msg }

// ensure returns the running generation of s with a request counted in,
// starting s if it is not running. Concurrent callers share one start.
func (a *apps) ensure(ctx context.Context, s *appSite) (*generation, error) {
	tried := false // a request waits for one start at most
	for {
		s.mu.Lock()
		now := time.Now()
		switch {
		case a.shuttingDown.Load():
			s.mu.Unlock()
			return nil, &unavailable{msg: "shutting down"}
		case s.state == AppRunning:
			g := s.acquire()
			s.lastUsed = now
			s.mu.Unlock()
			if g != nil {
				return g, nil
			}
			continue
		case s.gaveUp:
			msg := s.lastErr
			s.mu.Unlock()
			return nil, &unavailable{msg: "app " + s.name + " stopped: " + msg + " (revive it with `bext workers restart --app " + s.name + "`)"}
		case s.state == AppFailed && (tried || now.Before(s.retryAt)):
			u := &unavailable{msg: "app " + s.name + " failed to start: " + s.lastErr, retry: max(s.retryAt.Sub(now), 0)}
			s.mu.Unlock()
			return nil, u
		case s.state == AppBooting || s.state == AppDraining:
		default: // cold, evicted, or failed and due for a retry
			tried = true
			s.setState(AppBooting)
			go a.boot(s)
		}
		ch := s.changed
		s.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	}
}

// setState changes s's state and wakes its waiters; s.mu is held.
func (s *appSite) setState(st AppState) {
	s.state = st
	close(s.changed)
	s.changed = make(chan struct{})
}

// boot starts s (making room under max_apps_running first).
func (a *apps) boot(s *appSite) {
	a.makeRoom(s)
	start := time.Now()
	err := a.start(s)
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		// The schedule of a worker slot: the first retry at once, then
		// backoff_initial_ms × multiplier^k, up to backoff_max_ms.
		s.failures++
		backoff := Policy(s.cfg).Recovery.Backoff(s.failures)
		s.retryAt, s.lastErr = time.Now().Add(backoff), err.Error()
		a.in.log.Error("app failed to start", "app", s.name, "attempt", s.failures, "retry_in", backoff, "err", err)
		s.setState(AppFailed)
		return
	}
	s.failures, s.lastErr, s.coldStarts = 0, "", s.coldStarts+1
	s.lastUsed = time.Now()
	if !a.shuttingDown.Load() {
		s.startWatch()
	}
	a.in.log.Info("app started", "app", s.name, "in", time.Since(start).Round(time.Millisecond), "from", s.from)
	s.setState(AppRunning)
}

// evict drains s and releases its pool; why is logged.
func (a *apps) evict(s *appSite, why string) {
	s.mu.Lock()
	if s.state != AppRunning {
		s.mu.Unlock()
		return
	}
	s.setState(AppDraining)
	s.mu.Unlock()
	s.stop()
	s.mu.Lock()
	s.evictions++
	s.setState(AppEvicted)
	s.mu.Unlock()
	a.in.log.Info("app evicted", "app", s.name, "why", why)
}

// makeRoom evicts the least recently used running apps until starting s
// keeps the running count within max_apps_running.
func (a *apps) makeRoom(s *appSite) {
	if a.maxRunning <= 0 {
		return
	}
	for {
		var running []*appSite
		for _, o := range a.sites {
			o.mu.Lock()
			if o != s && (o.state == AppRunning || o.state == AppBooting) {
				running = append(running, o)
			}
			o.mu.Unlock()
		}
		if len(running) < a.maxRunning {
			return
		}
		var lru *appSite
		var lruAt time.Time
		for _, o := range running {
			o.mu.Lock()
			if o.state == AppRunning && (lru == nil || o.lastUsed.Before(lruAt)) {
				lru, lruAt = o, o.lastUsed
			}
			o.mu.Unlock()
		}
		if lru == nil {
			return // only boots in progress: let this one start too
		}
		a.evict(lru, fmt.Sprintf("max_apps_running = %d; least recently used", a.maxRunning))
	}
}

// janitor evicts apps idle for their idle_timeout_ms until quit closes.
func (a *apps) janitor(quit <-chan struct{}) {
	t := time.NewTicker(a.sweepEvery())
	defer t.Stop()
	for {
		select {
		case <-quit:
			return
		case now := <-t.C:
			for _, s := range a.sites {
				idle := ms(s.entry.IdleTimeoutMS)
				s.mu.Lock()
				due := s.state == AppRunning && idle > 0 && now.Sub(s.lastUsed) >= idle
				s.mu.Unlock()
				if due && !s.busy() {
					go a.evict(s, "idle for "+idle.String())
				}
			}
		}
	}
}

// sweepEvery is how often the janitor looks: a tenth of the shortest idle
// timeout, between 100 ms and 5 s.
func (a *apps) sweepEvery() time.Duration {
	d := 5 * time.Second
	for _, s := range a.sites {
		if t := ms(s.entry.IdleTimeoutMS) / 10; t > 0 && t < d {
			d = t
		}
	}
	return max(d, 100*time.Millisecond)
}

// busy reports whether the app is serving a request now.
func (s *appSite) busy() bool {
	g := s.current()
	if g == nil {
		return false
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.n > 0
}

// stopping is called when the instance shuts down: no more starts.
func (a *apps) stopping() { a.shuttingDown.Store(true) }

// observer counts an app's crashes (isolates replaced after a crash, or
// failing to boot) within its respawn window; at max_crashes it stops the
// app until a manual restart revives it.
func (a *apps) observer(name string) func(pool.Event) {
	return func(ev pool.Event) {
		crash := (ev.To == lifecycle.Stopped && ev.Reason == lifecycle.ReasonCrash) ||
			(ev.To == lifecycle.Failed && ev.Reason == lifecycle.ReasonBootFailure)
		if crash {
			a.crashed(a.byName[name], ev.Err)
		}
	}
}

func (a *apps) crashed(s *appSite, why string) {
	now := time.Now()
	s.mu.Lock()
	window := ms(s.entry.Respawn.WindowMS)
	s.crashes = slices.DeleteFunc(append(s.crashes, now), func(t time.Time) bool { return now.Sub(t) > window })
	n := len(s.crashes)
	if s.gaveUp || s.entry.Respawn.MaxCrashes <= 0 || n < s.entry.Respawn.MaxCrashes {
		s.mu.Unlock()
		return
	}
	s.gaveUp = true
	s.lastErr = fmt.Sprintf("%d crashes within %s (last: %s)", n, window, why)
	s.setState(AppFailed)
	s.mu.Unlock()
	a.in.log.Error("app crashed too often; it is stopped until `bext workers restart --app "+s.name+"`", "app", s.name, "crashes", n, "window", window, "last", why)
	go s.stop() // not on the pool goroutine that reported the crash
}

// revive clears a failed app's record and starts it again now.
func (a *apps) revive(s *appSite) {
	s.mu.Lock()
	s.gaveUp, s.failures, s.crashes, s.retryAt = false, 0, nil, time.Time{}
	if s.state == AppFailed {
		s.setState(AppCold)
	}
	s.mu.Unlock()
	go func() {
		if g, err := a.ensure(context.Background(), s); err == nil {
			g.release()
		}
	}()
}

// AppStats is one app as /__bext/apps shows it.
type AppStats struct {
	Name         string     `json:"name"`
	State        string     `json:"state"`
	Hosts        []string   `json:"hosts"`
	PathPrefix   string     `json:"path_prefix"`
	LastUsedAt   *time.Time `json:"last_used_at"`
	Workers      int        `json:"workers"`      // ACTIVE workers
	WorkerSlots  int        `json:"worker_slots"` // jsc_workers of the app
	MemoryBytes  int64      `json:"memory_bytes"` // attributed heap of its workers
	InFlight     int64      `json:"in_flight"`    // renders running now
	ColdStarts   int64      `json:"cold_starts"`  // starts since bext started
	Evictions    int64      `json:"evictions"`    // idle or LRU evictions
	Crashes      int        `json:"crashes_in_window"`
	GaveUp       bool       `json:"gave_up"` // stopped after max_crashes until revived
	LastError    string     `json:"last_error"`
	RetryAt      *time.Time `json:"retry_at,omitempty"`
	IdleTimeoutS float64    `json:"idle_timeout_seconds"`
}

func (a *apps) stats() []AppStats {
	out := make([]AppStats, 0, len(a.sites))
	for _, s := range a.sites {
		s.mu.Lock()
		st := AppStats{Name: s.name, State: s.state.String(), Hosts: s.entry.Hosts, PathPrefix: s.entry.PathPrefix,
			WorkerSlots: s.entry.Render.JSCWorkers, ColdStarts: s.coldStarts, Evictions: s.evictions, Crashes: len(s.crashes),
			GaveUp: s.gaveUp, LastError: s.lastErr, IdleTimeoutS: ms(s.entry.IdleTimeoutMS).Seconds()}
		if st.Hosts == nil {
			st.Hosts = []string{}
		}
		if !s.lastUsed.IsZero() {
			t := s.lastUsed
			st.LastUsedAt = &t
		}
		if s.state == AppFailed && !s.gaveUp {
			t := s.retryAt
			st.RetryAt = &t
		}
		s.mu.Unlock()
		if g := s.current(); g != nil {
			st.Workers, st.InFlight = g.pool.ActiveWorkers(), g.pool.InFlight()
			for _, w := range g.pool.Snapshot() {
				st.MemoryBytes += w.CurrentMemoryBytes
			}
		}
		out = append(out, st)
	}
	return out
}

// adminHandler is the admin API of many apps: /__bext/apps, /metrics of
// all, and each app's worker routes under ?app=NAME.
func (a *apps) adminHandler(cfg *config.Config) http.Handler {
	ro := RenderOptions(cfg, a.in.o.Dev, a.in.log)
	r := chi.NewRouter()
	r.Get("/healthz", func(w http.ResponseWriter, _ *http.Request) { w.Write([]byte("ok\n")) })
	r.Get("/readyz", func(w http.ResponseWriter, _ *http.Request) {
		if a.shuttingDown.Load() {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte("not ready\n"))
			return
		}
		w.Write([]byte("ready\n"))
	})
	r.Group(func(r chi.Router) {
		r.Use(render.Guard(ro, true))
		r.Get("/__bext/apps", func(w http.ResponseWriter, _ *http.Request) { render.WriteJSON(w, http.StatusOK, a.stats()) })
		r.Method(http.MethodGet, "/metrics", promhttp.HandlerFor(a.registry, promhttp.HandlerOpts{}))
		r.HandleFunc("/__bext/*", a.appAdmin)
	})
	return r
}

// appAdmin sends /__bext/workers… to the app ?app= names (or the only
// app). A restart of an app that is not running starts it, reviving it
// when it gave up.
func (a *apps) appAdmin(w http.ResponseWriter, r *http.Request) {
	name := r.URL.Query().Get("app")
	if name == "" && len(a.sites) == 1 {
		name = a.sites[0].name
	}
	s, ok := a.byName[name]
	if !ok {
		names := make([]string, len(a.sites))
		for k, x := range a.sites {
			names[k] = x.name
		}
		render.WriteError(w, http.StatusNotFound, fmt.Sprintf("name the app with ?app=NAME; the apps are %s", strings.Join(names, ", ")))
		return
	}
	restart := r.Method == http.MethodPost && r.URL.Path == "/__bext/workers/restart"
	s.mu.Lock()
	failed := s.gaveUp || s.state == AppFailed
	s.mu.Unlock()
	if restart && failed {
		a.revive(s)
		render.WriteJSON(w, http.StatusAccepted, map[string]any{"scheduled": []int{}, "app": s.name, "revived": true})
		return
	}
	g := s.acquire()
	if g == nil {
		switch {
		case restart:
			a.revive(s) // a cold or evicted app: start it
			render.WriteJSON(w, http.StatusAccepted, map[string]any{"scheduled": []int{}, "app": s.name, "started": true})
		case r.URL.Path == "/__bext/workers":
			render.WriteJSON(w, http.StatusOK, []pool.WorkerStats{})
		case r.Method == http.MethodPost && r.URL.Path == "/__bext/cache/purge":
			render.WriteJSON(w, http.StatusOK, map[string]any{"purged": 0}) // its cache went with it
		default:
			render.WriteError(w, http.StatusNotFound, "app "+s.name+" is "+s.stateName()+": it has no workers now")
		}
		return
	}
	defer g.release()
	g.admin.ServeHTTP(w, r)
}

func (s *appSite) stateName() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.state.String()
}

var (
	descAppState      = prometheus.NewDesc("bext_app_state", "1 for the app's current state, 0 for the others.", []string{"app", "state"}, nil)
	descAppColdStarts = prometheus.NewDesc("bext_app_cold_starts_total", "Times the app was started on demand (or preloaded).", []string{"app"}, nil)
	descAppEvictions  = prometheus.NewDesc("bext_app_evictions_total", "Times the app was evicted (idle, or to make room under max_apps_running).", []string{"app"}, nil)
	descAppCrashes    = prometheus.NewDesc("bext_app_crashes_in_window", "Crashes of the app's workers within its respawn window.", []string{"app"}, nil)
)

// Describe implements prometheus.Collector.
func (a *apps) Describe(ch chan<- *prometheus.Desc) {
	ch <- descAppState
	ch <- descAppColdStarts
	ch <- descAppEvictions
	ch <- descAppCrashes
}

// Collect implements prometheus.Collector.
func (a *apps) Collect(ch chan<- prometheus.Metric) {
	for _, st := range a.stats() {
		for _, name := range appStates {
			v := 0.0
			if name == st.State {
				v = 1
			}
			ch <- prometheus.MustNewConstMetric(descAppState, prometheus.GaugeValue, v, st.Name, name)
		}
		ch <- prometheus.MustNewConstMetric(descAppColdStarts, prometheus.CounterValue, float64(st.ColdStarts), st.Name)
		ch <- prometheus.MustNewConstMetric(descAppEvictions, prometheus.CounterValue, float64(st.Evictions), st.Name)
		ch <- prometheus.MustNewConstMetric(descAppCrashes, prometheus.GaugeValue, float64(st.Crashes), st.Name)
	}
}

// Apps returns every app of [[apps]] as /__bext/apps shows it (nil for a
// single [app]).
func (in *Instance) Apps() []AppStats {
	if in.apps == nil {
		return nil
	}
	return in.apps.stats()
}

// AppPool is the pool of app name while it runs, else nil.
func (in *Instance) AppPool(name string) *pool.Pool {
	if in.apps == nil {
		return nil
	}
	s, ok := in.apps.byName[name]
	if !ok {
		return nil
	}
	if g := s.current(); g != nil {
		return g.pool
	}
	return nil
}

// WaitApp blocks until ok holds for app name's stats, re-checking at every
// change of its state, or until ctx ends.
func (in *Instance) WaitApp(ctx context.Context, name string, ok func(AppStats) bool) error {
	s, found := in.apps.byName[name]
	if !found {
		return fmt.Errorf("no app %q", name)
	}
	for {
		s.mu.Lock()
		ch := s.changed
		s.mu.Unlock()
		for _, st := range in.apps.stats() {
			if st.Name == name && ok(st) {
				return nil
			}
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// EvictApp evicts app name now, as idling would (benchmarks and tests).
func (in *Instance) EvictApp(name string) {
	if s, ok := in.apps.byName[name]; ok {
		in.apps.evict(s, "requested")
	}
}
