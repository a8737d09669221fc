package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"bext/fleet"
	"bext/internal/adminclient"
)

// fleetOf opens the fleet's Redis of the config named by fs's -config.
func fleetOf(fs *flag.FlagSet) (*fleet.Client, error) {
	return adminclient.Fleet(fs.Lookup("config").Value.String())
}

// psFleet is `bext ps --fleet`: every live instance with its workers.
func psFleet(fs *flag.FlagSet, out io.Writer, asJSON bool) (int, error) {
	c, err := fleetOf(fs)
	if err != nil {
		return 1, err
	}
	defer c.Close()
	list, err := c.List(context.Background())
	if err != nil {
		return 1, fmt.Errorf("reading the fleet's registry: %w", err)
	}
	if asJSON {
		if list == nil {
			list = []fleet.Instance{}
		}
		return 0, printJSON(out, list)
	}
	printFleet(out, list)
	return 0, nil
}

// printFleet prints a summary line, then one block per instance: a line
// about it, then the seed's worker table of each of its apps.
func printFleet(w io.Writer, list []fleet.Instance) {
	late := 0
	for _, in := range list {
		if in.Late {
			late++
		}
	}
	fmt.Fprintf(w, "Fleet (%d instance%s", len(list), plural(len(list)))
	if late > 0 {
		fmt.Fprintf(w, ", %d late", late)
	}
	fmt.Fprintln(w, ")")
	for _, in := range list {
		fmt.Fprintln(w)
		fmt.Fprintln(w, instanceLine(in))
		for _, a := range in.Apps {
			if a.Name != "" {
				fmt.Fprintf(w, "App %s (%s; bundle %s)\n", a.Name, a.State, orDash(a.Bundle))
				if len(a.Workers) == 0 {
					continue
				}
			}
			printPS(w, a.Workers)
		}
	}
}

// instanceLine: name, addresses, version, bundle, uptime, last heartbeat
// (and LATE when it is more than two intervals ago).
func instanceLine(in fleet.Instance) string {
	parts := []string{"http://" + in.Addr}
	if in.AdminAddr != "" {
		parts[0] += " (admin " + in.AdminAddr + ")"
	}
	parts = append(parts, "version "+in.Version)
	if len(in.Apps) == 1 && in.Apps[0].Name == "" {
		parts = append(parts, "bundle "+orDash(in.Apps[0].Bundle))
	}
	age := time.Duration(in.HeartbeatAgeMS) * time.Millisecond
	parts = append(parts, "up "+humanDuration(in.HeartbeatAt.Sub(in.StartedAt)+age))
	beat := "heartbeat " + humanDuration(age) + " ago"
	if in.Late {
		beat += fmt.Sprintf(" — LATE (expected every %s; gone after %s)", humanDuration(time.Duration(in.IntervalMS)*time.Millisecond),
			humanDuration(time.Duration(in.TTLMS)*time.Millisecond))
	}
	return "Instance " + in.Name + " — " + strings.Join(append(parts, beat), ", ")
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// restartFleet is `bext workers restart --fleet`: a rolling restart of
// every instance, one after another.
func restartFleet(fs *flag.FlagSet, out io.Writer, timeout time.Duration) (int, error) {
	c, err := fleetOf(fs)
	if err != nil {
		return 1, err
	}
	defer c.Close()
	start := time.Now()
	acks, err := c.Roll(context.Background(), fleet.RollOptions{Timeout: timeout, Progress: func(name string, a *fleet.Ack) {
		switch {
		case a == nil:
			fmt.Fprintf(out, "%s: restarting its workers (rolling, surge-first)…\n", name)
		case a.State == fleet.AckDone:
			fmt.Fprintf(out, "%s: done in %s\n", name, time.Duration(a.TookMS)*time.Millisecond)
		default:
			fmt.Fprintf(out, "%s: %s: %s\n", name, a.State, a.Error)
		}
	}})
	if err != nil {
		return 1, fmt.Errorf("fleet restart stopped after %d instance%s (the others keep their workers): %w", len(acks), plural(len(acks)), err)
	}
	fmt.Fprintf(out, "fleet restart done: %d instance%s in %s\n", len(acks), plural(len(acks)), time.Since(start).Round(time.Millisecond))
	return 0, nil
}
