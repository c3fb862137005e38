"""Tests of gtp_first_decided.py's reading of games and its tally: which
lines make one game, the first decided ply, and how two sides' plies
compare.

    python3 -m unittest discover -s scripts/tests
"""

import os
import sys
import tempfile
import unittest

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, SCRIPTS)

from gtp_first_decided import compare, first_decided, games_of, mean_plies, parse_engine  # noqa: E402
from gtp_vcs import Position, read_positions  # noqa: E402


def positions(*lines):
    return [Position(line, i + 1) for i, line in enumerate(lines)]


class GamesTest(unittest.TestCase):
    def test_lines_that_extend_the_moves_are_one_game(self):
        games = games_of(positions(
            "5x5 a1 b2\topen 9",
            "5x5 a1 b2 c3\topen 8",
            "5x5 a1 b2 c3 d4\tlost",
            # The same length again, a shorter line and other moves: new games.
            "5x5 a1 b2 c3 e5\topen 7",
            "5x5 a1 b2\topen 9",
            "5x5 e1 b2 c3\twon",
        ))
        self.assertEqual([len(g) for g in games], [3, 1, 1, 1])
        self.assertEqual(games[1][0].moves, ["a1", "b2", "c3", "e5"])

    def test_the_first_decided_ply_is_the_first_won_or_lost_position(self):
        [game] = games_of(positions(
            "5x5 a1 b2\topen 9\topen 9",
            "5x5 a1 b2 c3\topen 4\twon",
            "5x5 a1 b2 c3 d4\tlost\twon",
        ))
        self.assertEqual(first_decided(game, lambda p: p.ours[0]), 4)
        self.assertEqual(first_decided(game, lambda p: p.ours[1]), 3)
        self.assertIsNone(first_decided(game, lambda p: "open"))


class ReadTest(unittest.TestCase):
    def read(self, text, names=None):
        with tempfile.NamedTemporaryFile("w", suffix=".tsv", delete=False) as f:
            f.write(text)
        try:
            return read_positions(f.name, names)
        finally:
            os.unlink(f.name)

    def test_columns_are_named_or_numbered(self):
        positions, names = self.read("5x5 a1\topen 9\twon\n\n5x5 a1 b2\tlost\topen 3\n")
        self.assertEqual(len(positions), 2)
        self.assertEqual(names, ["1", "2"])
        self.assertEqual(self.read("5x5 a1\topen 9\twon\n", "all,links3")[1], ["all", "links3"])

    def test_bad_files_are_refused_with_the_reason(self):
        for text, names, reason in [
            ("", None, "no position"),
            ("5x5 a1\topen 9\twon\n5x5 a1 b2\tlost\n", None, "same number"),
            ("5x5 a1\topen 9\twon\n", "all", "1 names for 2 columns"),
            ("5x5 a1\tmaybe\n", None, "not won, lost or open"),
        ]:
            with self.assertRaises(ValueError) as caught:
                self.read(text, names)
            self.assertIn(reason, str(caught.exception))


class TallyTest(unittest.TestCase):
    def test_a_lead_counts_only_from_the_given_plies(self):
        theirs = [20, 30, 40, 25, None, None, 33]
        ours = [24, 31, 37, None, 28, None, 30]
        # 20 vs 24 earlier; 30 vs 31 within; 40 vs 37 later; 25 vs never
        # earlier; never vs 28 later; neither decides: not counted; 33 vs
        # 30 later.
        self.assertEqual(compare(theirs, ours, 3), (2, 1, 3))
        self.assertEqual(compare(theirs, ours, 1), (3, 0, 3))
        self.assertEqual(compare([30, 31], [30, 30], 1), (0, 1, 1))

    def test_the_means_take_the_games_both_decide(self):
        self.assertEqual(mean_plies([20, None, 30], [24, 28, 40]), (25.0, 32.0, 2))
        self.assertEqual(mean_plies([None], [12]), (None, None, 0))

    def test_an_engine_is_named(self):
        self.assertEqual(parse_engine("row2=/tmp/row2/mohex --use-logfile=0"),
                         ("row2", "/tmp/row2/mohex --use-logfile=0"))
        for bad in ("mohex", "=mohex", "row2=", " = "):
            with self.assertRaises(ValueError):
                parse_engine(bad)


if __name__ == "__main__":
    unittest.main()
