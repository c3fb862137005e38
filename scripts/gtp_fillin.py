#!/usr/bin/env python3
"""Our fill-in beside another engine's, on the same positions.

Not part of CI (a measuring tool, like gtp_match.py). It reads what
`cargo run --release --example fill_in -- GAMES SIZE > FILE` prints: per
position, the moves (our cells, Red first) and the cells our solver fills
for Red, for Blue, and leaves dead. For each position it asks the other
engine for its fill-in (`compute-fillin COLOUR`, MoHex 2.0's command,
for the side to move: its answer lists `VERTEX fb` and `VERTEX fw` for
cells it fills for Black and White, dead ones included), and reports:

- cells filled a position, ours (filled and dead) and theirs;
- cells only we fill (where the two disagree on what is safe to fill),
  and cells only they fill, by how many rows they lie from the filling
  side's own edge;
- with --dump, one line per position of their fill in our cells (moves,
  Red's, Blue's), for experiments that give their fill to our solver.

GTP's vertices are our cells transposed (Black, the first player, joins
rows 1 and N as our Red joins columns a and N), so Black's fill is Red's.

    cargo run --release --example fill_in -- games.txt 11 > ours.tsv
    scripts/gtp_fillin.py --positions ours.tsv --engine "/path/to/mohex --use-logfile=0"
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_match import Engine, EngineGone  # noqa: E402


def cell_xy(cell):
    """`c4` as (column, row), both from 0."""
    return ord(cell[0]) - ord("a"), int(cell[1:]) - 1


def to_vertex(cell):
    q, r = cell_xy(cell)
    return f"{chr(ord('a') + r)}{q + 1}"


def from_vertex(vertex):
    r, q = cell_xy(vertex)
    return f"{chr(ord('a') + q)}{r + 1}"


def cells(field):
    return {c for c in field.split(",") if c}


class Position:
    """A line of the fill_in example."""

    def __init__(self, line, number):
        fields = line.rstrip("\n").split("\t")
        if len(fields) != 4:
            raise ValueError(f"line {number}: expected moves, Red's, Blue's and dead cells, tab-separated")
        head = fields[0].split()
        if not head or "x" not in head[0]:
            raise ValueError(f"line {number}: '{fields[0][:20]}' does not start with a board size like 11x11")
        self.text = fields[0]
        self.size = int(head[0].split("x")[0])
        self.moves = head[1:]
        if "swap" in self.moves:
            raise ValueError(f"line {number}: games with a swap are not compared")
        self.red, self.blue, self.dead = cells(fields[1]), cells(fields[2]), cells(fields[3])

    def ours(self):
        return self.red | self.blue | self.dead


def their_fill(engine, position):
    """Their fill-in of `position` for Red and for Blue, in our cells."""
    engine.send(f"boardsize {position.size}")
    engine.send("clear_board")
    for ply, cell in enumerate(position.moves):
        engine.send(f"play {'b' if ply % 2 == 0 else 'w'} {to_vertex(cell)}")
    mover = "b" if len(position.moves) % 2 == 0 else "w"
    words = engine.send(f"compute-fillin {mover}").split()
    red, blue = set(), set()
    for vertex, label in zip(words[::2], words[1::2]):
        if label == "fb":
            red.add(from_vertex(vertex))
        elif label == "fw":
            blue.add(from_vertex(vertex))
    return red, blue


def rows_from_own_edge(cell, red, size):
    """How far `cell` lies from the edge of the side it is filled for."""
    q, r = cell_xy(cell)
    along = q if red else r
    return min(along, size - 1 - along)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", required=True, help="what the fill_in example printed")
    ap.add_argument("--engine", required=True, help="the other engine's command line (answers compute-fillin)")
    ap.add_argument("--setup", action="append", default=[], help="a GTP command sent to the engine first")
    ap.add_argument("--dump", help="write their fill-in here, one line per position")
    args = ap.parse_args()
    try:
        with open(args.positions) as f:
            positions = [Position(line, i + 1) for i, line in enumerate(f) if line.strip()]
    except (OSError, ValueError) as e:
        sys.exit(f"cannot read the positions: {e}")
    if not positions:
        sys.exit("no position to compare")
    engine = Engine(args.engine, args.setup, "engine")
    dump = open(args.dump, "w") if args.dump else None
    ours_total = theirs_total = only_ours = 0
    with_extra = 0
    by_rows = {}
    try:
        engine.start(positions[0].size)
        for p in positions:
            red, blue = their_fill(engine, p)
            if dump:
                dump.write(f"{p.text}\t{','.join(sorted(red))}\t{','.join(sorted(blue))}\n")
            ours, theirs = p.ours(), red | blue
            ours_total += len(ours)
            theirs_total += len(theirs)
            only_ours += len(ours - theirs)
            extra = theirs - ours
            with_extra += bool(extra)
            for cell in extra:
                rows = min(rows_from_own_edge(cell, cell in red, p.size), 5)
                by_rows[rows] = by_rows.get(rows, 0) + 1
    except (EngineGone, RuntimeError) as e:
        sys.exit(f"stopped: {e}")
    finally:
        engine.stop()
        if dump:
            dump.close()
    n = len(positions)
    only_theirs = sum(by_rows.values())
    print(f"{n} positions")
    print(f"cells filled a position: ours {ours_total / n:.1f} ({ours_total}), theirs {theirs_total / n:.1f} ({theirs_total})")
    print(f"filled by us only: {only_ours}; by them only: {only_theirs}, in {with_extra} positions")
    print("theirs only, by rows from the filling side's own edge:")
    for rows in sorted(by_rows):
        label = f"{rows}+" if rows == 5 else str(rows)
        print(f"  {label:>2}  {by_rows[rows]:6d}  {100 * by_rows[rows] / max(only_theirs, 1):5.1f}%")


if __name__ == "__main__":
    main()
