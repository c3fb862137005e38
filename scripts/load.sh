#!/usr/bin/env bash
# Measures live play under load on this machine (not part of the test
# suite): a release hexarena server and the load tool (examples/load.rs)
# over loopback. With --compare-hexgame it also runs the same load against
# hexgame-server 0.4.3 (installed from PyPI into target/hexgame-server-venv).
#
#   scripts/load.sh [--compare-hexgame] [--seconds 15]
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
seconds=15
compare=0
cluster=0
while [ $# -gt 0 ]; do
  case "$1" in
    --compare-hexgame) compare=1 ;;
    --cluster) cluster=1 ;;
    --seconds) seconds="$2"; shift ;;
    *) echo "usage: scripts/load.sh [--compare-hexgame | --cluster] [--seconds N]" >&2; exit 2 ;;
  esac
  shift
done

cargo build --release --features ssr --bin hexarena --example load
load=target/release/examples/load
port=3391
work="$(mktemp -d)"
server=""
trap 'kill $server 2>/dev/null || true; rm -rf "$work"' EXIT

wait_up() {
  for _ in $(seq 100); do
    if (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; then return 0; fi
    sleep 0.1
  done
  echo "server on port $1 did not start" >&2
  exit 1
}

# The limits lifted for every load run (see below).
limits=(HEXARENA_MAX_TABLES=100000 HEXARENA_RECONNECT_SECS=1 HEXARENA_MAX_CONNECTIONS_PER_ADDRESS=0
  HEXARENA_WAITING_TABLES_PER_ADDRESS=0 HEXARENA_FRAMES_PER_SEC=0 HEXARENA_MOVES_PER_SEC=0 HEXARENA_LOG=json)

if [ "$cluster" = 1 ]; then
  db="hexarena_load_$$"
  prefix="hexarena-load-$$"
  psql -q -h 127.0.0.1 -U postgres -d postgres -c "CREATE DATABASE $db"
  database="postgres://postgres@127.0.0.1:5432/$db"
  trap 'kill $server 2>/dev/null || true; wait $server 2>/dev/null || true;
    psql -q -h 127.0.0.1 -U postgres -d postgres -c "DROP DATABASE IF EXISTS $db WITH (FORCE)";
    redis-cli --scan --pattern "$prefix:*" | xargs -r redis-cli del >/dev/null; rm -rf "$work"' EXIT
  start_instance() { # port, then extra settings
    local p="$1"; shift
    (cd "$work" && exec env LEPTOS_SITE_ADDR="127.0.0.1:$p" LEPTOS_SITE_ROOT="$root/target/site" DATABASE_URL="$database" \
      "${limits[@]}" "$@" "$root/target/release/hexarena" 2>>"$work/server-$p.log") &
    server="$server $!"
    wait_up "$p"
  }
  runs() { # the instances' URLs, comma-separated
    for games in 10 100 1000; do
      "$load" --server "$1" --games "$games" --seconds "$seconds"
      sleep 2
    done
  }
  echo "== one instance (release), PostgreSQL journal and archive, no Redis"
  start_instance $port
  runs "ws://127.0.0.1:$port"
  kill $server; wait $server 2>/dev/null || true; server=""
  echo "== two instances (release) sharing PostgreSQL and Redis; bots alternate between them"
  start_instance $port HEXARENA_REDIS_URL=redis://127.0.0.1:6379/0 HEXARENA_REDIS_PREFIX="$prefix"
  start_instance $((port + 2)) HEXARENA_REDIS_URL=redis://127.0.0.1:6379/0 HEXARENA_REDIS_PREFIX="$prefix"
  runs "ws://127.0.0.1:$port,ws://127.0.0.1:$((port + 2))"
  exit 0
fi

echo "== hexarena (release), 2 cores shared by server and load tool"
# Every load bot connects from this one address, and the flat-out runs play
# hundreds of moves a second per socket: the per-address and per-connection
# limits (sized for people and real bots) are lifted here, nothing else.
(cd "$work" && LEPTOS_SITE_ADDR="127.0.0.1:$port" LEPTOS_SITE_ROOT="$root/target/site" \
  HEXARENA_MAX_TABLES=100000 HEXARENA_RECONNECT_SECS=1 HEXARENA_MAX_CONNECTIONS_PER_ADDRESS=0 \
  HEXARENA_WAITING_TABLES_PER_ADDRESS=0 HEXARENA_FRAMES_PER_SEC=0 HEXARENA_MOVES_PER_SEC=0 \
  HEXARENA_LOG=json exec "$root/target/release/hexarena" 2>"$work/server.log") &
server=$!
wait_up $port
url="ws://127.0.0.1:$port"
# Bots leave mid-game when a run ends: with a 1 s reconnect window their
# tables are gone before the next run starts (run() waits 2 s), so no run
# is measured with the previous one's tables still listed.
run() { "$load" "$@"; sleep 2; }
run --server "$url" --games 0 --idle 2000 --server-pid "$server"
run --server "$url" --games 10 --seconds "$seconds"
# Runs flat out vary by several percent on shared cores: the cost of
# subscribers is read from three alternating pairs, without and with.
for games in 100 1000; do
  for _ in 1 2 3; do
    run --server "$url" --games "$games" --seconds "$seconds"
    run --server "$url" --games "$games" --seconds "$seconds" --subscribers 10
  done
done
# 1,000 games at a human-like pace (a move every 1-3 s per player, 2 s on average).
run --server "$url" --games 1000 --seconds "$seconds" --think-ms 2000
run --server "$url" --games 1000 --seconds "$seconds" --think-ms 2000 --subscribers 10
kill $server; wait $server 2>/dev/null || true

if [ "$compare" = 1 ]; then
  venv="$root/target/hexgame-server-venv"
  if [ ! -x "$venv/bin/hexgame-server" ]; then
    python3 -m venv "$venv"
    "$venv/bin/pip" install -q --disable-pip-version-check "hexgame-server==0.4.3"
  fi
  echo "== hexgame-server 0.4.3 (uvicorn, one worker)"
  (cd "$work" && MAX_SLOTS=2000 exec "$venv/bin/hexgame-server" --port $((port + 1)) --log-level warning) &
  server=$!
  wait_up $((port + 1))
  url="ws://127.0.0.1:$((port + 1))"
  "$load" --server "$url" --games 0 --idle 200 --server-pid "$server"
  for games in 10 100; do
    "$load" --server "$url" --games "$games" --seconds "$seconds"
  done
  "$load" --server "$url" --games 10 --seconds "$seconds" --subscribers 1
fi
