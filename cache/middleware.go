package cache

import (
	"context"
	"net/http"
	"time"
)

// Middleware serves what it can from the cache and stores what next
// answers when the answer may be stored. Mount it in front of the SSR
// handler, inside the access log and outside nothing that changes the body
// (gzip goes outside it: the cache encodes its own entries and sets
// Content-Encoding, which chi's Compress leaves alone).
func (c *Cache) Middleware(next http.Handler) http.Handler {
	return &handler{c: c, next: next}
}

type handler struct {
	c    *Cache
	next http.Handler
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c := h.c
	if r.Method != http.MethodGet && r.Method != http.MethodHead ||
		len(r.Header["Range"]) > 0 || len(r.Header["Upgrade"]) > 0 {
		// Not a page fetch: untouched, not even buffered.
		c.m.count(resBypass)
		w.Header()["Cache-Status"] = statusBypass
		h.next.ServeHTTP(w, r)
		return
	}
	rl := c.matchRule(r.URL.Path)
	if len(r.Header["Authorization"]) > 0 || len(r.Header["Cookie"]) > 0 && (rl == nil || len(rl.Cookies) == 0) {
		c.m.count(resBypass)
		h.forward(w, r, statusBypass[0])
		return
	}
	base := c.baseKey(r, rl)
	key := base
	e := c.get(base)
	if e != nil && e.record {
		key = c.variantKey(base, e.vary, r)
		if e = c.get(key); e != nil && e.record {
			e = nil
		}
	}
	if e != nil {
		now := time.Now()
		age := now.Sub(e.storedAt)
		switch {
		case age < e.fresh:
			c.m.count(resHit)
			st, ageV := e.hitValues(e.fresh-age, age)
			c.serveAge(w, r, e, st, true, age, ageV)
			return
		case age < e.fresh+e.swr:
			c.m.count(resStale)
			h.revalidate(r, rl, base, e)
			c.serve(w, r, e, staleValue(e.fresh-age), true, age)
			return
		case age >= e.fresh+e.sie:
			e = nil
		}
	}
	h.fill(w, r, rl, base, key, e)
}

// fill renders a missing (or expired) key once for all the requests that
// miss it together. stale, when not nil, is an expired entry still within
// stale-if-error: it answers if the render fails.
func (h *handler) fill(w http.ResponseWriter, r *http.Request, rl *rule, base, key string, stale *entry) {
	c := h.c
	if _, pass := c.pass.GetIfPresent(key); pass && stale == nil {
		c.m.count(resMiss)
		h.forward(w, r, statusMiss)
		return
	}
	for attempt := 0; ; attempt++ {
		f, leader, leave := c.flights.join(key, r.Context())
		if leader {
			defer leave()
			h.lead(w, r, rl, base, stale, f)
			return
		}
		res, ok := f.wait(r.Context())
		leave()
		if !ok {
			c.m.count(resMiss) // the client went away while waiting
			return
		}
		if e := res.e; e != nil {
			if own := c.variantKey(base, e.vary, r); own == e.key {
				c.m.count(resCollapsed)
				c.serve(w, r, e, []string{statusCollapsed}, true, -1)
				return
			} else if attempt == 0 {
				// The response varies on a header this request differs
				// in: look for its own variant.
				key, stale = own, nil
				if e := c.get(key); e != nil && !e.record && time.Since(e.storedAt) < e.fresh {
					c.m.count(resHit)
					c.serve(w, r, e, hitValue(e.fresh-time.Since(e.storedAt)), true, time.Since(e.storedAt))
					return
				}
				continue
			}
		}
		if res.failed && stale != nil && time.Since(stale.storedAt) < stale.fresh+stale.sie {
			c.m.count(resErrorStale)
			age := time.Since(stale.storedAt)
			c.serve(w, r, stale, errorStaleValue(stale.fresh-age), true, age)
			return
		}
		// Not shareable: this request renders for itself.
		c.m.count(resMiss)
		h.forward(w, r, statusMiss)
		return
	}
}

// lead renders for a flight and answers its own client.
func (h *handler) lead(w http.ResponseWriter, r *http.Request, rl *rule, base string, stale *entry, f *flight) {
	c := h.c
	epoch := c.epoch.Load()
	finished := false
	defer func() {
		if !finished { // next panicked: the waiters render for themselves
			c.flights.finish(f, flightResult{failed: true})
		}
	}()
	// unlock, when set, releases the key's lock in a shared second level:
	// once the response is written there, or at once if it is not stored.
	var unlock func()
	defer func() {
		if unlock != nil {
			unlock()
		}
	}()
	if c.second != nil && stale == nil {
		var e *entry
		if e, unlock = c.secondLookup(f.ctx, f.key, base, r); e != nil {
			c.put(base, e, epoch)
			c.flights.finish(f, flightResult{e: e})
			finished = true
			c.m.count(resHit)
			age := time.Since(e.storedAt)
			c.serve(w, r, e, []string{hitValue(e.fresh - age)[0] + "; detail=second-level"}, true, age)
			return
		}
	}
	rec := newFillRecorder(w, c.maxEntry)
	defer rec.release()
	rec.hold = stale != nil
	rec.head = r.Method == http.MethodHead
	rec.cacheStatus = statusMiss
	h.next.ServeHTTP(rec, fillRequest(r, f.ctx))

	status := rec.statusCode()
	var e *entry
	pass := !rec.complete() // too large: it will be again
	// A stream cut short (every client gone) may have ended "normally"
	// with half a page: only a complete, uncancelled one is kept.
	if rec.complete() && !(rec.streamed && f.ctx.Err() != nil) {
		p := c.decide(status, rec.responseHeader(), rl)
		if p.malformed {
			c.warnOnce("malformed "+r.URL.Path, "cache: the app sent a malformed caching header; the page is not cached", "path", r.URL.Path, "reason", p.reason)
		}
		if p.ok {
			e = c.newEntry(c.variantKey(base, p.vary, r), r.URL.Path, status, rec.responseHeader(), rec.take(), p, time.Now())
		}
		pass = !p.ok
	}
	stored := e != nil && c.put(base, e, epoch)
	if stored {
		c.secondSet(base, e, unlock)
		unlock = nil
	}
	failed := errorStatus(status)
	c.flights.finish(f, flightResult{e: e, failed: failed})
	finished = true
	if pass && !failed {
		c.pass.Set(f.key, struct{}{})
	}

	switch {
	case rec.committed:
		c.m.count(resMiss) // streamed as it came
	case failed && stale != nil && time.Since(stale.storedAt) < stale.fresh+stale.sie:
		c.m.count(resErrorStale)
		age := time.Since(stale.storedAt)
		c.serve(w, r, stale, errorStaleValue(stale.fresh-age), true, age)
	case e != nil:
		c.m.count(resMiss)
		st := []string{statusMiss}
		if stored {
			st = []string{statusMissStored}
		}
		// Identity here: compressing the leader's answer would put gzip on
		// the miss path; render's gzip middleware does it as without cache.
		c.serve(w, r, e, st, false, -1)
	default:
		c.m.count(resMiss)
		writeBuffered(w, r, rec, statusMiss, true)
	}
}

// forwardBuffer bounds what a response that will not be stored is held
// for its ETag; a larger one is written through as it comes.
const forwardBuffer = 1 << 20

// forward calls next for this request alone: buffered so a 200 gets an
// ETag and If-None-Match a 304, written through once next flushes.
func (h *handler) forward(w http.ResponseWriter, r *http.Request, cacheStatus string) {
	rec := newRecorder(w, forwardBuffer)
	defer rec.release()
	rec.head = r.Method == http.MethodHead
	rec.cacheStatus = cacheStatus
	h.next.ServeHTTP(rec, r)
	if !rec.committed {
		writeBuffered(w, r, rec, cacheStatus, r.Method == http.MethodGet)
	}
}

// fillRequest is the request a fill sends to next: the flight's context,
// GET for HEAD (the entry needs the body) and no conditional headers (it
// needs the full response).
func fillRequest(r *http.Request, ctx context.Context) *http.Request {
	r2 := r.WithContext(ctx)
	if r.Method == http.MethodHead {
		r2.Method = http.MethodGet
	}
	stripConditional(r2)
	return r2
}

var conditional = []string{"If-None-Match", "If-Modified-Since", "If-Match", "If-Unmodified-Since", "If-Range", "Range"}

func stripConditional(r *http.Request) {
	for _, k := range conditional {
		if _, ok := r.Header[k]; ok {
			r.Header = r.Header.Clone()
			for _, k := range conditional {
				delete(r.Header, k)
			}
			return
		}
	}
}

// revalidate refreshes a stale entry in the background, once at a time.
func (h *handler) revalidate(r *http.Request, rl *rule, base string, old *entry) {
	c := h.c
	if !old.revalidating.CompareAndSwap(false, true) {
		return
	}
	// A copy with none of the request's context values: the request ends
	// before the refresh does.
	r2 := r.Clone(context.Background())
	r2.Method = http.MethodGet
	r2.Body = http.NoBody
	r2.ContentLength = 0
	stripConditional(r2)
	epoch := c.epoch.Load()
	ok := c.goBackground(func() {
		defer old.revalidating.Store(false)
		ctx, cancel := context.WithTimeout(c.bgCtx, c.revalidateTimeout)
		defer cancel()
		rec := newFillRecorder(nil, c.maxEntry)
		defer rec.release()
		start := time.Now()
		panicked := h.serveRecovered(rec, r2.WithContext(ctx))
		c.m.revalDuration.Observe(time.Since(start).Seconds())
		c.m.revalidations.Add(1)
		status := rec.statusCode()
		if panicked || !rec.complete() || ctx.Err() != nil || errorStatus(status) {
			c.m.revalFailed.Add(1)
			c.log.Debug("cache: background revalidation failed; the stale entry stays", "path", r2.URL.Path, "status", status, "panicked", panicked)
			return
		}
		p := c.decide(status, rec.responseHeader(), rl)
		if !p.ok {
			// The app no longer lets it be cached: drop the stale copy.
			c.remove(old.key, old)
			return
		}
		e := c.newEntry(c.variantKey(base, p.vary, r2), r2.URL.Path, status, rec.responseHeader(), rec.take(), p, time.Now())
		if c.put(base, e, epoch) {
			c.secondSet(base, e, nil)
		}
	})
	if !ok {
		old.revalidating.Store(false)
	}
}

// serveRecovered calls next, turning a panic into a failed revalidation
// (there is no client to send a 500 to).
func (h *handler) serveRecovered(w http.ResponseWriter, r *http.Request) (panicked bool) {
	defer func() {
		if v := recover(); v != nil {
			panicked = true
			if v != http.ErrAbortHandler {
				h.c.log.Error("cache: background revalidation panicked", "path", r.URL.Path, "panic", v)
			}
		}
	}()
	h.next.ServeHTTP(w, r)
	return false
}
