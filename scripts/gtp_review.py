#!/usr/bin/env python3
"""Where engine A's games were lost: every position where A was to move,
judged by an oracle engine, beside what A itself believed there.

Not part of CI (a review takes as long as a match). It reads the records
`scripts/gtp_match.py --records` writes. For each game A lost (all games
with --all), at each of A's moves, the oracle searches the position
(`reg_genmove`, which plays nothing) and reports its root moves' values
with `mohex-values` (MoHex 2.0's answer: `VERTEX .VALUE@VISITS`, `W@N` or
`L@N` for proven moves, all for the side to move); the value of its most
visited move is what the position is worth to A. With --engine, A's own
search (`hexarena-analyze ITERATIONS`: `VERTEX RATE VISITS` lines) says
what A believed there and which move it liked.

    scripts/gtp_review.py --records games.txt \\
        --oracle "/path/to/mohex --use-logfile=0" --setup-oracle "param_mohex max_time 3" \\
        --setup-oracle "param_mohex num_threads 1" --setup-oracle "param_game allow_swap 0" \\
        --engine "target/release/hexarena gtp" --analyze-iterations 200000 --out review.tsv

Prints, for the games reviewed, the ply where the oracle first rated A's
position lost (below --lost), the ply of A's largest fall in value (from
one of its moves to the next), the oracle's values by stage of the game,
and A's belief against the oracle's where A was already lost; --out keeps
one line per position.
"""

import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from gtp_match import Engine, EngineGone, read_records  # noqa: E402


class Game:
    """A game of the records, numbered from 1 in the file."""

    def __init__(self, record, number):
        self.size = record.size
        self.moves = record.moves
        self.a_colour = "b" if record.a_black else "w"
        self.winner = record.winner
        self.number = number

    def colour_at(self, ply):
        return "b" if ply % 2 == 0 else "w"

    def a_lost(self):
        return self.winner in ("b", "w") and self.winner != self.a_colour


def oracle_values(oracle, colour, size):
    """The oracle's root values for `colour` to move in the position it
    holds; empty when it decided the move without a search (its solver or
    connections had the answer), which leaves no tree to read."""
    try:
        oracle.send(f"reg_genmove {colour}")
        return parse_mohex_values(oracle.send("mohex-values"))
    except RuntimeError:
        return {}
    except EngineGone:
        # MoHex dies in some positions its solver has decided: no value
        # here, and a fresh oracle for the next position.
        oracle.stop()
        oracle.start(size)
        return {}


def most_visited(values):
    """The oracle's choice and its value: its most visited move ("-" and
    None when it gave no values)."""
    if not values:
        return "-", None
    best = max(values, key=lambda v: values[v][1])
    return best, values[best][0]


def parse_mohex_values(text):
    """{vertex: (value for the side to move, visits)} from `mohex-values`."""
    values = {}
    tokens = text.split()
    for vertex, spec in zip(tokens[0::2], tokens[1::2]):
        if spec == "0":
            continue
        kind, _, visits = spec.partition("@")
        if kind == "W":
            value = 1.0
        elif kind == "L":
            value = 0.0
        else:
            value = float(kind)
        values[vertex.lower()] = (value, count(visits))
    return values


def count(text):
    """MoHex's visit counts: 655, 7k, 1.2M."""
    scale = {"k": 1000, "M": 1000000}.get(text[-1:], 1)
    digits = text[:-1] if scale > 1 else text
    return int(float(digits or 0) * scale)


def parse_analysis(text):
    """[(vertex, rate, visits)] from `hexarena-analyze`, best first."""
    moves = []
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 3:
            moves.append((parts[0].lower(), float(parts[1]), int(parts[2])))
    return moves


def set_position(engine, size, moves):
    engine.send(f"boardsize {size}")
    engine.send("clear_board")
    for ply, vertex in enumerate(moves):
        engine.send(f"play {'b' if ply % 2 == 0 else 'w'} {vertex}")


def review(game, oracle, engine, iterations, out, plies):
    """One line per A move: (ply, A's move, oracle's best, its value for A,
    the oracle's value of A's move, A's belief, A's choice now)."""
    rows = []
    for ply in range(max(1, plies[0]), min(len(game.moves), plies[1] + 1)):
        colour = game.colour_at(ply)
        if colour != game.a_colour:
            continue
        set_position(oracle, game.size, game.moves[:ply])
        values = oracle_values(oracle, colour, game.size)
        best, worth = most_visited(values)
        played = game.moves[ply].lower()
        of_played = values.get(played, (None, 0))
        belief, choice = None, "-"
        if engine is not None:
            set_position(engine, game.size, game.moves[:ply])
            analysis = parse_analysis(engine.send(f"hexarena-analyze {iterations}"))
            if analysis:
                choice, belief = analysis[0][0], analysis[0][1]
        row = (ply, played, best, worth, of_played[0], of_played[1], belief, choice)
        rows.append(row)
        if out is not None:
            out.write("\t".join([str(game.number)] + ["-" if x is None else str(x) for x in row]) + "\n")
            out.flush()
    return rows


def worth_after(oracle, game, ply, move):
    """The oracle's value for the mover at `ply` of playing `move` there:
    one minus the opponent's best after it (None if the oracle says
    nothing)."""
    colour = game.colour_at(ply)
    other = "w" if colour == "b" else "b"
    set_position(oracle, game.size, game.moves[:ply] + [move])
    _, worth = most_visited(oracle_values(oracle, other, game.size))
    return None if worth is None else 1.0 - worth


def deep_look(game, ply, best, oracle, engine, iterations):
    """At A's position of `ply`: A's choice after a much longer search,
    and the oracle's values of the move A played, of that choice and of
    the oracle's own `best` (from the review), each played out and judged
    alike."""
    set_position(engine, game.size, game.moves[:ply])
    analysis = parse_analysis(engine.send(f"hexarena-analyze {iterations}"))
    deep = analysis[0][0] if analysis else None
    played = game.moves[ply].lower()
    judged = {}
    for move in {played, deep, best} - {None, "-"}:
        judged[move] = worth_after(oracle, game, ply, move)
    return played, deep, best, judged


STAGES = ((1, 10), (11, 20), (21, 30), (31, 40), (41, 50))


def stage_names():
    return [f"plies {a}-{b}" for a, b in STAGES] + [f"plies {STAGES[-1][1] + 1}+"]


def stage(ply):
    for first, last in STAGES:
        if ply <= last:
            return f"plies {first}-{last}"
    return f"plies {STAGES[-1][1] + 1}+"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--records", required=True, help="a file gtp_match.py --records wrote")
    ap.add_argument("--oracle", required=True, help="the judging engine's command line (answers mohex-values)")
    ap.add_argument("--setup-oracle", action="append", default=[], help="a GTP command sent to the oracle first")
    ap.add_argument("--engine", help="A's command line, to ask what it believed (hexarena-analyze)")
    ap.add_argument("--analyze-iterations", type=int, default=200000)
    ap.add_argument("--deep-iterations", type=int,
                    help="at A's biggest fall, search this long and judge the move it finds")
    ap.add_argument("--min-ply", type=int, default=1, help="review A's moves from this ply on")
    ap.add_argument("--max-ply", type=int, default=1000, help="review A's moves up to this ply only")
    ap.add_argument("--lost", type=float, default=0.25, help="a value for A below this counts as lost")
    ap.add_argument("--all", action="store_true", help="review every game, not only A's losses")
    ap.add_argument("--games", help="which games to review: FIRST:LAST, counted from 1 in the file")
    ap.add_argument("--out", help="append one line per position here")
    args = ap.parse_args()
    try:
        games = [Game(r, i + 1) for i, r in enumerate(read_records([args.records]))]
    except (OSError, ValueError) as e:
        sys.exit(f"cannot read the records: {e}")
    if args.games:
        first, _, last = args.games.partition(":")
        if not first.isdigit() or not (last or first).isdigit():
            sys.exit(f"--games takes FIRST:LAST, two game numbers, not '{args.games}'")
        games = [g for g in games if int(first) <= g.number <= int(last or first)]
    chosen = [g for g in games if args.all or g.a_lost()]
    if not chosen:
        sys.exit("no game to review (A lost none of them; --all reviews every game)")
    oracle = Engine(args.oracle, args.setup_oracle, "oracle")
    engine = Engine(args.engine, [], "A") if args.engine else None
    out = open(args.out, "a") if args.out else None
    lost_at, fall_at, by_stage, bias, deep = [], [], {}, [], []
    try:
        oracle.start(chosen[0].size)
        if engine is not None:
            engine.start(chosen[0].size)
        for game in chosen:
            try:
                rows = review(game, oracle, engine, args.analyze_iterations, out, (args.min_ply, args.max_ply))
            except (EngineGone, RuntimeError) as e:
                print(f"game {game.number}: not reviewed ({e}); restarting the engines", flush=True)
                for restarted in (oracle, engine):
                    if restarted is not None:
                        restarted.stop()
                        restarted.start(game.size)
                continue
            worths = [(r[0], r[3]) for r in rows if r[3] is not None]
            first_lost = next((ply for ply, w in worths if w < args.lost), None)
            falls = [(worths[i][1] - worths[i + 1][1], worths[i][0]) for i in range(len(worths) - 1)]
            biggest = max(falls) if falls else None
            for ply, w in worths:
                by_stage.setdefault(stage(ply), []).append(w)
            for r in rows:
                if r[3] is not None and r[6] is not None and r[3] < args.lost:
                    bias.append(r[6] - r[3])
            if first_lost is not None:
                lost_at.append(first_lost)
            if biggest is not None:
                fall_at.append(biggest[1])
            if biggest is not None and engine is not None and args.deep_iterations:
                oracle_best = next(r[2] for r in rows if r[0] == biggest[1])
                played, chosen_deep, best, judged = deep_look(game, biggest[1], oracle_best, oracle, engine,
                                                              args.deep_iterations)
                deep.append((played, chosen_deep, best, judged))
                shown = {m: "-" if v is None else f"{v:.3f}" for m, v in judged.items()}
                print(f"  at ply {biggest[1]}: played {played} ({shown.get(played, '-')}), after "
                      f"{args.deep_iterations} iterations {chosen_deep} ({shown.get(chosen_deep, '-')}), "
                      f"oracle's {best} ({shown.get(best, '-')})", flush=True)
            opening = " ".join(game.moves[:2])
            print(f"game {game.number} ({opening}, A {'Black' if game.a_colour == 'b' else 'White'}): "
                  f"values " + " ".join(f"{ply}:{w:.2f}" for ply, w in worths)
                  + f"; lost from ply {first_lost}; biggest fall "
                  + (f"{biggest[0]:.2f} after ply {biggest[1]}" if biggest else "none"), flush=True)
    finally:
        oracle.stop()
        if engine is not None:
            engine.stop()
        if out is not None:
            out.close()

    def spread(plies):
        return ", ".join(f"{name} {sum(1 for p in plies if stage(p) == name)}"
                         for name in stage_names())

    print(f"{len(chosen)} games reviewed")
    print(f"first rated lost (below {args.lost}): {spread(lost_at)}; never {len(chosen) - len(lost_at)}")
    print(f"A's biggest fall after its move at: {spread(fall_at)}")
    for name in stage_names():
        w = by_stage.get(name, [])
        if w:
            print(f"oracle's value for A, {name}: mean {sum(w) / len(w):.3f} over {len(w)} positions")
    judged = [d for d in deep if all(d[3].get(m) is not None for m in (d[0], d[1], d[2]))]
    if judged:
        mean = lambda k: sum(d[3][d[k]] for d in judged) / len(judged)
        print(f"at the biggest falls ({len(judged)} judged): the longer search changed A's move in "
              f"{sum(1 for d in judged if d[1] != d[0])}; oracle's value of the move played {mean(0):.3f}, "
              f"of the longer search's {mean(1):.3f}, of its own {mean(2):.3f}")
    if bias:
        print(f"where A was already lost: A believed {sum(bias) / len(bias):+.3f} more than the oracle "
              f"on average ({len(bias)} positions)")


if __name__ == "__main__":
    main()
