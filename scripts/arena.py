#!/usr/bin/env python3
"""Strength arena: hexarena (over GTP) against OpenSpiel's MCTS bot.

Not part of CI (it takes hours at full length). Usage:

    scripts/arena.sh [--size 9] [--games 200] [--seconds 1.0] [--opponent cpp|python]

The opponent is OpenSpiel's C++ MCTS bot (`pyspiel.MCTSBot`, random
rollouts, UCT c = 1.4, MCTS-Solver on) by default, about 14,000
simulations a second on 11x11 here; `--opponent python` is the pure-Python
`open_spiel.python.algorithms.mcts` bot (about 1,000 a second).

Both sides get the same CPU time per move, so the match stays fair while
other work shares the machine: hexarena counts its search thread's CPU
time (`gtp --cpu-time`); OpenSpiel's bot searches by simulation count, so
after each of its moves the count for the next is set from the CPU time
the last one took (its rate changes as the board fills). Colours
alternate every game. Prints hexarena's win rate with a 95% Wilson
interval.

    scripts/arena.sh --check-sgf 20 [--sizes 3-19]

checks hexarena's SGF export against OpenSpiel instead: random games are
played through hexarena's GTP, written by hexarena as SGF (`hexarena-sgf`,
the pages' exporter), read back by OpenSpiel's SGF reader and replayed in
OpenSpiel's Hex; both must end on the same move with the same winner.

OpenSpiel's Hex, like HexGui, has its first player ("x", our Red) join
top and bottom; GTP vertices are in that orientation, so moves pass
between the two unchanged, and hexarena transposes them internally. Each
game's winner is checked on both sides (OpenSpiel's returns and
hexarena's final_score) so a mapping error cannot go unnoticed.
"""

import argparse
import math
import random
import sys
import time

import numpy as np
import pyspiel
from gtp_match import Engine
from open_spiel.python.algorithms import mcts


def hexarena_gtp(binary, seconds, size):
    """A hexarena GTP process on a `size` board, thinking `seconds` of CPU a
    move without the swap rule (gtp_match.py's engine wrapper)."""
    engine = Engine(f"{binary} gtp --time-per-move {seconds} --cpu-time --no-swap", [], "hexarena")
    engine.start(size)
    return engine


def vertex(action, size):
    col, row = action % size, action // size
    return f"{chr(ord('a') + col)}{row + 1}"


def action_of(text, size):
    col = ord(text[0]) - ord("a")
    row = int(text[1:]) - 1
    return row * size + col


def opponent_bot(game, kind, sims, seed):
    """OpenSpiel's MCTS bot of `kind` (cpp or python) with `sims` simulations a move."""
    if kind == "cpp":
        evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
        return pyspiel.MCTSBot(game, evaluator, 1.4, sims, 1000, True, seed, False)
    rng = np.random.RandomState(seed)
    return mcts.MCTSBot(game, 1.4, sims, mcts.RandomRolloutEvaluator(1, rng), random_state=rng)


def calibrate(game, seconds, kind):
    """OpenSpiel MCTS simulations that fit in `seconds` of CPU on an empty board."""
    probe = 20000 if kind == "cpp" else 2000
    bot = opponent_bot(game, kind, probe, 0)
    state = game.new_initial_state()
    start = time.thread_time()
    bot.step(state)
    rate = probe / (time.thread_time() - start)
    return max(10, int(rate * seconds)), rate


class TimedBot:
    """OpenSpiel's MCTS bot spending about `seconds` of CPU per move: after
    each move the simulation count is set from the CPU time the last took
    (the C++ bot runs on this thread, so `thread_time` counts it too)."""

    def __init__(self, game, seconds, sims, seed, kind):
        self.game, self.seconds, self.sims, self.seed, self.kind = game, seconds, sims, seed, kind
        self.cpu = []

    def step(self, state):
        bot = opponent_bot(self.game, self.kind, self.sims, self.seed + len(self.cpu))
        start = time.thread_time()
        action = bot.step(state)
        spent = max(time.thread_time() - start, 1e-3)
        self.cpu.append(spent)
        rate = self.sims / spent
        # A move the solver settled early says nothing about the rate: the
        # count at most doubles per move (and stays within C++'s int).
        self.sims = max(10, min(int(rate * self.seconds), 2 * self.sims, 2**31 - 1))
        return action


def play(game, size, binary, seconds, sims, hexarena_first, seed, kind):
    bot = TimedBot(game, seconds, sims, seed, kind)
    engine = hexarena_gtp(binary, seconds, size)
    try:
        state = game.new_initial_state()
        hexarena_player = 0 if hexarena_first else 1
        while not state.is_terminal():
            colour = "b" if state.current_player() == 0 else "w"
            if state.current_player() == hexarena_player:
                move = engine.send(f"genmove {colour}")
                action = action_of(move, size)
            else:
                action = bot.step(state)
                engine.send(f"play {colour} {vertex(action, size)}")
            state.apply_action(action)
        winner = 0 if state.returns()[0] > 0 else 1
        score = engine.send("final_score")
        if score != ("B+" if winner == 0 else "W+"):
            raise RuntimeError(f"winners disagree: OpenSpiel {winner}, hexarena {score}")
        return winner == hexarena_player, state.move_number(), sum(bot.cpu) / max(1, len(bot.cpu))
    finally:
        engine.stop()


def sgf_main_line(text):
    """(colour, value) for each move of an SGF text, as OpenSpiel reads it."""
    status = pyspiel.read_sgf_string(text)
    if not status.ok():
        raise RuntimeError(f"OpenSpiel cannot read {text!r}")
    node = status.value()[0]
    props = {p.name: list(p.values) for p in node.properties}
    moves = []
    while node.children:
        node = node.children[0]
        for p in node.properties:
            if p.name in ("B", "W"):
                moves.append((p.name, p.values[0]))
    return props, moves


def check_sgf(binary, sizes, games, seed):
    """Random games through hexarena, checked as OpenSpiel reads their SGF."""
    rng = random.Random(seed)
    engine = hexarena_gtp(binary, 1.0, min(sizes))
    checked = 0
    try:
        for size in sizes:
            game = pyspiel.load_game("hex", {"board_size": size})
            for _ in range(games):
                engine.send(f"boardsize {size}")
                empty = [vertex(a, size) for a in range(size * size)]
                rng.shuffle(empty)
                colour = "b"
                while True:
                    engine.send(f"play {colour} {empty.pop()}")
                    colour = "w" if colour == "b" else "b"
                    try:
                        score = engine.send("final_score")
                        break
                    except RuntimeError:
                        continue
                props, moves = sgf_main_line(engine.send("hexarena-sgf"))
                if props.get("SZ") != [str(size)] or props.get("GM") != ["11"]:
                    raise RuntimeError(f"SGF header {props}")
                state = game.new_initial_state()
                for k, (mover, value) in enumerate(moves):
                    if state.is_terminal():
                        raise RuntimeError(f"{size}x{size}: OpenSpiel's game ended before move {k + 1} of {len(moves)}")
                    expected = 0 if mover == "B" else 1
                    if state.current_player() != expected:
                        raise RuntimeError(f"{size}x{size}: move {k + 1} is {mover}'s in the SGF, not OpenSpiel's mover's")
                    state.apply_action(state.string_to_action(value))
                if not state.is_terminal():
                    raise RuntimeError(f"{size}x{size}: hexarena says {score}, OpenSpiel's game goes on")
                winner = "B+" if state.returns()[0] > 0 else "W+"
                if winner != score:
                    raise RuntimeError(f"{size}x{size}: hexarena says {score}, OpenSpiel {winner}")
                checked += 1
            print(f"{size}x{size}: {games} games, same winner on the same move in OpenSpiel", flush=True)
    finally:
        engine.stop()
    print(f"SGF check: {checked} games, every one read by OpenSpiel with hexarena's winner", flush=True)


def wilson(wins, n, z=1.96):
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--size", type=int, default=9)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument(
        "--start", type=int, default=1, help="number of the first game (seeds and colours follow it), to split a match"
    )
    parser.add_argument("--seconds", type=float, default=1.0)
    parser.add_argument("--opponent", choices=["cpp", "python"], default="cpp", help="OpenSpiel's C++ or pure-Python MCTS bot")
    parser.add_argument("--binary", default="target/release/hexarena")
    parser.add_argument("--check-sgf", type=int, metavar="GAMES", help="check the SGF export instead (games per size)")
    parser.add_argument("--sizes", default="3-19", help="board sizes for --check-sgf, as FROM-TO")
    args = parser.parse_args()
    if args.start < 1:
        parser.error("--start counts games from 1")
    if args.check_sgf is not None:
        try:
            low, high = (int(x) for x in args.sizes.split("-"))
        except ValueError:
            parser.error("--sizes takes FROM-TO, e.g. 3-19")
        if not 3 <= low <= high <= 19 or args.check_sgf < 1:
            parser.error("--sizes must lie within 3-19 and --check-sgf be at least 1")
        check_sgf(args.binary, range(low, high + 1), args.check_sgf, seed=1)
        return 0

    game = pyspiel.load_game("hex", {"board_size": args.size})
    sims, rate = calibrate(game, args.seconds, args.opponent)
    print(
        f"OpenSpiel MCTS ({args.opponent}): {rate:.0f} simulations/s of CPU on the empty board -> {sims} to start with, "
        f"then adjusted to {args.seconds} s of CPU per move",
        flush=True,
    )
    wins = 0
    for n, i in enumerate(range(args.start - 1, args.start - 1 + args.games)):
        started = time.time()
        won, moves, cpu = play(game, args.size, args.binary, args.seconds, sims, i % 2 == 0, i, args.opponent)
        wins += won
        low, high = wilson(wins, n + 1)
        first = "first" if i % 2 == 0 else "second"
        print(
            f"game {i + 1}: hexarena ({first}) {'won' if won else 'lost'} in {moves} moves "
            f"(OpenSpiel {cpu:.2f} s CPU a move, game {time.time() - started:.0f} s); "
            f"{wins}/{n + 1} = {wins / (n + 1):.1%} [95%: {low:.1%}-{high:.1%}]",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
