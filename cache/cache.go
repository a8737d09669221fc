package cache

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/maypok86/otter/v2"
	"github.com/prometheus/client_golang/prometheus"
)

// Options configure a Cache.
type Options struct {
	// MaxBytes bounds the memory of the stored entries, counted by their
	// real size (bodies, gzip bodies, headers, keys). Required.
	MaxBytes int64
	// MaxVary: a response whose Vary names more request headers than this
	// is not stored (0: no response with a Vary is stored).
	MaxVary int
	// Rules cache matching paths the app sends no freshness for.
	Rules []Rule
	Log   *slog.Logger
	// Second is an optional shared level behind memory (nil = none).
	Second SecondLevel

	// MaxEntryBytes: a larger response is not stored (0 = MaxBytes/16).
	MaxEntryBytes int64
	// RevalidateTimeout bounds a background revalidation (0 = 30 s).
	RevalidateTimeout time.Duration
	// SecondTimeout bounds each call of Second (0 = 250 ms).
	SecondTimeout time.Duration
}

// Cache is the page cache. Mount Middleware in front of the handler whose
// responses it stores; Purge and PurgeAll invalidate; it is a
// prometheus.Collector. Close it when the server stops.
type Cache struct {
	store *otter.Cache[string, *entry]
	// pass remembers for passTTL the keys whose last response could not be
	// shared, so concurrent requests for them render side by side instead
	// of queueing behind a single flight (Varnish's hit-for-miss).
	pass     *otter.Cache[string, struct{}]
	rules    []*rule
	maxVary  int
	maxBytes int64
	maxEntry int
	log      *slog.Logger
	second   SecondLevel

	revalidateTimeout time.Duration
	secondTimeout     time.Duration

	flights flights

	// mu guards the purge indexes. It is never held while calling the
	// store: the store's deletion listener takes it.
	mu      sync.Mutex
	byPath  map[string]map[string]*entry // path → key → entry
	byTag   map[string]map[string]*entry
	entries int // responses indexed (vary records aside)
	// epoch changes with every purge; a render that began before a purge
	// is not stored after it (it may hold what was purged).
	epoch atomic.Uint64

	bgCtx    context.Context
	bgCancel context.CancelFunc
	bg       sync.WaitGroup
	bgMu     sync.Mutex // orders goBackground with Close
	closed   atomic.Bool

	warned  sync.Map
	nwarned atomic.Int64

	m metrics
}

// New makes a Cache. It fails on a bad rule pattern or a MaxBytes that is
// not positive (a cache of 0 bytes is not mounted at all).
func New(o Options) (*Cache, error) {
	if o.MaxBytes <= 0 {
		return nil, errors.New("cache: MaxBytes must be positive (max_bytes = 0 turns the cache off: do not mount it)")
	}
	if o.MaxVary < 0 {
		return nil, errors.New("cache: MaxVary must not be negative")
	}
	rules, err := compileRules(o.Rules)
	if err != nil {
		return nil, err
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	c := &Cache{
		rules: rules, maxVary: o.MaxVary, maxBytes: o.MaxBytes, log: o.Log, second: o.Second,
		revalidateTimeout: o.RevalidateTimeout, secondTimeout: o.SecondTimeout,
		byPath: map[string]map[string]*entry{}, byTag: map[string]map[string]*entry{},
	}
	c.flights.m = map[string]*flight{}
	c.maxEntry = int(min(o.MaxEntryBytes, 1<<31-1))
	if c.maxEntry <= 0 {
		c.maxEntry = int(min(o.MaxBytes/16, 1<<31-1))
	}
	if c.revalidateTimeout <= 0 {
		c.revalidateTimeout = 30 * time.Second
	}
	if c.secondTimeout <= 0 {
		c.secondTimeout = 250 * time.Millisecond
	}
	c.bgCtx, c.bgCancel = context.WithCancel(context.Background())
	c.m.init()
	c.store, err = otter.New(&otter.Options[string, *entry]{
		MaximumWeight: uint64(o.MaxBytes),
		Weigher:       func(_ string, e *entry) uint32 { return e.weight() },
		ExpiryCalculator: otter.ExpiryWritingFunc(func(en otter.Entry[string, *entry]) time.Duration {
			return max(time.Until(en.Value.expires), time.Nanosecond)
		}),
		OnAtomicDeletion: c.onDeletion,
		Logger:           otterLogger{c.log},
	})
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	c.pass, err = otter.New(&otter.Options[string, struct{}]{
		MaximumSize:      passEntries,
		ExpiryCalculator: otter.ExpiryWriting[string, struct{}](passTTL),
		Logger:           otterLogger{c.log},
	})
	if err != nil {
		return nil, fmt.Errorf("cache: %w", err)
	}
	return c, nil
}

const (
	passTTL     = 30 * time.Second
	passEntries = 16384
)

// Close stops background revalidations and the store's goroutines. The
// middleware keeps working after it, without revalidating in the
// background.
func (c *Cache) Close() {
	c.bgMu.Lock()
	done := c.closed.Swap(true)
	c.bgMu.Unlock()
	if done {
		return
	}
	c.bgCancel()
	c.bg.Wait()
	c.store.StopAllGoroutines()
	c.pass.StopAllGoroutines()
}

// goBackground runs fn on a goroutine Close waits for; false after Close.
func (c *Cache) goBackground(fn func()) bool {
	c.bgMu.Lock()
	defer c.bgMu.Unlock()
	if c.closed.Load() {
		return false
	}
	c.bg.Add(1)
	go func() {
		defer c.bg.Done()
		fn()
	}()
	return true
}

// onDeletion keeps the purge indexes in step with the store: evictions,
// expirations and invalidations. Replacements are handled by set, which
// knows the new entry.
func (c *Cache) onDeletion(ev otter.DeletionEvent[string, *entry]) {
	switch ev.Cause {
	case otter.CauseReplacement:
		return
	case otter.CauseOverflow:
		if !ev.Value.record {
			c.m.evictions.Add(1)
		}
	case otter.CauseExpiration:
		if !ev.Value.record {
			c.m.expirations.Add(1)
		}
	}
	c.mu.Lock()
	c.unindex(ev.Key, ev.Value)
	c.mu.Unlock()
}

func (c *Cache) index(key string, e *entry) {
	add := func(m map[string]map[string]*entry, k string) {
		s := m[k]
		if s == nil {
			s = map[string]*entry{}
			m[k] = s
		}
		s[key] = e
	}
	if old := c.byPath[e.path][key]; old != nil && !old.record {
		c.entries--
	}
	if !e.record {
		c.entries++
	}
	add(c.byPath, e.path)
	for _, t := range e.tags {
		add(c.byTag, t)
	}
}

func (c *Cache) unindex(key string, e *entry) {
	del := func(m map[string]map[string]*entry, k string) bool {
		if s := m[k]; s[key] == e {
			delete(s, key)
			if len(s) == 0 {
				delete(m, k)
			}
			return true
		}
		return false
	}
	if del(c.byPath, e.path) && !e.record {
		c.entries--
	}
	for _, t := range e.tags {
		del(c.byTag, t)
	}
}

// put stores a response (and the vary record of its base key) unless a
// purge happened since epoch, the render's start.
func (c *Cache) put(base string, e *entry, epoch uint64) bool {
	if len(e.body) > c.maxEntry || c.closed.Load() {
		return false
	}
	var rec *entry
	if len(e.vary) > 0 {
		rec = newRecord(base, e.path, e.vary, e.expires)
	}
	c.mu.Lock()
	if c.epoch.Load() != epoch {
		c.mu.Unlock()
		return false
	}
	if rec != nil {
		c.index(base, rec)
	}
	c.index(e.key, e)
	c.mu.Unlock()
	if rec != nil {
		c.set(base, rec)
	}
	c.set(e.key, e)
	if c.epoch.Load() != epoch {
		// A purge ran between the check and the store: undo.
		c.remove(e.key, e)
		return false
	}
	c.m.stores.Add(1)
	return true
}

// set writes e under key and unindexes what it replaced.
func (c *Cache) set(key string, e *entry) {
	var old *entry
	c.store.Compute(key, func(o *entry, found bool) (*entry, otter.ComputeOp) {
		if found {
			old = o
		}
		return e, otter.WriteOp
	})
	if old != nil && old != e {
		c.mu.Lock()
		c.unindex(key, old)
		c.mu.Unlock()
	}
}

// remove deletes key if it still holds e.
func (c *Cache) remove(key string, e *entry) bool {
	removed := false
	c.store.ComputeIfPresent(key, func(o *entry) (*entry, otter.ComputeOp) {
		if o == e {
			removed = true
			return nil, otter.InvalidateOp
		}
		return o, otter.CancelOp
	})
	return removed
}

// reweigh makes the store weigh e again (its gzip variant was added).
func (c *Cache) reweigh(e *entry) {
	c.store.ComputeIfPresent(e.key, func(o *entry) (*entry, otter.ComputeOp) {
		if o == e {
			return e, otter.WriteOp
		}
		return o, otter.CancelOp
	})
}

// get returns the live entry of key.
func (c *Cache) get(key string) *entry {
	e, _ := c.store.GetIfPresent(key)
	return e
}

// Selector picks entries to purge. Path matches a request path exactly
// (any host, any query), Prefix every path that starts with it, Tag the
// entries whose Cache-Tag named it, All everything. Several fields select
// the union; an empty Selector selects nothing.
type Selector struct {
	Path   string `json:"path,omitempty"`
	Prefix string `json:"prefix,omitempty"`
	Tag    string `json:"tag,omitempty"`
	All    bool   `json:"all,omitempty"`
}

// Purge removes the selected entries and returns how many responses went.
// Renders in flight when it is called are not stored. The second level,
// if any, is purged too (errors are logged).
func (c *Cache) Purge(s Selector) int { return c.purge(s, true) }

// PurgeLocal is Purge of the memory level alone: for a purge that another
// server sharing the second level made there and broadcast.
func (c *Cache) PurgeLocal(s Selector) int { return c.purge(s, false) }

func (c *Cache) purge(s Selector, second bool) int {
	if s.All {
		return c.purgeAll(second)
	}
	type target struct {
		key string
		e   *entry
	}
	var ts []target
	c.mu.Lock()
	c.epoch.Add(1)
	collect := func(set map[string]*entry) {
		for k, e := range set {
			ts = append(ts, target{k, e})
		}
	}
	if s.Path != "" {
		collect(c.byPath[s.Path])
	}
	if s.Prefix != "" {
		for p, set := range c.byPath {
			if strings.HasPrefix(p, s.Prefix) && p != s.Path {
				collect(set)
			}
		}
	}
	if s.Tag != "" {
		collect(c.byTag[s.Tag])
	}
	c.mu.Unlock()
	n := 0
	for _, t := range ts {
		if c.remove(t.key, t.e) && !t.e.record {
			n++
		}
	}
	c.pass.InvalidateAll()
	c.m.purged.Add(uint64(n))
	if second {
		c.purgeSecond(s)
	}
	return n
}

// PurgeAll empties the cache (a deploy) and returns how many responses
// went.
func (c *Cache) PurgeAll() int { return c.purgeAll(true) }

func (c *Cache) purgeAll(second bool) int {
	c.mu.Lock()
	c.epoch.Add(1)
	n := c.entries
	c.byPath = map[string]map[string]*entry{}
	c.byTag = map[string]map[string]*entry{}
	c.entries = 0
	c.mu.Unlock()
	c.store.InvalidateAll()
	c.pass.InvalidateAll()
	c.m.purged.Add(uint64(n))
	if second {
		c.purgeSecond(Selector{All: true})
	}
	return n
}

// warnOnce logs msg once per key, for at most 1,000 keys.
func (c *Cache) warnOnce(key, msg string, args ...any) {
	if c.nwarned.Load() >= 1000 {
		return
	}
	if _, seen := c.warned.LoadOrStore(key, true); !seen {
		c.nwarned.Add(1)
		c.log.Warn(msg, args...)
	}
}

type otterLogger struct{ l *slog.Logger }

func (o otterLogger) Warn(ctx context.Context, msg string, err error) {
	o.l.WarnContext(ctx, "cache store: "+msg, "err", err)
}

func (o otterLogger) Error(ctx context.Context, msg string, err error) {
	o.l.ErrorContext(ctx, "cache store: "+msg, "err", err)
}

var _ prometheus.Collector = (*Cache)(nil)
