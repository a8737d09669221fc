#!/usr/bin/env bash
# Runs every bext test, installing what the tests need when it is missing:
# Debian's chromium (live-reload browser test), prometheus (promtool) and
# redis-server (the fleet tests), and the npm packages of examples/react.
# CI calls this script.
set -euo pipefail
cd "$(dirname "$0")"

need=()
command -v chromium >/dev/null 2>&1 || need+=(chromium)
command -v promtool >/dev/null 2>&1 || need+=(prometheus)
command -v redis-server >/dev/null 2>&1 || need+=(redis-server)
if [ ${#need[@]} -gt 0 ]; then
  if [ "$(id -u)" = 0 ]; then
    echo "test.sh: installing ${need[*]} from Debian"
    apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null
  else
    echo "test.sh: missing ${need[*]}: run 'sudo apt-get install ${need[*]}'" >&2
    exit 1
  fi
fi
# npm ci in every fixture folder with a package-lock.json and no node_modules
# (examples/react, testdata/npm/*, testdata/compat …).
while IFS= read -r lock; do
  dir=$(dirname "$lock")
  if [ ! -d "$dir/node_modules" ]; then
    echo "test.sh: npm ci in $dir"
    (cd "$dir" && npm ci --no-audit --no-fund --loglevel=error)
  fi
done < <(find . -name package-lock.json -not -path '*/node_modules/*' -not -path './.git/*' | sort)

export BEXT_TEST_REQUIRE=1   # tests fail, instead of skipping, when a tool is missing
go vet ./...
go test -race -timeout 40m "$@" ./...
# The reliability soak: the real binary under the chaos mix for 60 s; fails
# on a failed good request or RSS over the memory limit + margin.
go run ./scripts/soak -d 60s
# The page cache's soak: 16 connections for 60 s on pages cached for 1 s
# with stale-while-revalidate=60 whose every third render throws; fails on
# any failed response or more than about one render per second per page.
go run ./scripts/soak -mix cache -d 60s
