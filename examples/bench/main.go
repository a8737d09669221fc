package main

import (
	"bext/internal/loadgen"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"slices"
	"strings"
	"syscall"
	"text/tabwriter"
	"time"

	"bext/engine"
	"bext/engine/fastpath"
)

// options are the command's flags.
type options struct {
	app       string
	pages     []string
	targets   []string
	url       string
	conns     int
	workers   int
	nodeProcs int
	dur       time.Duration
	warmup    time.Duration
	rounds    int
	profile   string
}

// targets in the order they run by default, with their letter in the report.
var known = []struct{ name, letter, what string }{
	{"direct", "a", "isolates in tight loops, one goroutine each; no pool, no HTTP"},
	{"http", "b", "bext over HTTP (pool + render.Server), fast paths on (the default)"},
	{"node", "c", "Node http + renderToString, one process per CPU"},
	{"http-stock", "d", "bext over HTTP, every fast path off (React as shipped)"},
	{"cached", "e", "b with the page cache on and a rule caching every page: fresh hits"},
	{"bare", "f", "a bare net/http handler writing the page's bytes (the limit of e)"},
	{"direct-sink", "g", "a with the fast sink alone: bext before the other fast paths"},
	{"http-sink", "h", "b with the fast sink alone: bext before the other fast paths"},
	{"pool", "", "pool.Render in-process, no HTTP, fast paths on"},
	{"pool-stock", "", "pool.Render in-process, no HTTP, fast paths off"},
	{"url", "", "the server at -url"},
}

func lookup(name string) (letter, what string, ok bool) {
	for _, k := range known {
		if k.name == name {
			return k.letter, k.what, true
		}
	}
	return "", "", false
}

func parseFlags(args []string, stderr io.Writer) (options, error) {
	fs := flag.NewFlagSet("bench", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o options
	var targets, pages string
	cpus := runtime.GOMAXPROCS(0)
	fs.StringVar(&o.app, "app", "examples/react", "app folder holding src/server.jsx and node_modules")
	fs.StringVar(&pages, "pages", "/small,/,/large", "comma-separated pages to request (the url target ignores them)")
	fs.StringVar(&targets, "targets", "direct,http,node,http-stock", "comma-separated: direct (a), http (b), node (c), http-stock (d), cached (e), bare (f), direct-sink (g), http-sink (h), pool, pool-stock, url")
	fs.StringVar(&o.url, "url", "", "URL of a server on this machine for the url target (adds url to -targets)")
	fs.IntVar(&o.conns, "c", 2*cpus, "requests in flight for every target but direct (which runs one loop per isolate)")
	fs.IntVar(&o.workers, "workers", cpus, "isolates of direct; jsc_workers of the bext targets")
	fs.IntVar(&o.nodeProcs, "node-procs", cpus, "Node processes (cluster) for the node target")
	fs.DurationVar(&o.dur, "d", 5*time.Second, "measured duration per target per page")
	fs.DurationVar(&o.warmup, "warmup", time.Second, "unmeasured load before each measured run")
	fs.IntVar(&o.rounds, "rounds", 5, "slices each target's -d is cut into, taken in turn by the targets")
	fs.StringVar(&o.profile, "cpuprofile", "", "write a CPU profile of the measured runs (all targets, this process only) to this file")
	if err := fs.Parse(args); err != nil {
		return o, err
	}
	o.targets = splitList(targets)
	o.pages = splitList(pages)
	if o.url != "" && !slices.Contains(o.targets, "url") {
		o.targets = append(o.targets, "url")
	}
	for _, t := range o.targets {
		if _, _, ok := lookup(t); !ok {
			return o, fmt.Errorf("unknown target %q (want direct, http, node, http-stock, pool, pool-stock or url)", t)
		}
	}
	if slices.Contains(o.targets, "url") && o.url == "" {
		return o, fmt.Errorf("the url target needs -url")
	}
	if len(o.targets) == 0 || len(o.pages) == 0 {
		return o, fmt.Errorf("-targets and -pages must not be empty")
	}
	if o.conns < 1 || o.workers < 1 || o.nodeProcs < 1 || o.dur <= 0 || o.rounds < 1 {
		return o, fmt.Errorf("-c, -workers, -node-procs, -d and -rounds must be positive")
	}
	return o, nil
}

func splitList(s string) []string {
	var out []string
	for _, v := range strings.Split(s, ",") {
		if v = strings.TrimSpace(v); v != "" {
			out = append(out, v)
		}
	}
	return out
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

// target is one way of serving the pages, started once for all of them:
// page gives the closed loops that request one page; conns is how many run
// at once; stop releases what start took (processes, isolates, listeners).
type target struct {
	name  string
	conns int
	page  func(path string) (loadgen.Loops, error)
	stop  func()
}

// result is one measured run of one target on one page.
type result struct {
	target, page string
	conns        int
	loadgen.Stats
	cpu time.Duration // this process's CPU time during the target's slices
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
	fmt.Fprintf(out, "%s, pages %s; %s per target per page in %d interleaved rounds, after %s warm-up; GOMAXPROCS %d, GOGC %s;\n",
		o.app, strings.Join(o.pages, " "), o.dur, o.rounds, o.warmup, runtime.GOMAXPROCS(0), gogc)
	fmt.Fprintf(out, "%d isolates / jsc_workers / Node processes (%d); %d requests in flight (direct: one loop per isolate)\n",
		o.workers, o.nodeProcs, o.conns)
	if o.profile != "" {
		f, err := os.Create(o.profile)
		if err != nil {
			return err
		}
		defer f.Close()
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer pprof.StopCPUProfile()
	}
	bundles := map[string]*engine.Bundle{}
	var started []*target
	defer func() {
		for _, t := range started {
			t.stop()
		}
	}()
	for _, name := range o.targets {
		fmt.Fprintf(os.Stderr, "bench: starting %s…\n", name)
		t, err := start(ctx, name, dir, o, bundles)
		if err != nil {
			return fmt.Errorf("%s: %w", name, err)
		}
		started = append(started, t)
	}
	var results []result
	for _, path := range o.pages {
		var ts []*target
		for _, t := range started {
			if t.name != "url" {
				ts = append(ts, t)
			}
		}
		rs, err := measure(ctx, o, path, ts)
		if err != nil {
			return err
		}
		results = append(results, rs...)
	}
	for _, t := range started {
		if t.name == "url" {
			rs, err := measure(ctx, o, o.url, []*target{t})
			if err != nil {
				return err
			}
			results = append(results, rs...)
		}
	}
	report(out, o, results)
	return nil
}

// measure loads path on every target of ts for o.dur each. The time is cut
// into o.rounds slices taken in turn (a b c d a b c d …) so that anything
// else the machine does during the run falls on every target alike and
// the ratios stay fair.
func measure(ctx context.Context, o options, path string, ts []*target) ([]result, error) {
	if len(ts) == 0 {
		return nil, nil
	}
	fmt.Fprintf(os.Stderr, "bench: page %s…\n", path)
	loops := make([]loadgen.Loops, len(ts))
	for i, t := range ts {
		l, err := t.page(path)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", t.name, path, err)
		}
		loops[i] = l
		if o.warmup > 0 {
			loadgen.Load(ctx, l, t.conns, o.warmup)
		}
	}
	rs := make([]result, len(ts))
	for i, t := range ts {
		rs[i] = result{target: t.name, page: path, conns: t.conns}
	}
	slice := o.dur / time.Duration(o.rounds)
	for round := range o.rounds {
		for k := range ts {
			i := (k + round) % len(ts) // rotate who goes first
			c0 := processCPU()
			rs[i].Stats = rs[i].Stats.Add(loadgen.Load(ctx, loops[i], ts[i].conns, slice))
			rs[i].cpu += processCPU() - c0
		}
	}
	return rs, nil
}

// report prints one table per page, then renders/s of every page side by
// side with the ratios b/a (HTTP serving vs the in-process limit), b/c (bext
// vs Node) and b/d (the fast paths over HTTP), and a/g and b/h (the fast
// paths beyond the sink).
func report(out io.Writer, o options, results []result) {
	var notes []string
	pages := o.pages
	if slices.Contains(o.targets, "url") {
		pages = append(slices.Clone(pages), o.url)
	}
	for _, path := range pages {
		fmt.Fprintf(out, "\npage %s\n", path)
		tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "\ttarget\trenders/s\tp50 ms\tp99 ms\tmax ms\tKB/page\terrors\trenders/CPU-s\t")
		for _, r := range results {
			if r.page != path {
				continue
			}
			letter, _, _ := lookup(r.target)
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.2f\t%.2f\t%.2f\t%.1f\t%d\t%s\t\n", letter, r.target, r.PerSecond(),
				ms(r.P50), ms(r.P99), ms(r.Max), r.kb(), r.Errors, r.perCPU())
			if r.FirstErr != nil {
				notes = append(notes, fmt.Sprintf("first error of %s on %s: %v", r.target, path, r.FirstErr))
			}
		}
		tw.Flush()
	}
	summary(out, o, results)
	for _, n := range notes {
		fmt.Fprintln(out, n)
	}
	fmt.Fprintln(out)
	for _, k := range known {
		if k.letter != "" && slices.Contains(o.targets, k.name) {
			fmt.Fprintf(out, "%s = %s: %s\n", k.letter, k.name, k.what)
		}
	}
}

func summary(out io.Writer, o options, results []result) {
	table(out, o, results, "renders/s", func(r result) float64 { return r.PerSecond() })
	inproc := func(r result) float64 {
		if r.target == "node" || r.target == "url" || r.cpu <= 0 {
			return 0
		}
		return float64(r.Requests) / r.cpu.Seconds()
	}
	table(out, o, results, "renders per CPU-second of this process (in-process targets; the load generator's share included)", inproc)
}

// table prints rate of every page and target, with the ratios of targets
// that compare one thing.
func table(out io.Writer, o options, results []result, title string, value func(result) float64) {
	rate := func(target, page string) float64 {
		for _, r := range results {
			if r.target == target && r.page == page && r.Errors == 0 {
				return value(r)
			}
		}
		return 0
	}
	fmt.Fprintln(out, "\n"+title)
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprint(tw, "page\t")
	var cols []string
	for _, k := range known {
		if k.letter != "" && slices.Contains(o.targets, k.name) {
			cols = append(cols, k.name)
			fmt.Fprintf(tw, "%s %s\t", k.letter, k.name)
		}
	}
	ratios := [][2]string{{"http", "direct"}, {"http", "node"}, {"http", "http-stock"}}
	if slices.Contains(cols, "cached") {
		ratios = append(ratios, [2]string{"cached", "bare"}, [2]string{"cached", "node"})
	}
	if slices.Contains(cols, "direct-sink") {
		ratios = append(ratios, [2]string{"direct", "direct-sink"})
	}
	if slices.Contains(cols, "http-sink") {
		ratios = append(ratios, [2]string{"http", "http-sink"})
	}
	for _, r := range ratios {
		fmt.Fprintf(tw, "%s/%s\t", letterOf(r[0]), letterOf(r[1]))
	}
	fmt.Fprintln(tw)
	for _, path := range o.pages {
		fmt.Fprintf(tw, "%s\t", path)
		for _, c := range cols {
			fmt.Fprintf(tw, "%.1f\t", rate(c, path))
		}
		for _, r := range ratios {
			num, den := rate(r[0], path), rate(r[1], path)
			if num > 0 && den > 0 {
				fmt.Fprintf(tw, "%.2f\t", num/den)
			} else {
				fmt.Fprint(tw, "–\t")
			}
		}
		fmt.Fprintln(tw)
	}
	tw.Flush()
}

func letterOf(name string) string {
	l, _, _ := lookup(name)
	return l
}

// perCPU is renders per CPU-second of this process, "–" for targets that
// render elsewhere.
func (r result) perCPU() string {
	if r.target == "node" || r.target == "url" || r.cpu <= 0 {
		return "–"
	}
	return fmt.Sprintf("%.1f", float64(r.Requests)/r.cpu.Seconds())
}

// processCPU is the CPU time this process has used, user plus system.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

func (r result) kb() float64 {
	if r.Requests == 0 {
		return 0
	}
	return float64(r.Bytes) / float64(r.Requests) / 1024
}

// start starts one target; bundles caches the builds (every fast path, the
// fast sink alone, none) so every target runs the same code.
func start(ctx context.Context, name, dir string, o options, bundles map[string]*engine.Bundle) (*target, error) {
	bundle := func(variant string) (*engine.Bundle, error) {
		if b, ok := bundles[variant]; ok {
			return b, nil
		}
		b, err := build(dir, variant)
		if err == nil {
			bundles[variant] = b
		}
		return b, err
	}
	variant := "all"
	switch {
	case strings.HasSuffix(name, "-stock"):
		variant = "stock"
	case strings.HasSuffix(name, "-sink"):
		variant = "sink"
	}
	switch name {
	case "url":
		do, err := loadgen.HTTPGet(o.url, o.conns)
		if err != nil {
			return nil, err
		}
		return &target{name: name, conns: o.conns, page: func(string) (loadgen.Loops, error) { return loadgen.Same(do), nil }, stop: func() {}}, nil
	case "node":
		variant = "stock" // Node needs no fast paths; the stock bundle is React as shipped
	}
	b, err := bundle(variant)
	if err != nil {
		return nil, err
	}
	switch name {
	case "direct", "direct-sink":
		return startDirect(name, b, o.workers)
	case "http", "http-stock", "http-sink", "cached":
		return startServe(name, dir, b, o.workers, o.conns)
	case "bare":
		return startBare(name, b, o.conns)
	case "pool", "pool-stock":
		return startPool(ctx, name, b, o.workers, o.conns)
	case "node":
		return startNode(ctx, b, o.nodeProcs, o.conns)
	}
	return nil, fmt.Errorf("unknown target")
}

// build bundles the app's server entry as bext does in production, with
// every fast path (variant "all", the default), the fast sink alone
// ("sink") or none ("stock").
func build(dir, variant string) (*engine.Bundle, error) {
	if _, err := os.Stat(filepath.Join(dir, "node_modules")); err != nil {
		return nil, fmt.Errorf("%s has no node_modules: run `npm ci` there first", dir)
	}
	paths := map[string][]string{"all": fastpath.All(), "sink": {fastpath.Sink}, "stock": nil}[variant]
	b, err := engine.BuildServer(engine.BuildOptions{Entry: "src/server.jsx", Dir: dir, FastPaths: paths})
	if err != nil {
		return nil, err
	}
	for _, w := range b.Warnings {
		fmt.Fprintln(os.Stderr, "bench: build warning:", w)
	}
	return b, nil
}

func ms(d time.Duration) float64 { return float64(d) / 1e6 }
