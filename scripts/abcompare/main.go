// Command abcompare serves the same app with two bext binaries — say the
// commit before a change (a) and after it (b) — and loads them in turns,
// page by page, so that whatever else the machine does falls on both alike.
// It reports renders per second and renders per CPU-second of each server
// process (its user + system time during its own turns, read from /proc;
// the load generator runs in this process and is not counted) and b/a.
//
//	git worktree add /tmp/base HEAD~3 && (cd /tmp/base && go build -o /tmp/bext-a .)
//	go build -o /tmp/bext-b .
//	go run ./scripts/abcompare -a /tmp/bext-a -b /tmp/bext-b -config examples/react/config.toml
//
// Each binary runs `serve -config FILE -addr 127.0.0.1:0` with its admin
// API on a free loopback port and GOGC/GOMEMLIMIT unset, so it runs the
// [runtime] settings and defaults it ships with. Linux only (/proc).
package main

import (
	"bufio"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"bext/internal/loadgen"
)

func main() {
	binA := flag.String("a", "", "bext binary a (before)")
	binB := flag.String("b", "", "bext binary b (after)")
	cfg := flag.String("config", "examples/react/config.toml", "config both serve")
	pages := flag.String("pages", "/small,/,/large", "comma-separated pages")
	d := flag.Duration("d", 10*time.Second, "measured time per binary per page")
	rounds := flag.Int("rounds", 10, "turns -d is cut into")
	warmup := flag.Duration("warmup", 2*time.Second, "unmeasured load per binary per page first")
	conns := flag.Int("c", 4, "requests in flight")
	flag.Parse()
	if *binA == "" || *binB == "" {
		fmt.Fprintln(os.Stderr, "abcompare: -a and -b are required")
		os.Exit(2)
	}
	if err := run(*binA, *binB, *cfg, strings.Split(*pages, ","), *d, *rounds, *warmup, *conns); err != nil {
		fmt.Fprintln(os.Stderr, "abcompare:", err)
		os.Exit(1)
	}
}

type server struct {
	name string
	cmd  *exec.Cmd
	addr string
}

func start(name, bin, cfg string) (*server, error) {
	cmd := exec.Command(bin, "serve", "-config", cfg, "-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), "BEXT_ADMIN_ADDR=127.0.0.1:0", "GOGC=", "GOMEMLIMIT=")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	addr := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		re := regexp.MustCompile(`serving http://(\S+)`)
		for sc.Scan() {
			if m := re.FindStringSubmatch(sc.Text()); m != nil {
				addr <- m[1]
				break
			}
		}
		io.Copy(io.Discard, stderr)
	}()
	select {
	case a := <-addr:
		return &server{name: name, cmd: cmd, addr: a}, nil
	case <-time.After(2 * time.Minute):
		cmd.Process.Kill()
		cmd.Wait()
		return nil, fmt.Errorf("%s did not print the address it serves", bin)
	}
}

func (s *server) stop() { s.cmd.Process.Kill(); s.cmd.Wait() }

// cpu is the process's user + system time.
func (s *server) cpu() (time.Duration, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", s.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	f := strings.Fields(string(b[strings.LastIndexByte(string(b), ')')+2:]))
	if len(f) < 13 {
		return 0, errors.New("short /proc stat")
	}
	ut, _ := strconv.ParseInt(f[11], 10, 64)
	st, _ := strconv.ParseInt(f[12], 10, 64)
	return time.Duration(ut+st) * 10 * time.Millisecond, nil // USER_HZ is 100 on Linux
}

type tally struct {
	stats loadgen.Stats
	cpu   time.Duration
}

func run(binA, binB, cfg string, pages []string, d time.Duration, rounds int, warmup time.Duration, conns int) error {
	var servers []*server
	defer func() {
		for _, s := range servers {
			s.stop()
		}
	}()
	for _, x := range [][2]string{{"a", binA}, {"b", binB}} {
		s, err := start(x[0], x[1], cfg)
		if err != nil {
			return err
		}
		servers = append(servers, s)
	}
	ctx := context.Background()
	tw := tabwriter.NewWriter(os.Stdout, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "page\ta renders/s\tb renders/s\tb/a\ta renders/CPU-s\tb renders/CPU-s\tb/a\terrors a/b\t\n")
	for _, page := range pages {
		fmt.Fprintf(os.Stderr, "abcompare: page %s…\n", page)
		loops := make([]loadgen.Loops, len(servers))
		for i, s := range servers {
			do, err := loadgen.HTTPGet("http://"+s.addr+page, conns)
			if err != nil {
				return err
			}
			loops[i] = loadgen.Same(do)
			loadgen.Load(ctx, loops[i], conns, warmup)
		}
		t := make([]tally, len(servers))
		for r := range rounds {
			for k := range servers {
				i := (k + r) % len(servers)
				c0, err := servers[i].cpu()
				if err != nil {
					return err
				}
				st := loadgen.Load(ctx, loops[i], conns, d/time.Duration(rounds))
				c1, err := servers[i].cpu()
				if err != nil {
					return err
				}
				t[i].stats = t[i].stats.Add(st)
				t[i].cpu += c1 - c0
			}
		}
		perCPU := func(x tally) float64 { return float64(x.stats.Requests) / x.cpu.Seconds() }
		a, b := t[0], t[1]
		fmt.Fprintf(tw, "%s\t%.1f\t%.1f\t%.2f\t%.1f\t%.1f\t%.2f\t%d/%d\t\n", page, a.stats.PerSecond(), b.stats.PerSecond(),
			b.stats.PerSecond()/a.stats.PerSecond(), perCPU(a), perCPU(b), perCPU(b)/perCPU(a), a.stats.Errors, b.stats.Errors)
	}
	return tw.Flush()
}
