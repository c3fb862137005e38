#!/usr/bin/env bash
# Builds the engine Web Worker's own WASM bundle (engine-worker/: the
# engine and the worker loop, no pages) into public/engine/, from where
# `cargo leptos build` copies it into the site with the other assets. Every
# file carries a hash of its content in its name, so browsers may cache it
# for good; manifest.json names the loader, which the server puts in every
# page. Usage: scripts/build-engine-worker.sh [--release]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$root/end2end/node_modules/.bin:$PATH"

if [ "${1:-}" = "--release" ]; then profile=worker-release; else profile=dev; fi
dir=$([ "$profile" = dev ] && echo debug || echo "$profile")
target="${CARGO_TARGET_DIR:-$root/target}"

cargo build -p hexarena-engine-worker --lib --target wasm32-unknown-unknown --profile "$profile"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
wasm-bindgen --target web --no-typescript --out-dir "$work" --out-name hexarena_engine \
  "$target/wasm32-unknown-unknown/$dir/hexarena_engine_worker.wasm"
if [ "$profile" != dev ]; then
  wasm-opt -O3 --enable-bulk-memory --enable-nontrapping-float-to-int \
    "$work/hexarena_engine_bg.wasm" -o "$work/hexarena_engine_bg.wasm"
fi

hash() { sha256sum "$1" | cut -c1-16; }
wasm="hexarena_engine.$(hash "$work/hexarena_engine_bg.wasm").wasm"
glue="hexarena_engine.$(hash "$work/hexarena_engine.js").js"
out="$root/public/engine"
rm -rf "$out"
mkdir -p "$out"
cp "$work/hexarena_engine_bg.wasm" "$out/$wasm"
cp "$work/hexarena_engine.js" "$out/$glue"
# The learned patterns travel beside the bundle, not inside it: fetched
# once, then cached for good like the bundle (their name has their hash).
patterns="patterns.$(hash src/engine/patterns/patterns.txt).txt"
cp src/engine/patterns/patterns.txt "$out/$patterns"
cat >"$work/loader.js" <<JS
// Starts hexarena's engine worker: loads the worker's own WASM bundle and
// its learned patterns together, then registers its message handler (see
// src/engine_worker). Without the patterns the engine still plays.
import init, { start_engine_worker } from './$glue';

const patterns = fetch(new URL('./$patterns', import.meta.url))
  .then((r) => (r.ok ? r.text() : ''))
  .catch(() => '');
await init({ module_or_path: new URL('./$wasm', import.meta.url) });
start_engine_worker(await patterns);
JS
loader="engine-worker.$(hash "$work/loader.js").js"
cp "$work/loader.js" "$out/$loader"
printf '{"loader":"/engine/%s"}\n' "$loader" >"$out/manifest.json"
printf 'engine worker: %s (%s bytes), %s (%s bytes), %s\n' "$wasm" "$(stat -c %s "$out/$wasm")" \
  "$patterns" "$(stat -c %s "$out/$patterns")" "$loader"
