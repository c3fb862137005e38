#!/usr/bin/env python3
"""Our fast checks beside another engine's virtual connections.

Not part of CI (a measuring tool, like gtp_fillin.py). It reads what
`cargo run --release --example fast_checks -- GAMES SIZE EVERY FROM LISTS...`
prints: per position, the moves (our cells, Red first) and, for each list
setting, what our checks say for the side to move (`won`, `lost`,
`open N`). For each position it asks the other engine to build its
connections (`vc-build COLOUR` for the side to move, MoHex 2.0's command,
which fills in first) and whether either side then holds a full or a
semi connection between its edges (`vc-between-cells-full` and
`vc-between-cells-semi`). Their verdict for the side to move: won with a
full or semi connection of its own, lost against a full one of the
opponent's, open otherwise. It prints, for each of our columns, a table of
our verdicts against theirs, how many moves each side would search in
the positions both leave open (ours: the N of `open N`; theirs: the empty
cells vc-build leaves unmarked, its fill-in, inferior cells and cells
outside its must-play region being marked), and with --list the
positions where they decide and that column does not.

GTP's vertices are our cells transposed (Black, the first player, joins
north and south as our Red joins columns a and N).

    cargo run --release --example fast_checks -- games.txt 11 4 10 6:10:24 all > ours.tsv
    scripts/gtp_vcs.py --positions ours.tsv --engine "/path/to/mohex --use-logfile=0"
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_fillin import to_vertex  # noqa: E402
from gtp_match import Engine, EngineGone  # noqa: E402

EDGES = {"b": ("north", "south"), "w": ("east", "west")}


class Position:
    """A line of the fast_checks example."""

    def __init__(self, line, number):
        fields = line.rstrip("\n").split("\t")
        head = fields[0].split()
        if len(fields) < 2 or not head or "x" not in head[0]:
            raise ValueError(f"line {number}: expected moves like '11x11 c4 …' and at least one verdict")
        self.text = fields[0]
        self.size = int(head[0].split("x")[0])
        self.moves = head[1:]
        if "swap" in self.moves:
            raise ValueError(f"line {number}: games with a swap are not compared")
        self.ours = [f.split()[0] for f in fields[1:]]
        if any(v not in ("won", "lost", "open") for v in self.ours):
            raise ValueError(f"line {number}: a verdict is not won, lost or open")
        # How many moves each open verdict keeps (`open N`), else None.
        self.kept = [int(f.split()[1]) if f.startswith("open ") and f.split()[1].isdigit() else None
                     for f in fields[1:]]


def read_positions(path, names=None):
    """The positions of a fast_checks file and the names of its columns of
    verdicts (`names` comma-separated, else 1, 2, …); ValueError when the
    file is empty, its lines disagree on the columns or the names do not
    fit them."""
    with open(path) as f:
        positions = [Position(line, i + 1) for i, line in enumerate(f) if line.strip()]
    if not positions:
        raise ValueError("no position to compare")
    columns = len(positions[0].ours)
    if any(len(p.ours) != columns for p in positions):
        raise ValueError("every line needs the same number of verdicts")
    names = names.split(",") if names else [str(i + 1) for i in range(columns)]
    if len(names) != columns:
        raise ValueError(f"--names gives {len(names)} names for {columns} columns")
    return positions, names


def holds(engine, colour, kind):
    """Whether `colour` holds a `kind` connection between its edges."""
    first, second = EDGES[colour]
    answer = engine.send(f"vc-between-cells-{kind} {colour} {first} {second}")
    return any(f" {kind} " in f" {line} " for line in answer.splitlines())


def outside(answer):
    """The cells vc-build marks as not worth playing (filled in,
    inferior, or outside the must-play region): its answer is pairs of a
    cell and a mark."""
    tokens = answer.split()
    return {tokens[i] for i in range(0, len(tokens) - 1, 2)}


def their_verdict(engine, position):
    """Their verdict for the side to move, and how many moves they would
    consider in an open position (None in a decided one)."""
    engine.send(f"boardsize {position.size}")
    engine.send("clear_board")
    for ply, cell in enumerate(position.moves):
        engine.send(f"play {'b' if ply % 2 == 0 else 'w'} {to_vertex(cell)}")
    mover = "b" if len(position.moves) % 2 == 0 else "w"
    other = "w" if mover == "b" else "b"
    marked = outside(engine.send(f"vc-build {mover}"))
    if holds(engine, mover, "full") or holds(engine, mover, "semi"):
        return "won", None
    if holds(engine, other, "full"):
        return "lost", None
    return "open", position.size * position.size - len(position.moves) - len(marked)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", required=True, help="what the fast_checks example printed")
    ap.add_argument("--engine", required=True, help="the other engine's command line (answers vc-build)")
    ap.add_argument("--setup", action="append", default=[], help="a GTP command sent to the engine first")
    ap.add_argument("--names", help="names of our columns, comma-separated (default: 1, 2, …)")
    ap.add_argument("--list", action="store_true", help="print the positions they decide and we do not")
    args = ap.parse_args()
    try:
        positions, names = read_positions(args.positions, args.names)
    except (OSError, ValueError) as e:
        sys.exit(f"cannot read the positions: {e}")
    columns = len(names)
    engine = Engine(args.engine, args.setup, "engine")
    theirs = []
    try:
        engine.start(positions[0].size)
        for p in positions:
            theirs.append(their_verdict(engine, p))
    except (EngineGone, RuntimeError) as e:
        sys.exit(f"stopped: {e}")
    finally:
        engine.stop()
    considered = [c for _, c in theirs]
    theirs = [t for t, _ in theirs]
    kinds = ("won", "lost", "open")
    print(f"{len(positions)} positions; theirs: " + ", ".join(f"{k} {theirs.count(k)}" for k in kinds))
    for c, name in enumerate(names):
        print(f"\nours ({name}) down, theirs across:")
        print(f"{'':>6}" + "".join(f"{k:>7}" for k in kinds))
        for ours in kinds:
            row = [sum(1 for p, t in zip(positions, theirs) if p.ours[c] == ours and t == k) for k in kinds]
            print(f"{ours:>6}" + "".join(f"{v:>7}" for v in row))
        both = [(p.kept[c], n, p.size * p.size - len(p.moves))
                for p, n in zip(positions, considered) if p.kept[c] is not None and n is not None]
        if both:
            ours_mean = sum(o for o, _, _ in both) / len(both)
            theirs_mean = sum(n for _, n, _ in both) / len(both)
            empty = sum(e for _, _, e in both) / len(both)
            print(f"open to both ({len(both)}): moves kept, ours {ours_mean:.1f}, theirs {theirs_mean:.1f} "
                  f"(empty cells {empty:.1f} a position on average)")
        if args.list:
            for p, t in zip(positions, theirs):
                if t != "open" and p.ours[c] == "open":
                    print(f"  they say {t}: {p.text}")


if __name__ == "__main__":
    main()
