// Command bench compares ways of serving the same React pages, built once
// from examples/react with bext's own esbuild build, in one run:
//
//   - a, direct: -workers isolates, one goroutine each, rendering in tight
//     loops in-process, no pool and no HTTP — the limit of what goja can
//     render on this machine;
//   - b, http: bext as `bext serve` runs it — a worker pool of -workers
//     isolates (jsc_workers) behind render.Server's handler and an
//     http.Server on a loopback port, every fast path on (the default);
//   - c, node: Node's http module plus renderToString on the same bundle
//     (node-server.cjs, one process per CPU with the cluster module);
//   - d, http-stock: b with every fast path off (fast_paths = false: React
//     as it ships, stock string sink included);
//   - e, cached (not run by default): b with the page cache on and a
//     [[cache.rule]] caching every page — after the first request, fresh
//     hits served from memory;
//   - f, bare (not run by default): a plain net/http handler writing the
//     page's bytes, rendered once — the limit of e;
//   - g, direct-sink and h, http-sink (not run by default): a and b with the
//     fast sink alone, as bext rendered before the other fast paths;
//   - pool, pool-stock (not run by default): pool.Render in-process, no HTTP;
//   - url: any server already running on this machine (-url), e.g.
//     `bext serve -config examples/react/config.toml`.
//
// It reports, per page, renders per second, p50/p99/max latency and
// renders per CPU-second of this process (the CPU time it used during the
// target's turns, the load generator's share included; "–" for Node, which
// renders in other processes) of each target, then renders/s and renders
// per CPU-second of every page side by side with the ratios b/a (what
// serving over HTTP keeps of the limit), b/c (bext against Node) and b/d
// (what the fast paths gain over React as shipped), with e: e/f (what the
// cache keeps of a bare handler) and e/c (cached pages against Node
// rendering them), and with g and h: a/g and b/h (what the fast paths
// beyond the sink gain).
//
// Run from the repository root (examples/react needs `npm ci` first):
//
//	go run ./examples/bench                         # a, b, c, d on /small, /, /large: about 2 minutes
//	go run ./examples/bench -pages /large -d 20s
//	go run ./examples/bench -targets cached,bare,node -pages / -c 16
//	go run ./examples/bench -targets direct,direct-sink,http,http-sink -d 10s -rounds 10
//	go run ./examples/bench -targets url -url http://127.0.0.1:3000/
//	go run ./examples/bench -targets direct,http -cpuprofile /tmp/cpu.prof
//
// The load generator runs in this process and shares the CPUs with the
// in-process targets, as a client on the same machine would. It keeps -c
// requests in flight (the direct target: one loop per isolate) for -d per
// target and page after a -warmup, only against loopback addresses.
package main
