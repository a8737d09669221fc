package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"time"

	"bext/internal/app"
)

func init() {
	register(command{Name: "serve", Usage: "serve [-config FILE] [-addr HOST:PORT]",
		Short: "Bundle the app and serve it through a pool of isolates.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			cfgPath, addr := serveFlags(fs)
			return func(io.Writer) (int, error) { return serve(*cfgPath, *addr, false, os.Stderr) }
		}})
	register(command{Name: "dev", Usage: "dev [-config FILE] [-addr HOST:PORT]",
		Short: "Serve the app in dev mode: rebuild and restart on file changes, live-reload the browser.",
		Flags: func(fs *flag.FlagSet) func(out io.Writer) (int, error) {
			cfgPath, addr := serveFlags(fs)
			return func(io.Writer) (int, error) { return serve(*cfgPath, *addr, true, os.Stderr) }
		}})
}

func serveFlags(fs *flag.FlagSet) (cfgPath, addr *string) {
	cfgPath = fs.String("config", "", "config file (default ./config.toml, else the embedded example app)")
	addr = fs.String("addr", "", "listen address (overrides [server] addr and BEXT_ADDR)")
	return cfgPath, addr
}

// serve runs `bext serve` (or `bext dev`) until SIGTERM/SIGINT, then
// drains and exits 0.
func serve(cfgPath, addr string, dev bool, out io.Writer) (int, error) {
	start := time.Now()
	cfg, err := app.LoadConfig(cfgPath, func(s string) { fmt.Fprintln(out, "bext:", s) })
	if err != nil {
		return 1, err
	}
	if addr != "" {
		cfg.Server.Addr = addr
	}
	log := app.NewLogger(cfg)
	slog.SetDefault(log)
	inst, err := app.Start(context.Background(), cfg, app.Options{Dev: dev, Version: version, Out: out, Log: log, Signals: true})
	if err != nil {
		return 1, err
	}
	if dev {
		fmt.Fprintf(out, "bext: serving http://%s in dev mode (%d workers; %s; ready in %s; watching for changes)\n",
			inst.Addr(), cfg.Render.JSCWorkers, inst.From, time.Since(start).Round(time.Millisecond))
	} else {
		fmt.Fprintf(out, "bext: serving http://%s (%d workers; %s)\n", inst.Addr(), cfg.Render.JSCWorkers, inst.From)
	}
	if a := inst.AdminAddr(); a != "" {
		fmt.Fprintf(out, "bext: admin API on http://%s\n", a)
	}
	if err := inst.Wait(); err != nil {
		return 1, err
	}
	return 0, nil
}
