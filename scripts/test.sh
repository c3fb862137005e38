#!/usr/bin/env bash
# Runs every check and test of hexarena: formatting, lints for both
# targets, the engine's purity, unit, property and
# integration tests, and the browser tests in headless Chromium against a
# real server.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$HOME/.cargo/bin:$root/end2end/node_modules/.bin:$PATH"

# A whole-suite run builds everything once: incremental caches would only
# double the disk it takes.
export CARGO_INCREMENTAL=0

log="$(mktemp)"
trap 'rm -f "$log"' EXIT
# Each step's time is printed when the next starts, and all of them at
# the end, so a slow CI run says where its minutes went.
started=$SECONDS
step_name=""
step_started=$SECONDS
timings=""
end_step() {
  if [ -n "$step_name" ]; then
    timings+="$(printf '%6ss  %s' "$((SECONDS - step_started))" "$step_name")"$'\n'
  fi
}
step() {
  end_step
  step_name="$*"
  step_started=$SECONDS
  printf '\n\033[1m== %s\033[0m\n' "$*"
}

step "tools (installed once)"
scripts/ensure-tools.sh

# The database tests use the local PostgreSQL server; start it if this
# machine has one that is stopped (they skip loudly when there is none).
if command -v pg_ctlcluster >/dev/null && ! (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -1)" main start 2>/dev/null || true
fi
# The cluster tests share live play through the machine's Redis; start it
# (keeping nothing on disk) if it is installed and stopped.
if command -v redis-server >/dev/null && ! (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null; then
  redis-server --bind 127.0.0.1 --port 6379 --save '' --appendonly no --daemonize yes >/dev/null || true
  for _ in $(seq 50); do (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null && break; sleep 0.1; done
fi

step "formatting"
cargo fmt --check

step "the engine is pure Rust and builds for wasm32 with no features"
scripts/check-engine-purity.sh

# The server's lints run inside the test build the suite makes anyway:
# with clippy-driver as the workspace's compiler, each of our crates is
# compiled and linted on the way, so the dependencies are compiled once
# instead of checked by `cargo clippy` and then compiled again
# (docs/benchmarks.md, "The suite's lints inside its builds"). Its code is
# not byte for byte rustc's, which a test does not mind. Registry
# crates get `--cap-lints allow` from cargo, so `-D warnings` is ours only.
# The same variables for every command that shares a build, or cargo
# would compile it again.
linted=(env RUSTC_WORKSPACE_WRAPPER=clippy-driver RUSTFLAGS="-D warnings")

step "build the unit and server tests, with the server's lints (every target)"
"${linted[@]}" cargo test --features ssr --no-run --all-targets

step "unit, property, doc and server integration tests"
"${linted[@]}" cargo test --features ssr 2>&1 | tee -a "$log"

# Every figure against MoHex rests on these scripts: their referee board,
# their records and a real match between two of the tests' hexarena
# binaries, one of them made to die mid-game.
step "the match tools (Python), with the tests' hexarena binary"
HEXARENA_BIN="${CARGO_TARGET_DIR:-$root/target}/debug/hexarena" \
  python3 -m unittest discover -s scripts/tests -v 2>&1 | tee -a "$log"

step "the engine in WebAssembly (Node) answers as natively"
CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER=wasm-bindgen-test-runner \
  cargo test --target wasm32-unknown-unknown --test engine_wasm 2>&1 | tee -a "$log"

step "solver proofs and the ladders' property tests (optimised build: too slow unoptimised)"
cargo test --release --lib -- engine::solver engine::bench engine::search::tests::losing_ engine::search::level::tests::small_boards_ \
  engine::search::level::tests::the_top_level_does_not_play \
  engine::search::bounded::tests::a_refuted_ engine::search::endgame::tests::a_choice_the_solver_refutes \
  engine::connections::ladders::tests::every_ladder_holds \
  engine::connections::all_ends::ladder_links::tests::longer_ \
  engine::connections::all_ends::ladder_links::tests::fourth_row_ 2>&1 | tee -a "$log"

# The bundles are measured and tested as they ship, so they are built by
# rustc alone: built with clippy-driver as the compiler, the same commit
# put more static data into what every page loads first, over its budget
# in CI only. Their lints are a check of their own (docs/benchmarks.md,
# "The bundles built as they ship").
step "the pages' and the worker's lints (WebAssembly)"
cargo clippy --features hydrate --lib --target wasm32-unknown-unknown -- -D warnings
cargo clippy -p hexarena-engine-worker --lib --target wasm32-unknown-unknown -- -D warnings

step "release bundles within their size budgets, built as they ship"
scripts/check-bundle-sizes.sh

# The browser tests run the release bundles just built (what visitors
# get) against the debug server that building the tests made: a second,
# debug build of the bundles and server cost more than a third of the
# suite's time (docs/benchmarks.md). The server finds the bundles' hashed
# names in hash.txt beside its binary.
step "the browser tests' site: the release bundles, served by the tests' debug server"
target="${CARGO_TARGET_DIR:-$root/target}"
cp "$target/release/hash.txt" "$target/debug/hash.txt"

step "browser tests (Playwright, headless Chromium)"
(cd end2end && CI="${CI:-}" npx playwright test) 2>&1 | tee -a "$log"

end_step
printf '\n\033[1mtime per step\033[0m\n%s' "$timings"

rust=$(grep -Eo 'test result: ok\. [0-9]+ passed' "$log" | awk '{s += $4} END {print s + 0}')
python=$(grep -Eo '^Ran [0-9]+ tests?' "$log" | awk '{s += $2} END {print s + 0}')
browser=$(grep -Eo '^ *[0-9]+ passed' "$log" | awk '{s += $1} END {print s + 0}')
printf '\n\033[1mall checks passed in %ss\033[0m (%s Rust tests, %s Python tests, %s browser tests)\n' \
  "$((SECONDS - started))" "$rust" "$python" "$browser"
echo "$((rust + python + browser)) passed, 0 failed"
