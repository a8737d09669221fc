// Package loadgen is bext's closed-loop load generator for benchmarks: N
// loops call a Do for a fixed duration and the run is summarised as
// throughput and latency percentiles. HTTPGet refuses anything but loopback
// targets: it measures this machine's servers, nobody else's.
package loadgen

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"
)

// Stats summarise one load run.
type Stats struct {
	Requests int           // completed successfully
	Errors   int           // failed (transport error or non-2xx status)
	FirstErr error         // the first failure, for the report
	Bytes    int64         // body bytes of successful requests
	Elapsed  time.Duration // wall time of the run
	P50, P99 time.Duration
	Max      time.Duration
	lat      []time.Duration // every successful call's latency, sorted
}

// Add combines two runs of the same target, as if one had followed the other.
func (s Stats) Add(o Stats) Stats {
	s.Requests += o.Requests
	s.Errors += o.Errors
	if s.FirstErr == nil {
		s.FirstErr = o.FirstErr
	}
	s.Bytes += o.Bytes
	s.Elapsed += o.Elapsed
	s.lat = append(slices.Clone(s.lat), o.lat...)
	s.summarise()
	return s
}

// summarise sorts the latencies and sets the percentiles from them.
func (s *Stats) summarise() {
	slices.Sort(s.lat)
	s.P50, s.P99, s.Max = Percentile(s.lat, 50), Percentile(s.lat, 99), 0
	if len(s.lat) > 0 {
		s.Max = s.lat[len(s.lat)-1]
	}
}

// PerSecond is the throughput of successful requests.
func (s Stats) PerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Requests) / s.Elapsed.Seconds()
}

// Do performs one request and returns the body size.
type Do func(ctx context.Context) (int, error)

// Loops gives closed loop i (0 ≤ i < conns) of a run its Do. Over HTTP every
// loop shares one client; the direct target gives each loop its own isolate.
type Loops func(i int) Do

// Same is the Loops whose every loop calls do.
func Same(do Do) Loops { return func(int) Do { return do } }

// Load runs conns closed loops for dur, loop i calling loops(i), and measures
// each call. A call still running when dur ends is waited for and counted.
// The run is bounded: ctx ending stops it early.
func Load(ctx context.Context, loops Loops, conns int, dur time.Duration) Stats {
	if conns < 1 {
		conns = 1
	}
	start := time.Now() // before the deadline is set, so Elapsed >= dur
	ctx, cancel := context.WithTimeout(ctx, dur)
	defer cancel()
	var (
		mu  sync.Mutex
		all []time.Duration
		st  Stats
		wg  sync.WaitGroup
	)
	for i := range conns {
		do := loops(i)
		wg.Add(1)
		go func() {
			defer wg.Done()
			var lat []time.Duration
			var n, errs int
			var bytes int64
			var first error
			for ctx.Err() == nil {
				t0 := time.Now()
				// The request itself is not cancelled at the deadline: a render
				// cut short would be counted as an error that never happened.
				size, err := do(context.WithoutCancel(ctx))
				if err != nil {
					errs++
					if first == nil {
						first = err
					}
					continue
				}
				lat = append(lat, time.Since(t0))
				n++
				bytes += int64(size)
			}
			mu.Lock()
			all = append(all, lat...)
			st.Requests += n
			st.Errors += errs
			st.Bytes += bytes
			if st.FirstErr == nil {
				st.FirstErr = first
			}
			mu.Unlock()
		}()
	}
	wg.Wait()
	st.Elapsed = time.Since(start)
	st.lat = all
	st.summarise()
	return st
}

// Percentile of sorted durations by the nearest-rank method; 0 when empty.
func Percentile(sorted []time.Duration, p int) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := (p*len(sorted) + 99) / 100 // ceil(p/100 * n)
	return sorted[max(rank, 1)-1]
}

// ErrNotLoopback refuses a target that is not on this machine: the load
// generator is for measuring, not for loading other people's servers.
var ErrNotLoopback = errors.New("loadgen: target must be a loopback address (127.0.0.1, ::1 or localhost)")

// HTTPGet returns a Do that GETs target over keep-alive connections, conns
// at most, and expects status 200.
func HTTPGet(target string, conns int) (Do, error) {
	u, err := url.Parse(target)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return nil, fmt.Errorf("loadgen: %q is not an http(s) URL", target)
	}
	if !loopback(u.Hostname()) {
		return nil, fmt.Errorf("%w; got %q", ErrNotLoopback, u.Host)
	}
	client := &http.Client{
		Timeout: 30 * time.Second,
		Transport: &http.Transport{
			MaxIdleConns:        conns,
			MaxIdleConnsPerHost: conns,
			MaxConnsPerHost:     conns,
			DisableCompression:  true, // measure rendering, not gzip
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	return func(ctx context.Context) (int, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, target, nil)
		if err != nil {
			return 0, err
		}
		resp, err := client.Do(req)
		if err != nil {
			return 0, err
		}
		defer resp.Body.Close()
		n, err := io.Copy(io.Discard, resp.Body)
		if err != nil {
			return 0, err
		}
		if resp.StatusCode != http.StatusOK {
			return 0, fmt.Errorf("GET %s: status %d", target, resp.StatusCode)
		}
		return int(n), nil
	}, nil
}

func loopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
