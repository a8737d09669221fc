#!/usr/bin/env bash
# Runs the whole test suite N times in a row (default 5) while two busy
# loops keep both CPUs of a CI-sized machine loaded, and fails if any run
# fails: the check that no test's verdict depends on timing.
#
#   scripts/stress-tests.sh [runs] [extra go test args…]
set -uo pipefail
cd "$(dirname "$0")/.."
runs=${1:-5}
shift || true
export BEXT_TEST_REQUIRE=1

hogs=()
for _ in 1 2; do
  ( while :; do :; done ) &
  hogs+=($!)
done
trap 'kill "${hogs[@]}" 2>/dev/null' EXIT

failed=0
for i in $(seq 1 "$runs"); do
  start=$(date +%s)
  if go test -race -count=1 -timeout 40m "$@" ./... >"/tmp/bext-stress-$i.log" 2>&1; then
    echo "run $i/$runs: ok ($(( $(date +%s) - start )) s)"
  else
    failed=$((failed + 1))
    echo "run $i/$runs: FAILED ($(( $(date +%s) - start )) s); see /tmp/bext-stress-$i.log"
    grep -E '^(--- FAIL|FAIL|panic)' "/tmp/bext-stress-$i.log" | head -20
  fi
done
echo "$failed of $runs runs failed under load"
[ "$failed" -eq 0 ]
