#!/usr/bin/env bash
# Builds hexarena (release) and serves it on its embedded defaults.
# Usage: scripts/start.sh            (http://127.0.0.1:3000)
#        PORT=8080 scripts/start.sh
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
WANT_BROWSER=0 scripts/ensure-tools.sh
export PATH="$HOME/.cargo/bin:$root/end2end/node_modules/.bin:$PATH"

scripts/build-site.sh --release

port="${PORT:-3000}"
export LEPTOS_SITE_ADDR="${LEPTOS_SITE_ADDR:-127.0.0.1:$port}"
export LEPTOS_SITE_ROOT="${LEPTOS_SITE_ROOT:-target/site}"
export LEPTOS_OUTPUT_NAME=hexarena
echo "hexarena: open http://$LEPTOS_SITE_ADDR/ (Ctrl-C stops it)"
exec target/release/hexarena
