#!/bin/sh
# Serve examples/leaky (each render keeps ~100 KB in a closure) for 20,000
# requests with max_memory_mb = 32 and with rotation off, and print the
# process's live heap every 2,000 requests. Flags go to the Go program, e.g.
#   scripts/leaky-demo.sh -n 5000 -max-memory-mb 16
set -eu
cd "$(dirname "$0")/.."
exec go run ./examples/leaky/cmd/leaky-demo "$@"
