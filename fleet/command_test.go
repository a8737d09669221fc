package fleet

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// A restart reaches its instance at once (the wake-up on its channel), is
// acted on and acknowledged; the same command delivered again is not acted
// on again; a command that waited past its deadline is not acted on.
func TestCommandsAreActedOnOnce(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		f := &fakeInstance{restartTook: 2 * time.Second}
		a, _ := startAgent(t, m, "web-1", f)
		synctest.Wait()
		ctx := context.Background()
		start := time.Now()
		cmd, err := ctl.Send(ctx, "web-1", CommandRestart, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		synctest.Wait()
		if ack, _ := ctl.AckOf(ctx, cmd.ID); ack == nil || ack.State != AckRunning || time.Since(start) != 0 {
			t.Fatalf("ack while restarting: %+v (after %s)", ack, time.Since(start))
		}
		time.Sleep(2 * time.Second)
		synctest.Wait()
		ack, _ := ctl.AckOf(ctx, cmd.ID)
		if ack == nil || ack.State != AckDone || ack.Instance != "web-1" || ack.TookMS != 2000 || f.restarts.Load() != 1 {
			t.Fatalf("ack %+v, %d restarts", ack, f.restarts.Load())
		}

		// Delivered again (a retried push, a copy): not acted on again.
		b, _ := json.Marshal(cmd)
		m.Lpush(cmdKey("web-1"), string(b))
		m.Publish(wakeChannel("web-1"), cmd.ID)
		synctest.Wait()
		time.Sleep(3 * time.Second)
		if f.restarts.Load() != 1 || a.m.cmdDup.Load() != 1 {
			t.Fatalf("%d restarts, %d duplicates", f.restarts.Load(), a.m.cmdDup.Load())
		}

		// Expired while it waited; an unknown kind fails.
		old := Command{ID: "old", Kind: CommandRestart, Expires: time.Now().Add(-time.Second)}
		b, _ = json.Marshal(old)
		m.Lpush(cmdKey("web-1"), string(b))
		cmd2, _ := ctl.Send(ctx, "web-1", "reboot-the-machine", time.Minute)
		synctest.Wait()
		if ack, _ := ctl.AckOf(ctx, "old"); ack == nil || ack.State != AckExpired {
			t.Fatalf("expired command: %+v", ack)
		}
		if ack, _ := ctl.AckOf(ctx, cmd2.ID); ack == nil || ack.State != AckFailed || !strings.Contains(ack.Error, "unknown command") {
			t.Fatalf("unknown command: %+v", ack)
		}
		if f.restarts.Load() != 1 {
			t.Fatalf("%d restarts", f.restarts.Load())
		}
		if value(t, a, descCommands, "done") != 1 || value(t, a, descCommands, "expired") != 1 {
			t.Fatal("command metrics")
		}
	})
}

// A command sent while its instance is cut off from Redis waits in its
// list and is acted on once the instance is back (found by the heartbeat
// that re-registers it).
func TestCommandWaitsForAnInstanceThatWasAway(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		f := &fakeInstance{}
		_, l := startAgent(t, m, "web-1", f)
		synctest.Wait()
		l.cut()
		cmd, _ := ctl.Send(context.Background(), "web-1", CommandRestart, time.Minute)
		time.Sleep(5 * time.Second)
		if f.restarts.Load() != 0 {
			t.Fatal("restarted while cut off")
		}
		l.mend()
		back := time.Now()
		var ack *Ack
		for ack == nil && time.Since(back) < 10*time.Second {
			time.Sleep(100 * time.Millisecond)
			ack, _ = ctl.AckOf(context.Background(), cmd.ID)
		}
		// Back within a few heartbeat retries (go-redis redials once a
		// second after failed dials).
		if ack == nil || ack.State != AckDone || f.restarts.Load() != 1 || time.Since(back) > 5*time.Second {
			t.Fatalf("ack %+v after %s, %d restarts", ack, time.Since(back), f.restarts.Load())
		}
	})
}

// Roll restarts the fleet one instance at a time, in name order: each
// restart begins only after the previous instance acknowledged. Heartbeats
// go on during a restart, so no instance looks dead while it restarts.
func TestRollOneInstanceAtATime(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		fs := map[string]*fakeInstance{}
		for _, n := range []string{"web-3", "web-1", "web-2"} {
			fs[n] = &fakeInstance{restartTook: 25 * time.Second} // longer than two heartbeats
			startAgent(t, m, n, fs[n])
		}
		synctest.Wait()
		var order []string
		acks, err := ctl.Roll(context.Background(), RollOptions{Progress: func(name string, a *Ack) {
			if a == nil {
				order = append(order, name)
				if list, _ := ctl.List(context.Background()); len(list) != 3 {
					t.Errorf("%d instances listed during the roll", len(list))
				}
			}
		}})
		if err != nil || len(acks) != 3 {
			t.Fatalf("roll: %v, %d acks", err, len(acks))
		}
		if !slices.Equal(order, []string{"web-1", "web-2", "web-3"}) {
			t.Fatalf("order %v", order)
		}
		for i, n := range order {
			if f := fs[n]; len(f.spans) != 1 {
				t.Fatalf("%s restarted %d times", n, len(f.spans))
			}
			if i > 0 && fs[n].spans[0][0].Before(fs[order[i-1]].spans[0][1]) {
				t.Fatalf("%s began before %s was done", n, order[i-1])
			}
		}
	})
}

// A failing instance stops the roll: the ones after it keep their workers.
func TestRollStopsAtAFailure(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		fs := []*fakeInstance{{}, {fail: errors.New("boot failed: SyntaxError")}, {}}
		for i, f := range fs {
			startAgent(t, m, "web-"+string(rune('1'+i)), f)
		}
		synctest.Wait()
		acks, err := ctl.Roll(context.Background(), RollOptions{})
		if err == nil || !strings.Contains(err.Error(), "web-2") || !strings.Contains(err.Error(), "SyntaxError") || len(acks) != 2 {
			t.Fatalf("roll: %v, acks %+v", err, acks)
		}
		if fs[2].restarts.Load() != 0 {
			t.Fatal("the roll went on past a failure")
		}
	})
}

// An instance that dies while the roll waits for it ends the roll.
func TestRollNoticesAnInstanceThatDies(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		m := newMini(t)
		ctl, _ := newClient(t, m)
		f := &fakeInstance{restartTook: time.Hour}
		_, l := startAgent(t, m, "web-1", f)
		synctest.Wait()
		go func() {
			time.Sleep(time.Second)
			l.cut() // the restart hangs and the instance goes silent
		}()
		start := time.Now()
		_, err := ctl.Roll(context.Background(), RollOptions{Timeout: 10 * time.Minute})
		if !errors.Is(err, ErrInstanceGone) {
			t.Fatalf("roll: %v", err)
		}
		if took := time.Since(start); took > 35*time.Second {
			t.Fatalf("noticed after %s", took)
		}
	})
}
