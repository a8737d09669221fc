package fleet

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/url"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/redis/go-redis/v9/maintnotifications"
)

// Options say how to reach the fleet's Redis.
type Options struct {
	// URL is redis://[user:password@]host:port[/db] or rediss:// (TLS).
	URL string
	// Timeout bounds every call (dial, write, read) unless the caller's
	// context is shorter.
	Timeout time.Duration
	Log     *slog.Logger
	// Dial, if set, replaces the TCP dial (tests: miniredis's in-memory
	// pipe, which keeps a synctest bubble's goroutines durably blocked).
	Dial func(ctx context.Context, network, addr string) (net.Conn, error)
}

// Client is the connection to the fleet's Redis that an instance's agent,
// its cache level and the CLI share. It tracks whether Redis answers: the
// first failure after a success is logged once, and so is the recovery;
// while Redis is down, Up is false and the cache level does not even ask.
type Client struct {
	rdb     *redis.Client
	timeout time.Duration
	log     *slog.Logger
	where   string // host:port, for the log (never the password)

	down   chan struct{} // signalled when Redis stops answering: the agent probes it sooner
	up     atomic.Bool
	state  atomic.Int32  // stateUnknown, stateUp, stateDown: what was logged last
	errors atomic.Uint64 // calls that did not reach Redis
}

const (
	stateUnknown int32 = iota
	stateUp
	stateDown
)

var setLogger sync.Once

// Open makes a Client; it does not touch the network (an unreachable
// Redis is an outage to live with, not a start-up error).
func Open(o Options) (*Client, error) {
	ro, err := redis.ParseURL(o.URL)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err // without the URL, which may hold a password
		}
		return nil, fmt.Errorf("fleet: redis_url: %w", err)
	}
	if o.Timeout <= 0 {
		o.Timeout = 500 * time.Millisecond
	}
	if o.Log == nil {
		o.Log = slog.Default()
	}
	// RESP2 and no CLIENT SETINFO: what Redis 6 speaks, and no push
	// notifications to route.
	ro.Protocol = 2
	ro.DisableIdentity = true
	ro.MaintNotificationsConfig = &maintnotifications.Config{Mode: maintnotifications.ModeDisabled}
	ro.DialTimeout, ro.ReadTimeout, ro.WriteTimeout, ro.PoolTimeout = o.Timeout, o.Timeout, o.Timeout, o.Timeout
	ro.ContextTimeoutEnabled = true
	// One quick retry (a pooled connection that Redis closed since), no
	// backoff, one dial per attempt: the caller's bound holds, and the next
	// heartbeat is the real retry.
	ro.MaxRetries, ro.MinRetryBackoff, ro.MaxRetryBackoff = 1, -1, -1
	ro.DialerRetries = 1
	if o.Dial != nil {
		ro.Dialer = o.Dial
	}
	setLogger.Do(func() { redis.SetLogger(debugLogger{}) })
	return &Client{rdb: redis.NewClient(ro), timeout: o.Timeout, log: o.Log, where: ro.Addr, down: make(chan struct{}, 1)}, nil
}

// Close closes the connections.
func (c *Client) Close() error { return c.rdb.Close() }

// Up reports whether the last call reached Redis.
func (c *Client) Up() bool { return c.up.Load() }

// Redis is the underlying client.
func (c *Client) Redis() *redis.Client { return c.rdb }

// ctx bounds one call by the client's timeout.
func (c *Client) ctx(parent context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(parent, c.timeout)
}

// note records the outcome of a call: a failure to reach Redis (not a
// missing key, not the caller giving up) marks it down, any answer up. The
// first of each after a change is logged.
func (c *Client) note(err error) {
	switch {
	case err == nil || errors.Is(err, redis.Nil) || errors.Is(err, context.Canceled):
		if err == nil || errors.Is(err, redis.Nil) {
			c.set(stateUp, nil)
		}
	case isRedisReply(err):
		// Redis answered (an error reply): it is up.
		c.set(stateUp, nil)
	default:
		c.errors.Add(1)
		c.set(stateDown, err)
	}
}

func (c *Client) set(s int32, err error) {
	c.up.Store(s == stateUp)
	prev := c.state.Swap(s)
	if prev == s {
		return
	}
	switch {
	case s == stateDown:
		select {
		case c.down <- struct{}{}:
		default:
		}
		c.log.Warn("fleet: Redis unreachable; serving stand-alone until it answers (logged once)", "redis", c.where, "err", err)
	case prev == stateDown:
		c.log.Info("fleet: Redis reachable again", "redis", c.where)
	default:
		c.log.Info("fleet: connected to Redis", "redis", c.where)
	}
}

// isRedisReply reports an error Redis itself sent (WRONGTYPE, NOSCRIPT…).
func isRedisReply(err error) bool {
	var re redis.Error
	return errors.As(err, &re) && !errors.Is(err, context.DeadlineExceeded) && !isNetError(err)
}

func isNetError(err error) bool {
	var ne net.Error
	return errors.As(err, &ne)
}

// debugLogger sends go-redis's own messages (reconnects, failed dials) to
// slog at debug level: the Client logs outages once, in its own words.
type debugLogger struct{}

func (debugLogger) Printf(ctx context.Context, format string, v ...any) {
	slog.Default().DebugContext(ctx, "redis: "+fmt.Sprintf(format, v...))
}
