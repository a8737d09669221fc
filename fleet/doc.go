// Package fleet joins bext instances that run behind one load balancer
// through one Redis (6 or later, github.com/redis/go-redis/v9): a registry
// of live instances kept by heartbeats, commands sent to one instance and
// acknowledged (a fleet-wide rolling restart is one restart after
// another), and the page cache's shared level. It knows the pool's worker
// stats and the cache's SecondLevel interface, nothing of the engine or
// of HTTP.
//
// # Registry
//
// An Agent writes its instance's entry (name, addresses, version, start
// time, apps with their bundle hash and workers) under
// bext:fleet:instance:<name> with a TTL, at start and at every heartbeat,
// and adds the name to the sorted set bext:fleet:instances (score: the
// heartbeat's time). Redis's expiry is the reaper: an instance that dies
// disappears when its TTL runs out; List drops names whose entry is gone
// from the index, and every heartbeat drops names silent for ten minutes.
// Stop deletes the entry (if it is still this process's) and the name. A
// List computes how long ago each entry was written from its remaining TTL
// (Redis's clock, so clocks that disagree do not matter) and marks an
// instance late after two missed heartbeats.
//
// # Commands
//
// Send pushes a Command onto bext:fleet:cmd:<name> (expiring with the
// command) and publishes on bext:fleet:wake:<name>; the agent also finds
// waiting commands at each heartbeat, so a wake-up lost in an outage only
// delays it. The agent claims a command with SET NX on
// bext:fleet:ack:<id> before acting — a command is acted on once, however
// often it is delivered — and writes the final Ack there (readable for an
// hour). Commands run one at a time on a goroutine of their own, so
// heartbeats go on during a long restart. Roll restarts every live
// instance in name order, waiting for each acknowledgement before the
// next, and stops at the first failure, timeout or instance that
// disappears.
//
// Only a client that can write to Redis can send a command; nothing of
// this is reachable through an instance's HTTP listeners, and the admin
// API's access rules are unchanged.
//
// # Shared page cache
//
// Shared and its per-app Level keep pages in Redis (cache.SecondLevel):
// entries under bext:cache:<app>:e:<hash of the cache key>, expiring at
// the end of their stale windows, with sets by path and tag for purges. A
// purge deletes in Redis, then is broadcast on bext:cache:purge so every
// other instance purges its memory (cache.PurgeLocal). A key every
// instance misses is rendered once (cache.SharedFlight): the first takes
// bext:cache:<app>:l:<hash> (SET NX PX, LockTTL), the others wait for its
// release broadcast, poll the lock, and after LockTTL render themselves —
// an instance that dies holding a lock never blocks the others for long.
//
// # Faults
//
// Every call is bounded (Options.Timeout; cache lookups by their own
// budget). A failure to reach Redis is logged once, as is the recovery;
// bext_fleet_connected says which. While Redis is down the cache level
// does not ask it (a miss at once), heartbeats are retried every second,
// and the first that succeeds registers the instance again. go-redis
// resubscribes by itself; when it does, broadcasts may have been missed,
// so the agent looks for commands and the cache's memory is emptied.
package fleet
