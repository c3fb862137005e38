#!/usr/bin/env python3
"""Where our search and an oracle disagree, and why: search or judgement.

Not part of CI (a measuring tool, like gtp_review.py). It reads positions
as the fast_checks example prints them (the first tab-separated field:
`11x11` and the moves, our cells, Red first). At each position:

1. the oracle (MoHex 2.0: `reg_genmove`, then `mohex-values`) names its
   move B; our engine (`hexarena-analyze ITERATIONS`) names its move O;
2. where they differ, the oracle judges both moves alike, each played and
   searched from the other side (its worth to the mover is one minus the
   opponent's best), so the loss of playing O is worth(B) - worth(O);
3. our engine judges both moves the same way, with the same search.

Where the oracle sees a loss, our own judgement tells the two causes
apart: if we too rate B at least as high as O once B is played, our
search did not look at B enough (its priors or pruning); if we still
rate B lower, our judgement of the position differs (the playouts and
the tree's knowledge). Lines of --out: the position's number, its stone
count, B, O, the oracle's worth of B and of O, ours of B and of O, B's
place among our search's moves by visits ("-": our checks pruned it), its
visits and O's.

GTP's vertices are our cells transposed (as in gtp_vcs.py).

    cargo run --release --example fast_checks -- games.txt 11 4 10 all > positions.tsv
    scripts/gtp_blind.py --positions positions.tsv --oracle "/path/to/mohex --use-logfile=0" \\
        --setup-oracle "param_mohex max_time 3" --setup-oracle "param_mohex num_threads 1" \\
        --setup-oracle "param_game allow_swap 0" --engine "target/release/hexarena gtp" --out blind.tsv
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_fillin import to_vertex  # noqa: E402
from gtp_match import Engine, EngineGone  # noqa: E402
from gtp_review import most_visited, oracle_values, parse_analysis, set_position  # noqa: E402


# Solver positions for a position the oracle decided without a search.
SOLVER_BUDGET = 20000


class Position:
    """The first field of a fast_checks line, in GTP's vertices."""

    def __init__(self, line, number):
        head = line.split("\t")[0].split()
        if not head or "x" not in head[0] or not head[0].split("x")[0].isdigit():
            raise ValueError(f"line {number}: expected '11x11' and the moves first")
        self.number = number
        self.size = int(head[0].split("x")[0])
        if "swap" in head[1:]:
            raise ValueError(f"line {number}: games with a swap are not read")
        self.moves = [to_vertex(m) for m in head[1:]]
        self.colour = "b" if len(self.moves) % 2 == 0 else "w"
        self.other = "w" if self.colour == "b" else "b"


def our_moves(engine, size, moves, iterations, listed=5):
    """Our search's moves for the side to move, best first, as
    (vertex, rate, visits); empty when the game is over."""
    set_position(engine, size, moves)
    try:
        return parse_analysis(engine.send(f"hexarena-analyze {iterations} {listed}"))
    except RuntimeError:
        return []


def our_choice(engine, size, moves, iterations):
    """Our best move and its rate for the side to move (None, None when
    the game is over or no move came back)."""
    analysis = our_moves(engine, size, moves, iterations)
    return (analysis[0][0], analysis[0][1]) if analysis else (None, None)


def oracle_worth(oracle, engine, p, move):
    """The oracle's worth to the mover of playing `move`. Where the oracle
    answers without a search (its solver or connections decided), our
    solver, with a small budget, says who wins; None if it cannot."""
    set_position(oracle, p.size, p.moves + [move])
    _, worth = most_visited(oracle_values(oracle, p.other, p.size))
    if worth is not None:
        return 1.0 - worth
    set_position(engine, p.size, p.moves + [move])
    winner = engine.send(f"hexarena-solve {SOLVER_BUDGET}").strip().lower()
    return {p.colour: 1.0, p.other: 0.0}.get(winner)


def our_worth(engine, p, move, iterations):
    """Our worth to the mover of playing `move` (1 when it ends the game)."""
    _, rate = our_choice(engine, p.size, p.moves + [move], iterations)
    return 1.0 if rate is None else 1.0 - rate


def judge(p, oracle, engine, iterations):
    """(B, O, oracle's worth of B, of O, ours of B, of O, B's place in our
    search's list by visits (from 1; None when our checks pruned it), its
    visits, O's visits), or None where the oracle gives no tree to read
    (its solver decided the position)."""
    set_position(oracle, p.size, p.moves)
    best, _ = most_visited(oracle_values(oracle, p.colour, p.size))
    if best == "-":
        return None
    listed = our_moves(engine, p.size, p.moves, iterations, p.size * p.size)
    if not listed:
        return None
    ours, _, our_visits = listed[0]
    place = next((i + 1 for i, m in enumerate(listed) if m[0] == best), None)
    best_visits = listed[place - 1][2] if place else 0
    if ours == best:
        return best, ours, None, None, None, None, place, best_visits, our_visits
    return (best, ours, oracle_worth(oracle, engine, p, best), oracle_worth(oracle, engine, p, ours),
            our_worth(engine, p, best, iterations), our_worth(engine, p, ours, iterations),
            place, best_visits, our_visits)


def summary(rows, threshold):
    agreed = sum(1 for r in rows if r[1] == r[2])
    judged = [r for r in rows if r[1] != r[2] and None not in r[3:5]]
    print(f"{len(rows)} positions with an oracle's choice; the same move in {agreed}; "
          f"{len(judged)} others judged by both")
    if not judged:
        return
    losses = [r[3] - r[4] for r in judged]
    print(f"the oracle's loss for our move: mean {sum(losses) / len(judged):.3f} over the {len(judged)}")
    costly = [r for r in judged if r[3] - r[4] >= threshold]
    unseen = [r for r in costly if r[5] >= r[6]]
    misjudged = [r for r in costly if r[5] < r[6]]
    print(f"losing {threshold} or more: {len(costly)}; of them, we too rate its move at least as high once "
          f"played (our search did not look) in {len(unseen)}, and lower (our judgement differs) in "
          f"{len(misjudged)}")
    for name, group in (("not looked at", unseen), ("judged lower", misjudged)):
        if group:
            mean = lambda k: sum(r[k] for r in group) / len(group)  # noqa: E731
            print(f"  {name}: oracle {mean(3):.3f} for its move against {mean(4):.3f} for ours; "
                  f"we {mean(5):.3f} against {mean(6):.3f}")
            pruned = sum(1 for r in group if r[7] is None)
            places = sorted(r[7] for r in group if r[7] is not None)
            print(f"    its move pruned by our checks in {pruned}; elsewhere its place in our list by visits: "
                  f"{places}, with {mean(8):.0f} visits on average against {mean(9):.0f} for ours")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", required=True, help="what the fast_checks example printed")
    ap.add_argument("--oracle", required=True, help="the judging engine's command line (answers mohex-values)")
    ap.add_argument("--setup-oracle", action="append", default=[], help="a GTP command sent to the oracle first")
    ap.add_argument("--engine", required=True, help="our engine's command line (answers hexarena-analyze)")
    ap.add_argument("--iterations", type=int, default=200000, help="our search's iterations a judgement")
    ap.add_argument("--threshold", type=float, default=0.1, help="a loss worth explaining")
    ap.add_argument("--every", type=int, default=1, help="take every K-th position")
    ap.add_argument("--skip", type=int, default=0, help="start with the position after this many")
    ap.add_argument("--out", help="a file for one line a position")
    args = ap.parse_args()
    if args.every < 1 or args.skip < 0 or args.iterations < 10000:
        sys.exit("--every takes a count from 1, --skip from 0, --iterations from 10000")
    try:
        with open(args.positions) as f:
            positions = [Position(line, i + 1) for i, line in enumerate(f) if line.strip()]
    except (OSError, ValueError) as e:
        sys.exit(f"cannot read the positions: {e}")
    positions = positions[args.skip::args.every]
    if not positions:
        sys.exit("no position to judge")
    oracle = Engine(args.oracle, args.setup_oracle, "oracle")
    engine = Engine(args.engine, [], "engine")
    out = open(args.out, "w") if args.out else None
    rows = []
    try:
        oracle.start(positions[0].size)
        engine.start(positions[0].size)
        for p in positions:
            judged = judge(p, oracle, engine, args.iterations)
            if judged is None:
                continue
            rows.append((p.number,) + judged)
            if out is not None:
                fields = [str(p.number), str(len(p.moves))] + ["-" if x is None else str(x) for x in judged]
                out.write("\t".join(fields) + "\n")
                out.flush()
    except (EngineGone, RuntimeError) as e:
        print(f"stopped early: {e}", file=sys.stderr)
    finally:
        oracle.stop()
        engine.stop()
        if out is not None:
            out.close()
    summary(rows, args.threshold)


if __name__ == "__main__":
    main()
