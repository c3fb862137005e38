#!/usr/bin/env python3
"""A referee for Hex matches between any two GTP engines.

Not part of CI (a match takes hours). Each opening (a first stone for
Black) is played twice, once with each engine as Black, so neither side
gets the better openings; there is no swap. Every move is checked on the
referee's own board: an illegal move, a resignation or a silence loses
the game for the side that made it. An engine that dies mid-game or
refuses to move (MoHex does both in positions its own solver has decided)
leaves the game to `hexarena gtp`'s solver (`hexarena-solve`): its ruling
decides the game, and without one the game is void.

    scripts/gtp_match.py --size 11 \\
        --a "target/release/hexarena gtp --time-per-move 1 --no-swap" \\
        --b "/path/to/mohex --use-logfile=0" --setup-b "param_mohex max_time 1" \\
        --setup-b "param_mohex num_threads 1" --setup-b "param_game allow_swap 0"

Openings: every cell of the board unless --openings names some
("a1,b3,..."); --games caps the total; --records FILE keeps each game's
moves in GTP's vertices (hexarena's cells with letter and number
exchanged: read as they are, as a hexarena record, each side would join
the other's edges), then who was Black, the winner, how it ended and each
generated move's thinking time, to review the losses. Orientation is GTP's (HexGui's):
Black, who moves first, joins the top and bottom rows; White joins the
left and right columns. Prints one line per game and the result with a
95% Wilson interval for engine A.
"""

import argparse
import math
import shlex
import subprocess
import sys
import time


class EngineGone(Exception):
    """The engine died or stopped answering."""


class Engine:
    def __init__(self, command, setup, name):
        self.name = name
        self.command = command
        self.setup = setup
        self.proc = None
        # Wall time of each genmove answer: "equal time" is checked, not
        # assumed (an engine may overrun its limit).
        self.times = []

    def start(self, size):
        self.proc = subprocess.Popen(
            shlex.split(self.command), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL, text=True,
        )
        for line in self.setup:
            self.send(line)
        self.send(f"boardsize {size}")
        self.send("clear_board")

    def send(self, command):
        try:
            self.proc.stdin.write(command + "\n")
            self.proc.stdin.flush()
        except (BrokenPipeError, OSError) as e:
            raise EngineGone(f"{self.name} is gone ({e})")
        lines = []
        while True:
            line = self.proc.stdout.readline()
            if line == "":
                raise EngineGone(f"{self.name} exited during '{command}'")
            # Only an empty line ends an answer: benzene's statistics hold
            # lines of a single space inside one.
            if line in ("\n", "\r\n") and lines:
                break
            if line.strip():
                lines.append(line.strip())
        answer = "\n".join(lines)
        if answer.startswith("?"):
            raise RuntimeError(f"{self.name}: '{command}' -> {answer}")
        return answer.lstrip("=").strip()

    def stop(self):
        if self.proc is None:
            return
        try:
            self.send("quit")
        except (EngineGone, RuntimeError):
            pass
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.proc = None


class Board:
    """The referee's board: GTP vertices, Black joins rows 1 and N."""

    def __init__(self, size):
        self.size = size
        self.cells = {}

    def parse(self, text):
        text = text.strip().lower()
        if len(text) < 2 or not text[0].isalpha() or not text[1:].isdigit():
            return None
        col, row = ord(text[0]) - ord("a"), int(text[1:]) - 1
        if not (0 <= col < self.size and 0 <= row < self.size):
            return None
        return col, row

    def play(self, colour, vertex):
        cell = self.parse(vertex)
        if cell is None or cell in self.cells:
            return False
        self.cells[cell] = colour
        return True

    def winner(self):
        n = self.size
        for colour, starts, done in (
            ("b", [(c, 0) for c in range(n)], lambda c: c[1] == n - 1),
            ("w", [(0, r) for r in range(n)], lambda c: c[0] == n - 1),
        ):
            seen = set(c for c in starts if self.cells.get(c) == colour)
            stack = list(seen)
            while stack:
                c = stack.pop()
                if done(c):
                    return colour
                q, r = c
                for d in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, -1), (-1, 1)):
                    nb = (q + d[0], r + d[1])
                    if nb not in seen and self.cells.get(nb) == colour:
                        seen.add(nb)
                        stack.append(nb)
        return None


def adjudicate(referee_command, size, moves):
    """The solver's ruling on the position after `moves`: 'b', 'w' or None."""
    judge = Engine(referee_command, [], "referee")
    try:
        judge.start(size)
        for colour, vertex in moves:
            judge.send(f"play {colour} {vertex}")
        ruling = judge.send("hexarena-solve")
        return ruling if ruling in ("b", "w") else None
    except (EngineGone, RuntimeError):
        return None
    finally:
        judge.stop()


def play_game(size, opening, black, white, referee, spent):
    """One game; returns (winner 'b'/'w' or None when void, moves, how);
    `spent` gets each generated move's thinking time."""
    board = Board(size)
    engines = {"b": black, "w": white}
    moves = []
    for e in engines.values():
        e.start(size)
    try:
        board.play("b", opening)
        moves.append(("b", opening))
        for e in engines.values():
            e.send(f"play b {opening}")
        colour = "w"
        while True:
            mover, other = engines[colour], engines["b" if colour == "w" else "w"]
            try:
                asked = time.monotonic()
                vertex = mover.send(f"genmove {colour}").lower()
                mover.times.append(time.monotonic() - asked)
                spent.append(mover.times[-1])
            except (EngineGone, RuntimeError) as e:
                # A crash or a refusal to move (MoHex answers "illegal
                # move" in some positions its solver has decided): the
                # position is ruled on, not the engine.
                ruling = adjudicate(referee, size, moves)
                return ruling, moves, f"{mover.name} stopped ({e}); solver ruled {ruling or 'nothing (void)'}"
            if vertex == "resign":
                return ("w" if colour == "b" else "b"), moves, f"{mover.name} resigned"
            if not board.play(colour, vertex):
                return ("w" if colour == "b" else "b"), moves, f"{mover.name} played illegal {vertex}"
            moves.append((colour, vertex))
            winner = board.winner()
            if winner:
                return winner, moves, "connected"
            try:
                other.send(f"play {colour} {vertex}")
            except EngineGone:
                ruling = adjudicate(referee, size, moves)
                return ruling, moves, f"{other.name} died; solver ruled {ruling or 'nothing (void)'}"
            colour = "w" if colour == "b" else "b"
    finally:
        for e in engines.values():
            e.stop()


def wilson(wins, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


# How play_game's ruling texts begin or end, in the order they are told
# apart (a game's `how` names the engine and its own words too).
ENDINGS = ("connected", "resigned", "played illegal", "stopped", "died")


class Record:
    """One line of --records, read back: the board size, the moves (the
    opening first), whether A was Black, the winner ('b', 'w' or None when
    void), how the game ended, and each generated move's seconds from ply
    2 on (none in records written before the times were kept)."""

    def __init__(self, line, source=None):
        fields = line.rstrip("\n").split("\t")
        if len(fields) not in (4, 5):
            raise ValueError(f"has {len(fields)} tab-separated fields, not 4 or 5")
        head = fields[0].split()
        size = head[0].split("x")[0] if head else ""
        if not size.isdigit() or len(head) < 2:
            raise ValueError(f"'{fields[0][:20]}' is not a board size like 11x11 and the moves")
        if fields[1] not in ("A black", "B black"):
            raise ValueError(f"'{fields[1]}' is neither 'A black' nor 'B black'")
        if fields[2] not in ("b", "w", "void"):
            raise ValueError(f"'{fields[2]}' is not a winner: b, w or void")
        self.size = int(size)
        self.moves = head[1:]
        self.a_black = fields[1] == "A black"
        self.winner = None if fields[2] == "void" else fields[2]
        self.how = fields[3]
        self.seconds = []
        # The file it was read from: each file is its own match.
        self.source = source
        if len(fields) == 5:
            label, _, numbers = fields[4].partition(":")
            try:
                self.seconds = [float(t) for t in numbers.split()]
            except ValueError:
                raise ValueError("has a thinking time that is not a number") from None
            if label != "seconds from move 2" or any(t < 0 for t in self.seconds):
                raise ValueError("has no 'seconds from move 2:' list of times")

    def ending(self):
        """How the game ended, one of ENDINGS (or "other"), without the
        engines' own words."""
        return next((kind for kind in ENDINGS if kind in self.how), "other")


def record_line(size, moves, a_black, winner, how, seconds):
    """The --records line of one game, as Record reads it back: `moves` are
    GTP vertices from the opening on, `winner` 'b', 'w' or None (void),
    `seconds` each generated move's thinking time from ply 2 on."""
    times = " ".join(f"{t:.3f}" for t in seconds)
    return (f"{size}x{size} {' '.join(moves)}\t{'A' if a_black else 'B'} black\t{winner or 'void'}\t{how}"
            f"\tseconds from move 2: {times}\n")


def read_records(paths):
    """Every record in `paths`; a line that is not one raises ValueError
    naming its file and line."""
    records = []
    for path in paths:
        with open(path) as f:
            for number, line in enumerate(f, 1):
                if line.strip():
                    try:
                        records.append(Record(line, path))
                    except ValueError as e:
                        raise ValueError(f"{path}:{number}: not a gtp_match.py record: {e}") from None
    return records


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=int, default=11)
    ap.add_argument("--a", required=True, help="engine A's command line")
    ap.add_argument("--b", required=True, help="engine B's command line")
    ap.add_argument("--setup-a", action="append", default=[], help="a GTP command sent to A first (repeatable)")
    ap.add_argument("--setup-b", action="append", default=[], help="a GTP command sent to B first (repeatable)")
    ap.add_argument("--openings", help="comma-separated first stones for Black (default: every cell)")
    ap.add_argument("--games", type=int, help="stop after this many games")
    ap.add_argument("--referee", default="target/release/hexarena gtp", help="the solver that rules on crashes")
    ap.add_argument("--records", help="append each game's moves to this file, one game a line, to review the losses")
    args = ap.parse_args()
    n = args.size
    if not 1 <= n <= 26:
        sys.exit(f"--size must be from 1 to 26, not {n}")
    board = Board(n)
    if args.openings:
        openings = [o.strip().lower() for o in args.openings.split(",") if o.strip()]
        bad = [o for o in openings if board.parse(o) is None]
        if bad:
            sys.exit(f"not cells of a {n}x{n} board: {', '.join(bad)}")
    else:
        openings = [f"{chr(ord('a') + c)}{r + 1}" for r in range(n) for c in range(n)]
    a = Engine(args.a, args.setup_a, "A")
    b = Engine(args.b, args.setup_b, "B")
    wins = games = void = 0
    started = time.time()
    for opening in openings:
        for a_black in (True, False):
            if args.games is not None and games + void >= args.games:
                break
            black, white = (a, b) if a_black else (b, a)
            spent = []
            winner, moves, how = play_game(n, opening, black, white, args.referee, spent)
            if args.records:
                with open(args.records, "a") as out:
                    out.write(record_line(n, [vertex for _, vertex in moves], a_black, winner, how, spent))
            if winner is None:
                void += 1
                print(f"void: opening {opening}, A as {'Black' if a_black else 'White'}: {how}", flush=True)
                continue
            games += 1
            a_won = (winner == "b") == a_black
            wins += a_won
            print(f"game {games}: opening {opening}, A as {'Black' if a_black else 'White'}, "
                  f"{'A' if a_won else 'B'} won in {len(moves)} moves ({how})", flush=True)
    low, high = wilson(wins, games)
    share = 100 * wins / games if games else 0.0
    print(f"A won {wins} of {games} games ({share:.1f}%, 95% interval {100 * low:.1f}-{100 * high:.1f}%), "
          f"{void} void, {time.time() - started:.0f} s")
    for e in (a, b):
        times = sorted(e.times)
        if not times:
            continue
        at = lambda q: times[min(len(times) - 1, int(q * len(times)))]
        print(f"{e.name} thought {sum(times):.0f} s over {len(times)} moves: mean {sum(times) / len(times):.3f} s, "
              f"median {at(0.5):.3f} s, 90th percentile {at(0.9):.3f} s, longest {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
