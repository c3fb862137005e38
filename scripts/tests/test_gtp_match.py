"""Tests of the match tools every figure against MoHex rests on:
gtp_match.py's referee board, its records and their reader, a whole
match between real hexarena engines (one of them made to die mid-game,
as MoHex does, so that the solver's ruling is exercised), and
gtp_records.py reading that match back.

    python3 -m unittest discover -s scripts/tests

The matches need a hexarena binary: $HEXARENA_BIN, else target/debug/
hexarena or target/release/hexarena. Without one they are skipped, and
say so loudly.
"""

import os
import subprocess
import sys
import tempfile
import textwrap
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(SCRIPTS)
sys.path.insert(0, SCRIPTS)

from gtp_match import ENDINGS, Board, Record, read_records, record_line, wilson  # noqa: E402


def hexarena_binary():
    candidates = [os.environ.get("HEXARENA_BIN", "")]
    candidates += [os.path.join(ROOT, "target", p, "hexarena") for p in ("debug", "release")]
    return next((c for c in candidates if c and os.access(c, os.X_OK)), None)


HEXARENA = hexarena_binary()
NO_BINARY = "no hexarena binary (set HEXARENA_BIN or build target/debug/hexarena): the match tests did not run"
if HEXARENA is None:
    print(f"\n*** SKIPPED: {NO_BINARY} ***\n", file=sys.stderr)

# A GTP engine that plays the first empty cell in reading order and exits
# at its DIE-th genmove without answering, as MoHex exits in positions
# its solver has decided.
DYING_ENGINE = textwrap.dedent("""
    import sys
    die = int(sys.argv[1])
    size, taken, asked = 5, set(), 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "boardsize":
            size = int(words[1])
        elif words[0] == "clear_board":
            taken = set()
        elif words[0] == "play":
            taken.add(words[2].lower())
        elif words[0] == "genmove":
            asked += 1
            if asked == die:
                sys.exit(0)
            cells = [chr(97 + c) + str(r + 1) for r in range(size) for c in range(size)]
            move = next(c for c in cells if c not in taken)
            taken.add(move)
            print("= " + move + "\\n", flush=True)
            continue
        elif words[0] == "quit":
            print("=\\n", flush=True)
            break
        print("=\\n", flush=True)
""")


def tab_joined(fields):
    return "\t".join(fields) + "\n"


class RefereeBoard(unittest.TestCase):
    def test_cells_outside_the_board_or_malformed_are_refused(self):
        board = Board(5)
        self.assertEqual(board.parse("a1"), (0, 0))
        self.assertEqual(board.parse(" E5 "), (4, 4))
        for text in ("f1", "a6", "a0", "1a", "a", "", "aa1", "a-1"):
            self.assertIsNone(board.parse(text), text)

    def test_a_cell_is_played_once(self):
        board = Board(5)
        self.assertTrue(board.play("b", "c3"))
        self.assertFalse(board.play("w", "c3"))
        self.assertFalse(board.play("w", "z9"))
        self.assertEqual(board.cells, {(2, 2): "b"})

    def test_black_joins_the_rows_and_white_the_columns(self):
        black = Board(5)
        for vertex in ("c1", "c2", "b3", "b4", "a5"):
            self.assertIsNone(black.winner())
            black.play("b", vertex)
        self.assertEqual(black.winner(), "b")
        white = Board(5)
        for vertex in ("a3", "b3", "c2", "d2", "e1"):
            self.assertIsNone(white.winner())
            white.play("w", vertex)
        self.assertEqual(white.winner(), "w")

    def test_cells_touching_only_at_a_corner_are_not_joined(self):
        # b1 and c2 lie on the short diagonal, which is not a hex edge.
        board = Board(5)
        for vertex in ("b1", "c2", "c3", "c4", "c5"):
            board.play("b", vertex)
        self.assertIsNone(board.winner())
        board.play("b", "b2")
        self.assertEqual(board.winner(), "b")


class Interval(unittest.TestCase):
    def test_wilson_interval(self):
        self.assertEqual(wilson(0, 0), (0.0, 1.0))
        low, high = wilson(50, 100)
        self.assertAlmostEqual(low, 0.4038, places=4)
        self.assertAlmostEqual(high, 0.5962, places=4)
        low, high = wilson(46, 122)
        self.assertAlmostEqual(low, 0.296, places=3)
        self.assertAlmostEqual(high, 0.466, places=3)


class Records(unittest.TestCase):
    GOOD = tab_joined(["5x5 a1 c3 b2", "B black", "w", "B stopped (gone); solver ruled w",
                        "seconds from move 2: 0.051 0.120"])

    def test_a_record_reads_back(self):
        r = Record(self.GOOD)
        self.assertEqual((r.size, r.moves, r.a_black, r.winner), (5, ["a1", "c3", "b2"], False, "w"))
        self.assertEqual(r.seconds, [0.051, 0.12])
        self.assertEqual(r.ending(), "stopped")

    def test_what_the_match_writes_reads_back(self):
        line = record_line(11, ["f6", "e5", "d7"], True, None, "B died; solver ruled nothing (void)", [1.2345, 0.5])
        r = Record(line, "match.txt")
        self.assertEqual((r.size, r.moves, r.a_black, r.winner), (11, ["f6", "e5", "d7"], True, None))
        self.assertEqual((r.seconds, r.ending(), r.source), ([1.234, 0.5], "died", "match.txt"))

    def test_records_from_before_the_times_have_none(self):
        r = Record(tab_joined(["11x11 f6 e5", "A black", "void", "B died; solver ruled nothing (void)"]))
        self.assertIsNone(r.winner)
        self.assertEqual(r.seconds, [])
        self.assertEqual(r.ending(), "died")

    def test_every_ending_is_told_apart(self):
        texts = {
            "connected": "connected",
            "resigned": "A resigned",
            "played illegal": "B played illegal zz",
            "stopped": "B stopped (B exited during 'genmove w'); solver ruled b",
            "died": "A died; solver ruled w",
        }
        self.assertEqual(set(texts), set(ENDINGS))
        for kind, how in texts.items():
            self.assertEqual(Record(tab_joined(["5x5 a1", "A black", "b", how])).ending(), kind)
        self.assertEqual(Record(tab_joined(["5x5 a1", "A black", "b", "the cat"])).ending(), "other")

    def test_malformed_records_are_refused(self):
        bad = [
            ["5x5 a1", "A black", "b"],
            ["5x5 a1", "A black", "b", "connected", "seconds from move 2: 1", "extra"],
            ["fivebyfive a1", "A black", "b", "connected"],
            ["5x5", "A black", "b", "connected"],
            ["5x5 a1", "A white", "b", "connected"],
            ["5x5 a1", "A black", "red", "connected"],
            ["5x5 a1", "A black", "b", "connected", "seconds from move 2: 0.1 x"],
            ["5x5 a1", "A black", "b", "connected", "seconds from move 2: -1"],
            ["5x5 a1", "A black", "b", "connected", "minutes: 1"],
        ]
        for fields in bad:
            with self.assertRaises(ValueError, msg=fields):
                Record(tab_joined(fields))

    def test_a_bad_line_is_named_by_file_and_line(self):
        with tempfile.TemporaryDirectory() as tmp:
            path = os.path.join(tmp, "records.txt")
            with open(path, "w") as f:
                f.write(self.GOOD + "\n" + "5x5 a1\tA black\n")
            with self.assertRaises(ValueError) as raised:
                read_records([path])
            self.assertIn(f"{path}:3:", str(raised.exception))
            with open(path, "w") as f:
                f.write(self.GOOD + "\n" + self.GOOD)
            records = read_records([path])
            self.assertEqual(len(records), 2)
            self.assertEqual(records[0].source, path)


def run(args):
    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=600, cwd=ROOT)


@unittest.skipIf(HEXARENA is None, NO_BINARY)
class Matches(unittest.TestCase):
    def match(self, b_command, records):
        a = f"{HEXARENA} gtp --no-swap --time-per-move 0.05"
        return run([os.path.join(SCRIPTS, "gtp_match.py"), "--size", "5", "--a", a, "--b", b_command,
                    "--referee", f"{HEXARENA} gtp", "--openings", "a1,c3", "--records", records])

    def test_a_match_is_refereed_recorded_and_read_back(self):
        with tempfile.TemporaryDirectory() as tmp:
            records = os.path.join(tmp, "records.txt")
            done = self.match(f"{HEXARENA} gtp --no-swap --time-per-move 0.05", records)
            self.assertEqual(done.returncode, 0, done.stderr)
            self.assertIn("of 4 games", done.stdout)
            games = read_records([records])
            self.assertEqual(len(games), 4)
            self.assertEqual([g.moves[0] for g in games], ["a1", "a1", "c3", "c3"])
            self.assertEqual([g.a_black for g in games], [True, False, True, False])
            for g in games:
                # The referee's winner is the board's: replay the game.
                board = Board(5)
                for i, vertex in enumerate(g.moves):
                    self.assertTrue(board.play("b" if i % 2 == 0 else "w", vertex))
                self.assertEqual(g.ending(), "connected")
                self.assertEqual(board.winner(), g.winner)
                self.assertEqual(len(g.seconds), len(g.moves) - 1)
            shown = run([os.path.join(SCRIPTS, "gtp_records.py"), records])
            self.assertEqual(shown.returncode, 0, shown.stderr)
            a_won = sum((g.winner == "b") == g.a_black for g in games)
            self.assertIn(f"A won {a_won} of 4 games", shown.stdout)
            self.assertIn("ended: connected 4", shown.stdout)
            self.assertIn("A thought", shown.stdout)

    def test_an_engine_that_dies_leaves_the_game_to_the_solver(self):
        with tempfile.TemporaryDirectory() as tmp:
            engine = os.path.join(tmp, "dying_engine.py")
            with open(engine, "w") as f:
                f.write(DYING_ENGINE)
            records = os.path.join(tmp, "records.txt")
            done = self.match(f"{sys.executable} {engine} 3", records)
            self.assertEqual(done.returncode, 0, done.stderr)
            games = read_records([records])
            self.assertEqual(len(games), 4)
            for g in games:
                # 5×5 is small enough for the solver to rule on every
                # position: none is void, and the ruling names who won.
                if g.ending() == "stopped":
                    self.assertIn("B stopped", g.how)
                    self.assertIn(g.winner, ("b", "w"))
                    self.assertTrue(g.how.endswith(f"solver ruled {g.winner}"), g.how)
            self.assertTrue(any(g.ending() == "stopped" for g in games))

    def test_bad_arguments_are_refused_before_any_game(self):
        with tempfile.TemporaryDirectory() as tmp:
            records = os.path.join(tmp, "records.txt")
            for extra, message in ((["--openings", "a1,f9"], "not cells of a 5x5 board: f9"),
                                   (["--size", "30"], "--size must be from 1 to 26")):
                args = [os.path.join(SCRIPTS, "gtp_match.py"), "--size", "5", "--a", "x", "--b", "y",
                        "--records", records, *extra]
                done = run(args)
                self.assertNotEqual(done.returncode, 0)
                self.assertIn(message, done.stderr)
                self.assertFalse(os.path.exists(records))
            refused = run([os.path.join(SCRIPTS, "gtp_records.py"), os.path.join(tmp, "missing.txt")])
            self.assertNotEqual(refused.returncode, 0)
            self.assertIn("cannot read", refused.stderr)


if __name__ == "__main__":
    unittest.main()
