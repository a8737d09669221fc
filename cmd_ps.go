package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"bext/cache"
	"bext/internal/adminclient"
	"bext/internal/app"
	"bext/pool"
)

// adminFlags adds -addr and -config; see adminclient.New for how they
// find the server.
func adminFlags(fs *flag.FlagSet) func() (*adminclient.Client, error) {
	addr := fs.String("addr", "", "address of the running server (default BEXT_ADDR, else the config's)")
	cfgPath := fs.String("config", "", "config file to read the address and admin token from (default ./config.toml)")
	return func() (*adminclient.Client, error) { return adminclient.New(*addr, *cfgPath, os.Getenv) }
}

func init() {
	register(command{Name: "ps", Usage: "ps [-addr HOST:PORT] [-json] [--fleet]", Short: "Show the workers of a running server as a table (grouped by app with [[apps]]; --fleet: of every instance of the fleet).",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			client := adminFlags(fs)
			asJSON := fs.Bool("json", false, "print the raw JSON")
			all := fs.Bool("fleet", false, "every live instance of the fleet, through [fleet] redis_url of the config")
			return func(out io.Writer) (int, error) {
				if *all {
					return psFleet(fs, out, *asJSON)
				}
				c, err := client()
				if err != nil {
					return 1, err
				}
				apps, err := c.Apps()
				if err != nil {
					return 1, err
				}
				if apps == nil {
					ws, err := c.Workers("")
					if err != nil {
						return 1, err
					}
					st, err := c.CacheStats("")
					if err != nil {
						return 1, err
					}
					if *asJSON {
						return 0, printJSON(out, ws)
					}
					printPS(out, ws)
					if st != nil {
						fmt.Fprintln(out, cacheLine(st))
					}
					return 0, nil
				}
				workers := map[string][]pool.WorkerStats{}
				caches := map[string]*cache.Stats{}
				for _, a := range apps {
					if a.State == "running" || a.State == "draining" {
						if workers[a.Name], err = c.Workers(a.Name); err != nil {
							return 1, err
						}
						if caches[a.Name], err = c.CacheStats(a.Name); err != nil {
							return 1, err
						}
					}
				}
				if *asJSON {
					return 0, printJSON(out, map[string]any{"apps": apps, "workers": workers})
				}
				printAppsPS(out, apps, workers, caches)
				return 0, nil
			}
		}})
	register(command{Name: "apps", Usage: "apps [-addr HOST:PORT] [-json]", Short: "List the apps of a running server with [[apps]]: state, workers, memory, last use.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			client := adminFlags(fs)
			asJSON := fs.Bool("json", false, "print the raw JSON")
			return func(out io.Writer) (int, error) {
				c, err := client()
				if err != nil {
					return 1, err
				}
				apps, err := c.Apps()
				if err != nil {
					return 1, err
				}
				if apps == nil {
					return 1, fmt.Errorf("this server serves a single [app]; `bext ps` shows its workers")
				}
				if *asJSON {
					return 0, printJSON(out, apps)
				}
				printApps(out, apps)
				return 0, nil
			}
		}})
	register(command{Name: "workers restart", Usage: "workers restart [-addr HOST:PORT] [--worker N] [--app NAME] [--fleet]",
		Short: "Gracefully restart all workers (rolling), or one; --app picks the app (and revives one that stopped); --fleet rolls every instance, one at a time.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			client := adminFlags(fs)
			id := fs.Int("worker", -1, "restart only this worker slot")
			name := fs.String("app", "", "the app, with [[apps]]")
			all := fs.Bool("fleet", false, "every instance of the fleet, one after another, through [fleet] redis_url of the config")
			timeout := fs.Duration("timeout", 5*time.Minute, "with --fleet: how long one instance may take")
			return func(out io.Writer) (int, error) {
				if *all {
					if *id >= 0 || *name != "" {
						return 2, fmt.Errorf("--fleet restarts every worker of every instance; it takes no --worker or --app")
					}
					return restartFleet(fs, out, *timeout)
				}
				c, err := client()
				if err != nil {
					return 1, err
				}
				ids, err := c.Restart(*id, *name)
				if err != nil {
					return 1, err
				}
				if *name != "" && len(ids) == 0 {
					fmt.Fprintf(out, "app %s is starting\n", *name)
					return 0, nil
				}
				fmt.Fprintf(out, "restart scheduled for worker(s) %v (rolling, surge-first)\n", ids)
				return 0, nil
			}
		}})
	register(command{Name: "workers stats", Usage: "workers stats [-addr HOST:PORT] [--app NAME]", Short: "Print every metric of every worker.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			client := adminFlags(fs)
			name := fs.String("app", "", "the app, with [[apps]]")
			return func(out io.Writer) (int, error) {
				c, err := client()
				if err != nil {
					return 1, err
				}
				ws, err := c.Workers(*name)
				if err != nil {
					return 1, err
				}
				printStats(out, ws)
				return 0, nil
			}
		}})
}

func printJSON(out io.Writer, v any) error {
	enc := json.NewEncoder(out)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// printAppsPS prints one block per app: a line with its state and routes,
// then (when it runs) the seed's worker table.
func printAppsPS(w io.Writer, apps []app.AppStats, workers map[string][]pool.WorkerStats, caches map[string]*cache.Stats) {
	for i, a := range apps {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintf(w, "App %s (%s; %s)\n", a.Name, appState(a), routes(a))
		if ws, ok := workers[a.Name]; ok {
			printPS(w, ws)
		}
		if st := caches[a.Name]; st != nil {
			fmt.Fprintln(w, cacheLine(st))
		}
	}
}

// printApps prints the apps table of `bext apps`.
func printApps(w io.Writer, apps []app.AppStats) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "Name\tState\tWorkers\tMemory\tLast Used\tCold Starts\tRoutes")
	for _, a := range apps {
		last := "never"
		if a.LastUsedAt != nil {
			last = humanDuration(time.Since(*a.LastUsedAt)) + " ago"
		}
		fmt.Fprintf(tw, "%s\t%s\t%d/%d\t%s\t%s\t%d\t%s\n", a.Name, appState(a), a.Workers, a.WorkerSlots, humanBytes(a.MemoryBytes), last, a.ColdStarts, routes(a))
	}
	tw.Flush()
}

func appState(a app.AppStats) string {
	switch {
	case a.GaveUp:
		return "failed: " + firstLine(a.LastError) + "; revive with `bext workers restart --app " + a.Name + "`"
	case a.State == "failed":
		return "failed to start: " + firstLine(a.LastError)
	}
	return a.State
}

func routes(a app.AppStats) string {
	var r []string
	for _, h := range a.Hosts {
		r = append(r, "host "+h)
	}
	if a.PathPrefix != "" {
		r = append(r, "prefix "+a.PathPrefix)
	}
	if len(r) == 0 {
		return "default app"
	}
	return strings.Join(r, ", ")
}

// printPS prints the seed's table: header, then one aligned row per slot.
func printPS(w io.Writer, ws []pool.WorkerStats) {
	active := 0
	for _, s := range ws {
		if s.State == "ACTIVE" {
			active++
		}
	}
	fmt.Fprintf(w, "Workers (%d/%d active)\n", active, len(ws))
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "ID\tState\tHealth\tRequests\tMemory\tUptime\tAvg Render")
	for _, s := range ws {
		row := fmt.Sprintf("%d\t%s\t%s\t%s\t%s\t%s\t%.1fms", s.ID, s.State, orDash(s.Health), thousands(s.RequestsServed), humanBytes(s.CurrentMemoryBytes),
			humanDuration(time.Duration(s.UptimeSeconds*float64(time.Second))), s.AvgRenderTimeMS)
		if s.Rotating != "" {
			row += "\t(rotating: " + rotatingNote(s.Rotating, s.RotatingDetail) + ")"
		} else if s.GaveUp {
			row += "\t(gave up: " + firstLine(s.LastError) + ")"
		}
		fmt.Fprintln(tw, row) // the last cell is not tab-terminated: no trailing spaces
	}
	tw.Flush()
}

// printStats prints one block per worker with every field.
func printStats(w io.Writer, ws []pool.WorkerStats) {
	for i, s := range ws {
		if i > 0 {
			fmt.Fprintln(w)
		}
		last := "never"
		if s.LastRequestAt != nil {
			last = s.LastRequestAt.Format(time.RFC3339)
		}
		tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
		fmt.Fprintf(tw, "Worker %d\t%s\n", s.ID, s.State)
		for _, kv := range [][2]string{
			{"requests_served", thousands(s.RequestsServed)}, {"requests_failed", thousands(s.RequestsFailed)},
			{"total_render_time_ms", fmt.Sprintf("%.1f", s.TotalRenderTimeMS)}, {"avg_render_time_ms", fmt.Sprintf("%.2f", s.AvgRenderTimeMS)},
			{"current_memory_bytes", fmt.Sprintf("%d (%s)", s.CurrentMemoryBytes, humanBytes(s.CurrentMemoryBytes))},
			{"health", orDash(s.Health)},
			{"peak_memory_bytes", fmt.Sprintf("%d (%s)", s.PeakMemoryBytes, humanBytes(s.PeakMemoryBytes))},
			{"peak_memory_generation_bytes", fmt.Sprintf("%d (%s)", s.PeakMemoryGenerationBytes, humanBytes(s.PeakMemoryGenerationBytes))},
			{"started_at", s.StartedAt.Format(time.RFC3339)}, {"last_request_at", last},
			{"uptime", humanDuration(time.Duration(s.UptimeSeconds * float64(time.Second)))},
			{"restarts", strconv.Itoa(s.Restarts)}, {"consecutive_failures", strconv.Itoa(s.ConsecutiveFailures)},
			{"in_flight", strconv.Itoa(s.InFlight)}, {"generation", strconv.Itoa(s.Generation)},
			{"last_rotation_reason", orDash(s.LastRotationReason)}, {"last_error", orDash(firstLine(s.LastError))},
		} {
			fmt.Fprintf(tw, "  %s\t%s\n", kv[0], kv[1])
		}
		tw.Flush()
	}
}

// rotatingNote is the reason with the figure that triggered it: "memory
// 31.4 MB > 16 MB", "unhealthy: 5 failed renders in a row (peers 0% of 60)".
func rotatingNote(reason, detail string) string {
	short := shortReason(reason)
	switch {
	case detail == "":
		return short
	case strings.HasPrefix(detail, short+" "):
		return detail
	}
	return short + ": " + detail
}

func shortReason(r string) string {
	switch r {
	case "max_memory":
		return "memory"
	case "max_requests":
		return "requests"
	case "max_uptime":
		return "uptime"
	}
	return r
}

func thousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, c := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(c)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%d MB", n>>20)
	case n >= 1<<10:
		return fmt.Sprintf("%d KB", n>>10)
	}
	return fmt.Sprintf("%d B", n)
}

func humanDuration(d time.Duration) string {
	switch {
	case d >= 24*time.Hour:
		return fmt.Sprintf("%dd %dh", int(d.Hours())/24, int(d.Hours())%24)
	case d >= time.Hour:
		return fmt.Sprintf("%dh %dm", int(d.Hours()), int(d.Minutes())%60)
	case d >= time.Minute:
		return fmt.Sprintf("%dm %ds", int(d.Minutes()), int(d.Seconds())%60)
	}
	return fmt.Sprintf("%ds", int(d.Seconds()))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
