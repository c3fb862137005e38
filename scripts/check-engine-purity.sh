#!/usr/bin/env bash
# The engine must stay free of web, server and database code: it is shared
# by the server, the browser worker and the command line, and benchmarked
# natively. This builds the library with no features for wasm32 (which
# compiles only the engine) and checks both its dependency tree and its
# imports.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

forbidden='leptos|axum|tokio|sqlx|web_sys|web-sys|wasm_bindgen|wasm-bindgen|js_sys|js-sys|hyper|tower'

cargo build --lib --no-default-features --target wasm32-unknown-unknown --quiet

deps="$(cargo tree --no-default-features --edges normal --prefix none --format '{p}' --target wasm32-unknown-unknown | awk '{print $1}' | sort -u)"
if echo "$deps" | grep -Eq "^($forbidden)"; then
  echo "the engine build pulls in web/server crates:" >&2
  echo "$deps" | grep -E "^($forbidden)" >&2
  exit 1
fi

if grep -rEn "\b($forbidden)::|use ($forbidden)\b|crate::(app|browser|components|pages|server)\b" src/engine; then
  echo "src/engine must not use web, server or database code (see the lines above)" >&2
  exit 1
fi
echo "engine is pure: $(echo "$deps" | tr '\n' ' ')"
