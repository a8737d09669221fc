// Package cache is bext's page cache (issue 15): stale-while-revalidate
// rendering at the speed of a static file. It owns the cache key,
// freshness, stale-while-revalidate and stale-if-error, single flight of
// renders, byte-bounded storage (W-TinyLFU, otter), purges by path,
// prefix, tag or all, ETags and 304s, gzip of stored pages, statistics and
// Prometheus metrics, and the interface of an optional second level. It
// knows nothing of the pool or of render: it is an http.Handler middleware
// in front of whatever renders.
//
// # Opt-in
//
// A response is stored only when the app or the config asks:
//
//   - the app sends freshness in the targeted field: the first present of
//     CDN-Cache-Control (RFC 9213), Surrogate-Control and Cache-Control;
//     s-maxage, else max-age, plus stale-while-revalidate and
//     stale-if-error (parsed by github.com/pquerna/cachecontrol). A
//     malformed field is logged once per path and the page is not cached;
//   - or a Rule matches the path and the app's field gives no max-age or
//     s-maxage: the rule's durations apply (a "no-cache" is then ignored: it
//     is what render sends browsers for pages without caching headers).
//
// must-revalidate or proxy-revalidate turn the stale windows off.
//
// # Never cached
//
// Methods other than GET and HEAD; requests with Range or Upgrade (passed
// through untouched), Authorization, or a Cookie unless the matching rule
// names cookies (then only those key the page); responses with
// Set-Cookie, no-store, private, no-cache (unless by a rule), Vary: *, a
// Vary naming more than MaxVary headers, or a status other than 200, 203,
// 204, 206, 300, 301, 308, 404, 410; bodies over MaxEntryBytes; streams
// that did not complete (see below).
//
// # Key
//
// Scheme, lower-cased host, escaped path and raw query; the values of the
// matching rule's headers and cookies; and the values of the request
// headers the response's Vary names. Vary is known only from a response:
// the base key then holds a small record of the names, and the response
// sits under the base key plus their values. Accept-Encoding is not part
// of the key unless the app's Vary names it (the cache stores the identity
// body and encodes gzip itself); when it does, it keys by the sorted set of
// codings accepted, so its many spellings make a handful of variants.
//
// # Serving
//
//   - fresh: served from memory; next is not called.
//   - stale within stale-while-revalidate: served at once; one background
//     request (a clone with no context values, a fresh context and
//     Options.RevalidateTimeout) refreshes it. A refresh that fails
//     (5xx, panic, timeout, too large) keeps the stale entry; one the app no
//     longer lets be cached removes it.
//   - stale past that, within stale-if-error, or missing: rendered in the
//     foreground. Concurrent requests for a key share one render (single
//     flight); when the response may not be shared, or varies on a header
//     a waiter differs in, the waiter renders for itself. In the
//     stale-if-error window the render is buffered, and a 500, 502, 503 or
//     504 is replaced by the stale copy.
//   - The render of a flight runs with the first request's context values
//     but is cancelled only when every waiting client has gone.
//   - A key whose last complete response could not be stored (not opted
//     in, Set-Cookie, no-store, too large…) is remembered for 30 s (at most
//     16,384 keys; any purge forgets them): its requests then render side by
//     side instead of queueing behind one flight (Varnish's hit-for-miss).
//     Error answers are not remembered.
//
// Hits carry Age and a strong ETag (from a hash of the body, unless the
// app sent one); If-None-Match gives 304. Uncached 200s get an ETag too:
// the middleware buffers the response until next returns. A handler that
// flushes is streaming: from the first Flush it is written through, without
// ETag, and (when cacheable) stored once complete. A stream is complete
// when next returns without panicking (a failing stream must panic, with
// http.ErrAbortHandler as net/http does, or leave its context cancelled)
// and, had every client gone, was not cancelled. Waiters of a streamed
// render get it when it completes.
//
// gzip is made once per entry, at the first hit that accepts it (a miss
// pays no compression), and served with Content-Encoding: gzip and Vary:
// Accept-Encoding; the ETag of the gzip body ends in -gz. chi's Compress
// middleware leaves responses with Content-Encoding alone. HEAD is served
// from entries; a HEAD miss renders a GET so the entry has a body. Stored
// headers exclude hop-by-hop fields, Date (net/http sets it), Age,
// Content-Length, Set-Cookie and Cache-Status.
//
// # Cache-Status (RFC 9211)
//
// Every response that passes through carries exactly one of:
//
//	bext; hit; ttl=N                          fresh entry, N seconds of freshness left
//	bext; hit; ttl=N; detail=second-level     fresh entry found in the second level
//	bext; fwd=stale; ttl=-N                   stale entry served within stale-while-revalidate, refreshed in the background
//	bext; hit; ttl=-N; detail=stale-if-error  the render failed; stale entry within stale-if-error served instead
//	bext; fwd=miss; stored                    rendered for this request and stored
//	bext; fwd=miss                            rendered for this request, not stored (not cacheable, or streamed)
//	bext; fwd=miss; collapsed                 waited for another request's render of the same key and shared it
//	bext; fwd=bypass                          not eligible (method, Range, Upgrade, Authorization, Cookie)
//
// # Memory
//
// Entries are weighed by their real size (bodies, gzip body, headers, key)
// and evicted by W-TinyLFU within MaxBytes; an entry is dropped at the end
// of its stale windows. Purge indexes (path, tag) follow evictions.
//
// # Invalidation
//
// Purge(Selector) removes by exact path (any host, any query), path
// prefix, Cache-Tag (comma-separated response header, like surrogate
// keys) or all; PurgeAll for deploys. A render in flight when a purge
// runs is not stored. Both pass the purge on to the second level;
// PurgeLocal purges memory alone (a purge another server made in a shared
// second level and broadcast).
//
// # Second level
//
// Options.Second (SecondLevel) is asked on a miss, once per flight, before
// rendering; a fresh answer is served (Cache-Status detail=second-level)
// and kept in memory. Stored responses are written to it in the
// background. A level that implements SharedFlight (the fleet's Redis)
// also makes one server of those sharing it render a key they all miss:
// the others wait for it, then take its response from the level.
//
// # Metrics
//
// Cache is a prometheus.Collector: bext_cache_requests_total{result=hit|
// stale|miss|collapsed|bypass|error_stale}, bext_cache_bytes,
// bext_cache_max_bytes, bext_cache_entries, bext_cache_evictions_total,
// bext_cache_expirations_total, bext_cache_stores_total,
// bext_cache_purged_total, bext_cache_revalidations_total{result=ok|failed},
// bext_cache_revalidation_duration_seconds. Stats returns the same as JSON.
package cache
