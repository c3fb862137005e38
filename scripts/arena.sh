#!/usr/bin/env bash
# Plays hexarena against OpenSpiel's MCTS bot (scripts/arena.py), outside
# CI. Installs open_spiel into a virtual environment under target/ once and
# builds the release binary if needed. Arguments go to arena.py.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
venv=target/arena-venv
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pyspiel" 2>/dev/null; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet open_spiel==2.0.2
fi
[ -x target/release/hexarena ] || cargo build --release --features ssr --bin hexarena
exec "$venv/bin/python" scripts/arena.py "$@"
