#!/usr/bin/env bash
# Builds the whole site: the engine worker's bundle, then the server and the
# pages' bundle with cargo-leptos (which copies the worker into the site).
# Release builds also store every asset compressed (brotli, gzip), so the
# server never compresses a bundle per request.
# Usage: scripts/build-site.sh [--release]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$root/end2end/node_modules/.bin:$PATH"

if [ "${1:-}" = "--release" ]; then
  scripts/build-engine-worker.sh --release
  cargo leptos build --release --precompress --split
else
  scripts/build-engine-worker.sh
  cargo leptos build --split
fi
