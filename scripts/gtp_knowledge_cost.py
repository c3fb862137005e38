#!/usr/bin/env python3
"""What a benzene engine's (MoHex's) knowledge costs it, on the positions of
games that scripts/gtp_match.py recorded, to set beside our own figures
(`cargo run --release --example knowledge_reach`).

    scripts/gtp_knowledge_cost.py --engine "/path/to/mohex --use-logfile=0" \
        --searches 40 half-a.txt half-b.txt

Not part of CI. For every position before a move of the recorded games it
times benzene's `vc-build` for the side to move: the same computation its
tree search makes once at a node that reaches its knowledge threshold
(inferior cells, the full connection build, fill-in and the build again
where fill-in added stones). The time of a round trip of a command that
does nothing is measured and subtracted. With --searches N it also lets
the engine search N of the positions (spread over the games, at its own
`max_time`, one thread) and reads `mohex-search-statistics` after each:
its playouts, its knowledge computations and the share of the move's time
those computations take at the mean measured cost.
"""

import argparse
import statistics
import subprocess
import sys
import time

from gtp_match import Engine, EngineGone, read_records
from gtp_review import set_position


def to_move(moves):
    return "b" if len(moves) % 2 == 0 else "w"


def timed(engine, command, repeats):
    best = None
    for _ in range(repeats):
        start = time.perf_counter()
        engine.send(command)
        took = time.perf_counter() - start
        best = took if best is None else min(best, took)
    return best


def search_figures(text):
    """GamesPlayed and Knowledge from `mohex-search-statistics`."""
    figures = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) >= 2 and parts[0] in ("GamesPlayed", "Knowledge"):
            figures[parts[0]] = int(parts[1])
    if "GamesPlayed" not in figures:
        raise RuntimeError("mohex-search-statistics has no GamesPlayed line")
    figures.setdefault("Knowledge", 0)
    return figures


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--engine", required=True, help="the benzene engine's command")
    ap.add_argument("--searches", type=int, default=0, help="positions to search and read statistics of")
    ap.add_argument("--max-time", type=float, default=1.0, help="the engine's max_time for --searches")
    ap.add_argument("--repeats", type=int, default=3, help="times each build is run; the fastest counts")
    ap.add_argument("records", nargs="+")
    args = ap.parse_args()
    try:
        games = read_records(args.records)
    except (OSError, ValueError) as e:
        sys.exit(str(e))
    sizes = {g.size for g in games}
    if len(sizes) != 1:
        sys.exit(f"the records hold boards of several sizes {sorted(sizes)}: give one size's files")
    size = sizes.pop()
    positions = [g.moves[:k] for g in games for k in range(1, len(g.moves))]
    if not positions:
        sys.exit("the records hold no position")

    def start():
        setup = ["param_game allow_swap 0", "param_mohex num_threads 1", f"param_mohex max_time {args.max_time}"]
        started = Engine(args.engine, setup, "the engine")
        started.start(size)
        return started

    engine = start()
    try:
        idle = min(timed(engine, "name", 1) for _ in range(200))
        builds = []
        for moves in positions:
            set_position(engine, size, moves)
            builds.append(max(0.0, timed(engine, f"vc-build {to_move(moves)}", args.repeats) - idle))
        mean = statistics.mean(builds)
        print(f"{len(positions)} positions of {len(games)} {size}x{size} games; a command's round trip {idle * 1e6:.0f} µs")
        print(f"vc-build: mean {mean * 1e6:.0f} µs, median {statistics.median(builds) * 1e6:.0f} µs, "
              f"90th percentile {sorted(builds)[len(builds) * 9 // 10] * 1e6:.0f} µs")
        if args.searches > 0:
            step = max(1, len(positions) // args.searches)
            games_played, knowledge, seconds = [], [], []
            crashed = 0
            for moves in positions[::step][: args.searches]:
                set_position(engine, size, moves)
                began = time.perf_counter()
                try:
                    engine.send(f"genmove {to_move(moves)}")
                except EngineGone:
                    # MoHex dies in some positions its solver decided: the
                    # position is left out and a fresh engine goes on.
                    crashed += 1
                    engine = start()
                    continue
                took = time.perf_counter() - began
                figures = search_figures(engine.send("mohex-search-statistics"))
                seconds.append(took)
                games_played.append(figures["GamesPlayed"])
                knowledge.append(figures["Knowledge"])
            n = len(seconds)
            if n == 0:
                sys.exit(f"every one of the {crashed} searches stopped the engine")
            share = sum(k * mean for k in knowledge) / sum(seconds)
            print(f"{n} searches: {statistics.mean(seconds):.2f} s a move, {statistics.mean(games_played):.0f} playouts "
                  f"({sum(games_played) / sum(seconds):.0f} a second), {statistics.mean(knowledge):.0f} knowledge "
                  f"computations a move, about {share:.0%} of the move's time at the mean vc-build cost; "
                  f"{crashed} searches stopped the engine and are left out")
    except (RuntimeError, EngineGone) as e:
        sys.exit(str(e))
    finally:
        engine.stop()


if __name__ == "__main__":
    main()
