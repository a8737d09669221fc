package fleet

import (
	"context"
	"log/slog"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"
)

// AgentOptions describe the instance an Agent registers and what it can
// do for the fleet.
type AgentOptions struct {
	Name      string // unique in the fleet
	Addr      string // the public listener
	AdminAddr string
	Version   string
	Interval  time.Duration // between heartbeats
	TTL       time.Duration // of the entry: the instance disappears this long after its last heartbeat
	// Snapshot returns the instance's apps and their workers now (the
	// JSON shape of /__bext/workers and /__bext/apps).
	Snapshot func() []App
	// Restart restarts every worker of every running app on a rolling
	// basis (surge-first, one at a time) and returns once each runs a new
	// isolate, or ctx ends.
	Restart func(ctx context.Context) error
	Log     *slog.Logger
}

// Agent is an instance's member of the fleet: it registers the instance,
// refreshes the entry and its worker snapshot at every heartbeat, acts on
// the commands sent to it (each once), hears the fleet's broadcasts
// (Handle), and removes the entry when stopped. Redis being down never
// stops it: heartbeats are retried every second until Redis answers, and
// the first one that does registers the instance again.
type Agent struct {
	c       *Client
	o       AgentOptions
	id      string
	started time.Time
	log     *slog.Logger

	wake     chan struct{} // a command may be waiting
	handlers map[string]func(payload string)
	onResync []func()

	quit     chan struct{}
	stopOnce sync.Once
	done     chan struct{}
	running  atomic.Bool

	claimedName atomic.Bool // the name's entry was checked for another owner since the last outage
	m           agentMetrics
}

type agentMetrics struct {
	beatsOK, beatsFailed                           atomic.Uint64
	cmdDone, cmdFailed, cmdDup, cmdExpired, cmdBad atomic.Uint64
	instances                                      atomic.Int64
}

// downRetry is how often an agent whose Redis is down tries again.
const downRetry = time.Second

// NewAgent makes the agent of one instance; Run starts it.
func NewAgent(c *Client, o AgentOptions) *Agent {
	if o.Log == nil {
		o.Log = slog.Default()
	}
	return &Agent{c: c, o: o, id: newID(), started: time.Now(), log: o.Log, wake: make(chan struct{}, 1),
		handlers: map[string]func(string){}, quit: make(chan struct{}), done: make(chan struct{})}
}

// SetIdentity sets the instance's name and addresses, known once its
// listeners are bound; before Run.
func (a *Agent) SetIdentity(name, addr, adminAddr string) {
	a.o.Name, a.o.Addr, a.o.AdminAddr = name, addr, adminAddr
}

// Name is the instance's name in the fleet.
func (a *Agent) Name() string { return a.o.Name }

// Client is the agent's Redis client.
func (a *Agent) Client() *Client { return a.c }

// Handle calls f with the payload of every message published on channel
// (before Run; f runs on the agent's listening goroutine and must be
// quick).
func (a *Agent) Handle(channel string, f func(payload string)) { a.handlers[channel] = f }

// OnResync calls f whenever the agent's subscription is re-established
// after a loss (broadcasts sent meanwhile were missed). Before Run.
func (a *Agent) OnResync(f func()) { a.onResync = append(a.onResync, f) }

// Run registers the instance and keeps it registered until Stop, then
// removes its entry. It returns nil.
func (a *Agent) Run() error {
	a.running.Store(true)
	defer close(a.done)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var wg sync.WaitGroup
	wg.Go(func() { a.listen(ctx) })
	wg.Go(func() { a.commands(ctx) })
	t := time.NewTimer(0)
	defer t.Stop()
loop:
	for {
		select {
		case <-a.quit:
			break loop
		case <-t.C:
			next := a.o.Interval
			if !a.beat(ctx) {
				next = min(next, downRetry)
			}
			t.Reset(next)
		case <-a.c.down:
			// Another call found Redis down: probe it at the outage pace.
			t.Reset(min(a.o.Interval, downRetry))
		}
	}
	cancel()
	wg.Wait()
	if err := a.c.deregister(context.Background(), a.o.Name, a.id); err != nil {
		a.log.Warn("fleet: could not remove this instance from the registry; it expires by itself", "name", a.o.Name, "in", a.o.TTL, "err", err)
	}
	return nil
}

// Stop stops heartbeats and commands and removes the instance's entry
// (within the client's timeout); it returns once that is done. A command
// being executed is acknowledged as failed.
func (a *Agent) Stop() {
	a.stopOnce.Do(func() { close(a.quit) })
	if a.running.Load() {
		<-a.done
	}
}

// record is the entry a heartbeat writes.
func (a *Agent) record(now time.Time) *Instance {
	in := &Instance{Name: a.o.Name, ID: a.id, Addr: a.o.Addr, AdminAddr: a.o.AdminAddr, Version: a.o.Version, PID: os.Getpid(),
		StartedAt: a.started, HeartbeatAt: now, IntervalMS: a.o.Interval.Milliseconds(), TTLMS: a.o.TTL.Milliseconds()}
	if a.o.Snapshot != nil {
		in.Apps = a.o.Snapshot()
	}
	return in
}

// beat writes one heartbeat and reports whether Redis took it.
func (a *Agent) beat(ctx context.Context) bool {
	if !a.claimedName.Load() {
		// (Re-)registering: say so if another process holds the name.
		owner, err := a.c.owner(ctx, a.o.Name)
		if err != nil {
			a.m.beatsFailed.Add(1)
			return false
		}
		if owner != "" && owner != a.id {
			a.log.Warn("fleet: another process is registered under this instance's name; give each instance its own [fleet] name", "name", a.o.Name)
		}
		a.claimedName.Store(true)
	}
	n, pending, err := a.c.heartbeat(ctx, a.record(time.Now()), a.o.TTL)
	if err != nil {
		a.m.beatsFailed.Add(1)
		a.claimedName.Store(false)
		return false
	}
	a.m.beatsOK.Add(1)
	a.m.instances.Store(n)
	if pending {
		a.wakeUp()
	}
	return true
}

func (a *Agent) wakeUp() {
	select {
	case a.wake <- struct{}{}:
	default:
	}
}

// listen receives the instance's wake-ups and the broadcasts it handles.
// go-redis reconnects and resubscribes by itself; a resubscription means
// messages may have been missed, so the commands are looked at and the
// OnResync hooks run.
func (a *Agent) listen(ctx context.Context) {
	wake := wakeChannel(a.o.Name)
	channels := []string{wake}
	for ch := range a.handlers {
		channels = append(channels, ch)
	}
	ps := a.c.rdb.Subscribe(ctx, channels...)
	defer ps.Close()
	msgs := ps.ChannelWithSubscriptions(redis.WithChannelSize(1000), redis.WithChannelHealthCheckInterval(max(a.o.Interval, time.Second)))
	subscribed := false
	for {
		select {
		case <-ctx.Done():
			return
		case m, ok := <-msgs:
			if !ok {
				return
			}
			switch m := m.(type) {
			case *redis.Subscription:
				if m.Kind != "subscribe" || m.Channel != wake {
					continue
				}
				if subscribed {
					a.log.Info("fleet: subscription restored; checking for missed commands and purges")
					for _, f := range a.onResync {
						f()
					}
				}
				subscribed = true
				a.wakeUp()
			case *redis.Message:
				if m.Channel == wake {
					a.wakeUp()
				} else if h := a.handlers[m.Channel]; h != nil {
					h(m.Payload)
				}
			}
		}
	}
}

// commands acts on the commands waiting for this instance, one at a time,
// whenever woken.
func (a *Agent) commands(ctx context.Context) {
	for {
		select {
		case <-ctx.Done():
			return
		case <-a.wake:
		}
		for ctx.Err() == nil {
			cmd, err := a.c.pop(ctx, a.o.Name)
			if err != nil || cmd == nil {
				break
			}
			a.execute(ctx, cmd)
		}
	}
}

// execute acts on one command unless its id was claimed before.
func (a *Agent) execute(ctx context.Context, cmd *Command) {
	if cmd.ID == "" {
		a.m.cmdBad.Add(1)
		a.log.Warn("fleet: dropped a malformed command", "name", a.o.Name)
		return
	}
	start := time.Now()
	ack := Ack{ID: cmd.ID, Instance: a.o.Name, State: AckRunning, At: start}
	claimed, err := a.c.claim(ctx, ack)
	if err != nil {
		a.log.Warn("fleet: could not claim a command; it is dropped", "id", cmd.ID, "kind", cmd.Kind, "err", err)
		return
	}
	if !claimed {
		a.m.cmdDup.Add(1)
		a.log.Info("fleet: command seen before; not acted on again", "id", cmd.ID, "kind", cmd.Kind)
		return
	}
	finish := func(state, msg string) {
		ack.State, ack.Error, ack.At, ack.TookMS = state, msg, time.Now(), time.Since(start).Milliseconds()
		if err := a.c.ack(context.WithoutCancel(ctx), ack); err != nil {
			a.log.Warn("fleet: could not acknowledge a command", "id", cmd.ID, "state", state, "err", err)
		}
	}
	switch {
	case !cmd.Expires.IsZero() && start.After(cmd.Expires):
		a.m.cmdExpired.Add(1)
		finish(AckExpired, "the command waited past its deadline")
	case cmd.Kind == CommandRestart && a.o.Restart != nil:
		a.log.Info("fleet: rolling restart of all workers requested", "id", cmd.ID)
		rctx, cancel := context.WithTimeout(ctx, max(time.Duration(cmd.TimeoutMS)*time.Millisecond, time.Second))
		err := a.o.Restart(rctx)
		cancel()
		if err != nil {
			a.m.cmdFailed.Add(1)
			a.log.Warn("fleet: rolling restart failed", "id", cmd.ID, "err", err)
			finish(AckFailed, err.Error())
			return
		}
		a.m.cmdDone.Add(1)
		a.log.Info("fleet: rolling restart done", "id", cmd.ID, "in", time.Since(start).Round(time.Millisecond))
		finish(AckDone, "")
	default:
		a.m.cmdFailed.Add(1)
		finish(AckFailed, "unknown command "+cmd.Kind)
	}
}
