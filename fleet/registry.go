package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"bext/pool"
)

// The keys of the registry and the commands. One fleet per Redis database:
// give fleets that share a server their own database (/1, /2 … in the URL).
const (
	indexKey       = "bext:fleet:instances" // sorted set: name → unix ms of its last heartbeat
	instancePrefix = "bext:fleet:instance:" // + name: the Instance as JSON, expiring after its TTL
	cmdPrefix      = "bext:fleet:cmd:"      // + name: list of Commands waiting for it
	wakePrefix     = "bext:fleet:wake:"     // + name: channel that tells it a command is waiting
	ackPrefix      = "bext:fleet:ack:"      // + command id: the Ack
)

func instanceKey(name string) string { return instancePrefix + name }
func cmdKey(name string) string      { return cmdPrefix + name }
func wakeChannel(name string) string { return wakePrefix + name }
func ackKey(id string) string        { return ackPrefix + id }

// indexKeep: names whose last heartbeat is older than this leave the index
// at the next heartbeat of any instance (their entries expired long ago).
// It is generous so that clocks that disagree never drop a live one; List
// drops names whose entry is gone at once.
const indexKeep = 10 * time.Minute

// Instance is one bext in the registry, as `bext ps --fleet` shows it.
type Instance struct {
	Name string `json:"name"`
	// ID is random per process: two processes that claim one name are
	// told apart (and warned about).
	ID          string    `json:"id"`
	Addr        string    `json:"addr"`                 // the public listener
	AdminAddr   string    `json:"admin_addr,omitempty"` // "" when admin shares the public listener
	Version     string    `json:"version"`
	PID         int       `json:"pid"`
	StartedAt   time.Time `json:"started_at"`
	HeartbeatAt time.Time `json:"heartbeat_at"` // by the instance's clock
	IntervalMS  int64     `json:"heartbeat_interval_ms"`
	TTLMS       int64     `json:"ttl_ms"`
	Apps        []App     `json:"apps"`

	// Set by List from Redis's clock, not stored: how long ago the last
	// heartbeat arrived, and whether that is more than twice the interval.
	HeartbeatAgeMS int64 `json:"heartbeat_age_ms"`
	Late           bool  `json:"late"`
}

// App is one app of an instance with its workers: the single [app] (Name
// "") or one of [[apps]].
type App struct {
	Name    string             `json:"name,omitempty"`
	State   string             `json:"state"`            // running, cold, booting, draining, evicted, failed
	Bundle  string             `json:"bundle,omitempty"` // hash of the server bundle it runs
	Workers []pool.WorkerStats `json:"workers"`
}

// heartbeat writes the instance's entry with its TTL and keeps the index;
// it returns the number of instances in the index and whether commands
// wait for this one.
func (c *Client) heartbeat(ctx context.Context, in *Instance, ttl time.Duration) (instances int64, pending bool, err error) {
	b, err := json.Marshal(in)
	if err != nil {
		return 0, false, err
	}
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	now := in.HeartbeatAt.UnixMilli()
	var card *redis.IntCmd
	var waiting *redis.IntCmd
	_, err = c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, instanceKey(in.Name), b, ttl)
		p.ZAdd(ctx, indexKey, redis.Z{Score: float64(now), Member: in.Name})
		p.ZRemRangeByScore(ctx, indexKey, "-inf", "("+strconv.FormatInt(now-indexKeep.Milliseconds(), 10))
		card = p.ZCard(ctx, indexKey)
		waiting = p.LLen(ctx, cmdKey(in.Name))
		return nil
	})
	c.note(err)
	if err != nil {
		return 0, false, err
	}
	return card.Val(), waiting.Val() > 0, nil
}

// owner returns the ID of the process that holds name's entry now ("" when
// none).
func (c *Client) owner(ctx context.Context, name string) (string, error) {
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	b, err := c.rdb.Get(ctx, instanceKey(name)).Bytes()
	c.note(err)
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	var in Instance
	if err := json.Unmarshal(b, &in); err != nil {
		return "", nil // not ours to read: overwritten at the heartbeat
	}
	return in.ID, nil
}

// deregister removes the entry of process id under name (not one that
// another process with the same name wrote since).
func (c *Client) deregister(ctx context.Context, name, id string) error {
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	err := deregisterScript.Run(ctx, c.rdb, []string{instanceKey(name), indexKey}, name, `"id":`+strconv.Quote(id)).Err()
	c.note(err)
	if errors.Is(err, redis.Nil) {
		return nil
	}
	return err
}

// deregisterScript deletes the entry when it holds the caller's id, and
// the name from the index.
var deregisterScript = redis.NewScript(`
local v = redis.call('GET', KEYS[1])
if v and string.find(v, ARGV[2], 1, true) then
  redis.call('DEL', KEYS[1])
  redis.call('ZREM', KEYS[2], ARGV[1])
end
return 1`)

// List returns every live instance, sorted by name. Names in the index
// whose entry expired are dropped from it (Redis's expiry is the reaper;
// this keeps the index in step).
func (c *Client) List(ctx context.Context) ([]Instance, error) {
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	names, err := c.rdb.ZRange(ctx, indexKey, 0, -1).Result()
	c.note(err)
	if err != nil {
		return nil, err
	}
	gets := make([]*redis.StringCmd, len(names))
	ttls := make([]*redis.DurationCmd, len(names))
	_, err = c.rdb.Pipelined(ctx, func(p redis.Pipeliner) error {
		for i, n := range names {
			gets[i] = p.Get(ctx, instanceKey(n))
			ttls[i] = p.PTTL(ctx, instanceKey(n))
		}
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		c.note(err)
		return nil, err
	}
	var out []Instance
	var gone []any
	for i, n := range names {
		b, err := gets[i].Bytes()
		var in Instance
		if err != nil || json.Unmarshal(b, &in) != nil {
			gone = append(gone, n)
			continue
		}
		if left := ttls[i].Val(); left > 0 && in.TTLMS > 0 {
			in.HeartbeatAgeMS = max(in.TTLMS-left.Milliseconds(), 0)
			in.Late = in.HeartbeatAgeMS > 2*in.IntervalMS
		}
		out = append(out, in)
	}
	if len(gone) > 0 {
		c.rdb.ZRem(ctx, indexKey, gone...)
	}
	slices.SortFunc(out, func(a, b Instance) int {
		if a.Name < b.Name {
			return -1
		}
		if a.Name > b.Name {
			return 1
		}
		return 0
	})
	return out, nil
}
