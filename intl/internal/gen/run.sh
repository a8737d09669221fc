#!/bin/sh
# Regenerates intl/internal/cldr/*.bin from CLDR 48 (npm's cldr-* 48.2.0)
# and icu.json from the Node on PATH (it must be Node 20 with ICU 78.2,
# the parity oracle). The npm packages go to a temporary folder that is
# removed afterwards; CLDR_DIR=path/to/node_modules reuses an install.
# Run: go generate ./intl/internal/cldr
set -eu
here=$(cd "$(dirname "$0")" && pwd)
tmp=${CLDR_DIR:-}
if [ -z "$tmp" ]; then
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  (cd "$tmp" && npm install --no-save --no-package-lock --no-audit --no-fund --loglevel=error \
    cldr-core@48.2.0 cldr-numbers-full@48.2.0 cldr-dates-full@48.2.0 \
    cldr-localenames-full@48.2.0 cldr-units-full@48.2.0 cldr-misc-full@48.2.0 \
    cldr-cal-buddhist-modern@43.1.0)
  tmp=$tmp/node_modules
fi
cd "$here/../../.."
go run ./intl/internal/gen -src "$tmp" -out intl/internal/cldr
node "$here/icu-lists.js"
