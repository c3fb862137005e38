//! The fast checks' look at the search's best moves before one is played.
//!
//! The tree runs its checks at nodes visited often enough, with the rules
//! cheap enough for thousands of nodes. Captured sets in the connections
//! (`ListLimits::captured`) decide positions those rules leave open, at
//! about twice the cost of a check: too dear in the tree, cheap for a few
//! positions a move. So after the search, the position after each of its
//! best moves is checked with them, best first; a move after which the
//! opponent is proved to win is taken from the root, and the first move
//! not refuted ends the look. A position the checks prove won keeps only
//! the moves that keep the win.

use super::Searcher;
use crate::engine::cell::Cell;
use crate::engine::connections::ListLimits;
use crate::engine::position::Position;
use crate::engine::solver::FastChecks;

/// When and how widely the search's choices are looked at.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Refuting {
    /// At most this many of the search's best moves (0: never).
    pub choices: usize,
    /// Only with at most this many empty cells.
    pub max_empty: usize,
}

impl Refuting {
    /// No look.
    pub const OFF: Refuting = Refuting { choices: 0, max_empty: 0 };

    /// Whether the look is taken in `position`.
    pub fn applies(&self, position: &Position) -> bool {
        self.choices > 0 && position.empty_cells().count() <= self.max_empty
    }
}

impl std::str::FromStr for Refuting {
    type Err = String;

    /// `CHOICES[:MAX_EMPTY]`: every position unless a count of empty cells
    /// is given; `0` for none.
    fn from_str(text: &str) -> Result<Refuting, String> {
        let bad = || format!("`{text}` is not CHOICES[:MAX_EMPTY] (whole numbers, CHOICES from 0, MAX_EMPTY from 1)");
        let mut parts = text.split(':');
        let choices = parts.next().and_then(|p| p.parse::<usize>().ok()).ok_or_else(bad)?;
        let max_empty = match parts.next() {
            None => usize::MAX,
            Some(p) => p.parse::<usize>().ok().filter(|&n| n > 0).ok_or_else(bad)?,
        };
        if parts.next().is_some() {
            return Err(bad());
        }
        Ok(Refuting { choices, max_empty })
    }
}

/// The rules the look uses: the tree's, with captured sets.
pub fn refuting_limits() -> ListLimits {
    ListLimits { captured: true, ..ListLimits::default() }
}

/// What the look found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Look {
    /// The checks prove the position won: these of the root's moves keep
    /// the win, and only they stay.
    Won(Vec<Cell>),
    /// These of the best moves, best first, lose and go.
    Refuted(Vec<Cell>),
    /// Nothing to change: no best move refuted, or every move the root has
    /// would go (one must be played).
    Unchanged,
}

/// What the look finds in `position` whose moves are `ranked`, best first
/// (see the module's text): a win the checks prove, or the refuted ones
/// among the `choices` best moves.
pub fn look(checks: &mut FastChecks, position: &Position, ranked: &[Cell], choices: usize) -> Look {
    if let Some(wins) = checks.winning_moves(position) {
        let kept: Vec<Cell> = ranked.iter().copied().filter(|c| wins.contains(c)).collect();
        return if kept.is_empty() { Look::Unchanged } else { Look::Won(kept) };
    }
    let mut refuted = Vec::new();
    for &cell in ranked.iter().take(choices) {
        let mut after = position.clone();
        if after.play(cell).is_err() || !checks.mover_wins(&after) {
            break;
        }
        refuted.push(cell);
    }
    if refuted.is_empty() || refuted.len() == ranked.len() { Look::Unchanged } else { Look::Refuted(refuted) }
}

/// Takes [`look`] at `search`'s root in `position` and leaves the root the
/// moves it keeps; a root the search has proved is left alone.
pub fn refute(checks: &mut FastChecks, position: &Position, search: &mut Searcher, choices: usize) -> Look {
    let analysis = search.analysis(usize::MAX);
    if analysis.proven.is_some() {
        return Look::Unchanged;
    }
    let ranked: Vec<Cell> = analysis.moves.iter().map(|m| m.cell).collect();
    let found = look(checks, position, &ranked, choices);
    let kept: Vec<Cell> = match &found {
        Look::Won(kept) => kept.clone(),
        Look::Refuted(refuted) => ranked.iter().copied().filter(|c| !refuted.contains(c)).collect(),
        Look::Unchanged => return found,
    };
    search.keep_root_moves(&kept);
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;
    use crate::engine::solver::Verdict;

    /// Blue to move in an 11×11 self-play game; after k3 Red has won, by
    /// captured sets only (see the all-ends tests).
    const BEFORE_K3: &str = "11x11 h10 e8 e7 g6 f7 g7 f8 g8 g5 h5 h4 i4 i3 f6 f5 e6 e5 c6 d4 e4 d5 c4 c5 k2 j3";

    fn cell(text: &str) -> Cell {
        Cell::parse(text, 11).unwrap()
    }

    /// The same game two moves earlier, Blue to move.
    const BEFORE_K2: &str = "11x11 h10 e8 e7 g6 f7 g7 f8 g8 g5 h5 h4 i4 i3 f6 f5 e6 e5 c6 d4 e4 d5 c4 c5";

    fn after(position: &Position, cell: Cell) -> Position {
        let mut q = position.clone();
        q.play(cell).unwrap();
        q
    }

    #[test]
    fn only_the_refuted_best_moves_go_and_one_move_always_stays() {
        let game = Record::from_text(BEFORE_K3, 11).unwrap().to_game(false).unwrap();
        let position = game.position();
        let k3 = after(position, cell("k3"));
        assert!(!FastChecks::new(11, ListLimits::default()).mover_wins(&k3), "the tree's rules see it");
        let mut checks = FastChecks::new(11, refuting_limits());
        assert!(checks.mover_wins(&k3));
        // Here every move of Blue's is refuted.
        let (a11, k3) = (cell("a11"), cell("k3"));
        assert!(checks.mover_wins(&after(position, a11)));
        assert_eq!(look(&mut checks, position, &[k3, a11], 1), Look::Refuted(vec![k3]));
        assert_eq!(look(&mut checks, position, &[k3, a11], 2), Look::Unchanged);

        // Earlier, a move the checks do not refute ends the look.
        let game = Record::from_text(BEFORE_K2, 11).unwrap().to_game(false).unwrap();
        let position = game.position();
        let empty: Vec<Cell> = position.empty_cells().collect();
        let mut refuted = |c: &&Cell| checks.mover_wins(&after(position, **c));
        let (lost, open): (Vec<Cell>, Vec<Cell>) = empty.iter().partition(|c| refuted(c));
        assert!(!lost.is_empty() && !open.is_empty(), "{} refuted, {} open", lost.len(), open.len());
        let ranked = [lost[0], open[0], lost[lost.len() - 1]];
        assert_eq!(look(&mut checks, position, &ranked, 3), Look::Refuted(vec![lost[0]]));
        assert_eq!(look(&mut checks, position, &[open[0], lost[0]], 3), Look::Unchanged);
    }

    #[test]
    fn a_win_the_captured_sets_prove_keeps_only_its_moves() {
        let game = Record::from_text(&format!("{BEFORE_K3} k3"), 11).unwrap().to_game(false).unwrap();
        let position = game.position();
        let mut checks = FastChecks::new(11, refuting_limits());
        let wins = checks.winning_moves(position).expect("won by the checks");
        let other = position.empty_cells().find(|c| !wins.contains(c)).expect("a move outside the win");
        let ranked = [other, wins[0]];
        assert_eq!(look(&mut checks, position, &ranked, 3), Look::Won(vec![wins[0]]));
        assert_eq!(crate::engine::solver::solve(&after(position, wins[0]), 100_000).verdict, Verdict::Loss);
        // Moves the root does not have are not kept.
        assert_eq!(look(&mut checks, position, &[other], 3), Look::Unchanged);
    }

    #[test]
    fn the_look_reads_its_choices_and_its_reach() {
        assert_eq!("3".parse::<Refuting>(), Ok(Refuting { choices: 3, max_empty: usize::MAX }));
        assert_eq!("5:100".parse::<Refuting>(), Ok(Refuting { choices: 5, max_empty: 100 }));
        assert_eq!("0".parse::<Refuting>().map(|r| r.applies(&Position::new(11).unwrap())), Ok(false));
        for bad in ["", "x", "3:0", "3:4:5", "-1", "3:"] {
            assert!(bad.parse::<Refuting>().is_err(), "{bad}");
        }
        let r = Refuting { choices: 2, max_empty: 100 };
        assert!(!r.applies(&Position::new(11).unwrap()));
        assert!(r.applies(&Position::new(9).unwrap()));
    }
}
