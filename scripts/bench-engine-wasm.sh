#!/usr/bin/env bash
# The engine's speed natively and in WebAssembly (under Node, as V8 runs
# the Web Worker), both optimised, on the empty 11x11 board, searched in
# slices as the worker searches; prints both rates and how many times
# slower WebAssembly is (issue 27's target: at most 1.5). Not part of the
# test suite: it measures, it does not check.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$PATH"
native=$(cargo test -q --release --test engine_wasm -- --ignored speed --nocapture 2>/dev/null | grep "engine speed")
wasm=$(CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --release --target wasm32-unknown-unknown --test engine_wasm -- --include-ignored --nocapture speed 2>/dev/null |
  grep "engine speed")
echo "$native"
echo "$wasm"
# Each build prints its first 20,000 iterations (a fresh process, partly on
# V8's baseline code) and the next 200,000 (the worker's steady state).
rate() { grep "$2" <<<"$1" | grep -Eo '[0-9]+ iterations/s' | grep -Eo '^[0-9]+'; }
for when in first next; do
  awk -v n="$(rate "$native" "$when")" -v w="$(rate "$wasm" "$when")" -v when="$when" \
    'BEGIN { printf "WebAssembly is %.2f times slower than native (%s iterations)\n", n / w, when }'
done
