#!/usr/bin/env python3
"""The result and the thinking time of matches that scripts/gtp_match.py
recorded with --records, read back from one or more of its files.

    scripts/gtp_records.py half-a.txt half-b.txt

Prints engine A's score with its 95% Wilson interval, as Black and as
White, the openings won with both colours, split or lost with both, how
the games ended, and for each engine its mean thinking time a move over
plies 2-16 (where the opening is played) and after, its total and its
mean a game. Equal time is judged on these figures: a `max_time` or a
`--time-per-move` is not what an engine actually thinks. Lines that are
not a record are refused with their file and line, and nothing is
printed.
"""

import argparse
import sys
from collections import Counter, defaultdict

from gtp_match import read_records, wilson

OPENING_PLIES = 16


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", nargs="+", help="files written by gtp_match.py --records")
    args = ap.parse_args()
    try:
        games = read_records(args.records)
    except OSError as e:
        sys.exit(f"cannot read {e.filename}: {e.strerror}")
    except ValueError as e:
        sys.exit(str(e))
    if not games:
        sys.exit("no games in " + ", ".join(args.records))

    wins = Counter()
    played = Counter()
    by_opening = defaultdict(list)
    endings = Counter()
    opening_time = defaultdict(list)
    later_time = defaultdict(list)
    void = 0
    for g in games:
        endings[g.ending()] += 1
        # The opening is ply 1; seconds[i] is ply i + 2, Black's plies odd.
        for i, t in enumerate(g.seconds):
            ply = i + 2
            engine = "A" if (ply % 2 == 1) == g.a_black else "B"
            (opening_time if ply <= OPENING_PLIES else later_time)[engine].append(t)
        if g.winner is None:
            void += 1
            continue
        colour = "Black" if g.a_black else "White"
        a_won = (g.winner == "b") == g.a_black
        played[colour] += 1
        wins[colour] += a_won
        # Each file is its own match: the same opening in two is two pairs.
        by_opening[(g.source, g.moves[0])].append(a_won)

    n = sum(played.values())
    w = sum(wins.values())
    low, high = wilson(w, n)
    print(f"A won {w} of {n} games ({100 * w / max(n, 1):.1f}%, 95% interval {100 * low:.1f}-{100 * high:.1f}%), "
          f"{void} void; as Black {wins['Black']} of {played['Black']}, as White {wins['White']} of {played['White']}")
    pairs = Counter()
    for results in by_opening.values():
        if len(results) == 2:
            pairs[sum(results)] += 1
    print(f"openings with both colours: A won both {pairs[2]}, split {pairs[1]}, lost both {pairs[0]}")
    print("ended: " + ", ".join(f"{kind} {count}" for kind, count in endings.most_common()))
    if not opening_time and not later_time:
        print("no thinking times: these records were written before gtp_match.py kept them")
        return
    for engine in "AB":
        early, late = opening_time[engine], later_time[engine]
        total = sum(early) + sum(late)
        print(f"{engine} thought {sum(early) / max(len(early), 1):.3f} s a move over plies 2-{OPENING_PLIES} "
              f"({len(early)} moves), {sum(late) / max(len(late), 1):.3f} s after ({len(late)}); "
              f"{total:.0f} s in all, {total / len(games):.1f} s a game")


if __name__ == "__main__":
    main()
