#!/usr/bin/env bash
# Page-weight and time-to-interactive benchmark: builds a release, serves it
# on a spare port with a throwaway database, and loads every page cold in
# headless Chromium on loopback and on a throttled phone-like link
# (end2end/bench/pages.mjs). Prints a table; it passes or fails nothing.
#   scripts/bench-pages.sh                 (builds first)
#   SKIP_BUILD=1 scripts/bench-pages.sh    (measures the build already there)
#   BENCH_BIN=/tmp/old/hexarena BENCH_SITE=/tmp/old/site scripts/bench-pages.sh
#   scripts/bench-pages.sh --engine [SECONDS]  (the analysis page's engine
#                                    worker's iterations/s instead)
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$root/end2end/node_modules/.bin:$PATH"
if [ -z "${SKIP_BUILD:-}" ] && [ -z "${BENCH_BIN:-}" ]; then
  scripts/ensure-tools.sh
  scripts/build-site.sh --release
fi

bin="${BENCH_BIN:-$root/target/release/hexarena}"
site="${BENCH_SITE:-$root/target/site}"
port="${BENCH_PORT:-3391}"
work="$(mktemp -d)"
trap 'kill "$server" 2>/dev/null || true; rm -rf "$work"' EXIT

(cd "$work" && LEPTOS_SITE_ADDR="127.0.0.1:$port" LEPTOS_SITE_ROOT="$site" LEPTOS_OUTPUT_NAME=hexarena \
  DATABASE_URL="sqlite://$work/bench.db?mode=rwc" HEXARENA_LOG=json exec "$bin" >"$work/server.log" 2>&1) &
server=$!
for _ in $(seq 1 100); do
  curl -fs "http://127.0.0.1:$port/health" >/dev/null && break
  sleep 0.2
done

echo "bundles in $site:"
find "$site" -type f \( -name '*.wasm' -o -name '*.js' -o -name '*.css' \) ! -name '*.br' ! -name '*.gz' -printf '%s %P\n' |
  while read -r bytes name; do
    gz=$(gzip -9c "$site/$name" | wc -c)
    printf '  %-60s %8.1f KB raw %8.1f KB gzip\n' "$name" "$(echo "$bytes/1000" | bc -l)" "$(echo "$gz/1000" | bc -l)"
  done
if [ "${1:-}" = "--engine" ]; then
  shift
  BASE_URL="http://127.0.0.1:$port" node end2end/bench/engine.mjs "$@"
else
  BASE_URL="http://127.0.0.1:$port" node end2end/bench/pages.mjs "$@"
fi
