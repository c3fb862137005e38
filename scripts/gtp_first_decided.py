#!/usr/bin/env python3
"""How early each side's connections decide each game: the first ply at
which our fast checks, and each other engine given, call the position
won or lost for the side to move.

Not part of CI (a measuring tool, like gtp_vcs.py). It reads what
`cargo run --release --example fast_checks -- GAMES SIZE 1 FROM LISTS...`
prints (every position from the FROM-th stone: EVERY must be 1, or the
plies are only as fine as the step) and asks each engine, position by
position until it decides, for its connections (`vc-build` and the
verdict of scripts/gtp_vcs.py: won with a full or semi connection of the
side to move, lost against a full one of the opponent's). Consecutive
lines that extend the same moves are one game.

A game decided plies earlier is a game whose losing move the earlier
side's knowledge could have refuted in the tree. To see which of MoHex's
connection patterns make its lead, run copies of its binary each in a
folder of its own beside a `vc-patterns.txt` that keeps only some of its
pattern blocks (MoHex reads its data files from its own folder first),
and name each copy with --engine.

    cargo run --release --example fast_checks -- games.txt 11 1 10 all all+captured+links3 > ours.tsv
    scripts/gtp_first_decided.py --positions ours.tsv --names all,links3 \\
        --engine "mohex=/path/to/mohex --use-logfile=0" \\
        --engine "row2=/tmp/row2/mohex --use-logfile=0" \\
        --engine "bare=/path/to/mohex --use-logfile=0" --setup "bare=param_player_vc use_patterns 0" \\
        --out first.tsv

Prints, for each engine against each of our columns, in how many games
it decides at least --lead plies earlier, as early, or later, and the
mean first ply of each over the games both decide; --out keeps one line
a game (`-` where a side never decides).
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_match import Engine, EngineGone  # noqa: E402
from gtp_vcs import read_positions, their_verdict  # noqa: E402


def games_of(positions):
    """The positions split into games: a line that does not extend the
    moves of the line before starts a new game."""
    games = []
    for p in positions:
        last = games[-1][-1] if games else None
        if last is None or len(p.moves) <= len(last.moves) or p.moves[: len(last.moves)] != last.moves:
            games.append([])
        games[-1].append(p)
    return games


def first_decided(game, verdict):
    """The number of stones in the first position of `game` that
    `verdict` calls won or lost, or None when it decides none."""
    return next((len(p.moves) for p in game if verdict(p) != "open"), None)


def compare(engine_plies, our_plies, lead):
    """How many games the engine decides at least `lead` plies before our
    column, how many within `lead` plies either way, how many `lead` or
    more after; a game only one side decides counts for that side."""
    earlier = same = later = 0
    for theirs, ours in zip(engine_plies, our_plies):
        if theirs is None and ours is None:
            continue
        if ours is None or (theirs is not None and theirs <= ours - lead):
            earlier += 1
        elif theirs is None or theirs >= ours + lead:
            later += 1
        else:
            same += 1
    return earlier, same, later


def mean_plies(engine_plies, our_plies):
    """The mean first ply of each side over the games both decide, and
    how many those are."""
    both = [(t, o) for t, o in zip(engine_plies, our_plies) if t is not None and o is not None]
    if not both:
        return None, None, 0
    return sum(t for t, _ in both) / len(both), sum(o for _, o in both) / len(both), len(both)


def engine_verdict(engine, size):
    """The engine's verdict on a position; a position that makes it fail
    (MoHex exits in some decided ones) counts as open, and the engine is
    started afresh."""

    def verdict(position):
        try:
            return their_verdict(engine, position)[0]
        except RuntimeError:
            return "open"
        except EngineGone:
            engine.stop()
            engine.start(size)
            return "open"

    return verdict


def show(ply):
    """A first ply as --out writes it: `-` for a side that never decides."""
    return "-" if ply is None else str(ply)


def parse_engine(text):
    name, sep, command = text.partition("=")
    if not sep or not name.strip() or not command.strip():
        raise ValueError(f"--engine '{text}' is not NAME=COMMAND")
    return name.strip(), command.strip()


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--positions", required=True, help="what the fast_checks example printed (EVERY 1)")
    ap.add_argument("--names", help="names of our columns, comma-separated (default: 1, 2, …)")
    ap.add_argument("--engine", action="append", required=True, help="NAME=COMMAND of an engine answering vc-build")
    ap.add_argument("--setup", action="append", default=[],
                    help="NAME=COMMAND: a GTP command sent first to the engine NAME (repeatable)")
    ap.add_argument("--lead", type=int, default=3, help="plies that count as deciding earlier (default 3)")
    ap.add_argument("--out", help="write one line a game here")
    args = ap.parse_args()
    if args.lead < 1:
        sys.exit("--lead must be at least 1")
    try:
        engines = [parse_engine(e) for e in args.engine]
        setups = [parse_engine(s) for s in args.setup]
        unknown = {n for n, _ in setups} - {n for n, _ in engines}
        if unknown:
            raise ValueError(f"--setup names no --engine: {', '.join(sorted(unknown))}")
        positions, names = read_positions(args.positions, args.names)
    except (OSError, ValueError) as e:
        sys.exit(f"cannot read the input: {e}")
    columns = len(names)
    games = games_of(positions)
    size = positions[0].size
    ours = [[first_decided(g, lambda p, c=c: p.ours[c]) for g in games] for c in range(columns)]
    theirs = []
    for name, command in engines:
        engine = Engine(command, [c for n, c in setups if n == name], name)
        try:
            engine.start(size)
            verdict = engine_verdict(engine, size)
            theirs.append([first_decided(g, verdict) for g in games])
        except (EngineGone, RuntimeError) as e:
            sys.exit(f"{name} stopped: {e}")
        finally:
            engine.stop()
    if args.out:
        with open(args.out, "w") as f:
            f.write("\t".join(["game", "stones"] + names + [n for n, _ in engines]) + "\n")
            for i, g in enumerate(games):
                row = [str(i + 1), str(len(g[-1].moves))] + [show(col[i]) for col in ours + theirs]
                f.write("\t".join(row) + "\n")
    print(f"{len(games)} games, {len(positions)} positions")
    for (name, _), plies in zip(engines, theirs):
        for c, our_name in enumerate(names):
            earlier, same, later = compare(plies, ours[c], args.lead)
            t, o, both = mean_plies(plies, ours[c])
            means = f"; over the {both} both decide, ply {t:.1f} against {o:.1f}" if both else ""
            print(f"{name} against ours ({our_name}): {args.lead}+ plies earlier in {earlier} games, "
                  f"within {args.lead - 1} in {same}, later in {later}{means}")


if __name__ == "__main__":
    main()
