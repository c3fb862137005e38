#!/usr/bin/env bash
# Installs what building and testing hexarena needs, skipping whatever is
# already present so that a second run costs seconds. Versions are the ones
# known to build together on this kind of machine (see README).
set -euo pipefail

CARGO_LEPTOS_VERSION=0.3.10
WASM_BINDGEN_VERSION=0.2.130   # must equal the `wasm-bindgen` pin in Cargo.toml

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
export PATH="$HOME/.cargo/bin:$root/end2end/node_modules/.bin:$PATH"

want_browser=${WANT_BROWSER:-1}

log() { printf '\033[1m[tools]\033[0m %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  log "adding the wasm32-unknown-unknown target"
  rustup target add wasm32-unknown-unknown
fi

if ! cargo leptos --version 2>/dev/null | grep -q "$CARGO_LEPTOS_VERSION"; then
  log "installing cargo-leptos $CARGO_LEPTOS_VERSION (takes a while, once)"
  cargo install cargo-leptos --version "$CARGO_LEPTOS_VERSION" --locked
fi

if ! wasm-bindgen --version 2>/dev/null | grep -q "$WASM_BINDGEN_VERSION"; then
  log "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  # No --locked: its lockfile names a crate this registry lacks.
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION" --force
fi

# npm packages: Playwright (no browser download) and binaryen's wasm-opt,
# which a release build of cargo-leptos runs from PATH.
if [ ! -x "$root/end2end/node_modules/.bin/wasm-opt" ] || [ ! -d "$root/end2end/node_modules/@playwright/test" ] \
   || [ "$root/end2end/package-lock.json" -nt "$root/end2end/node_modules/.stamp" ]; then
  log "installing npm packages in end2end/"
  (cd "$root/end2end" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund && touch node_modules/.stamp)
fi

# hexgame's reference clients (PyPI), which the compatibility tests run
# against hexarena; pinned to the version whose protocol we follow.
HEXGAME_VERSION=0.4.3
if ! "$root/target/hexgame-venv/bin/python" -c "import hexgame, sys; sys.exit(hexgame.__version__ != '$HEXGAME_VERSION')" 2>/dev/null; then
  log "installing the hexgame $HEXGAME_VERSION reference clients in target/hexgame-venv"
  python3 -m venv "$root/target/hexgame-venv"
  "$root/target/hexgame-venv/bin/pip" install -q --disable-pip-version-check "hexgame==$HEXGAME_VERSION"
fi

if [ "$want_browser" = 1 ] && [ ! -x /usr/bin/chromium ]; then
  log "installing Chromium from Debian"
  if [ "$(id -u)" = 0 ]; then SUDO=""; else SUDO="sudo"; fi
  $SUDO apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium >/dev/null
fi
