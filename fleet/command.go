package fleet

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"
)

// CommandRestart is the one command an instance takes from Redis: a rolling
// restart of all its workers (surge-first, one at a time), answered once
// every worker runs a new isolate.
const CommandRestart = "restart"

// Command is a request to one instance, queued in its command list.
type Command struct {
	ID   string `json:"id"`
	Kind string `json:"kind"`
	// Expires: an instance that pops the command later (it was down when
	// it was sent) acknowledges it as expired instead of acting.
	Expires time.Time `json:"expires"`
	// TimeoutMS bounds the work (a restart waits for every worker).
	TimeoutMS int64 `json:"timeout_ms"`
}

// Ack states.
const (
	AckRunning = "running"
	AckDone    = "done"
	AckFailed  = "failed"
	AckExpired = "expired"
)

// Ack is an instance's answer to a command, readable under the command's
// id for ackTTL.
type Ack struct {
	ID       string    `json:"id"`
	Instance string    `json:"instance"`
	State    string    `json:"state"`
	Error    string    `json:"error,omitempty"`
	At       time.Time `json:"at"`
	TookMS   int64     `json:"took_ms,omitempty"`
}

// ackTTL: how long an acknowledgement stays readable, and how long a
// command id is remembered (a command is acted on once).
const ackTTL = time.Hour

func newID() string {
	b := make([]byte, 12)
	rand.Read(b)
	return hex.EncodeToString(b)
}

// Send queues a command for instance name and wakes it. The command is
// dropped by Redis after timeout if nobody takes it.
func (c *Client) Send(ctx context.Context, name, kind string, timeout time.Duration) (Command, error) {
	cmd := Command{ID: newID(), Kind: kind, Expires: time.Now().Add(timeout), TimeoutMS: timeout.Milliseconds()}
	b, _ := json.Marshal(cmd)
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	_, err := c.rdb.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.RPush(ctx, cmdKey(name), b)
		p.PExpire(ctx, cmdKey(name), timeout)
		p.Publish(ctx, wakeChannel(name), cmd.ID)
		return nil
	})
	c.note(err)
	return cmd, err
}

// AckOf reads the acknowledgement of command id: nil while nobody has
// taken it.
func (c *Client) AckOf(ctx context.Context, id string) (*Ack, error) {
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	b, err := c.rdb.Get(ctx, ackKey(id)).Bytes()
	c.note(err)
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var a Ack
	if err := json.Unmarshal(b, &a); err != nil {
		return nil, fmt.Errorf("fleet: acknowledgement of %s: %w", id, err)
	}
	return &a, nil
}

// pop takes the next command waiting for name (nil when none).
func (c *Client) pop(ctx context.Context, name string) (*Command, error) {
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	b, err := c.rdb.LPop(ctx, cmdKey(name)).Bytes()
	c.note(err)
	if errors.Is(err, redis.Nil) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	var cmd Command
	if err := json.Unmarshal(b, &cmd); err != nil || cmd.ID == "" {
		return &Command{Kind: "malformed"}, nil
	}
	return &cmd, nil
}

// claim records that this instance acts on the command: false when its id
// was claimed before (a command is acted on once, whoever pops it again).
func (c *Client) claim(ctx context.Context, a Ack) (bool, error) {
	b, _ := json.Marshal(a)
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	ok, err := c.rdb.SetNX(ctx, ackKey(a.ID), b, ackTTL).Result()
	c.note(err)
	return ok, err
}

// ack writes the final acknowledgement.
func (c *Client) ack(ctx context.Context, a Ack) error {
	b, _ := json.Marshal(a)
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	err := c.rdb.Set(ctx, ackKey(a.ID), b, ackTTL).Err()
	c.note(err)
	return err
}

// RollOptions tune a fleet-wide rolling restart.
type RollOptions struct {
	// Timeout bounds each instance's restart (0 = 5 minutes).
	Timeout time.Duration
	// Poll is how often an acknowledgement is read (0 = 100 ms).
	Poll time.Duration
	// Progress, if set, hears of each instance as it starts and ends.
	Progress func(name string, a *Ack)
}

// ErrInstanceGone: an instance left the registry before it acknowledged.
var ErrInstanceGone = errors.New("fleet: the instance left the registry before it answered")

// Roll restarts the workers of every live instance, one instance at a
// time: each does its own surge-first rolling restart and acknowledges,
// and only then does the next begin. It stops at the first instance that
// fails, times out or disappears (the rest keep their workers), and
// returns the acknowledgements received.
func (c *Client) Roll(ctx context.Context, o RollOptions) ([]Ack, error) {
	if o.Timeout <= 0 {
		o.Timeout = 5 * time.Minute
	}
	if o.Poll <= 0 {
		o.Poll = 100 * time.Millisecond
	}
	list, err := c.List(ctx)
	if err != nil {
		return nil, err
	}
	if len(list) == 0 {
		return nil, errors.New("fleet: no live instance in the registry")
	}
	var acks []Ack
	for _, in := range list {
		if o.Progress != nil {
			o.Progress(in.Name, nil)
		}
		a, err := c.restartOne(ctx, in.Name, o)
		if a != nil {
			acks = append(acks, *a)
			if o.Progress != nil {
				o.Progress(in.Name, a)
			}
		}
		if err != nil {
			return acks, fmt.Errorf("%s: %w", in.Name, err)
		}
	}
	return acks, nil
}

// restartOne sends a restart to name and waits for its final answer.
func (c *Client) restartOne(ctx context.Context, name string, o RollOptions) (*Ack, error) {
	cmd, err := c.Send(ctx, name, CommandRestart, o.Timeout)
	if err != nil {
		return nil, err
	}
	deadline := time.Now().Add(o.Timeout + o.Poll)
	t := time.NewTicker(o.Poll)
	defer t.Stop()
	for n := 0; ; n++ {
		a, err := c.AckOf(ctx, cmd.ID)
		switch {
		case err != nil:
			// Redis hiccup: keep asking until the deadline.
		case a != nil && a.State == AckDone:
			return a, nil
		case a != nil && a.State != AckRunning:
			return a, fmt.Errorf("%s: %s", a.State, a.Error)
		case n%10 == 9 && !c.alive(ctx, name):
			return nil, ErrInstanceGone
		}
		if time.Now().After(deadline) {
			return a, fmt.Errorf("no answer within %s", o.Timeout)
		}
		select {
		case <-ctx.Done():
			return a, ctx.Err()
		case <-t.C:
		}
	}
}

// alive reports whether name still has an entry (true when Redis cannot
// tell).
func (c *Client) alive(ctx context.Context, name string) bool {
	ctx, cancel := c.ctx(ctx)
	defer cancel()
	n, err := c.rdb.Exists(ctx, instanceKey(name)).Result()
	return err != nil || n > 0
}
