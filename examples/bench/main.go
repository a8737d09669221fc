package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"text/tabwriter"
	"time"

	"bext/engine"
)

// options are the command's flags.
type options struct {
	app       string
	path      string
	targets   []string
	url       string
	conns     int
	workers   int
	nodeProcs int
	dur       time.Duration
	warmup    time.Duration
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var targets string
	cpus := runtime.GOMAXPROCS(0)
	fs.StringVar(&o.app, "app", "examples/react", "app folder holding src/server.jsx and node_modules")
	fs.StringVar(&o.path, "path", "/", "page to request, e.g. /small, /, /large")
	fs.StringVar(&targets, "targets", "inproc,inproc-stock,node", "comma-separated: inproc, inproc-stock, node, url")
	fs.StringVar(&o.url, "url", "", "URL of a server on this machine for the url target (adds url to -targets)")
	fs.IntVar(&o.conns, "c", 2*cpus, "requests in flight")
	fs.IntVar(&o.workers, "workers", cpus, "bext workers (isolates) for the in-process targets")
	fs.IntVar(&o.nodeProcs, "node-procs", cpus, "Node processes (cluster) for the node target")
	fs.DurationVar(&o.dur, "d", 10*time.Second, "measured duration per target")
	fs.DurationVar(&o.warmup, "warmup", 2*time.Second, "unmeasured load before each target's run")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	for _, t := range strings.Split(targets, ",") {
		if t = strings.TrimSpace(t); t != "" {
			o.targets = append(o.targets, t)
		}
	}
	if o.url != "" && !contains(o.targets, "url") {
		o.targets = append(o.targets, "url")
	}
	if contains(o.targets, "url") && o.url == "" {
		return o, fmt.Errorf("the url target needs -url")
	}
	if o.conns < 1 || o.workers < 1 || o.nodeProcs < 1 || o.dur <= 0 {
		return o, fmt.Errorf("-c, -workers, -node-procs and -d must be positive")
	}
	return o, nil
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

func main() {
	o, err := parseFlags(os.Args[1:], os.Stderr)
	if err != nil {
		if err != flag.ErrHelp {
			fmt.Fprintln(os.Stderr, "bench:", err)
		}
		os.Exit(2)
	}
	if err := run(context.Background(), o, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "bench:", err)
		os.Exit(1)
	}
}

// target is one way of serving the page: Do renders it once; stop releases
// what start took (processes, isolates).
type target struct {
	name string
	do   Do
	stop func()
}

func run(ctx context.Context, o options, out io.Writer) error {
	dir, err := filepath.Abs(o.app)
	if err != nil {
		return err
	}
	gogc := os.Getenv("GOGC")
	if gogc == "" {
		gogc = "default"
	}
	fmt.Fprintf(out, "page %s of %s, %d in flight, %s per target (after %s warm-up), GOMAXPROCS %d, GOGC %s\n\n",
		o.path, o.app, o.conns, o.dur, o.warmup, runtime.GOMAXPROCS(0), gogc)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "target\treq/s\tp50 ms\tp99 ms\tmax ms\tKB/page\terrors\t")
	var notes []string
	for _, name := range o.targets {
		fmt.Fprintf(os.Stderr, "bench: %s…\n", name)
		t, err := start(ctx, name, dir, o)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		if o.warmup > 0 {
			Load(ctx, t.do, o.conns, o.warmup)
		}
		st := Load(ctx, t.do, o.conns, o.dur)
		t.stop()
		kb := 0.0
		if st.Requests > 0 {
			kb = float64(st.Bytes) / float64(st.Requests) / 1024
		}
		fmt.Fprintf(tw, "%s\t%.1f\t%.2f\t%.2f\t%.2f\t%.1f\t%d\t\n", name, st.PerSecond(),
			ms(st.P50), ms(st.P99), ms(st.Max), kb, st.Errors)
		if st.FirstErr != nil {
			notes = append(notes, fmt.Sprintf("first error of %s: %v", name, st.FirstErr))
		}
	}
	tw.Flush()
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	return nil
}

func start(ctx context.Context, name, dir string, o options) (*target, error) {
	switch name {
	case "inproc", "inproc-stock":
		b, err := build(dir, name == "inproc")
		if err != nil {
			return nil, err
		}
		return startInProc(ctx, name, b, o.workers, o.path)
	case "node":
		b, err := build(dir, false) // Node needs no fast sink; the stock bundle is React as shipped
		if err != nil {
			return nil, err
		}
		return startNode(ctx, b, o.nodeProcs, o.path, o.conns)
	case "url":
		do, err := HTTPGet(o.url, o.conns)
		if err != nil {
			return nil, err
		}
		return &target{name: name, do: do, stop: func() {}}, nil
	}
	return nil, fmt.Errorf("unknown target (want inproc, inproc-stock, node or url)")
}

// build bundles the app's server entry exactly as bext does in production.
func build(dir string, fastSink bool) (*engine.Bundle, error) {
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return nil, fmt.Errorf("%s has no node_modules: run `npm ci` there first", dir)
	}
	b, err := engine.BuildServer(engine.BuildOptions{Entry: "src/server.jsx", Dir: dir, FastSink: fastSink})
	if err != nil {
		return nil, err
	}
	for _, w := range b.Warnings {
		fmt.Fprintln(os.Stderr, "bench: build warning:", w)
	}
	return b, nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
