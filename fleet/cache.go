package fleet

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/redis/go-redis/v9"

	"bext/cache"
)

// The page cache in Redis. Per app ("" for the single [app]), under
// "bext:cache:<app>:":
//
//	e:<hash>  an entry (its cache key hashed), expiring with its last stale window
//	p:<path>  set of the hashes stored for a path (purge by path and prefix)
//	t:<tag>   set of the hashes carrying a Cache-Tag
//	l:<hash>  the fill lock of a key (single flight across instances)
//
// Purges are broadcast on purgeChannel, released locks on unlockChannel.
const (
	cachePrefix   = "bext:cache:"
	purgeChannel  = "bext:cache:purge"
	unlockChannel = "bext:cache:unlock"
)

// CacheOptions tune the shared page cache.
type CacheOptions struct {
	// Timeout bounds each lookup: a slower answer is a miss.
	Timeout time.Duration
	// LockTTL is how long a key's fill lock lasts: an instance that dies
	// holding it blocks the others at most this long. It should cover a
	// render (render_timeout_ms).
	LockTTL time.Duration
	// LockPoll is how often a waiting instance checks that the lock is
	// still held (0 = 100 ms): it notices a lock that expired.
	LockPoll time.Duration
}

// Shared is an instance's part of the fleet's page cache: one Level per
// app, the broadcast of purges to the other instances, and the fill locks.
type Shared struct {
	a *Agent
	c *Client
	o CacheOptions

	mu      sync.Mutex
	purgers map[string]func(cache.Selector) // app → purge of its memory cache here
	waiters map[string]map[chan struct{}]struct{}

	m cacheMetrics
}

type cacheMetrics struct {
	hits, misses, errors, skipped atomic.Uint64
	sets, setErrors               atomic.Uint64
	purgesSent, purgesHeard       atomic.Uint64
	lockHeld, lockBusy            atomic.Uint64
}

// NewShared makes the shared cache of the instance a runs for; it must be
// called before a runs (it subscribes to the broadcasts).
func NewShared(a *Agent, o CacheOptions) *Shared {
	if o.Timeout <= 0 {
		o.Timeout = 50 * time.Millisecond
	}
	if o.LockTTL <= 0 {
		o.LockTTL = 6 * time.Second
	}
	if o.LockPoll <= 0 {
		o.LockPoll = 100 * time.Millisecond
	}
	s := &Shared{a: a, c: a.c, o: o, purgers: map[string]func(cache.Selector){}, waiters: map[string]map[chan struct{}]struct{}{}}
	a.Handle(purgeChannel, s.heardPurge)
	a.Handle(unlockChannel, s.heardUnlock)
	a.OnResync(s.resync)
	return s
}

// Level returns the cache.SecondLevel (and cache.SharedFlight) of app ("" =
// the single [app]); purge is how another instance's purge reaches this
// instance's memory cache of the app (cache.PurgeLocal). A later call for
// the same app replaces purge (a new generation's cache).
func (s *Shared) Level(app string, purge func(cache.Selector)) *Level {
	s.mu.Lock()
	s.purgers[app] = purge
	s.mu.Unlock()
	return &Level{s: s, app: app, prefix: cachePrefix + app + ":"}
}

// purgeMsg is what purgeChannel carries.
type purgeMsg struct {
	Origin string         `json:"origin"` // the agent id of the instance that purged
	App    string         `json:"app,omitempty"`
	Sel    cache.Selector `json:"sel"`
}

func (s *Shared) heardPurge(payload string) {
	var m purgeMsg
	if json.Unmarshal([]byte(payload), &m) != nil || m.Origin == s.a.id {
		return
	}
	s.mu.Lock()
	f := s.purgers[m.App]
	s.mu.Unlock()
	if f != nil {
		s.m.purgesHeard.Add(1)
		f(m.Sel)
	}
}

// resync: purges broadcast while the subscription was lost never arrived;
// memory starts again from Redis.
func (s *Shared) resync() {
	s.mu.Lock()
	var fs []func(cache.Selector)
	for _, f := range s.purgers {
		fs = append(fs, f)
	}
	s.mu.Unlock()
	for _, f := range fs {
		f(cache.Selector{All: true})
	}
}

func (s *Shared) heardUnlock(lock string) {
	s.mu.Lock()
	for ch := range s.waiters[lock] {
		close(ch)
	}
	delete(s.waiters, lock)
	s.mu.Unlock()
}

// Level is one app's page cache in Redis: a cache.SecondLevel with
// cache.SharedFlight. While Redis is down it answers at once (a miss, a
// lock held) without asking.
type Level struct {
	s      *Shared
	app    string
	prefix string
}

var (
	_ cache.SecondLevel  = (*Level)(nil)
	_ cache.SharedFlight = (*Level)(nil)
)

func hashKey(key string) string {
	h := sha256.Sum256([]byte(key))
	return hex.EncodeToString(h[:16])
}

func (l *Level) entryKey(h string) string  { return l.prefix + "e:" + h }
func (l *Level) pathKey(p string) string   { return l.prefix + "p:" + p }
func (l *Level) tagKey(t string) string    { return l.prefix + "t:" + t }
func (l *Level) lockKey(key string) string { return l.prefix + "l:" + hashKey(key) }
func (l *Level) ctx(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, l.s.o.Timeout)
}

// stored is an entry as Redis holds it: 4 bytes of meta length, the meta
// (the key and the Stored without its body) as JSON, then the body.
type stored struct {
	Key string `json:"key"`
	*cache.Stored
}

func encode(key string, st *cache.Stored) []byte {
	meta := *st
	meta.Body = nil
	m, _ := json.Marshal(stored{Key: key, Stored: &meta})
	b := make([]byte, 4, 4+len(m)+len(st.Body))
	binary.BigEndian.PutUint32(b, uint32(len(m)))
	return append(append(b, m...), st.Body...)
}

func decode(key string, b []byte) *cache.Stored {
	if len(b) < 4 {
		return nil
	}
	n := int(binary.BigEndian.Uint32(b))
	if n > len(b)-4 {
		return nil
	}
	st := stored{Stored: &cache.Stored{}}
	if json.Unmarshal(b[4:4+n], &st) != nil || st.Key != key {
		return nil // not ours, or another key with the same hash
	}
	if body := b[4+n:]; len(body) > 0 {
		st.Body = body
	}
	return st.Stored
}

// Get implements cache.SecondLevel.
func (l *Level) Get(ctx context.Context, key string) (*cache.Stored, error) {
	if !l.s.c.Up() {
		l.s.m.skipped.Add(1)
		return nil, nil
	}
	ctx, cancel := l.ctx(ctx)
	defer cancel()
	b, err := l.s.c.rdb.Get(ctx, l.entryKey(hashKey(key))).Bytes()
	l.s.c.note(err)
	switch {
	case errors.Is(err, redis.Nil):
		l.s.m.misses.Add(1)
		return nil, nil
	case err != nil:
		l.s.m.errors.Add(1)
		return nil, nil // counted and logged by the client: a miss
	}
	st := decode(key, b)
	if st == nil {
		l.s.m.misses.Add(1)
		return nil, nil
	}
	l.s.m.hits.Add(1)
	return st, nil
}

// getOrLockScript answers an entry, or takes the fill lock of its key when
// there is none: {1, entry}, {2} (lock taken) or {3} (lock busy).
var getOrLockScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v then return {1, v} end
if redis.call('SET', KEYS[2], ARGV[1], 'NX', 'PX', ARGV[2]) then return {2} end
return {3}`)

// GetOrLock implements cache.SharedFlight: Get and, on a miss, Lock in one
// round trip.
func (l *Level) GetOrLock(ctx context.Context, key string) (*cache.Stored, func(), bool, error) {
	if !l.s.c.Up() {
		l.s.m.skipped.Add(1)
		return nil, func() {}, true, nil
	}
	lock, token := l.lockKey(key), newID()
	ctx, cancel := l.ctx(ctx)
	defer cancel()
	res, err := getOrLockScript.Run(ctx, l.s.c.rdb, []string{l.entryKey(hashKey(key)), lock}, token, l.s.o.LockTTL.Milliseconds()).Slice()
	l.s.c.note(err)
	if err != nil || len(res) == 0 {
		l.s.m.errors.Add(1)
		return nil, func() {}, true, nil // render, as without a shared level
	}
	switch n, _ := res[0].(int64); n {
	case 1:
		if b, ok := res[1].(string); ok {
			if st := decode(key, []byte(b)); st != nil {
				l.s.m.hits.Add(1)
				return st, nil, false, nil
			}
		}
		// Not ours (another key with the same hash): a miss, and no lock.
		l.s.m.misses.Add(1)
		return nil, func() {}, true, nil
	case 2:
		l.s.m.misses.Add(1)
		l.s.m.lockHeld.Add(1)
		return nil, l.unlocker(lock, token), true, nil
	}
	l.s.m.misses.Add(1)
	l.s.m.lockBusy.Add(1)
	return nil, nil, false, nil
}

// setScript stores an entry and adds it to its path and tag sets, which
// live as long as their longest entry.
var setScript = redis.NewScript(`
local ttl = tonumber(ARGV[2])
redis.call('SET', KEYS[1], ARGV[1], 'PX', ttl)
for i = 2, #KEYS do
  redis.call('SADD', KEYS[i], ARGV[3])
  local left = redis.call('PTTL', KEYS[i])
  if left < ttl then redis.call('PEXPIRE', KEYS[i], ttl) end
end
return 1`)

// Set implements cache.SecondLevel.
func (l *Level) Set(ctx context.Context, key string, st *cache.Stored, ttl time.Duration) error {
	if !l.s.c.Up() {
		return nil
	}
	h := hashKey(key)
	keys := []string{l.entryKey(h), l.pathKey(st.Path)}
	for _, t := range st.Tags {
		keys = append(keys, l.tagKey(t))
	}
	// In the background, after the response: the client's bound, not the
	// lookup budget the memory cache gives it.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), l.s.c.timeout)
	defer cancel()
	err := setScript.Run(ctx, l.s.c.rdb, keys, encode(key, st), max(ttl.Milliseconds(), 1), h).Err()
	l.s.c.note(err)
	if err != nil {
		l.s.m.setErrors.Add(1)
		return err
	}
	l.s.m.sets.Add(1)
	return nil
}

// purgeScript deletes the entries of the given index sets and the sets.
var purgeScript = redis.NewScript(`
local n = 0
for i = 1, #KEYS do
  for _, h in ipairs(redis.call('SMEMBERS', KEYS[i])) do
    n = n + redis.call('UNLINK', ARGV[1] .. h)
  end
  redis.call('UNLINK', KEYS[i])
end
return n`)

// purgeBudget bounds a purge in Redis (a prefix or everything is a scan).
const purgeBudget = 10 * time.Second

// Purge implements cache.SecondLevel: it deletes the selected entries in
// Redis, then tells the other instances, which purge their memory.
func (l *Level) Purge(ctx context.Context, sel cache.Selector) error {
	// The memory cache bounds its calls by the lookup budget; a purge is
	// an admin's request and may scan: it gets its own bound.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), purgeBudget)
	defer cancel()
	err := l.purge(ctx, sel)
	l.s.c.note(err)
	msg, _ := json.Marshal(purgeMsg{Origin: l.s.a.id, App: l.app, Sel: sel})
	perr := l.s.c.rdb.Publish(ctx, purgeChannel, msg).Err()
	l.s.c.note(perr)
	if perr == nil {
		l.s.m.purgesSent.Add(1)
	}
	return errors.Join(err, perr)
}

func (l *Level) purge(ctx context.Context, sel cache.Selector) error {
	rdb := l.s.c.rdb
	if sel.All {
		return l.scan(ctx, escapeGlob(l.prefix)+"*", func(keys []string) error { return rdb.Unlink(ctx, keys...).Err() })
	}
	var sets []string
	if sel.Path != "" {
		sets = append(sets, l.pathKey(sel.Path))
	}
	if sel.Tag != "" {
		sets = append(sets, l.tagKey(sel.Tag))
	}
	if sel.Prefix != "" {
		err := l.scan(ctx, escapeGlob(l.pathKey(sel.Prefix))+"*", func(keys []string) error {
			sets = append(sets, keys...)
			return nil
		})
		if err != nil {
			return err
		}
	}
	for len(sets) > 0 {
		n := min(len(sets), 500)
		if err := purgeScript.Run(ctx, rdb, sets[:n], l.prefix+"e:").Err(); err != nil {
			return err
		}
		sets = sets[n:]
	}
	return nil
}

// scan calls f with every batch of keys matching pattern.
func (l *Level) scan(ctx context.Context, pattern string, f func([]string) error) error {
	var cursor uint64
	for {
		keys, next, err := l.s.c.rdb.Scan(ctx, cursor, pattern, 1000).Result()
		if err != nil {
			return err
		}
		if len(keys) > 0 {
			if err := f(keys); err != nil {
				return err
			}
		}
		if cursor = next; cursor == 0 {
			return nil
		}
	}
}

// escapeGlob makes s match itself in a SCAN pattern.
func escapeGlob(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// unlockScript releases a lock that is still the caller's and tells the
// waiting instances.
var unlockScript = redis.NewScript(`
if redis.call('GET', KEYS[1]) == ARGV[1] then redis.call('DEL', KEYS[1]) end
redis.call('PUBLISH', ARGV[2], KEYS[1])
return 1`)

// Lock implements cache.SharedFlight: SET NX PX with a token.
func (l *Level) Lock(ctx context.Context, key string) (unlock func(), held bool) {
	noop := func() {}
	if !l.s.c.Up() {
		return noop, true
	}
	lock, token := l.lockKey(key), newID()
	cctx, cancel := l.ctx(ctx)
	ok, err := l.s.c.rdb.SetNX(cctx, lock, token, l.s.o.LockTTL).Result()
	cancel()
	l.s.c.note(err)
	switch {
	case err != nil:
		return noop, true // render, as without a shared level
	case !ok:
		l.s.m.lockBusy.Add(1)
		return nil, false
	}
	l.s.m.lockHeld.Add(1)
	return l.unlocker(lock, token), true
}

// unlocker releases lock if it still holds token, in the background (the
// response is already on its way).
func (l *Level) unlocker(lock, token string) func() {
	return func() {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), l.s.c.timeout)
			defer cancel()
			l.s.c.note(unlockScript.Run(ctx, l.s.c.rdb, []string{lock}, token, unlockChannel).Err())
		}()
	}
}

// Wait implements cache.SharedFlight: it returns true when the lock is
// released (the holder's broadcast) or gone (a poll: released, or expired
// with its holder dead), false when ctx ends or Redis stops answering; it
// never waits much longer than LockTTL.
func (l *Level) Wait(ctx context.Context, key string) bool {
	lock := l.lockKey(key)
	ch := make(chan struct{})
	s := l.s
	s.mu.Lock()
	if s.waiters[lock] == nil {
		s.waiters[lock] = map[chan struct{}]struct{}{}
	}
	s.waiters[lock][ch] = struct{}{}
	s.mu.Unlock()
	defer func() {
		s.mu.Lock()
		if w := s.waiters[lock]; w != nil {
			delete(w, ch)
			if len(w) == 0 {
				delete(s.waiters, lock)
			}
		}
		s.mu.Unlock()
	}()
	bound := time.NewTimer(s.o.LockTTL + s.o.LockPoll) // a poll sees the lock expire first
	defer bound.Stop()
	poll := time.NewTicker(s.o.LockPoll)
	defer poll.Stop()
	for {
		select {
		case <-ch:
			return true
		case <-ctx.Done():
			return false
		case <-bound.C:
			return false
		case <-poll.C:
			cctx, cancel := l.ctx(ctx)
			n, err := s.c.rdb.Exists(cctx, lock).Result()
			cancel()
			s.c.note(err)
			if err != nil {
				return false
			}
			if n == 0 {
				return true
			}
		}
	}
}

var (
	descCacheGets    = prometheus.NewDesc("bext_fleet_cache_gets_total", "Lookups in the fleet's shared page cache by result (skipped: Redis was down).", []string{"result"}, nil)
	descCacheSets    = prometheus.NewDesc("bext_fleet_cache_sets_total", "Pages written to the fleet's shared page cache.", []string{"result"}, nil)
	descCachePurges  = prometheus.NewDesc("bext_fleet_cache_purges_total", "Purges broadcast to the fleet (sent) and received from other instances (heard).", []string{"direction"}, nil)
	descCacheLocks   = prometheus.NewDesc("bext_fleet_cache_locks_total", "Fill locks taken (held) or found taken by another instance (busy).", []string{"result"}, nil)
	cacheDescriptors = []*prometheus.Desc{descCacheGets, descCacheSets, descCachePurges, descCacheLocks}
)

// Describe implements prometheus.Collector.
func (s *Shared) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range cacheDescriptors {
		ch <- d
	}
}

// Collect implements prometheus.Collector.
func (s *Shared) Collect(ch chan<- prometheus.Metric) {
	c := func(d *prometheus.Desc, v *atomic.Uint64, label string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, float64(v.Load()), label)
	}
	c(descCacheGets, &s.m.hits, "hit")
	c(descCacheGets, &s.m.misses, "miss")
	c(descCacheGets, &s.m.errors, "error")
	c(descCacheGets, &s.m.skipped, "skipped")
	c(descCacheSets, &s.m.sets, "ok")
	c(descCacheSets, &s.m.setErrors, "error")
	c(descCachePurges, &s.m.purgesSent, "sent")
	c(descCachePurges, &s.m.purgesHeard, "heard")
	c(descCacheLocks, &s.m.lockHeld, "held")
	c(descCacheLocks, &s.m.lockBusy, "busy")
}
