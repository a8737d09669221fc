package cache

import (
	"context"
	"net/http"
	"time"
)

// SecondLevel is a shared cache behind memory (a Redis level, another
// issue). The memory level asks it on a miss, once per key however many
// requests miss together, before rendering; it writes every response it
// stores to it in the background; Purge and PurgeAll pass on to it.
//
// An implementation must:
//   - be safe for concurrent use and honour ctx (each call is bounded by
//     Options.SecondTimeout);
//   - treat keys as opaque strings (they hold NUL bytes and may be a few KB
//     long: hash them if the store needs short keys);
//   - return from Get what Set stored under the key, unchanged, or (nil, nil)
//     when it has nothing (an error is logged and counts as nothing);
//   - keep an item no longer than ttl;
//   - purge by Selector from the Path and Tags of what it stored (Path is
//     exact, Prefix a prefix of Path, Tag one of Tags, All everything).
//
// Entries with Vary come as two items: a record under the base key
// (Vary set, Status 0, no body) and the response under its full key.
type SecondLevel interface {
	Get(ctx context.Context, key string) (*Stored, error)
	Set(ctx context.Context, key string, s *Stored, ttl time.Duration) error
	Purge(ctx context.Context, s Selector) error
}

// SharedFlight is an optional interface of a SecondLevel that several
// servers share: single flight of a key across them, so that a page every
// server misses at once is rendered by one. The leader of a local flight
// looks the key up with GetOrLock, which on a miss also tries to take the
// key's fill lock (one round trip for both); on a miss it calls Lock
// otherwise (a vary record led elsewhere, the entry was stale):
//   - held: it renders, and calls unlock once the response is written to
//     the second level (or will not be). The lock must expire by itself,
//     so a server that dies holding it blocks nobody for long.
//   - not held: another server renders the key. Wait returns when that
//     server unlocks, or the lock is gone, or after a bound the
//     implementation picks; the leader then looks in the second level
//     again and, finding nothing, renders itself.
//
// All three must honour ctx; a level that cannot reach its store reports
// the lock held (the caller renders, as without a second level). GetOrLock
// takes no lock when it finds an item.
type SharedFlight interface {
	GetOrLock(ctx context.Context, key string) (s *Stored, unlock func(), held bool, err error)
	Lock(ctx context.Context, key string) (unlock func(), held bool)
	Wait(ctx context.Context, key string) (unlocked bool)
}

// Stored is an entry as the second level keeps it.
type Stored struct {
	Status   int         `json:"status"`
	Header   http.Header `json:"header,omitempty"` // without hop-by-hop fields, Date, Age, Content-Length and ETag
	Body     []byte      `json:"body,omitempty"`
	ETag     string      `json:"etag,omitempty"`
	StoredAt time.Time   `json:"stored_at"`
	// Fresh, StaleWhileRevalidate and StaleIfError count from StoredAt.
	Fresh                time.Duration `json:"fresh"`
	StaleWhileRevalidate time.Duration `json:"swr,omitempty"`
	StaleIfError         time.Duration `json:"sie,omitempty"`
	Path                 string        `json:"path"`
	Tags                 []string      `json:"tags,omitempty"`
	// Vary names the request headers that key the response; with Status 0
	// the item is a vary record.
	Vary []string `json:"vary,omitempty"`
}

func (e *entry) toStored() *Stored {
	s := &Stored{Status: e.status, Body: e.body, ETag: e.etag, StoredAt: e.storedAt,
		Fresh: e.fresh, StaleWhileRevalidate: e.swr, StaleIfError: e.sie, Path: e.path, Tags: e.tags, Vary: e.vary}
	if e.record {
		s.Status = 0
		return s
	}
	s.Header = make(http.Header, len(e.base))
	for _, x := range e.base {
		s.Header[x.k] = x.v
	}
	return s
}

func (c *Cache) fromStored(key string, s *Stored) *entry {
	if s.Status == 0 {
		return newRecord(key, s.Path, s.Vary, s.StoredAt.Add(s.Fresh+max(s.StaleWhileRevalidate, s.StaleIfError)))
	}
	h := s.Header.Clone()
	if h == nil {
		h = http.Header{}
	}
	if s.ETag != "" {
		h.Set("Etag", s.ETag)
	}
	p := policy{ok: true, fresh: s.Fresh, swr: s.StaleWhileRevalidate, sie: s.StaleIfError, vary: s.Vary, tags: s.Tags}
	return c.newEntry(key, s.Path, s.Status, h, s.Body, p, s.StoredAt)
}

// secondGet looks a key up in the second level; a vary record found under
// the base key leads to the variant's key. It returns a fresh response or
// nil.
func (c *Cache) secondGet(ctx context.Context, key, base string, r *http.Request, now time.Time) *entry {
	return c.secondGetFirst(ctx, key, base, r, now, c.secondGet1)
}

// secondGetFirst is secondGet looking key itself up with first.
func (c *Cache) secondGetFirst(ctx context.Context, key, base string, r *http.Request, now time.Time, first func(context.Context, string) *entry) *entry {
	e := first(ctx, key)
	if e != nil && e.record {
		if key != base {
			return nil
		}
		key = c.variantKey(base, e.vary, r)
		e = c.secondGet1(ctx, key)
	}
	if e == nil || e.record || now.Sub(e.storedAt) >= e.fresh {
		return nil
	}
	return e
}

// secondLookup is secondGet with the single flight of a SharedFlight
// level: on a miss it takes the key's lock (unlock is then non-nil: call it
// once the render's response is written to the level, or will not be), or
// waits for the server that holds it and looks again. A wait that ends
// with the lock released but no entry means the page could not be stored:
// the caller renders without a lock rather than queue again.
func (c *Cache) secondLookup(ctx context.Context, key, base string, r *http.Request) (e *entry, unlock func()) {
	sf, ok := c.second.(SharedFlight)
	if !ok {
		return c.secondGet(ctx, key, base, r, time.Now()), nil
	}
	var held, missed bool
	first := func(ctx context.Context, key string) *entry {
		ctx, cancel := context.WithTimeout(ctx, c.secondTimeout)
		defer cancel()
		s, un, h, err := sf.GetOrLock(ctx, key)
		if err != nil {
			c.warnOnce("second get", "cache: second level get failed (logged once)", "err", err)
		}
		unlock, held, missed = un, h, s == nil
		if s == nil {
			return nil
		}
		return c.fromStored(key, s)
	}
	if e := c.secondGetFirst(ctx, key, base, r, time.Now(), first); e != nil {
		return e, nil
	}
	if held {
		return nil, unlock
	}
	// busy: GetOrLock found the key missing and its lock taken.
	busy := missed
	for range 2 {
		if !busy {
			if unlock, held := sf.Lock(ctx, key); held {
				return nil, unlock
			}
		}
		busy = false
		unlocked := sf.Wait(ctx, key)
		if e := c.secondGet(ctx, key, base, r, time.Now()); e != nil {
			return e, nil
		}
		if unlocked || ctx.Err() != nil {
			break
		}
	}
	return nil, nil
}

func (c *Cache) secondGet1(ctx context.Context, key string) *entry {
	ctx, cancel := context.WithTimeout(ctx, c.secondTimeout)
	defer cancel()
	s, err := c.second.Get(ctx, key)
	if err != nil {
		c.warnOnce("second get", "cache: second level get failed (logged once)", "err", err)
		return nil
	}
	if s == nil {
		return nil
	}
	return c.fromStored(key, s)
}

// secondSet writes a stored entry (and its vary record) in the
// background, then calls after (when not nil), whether or not it wrote.
func (c *Cache) secondSet(base string, e *entry, after func()) {
	ttl := time.Until(e.expires)
	if after == nil {
		after = func() {}
	}
	if c.second == nil || ttl <= 0 {
		after()
		return
	}
	ok := c.goBackground(func() {
		defer after()
		ctx, cancel := context.WithTimeout(c.bgCtx, c.secondTimeout)
		defer cancel()
		if len(e.vary) > 0 {
			rec := &Stored{StoredAt: e.storedAt, Fresh: e.fresh, StaleWhileRevalidate: e.swr, StaleIfError: e.sie, Path: e.path, Vary: e.vary}
			if err := c.second.Set(ctx, base, rec, ttl); err != nil {
				c.warnOnce("second set", "cache: second level set failed (logged once)", "err", err)
				return
			}
		}
		if err := c.second.Set(ctx, e.key, e.toStored(), ttl); err != nil {
			c.warnOnce("second set", "cache: second level set failed (logged once)", "err", err)
		}
	})
	if !ok {
		after()
	}
}

func (c *Cache) purgeSecond(s Selector) {
	if c.second == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), c.secondTimeout)
	defer cancel()
	if err := c.second.Purge(ctx, s); err != nil {
		c.log.Error("cache: second level purge failed", "err", err)
	}
}
