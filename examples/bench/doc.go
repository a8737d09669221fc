// Command bench compares ways of serving the same React page, built once
// from examples/react with bext's own esbuild build:
//
//   - inproc: bext's worker pool called directly, no HTTP — the limit of
//     what bext can render on this machine;
//   - inproc-stock: the same with React's stock string sink (fast sink off);
//   - node: Node's http module plus renderToString on the same bundle
//     (node-server.cjs, one process per CPU with the cluster module);
//   - url: any server already running on this machine (-url), e.g.
//     `bext serve -config examples/react/config.toml`, with fast_sink on or off.
//
// Run from the repository root (examples/react needs `npm ci` first):
//
//	go run ./examples/bench                      # all built-in targets, page /
//	go run ./examples/bench -path /large -d 20s
//	go run ./examples/bench -targets url -url http://127.0.0.1:3000/
//
// The load generator keeps -c requests in flight for -d after a -warmup,
// only against loopback addresses, and reports requests per second, p50 and
// p99 latency.
package main
