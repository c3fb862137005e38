//! The solver's work at the engine's levels, bounded by a number of solver
//! positions rather than by time: a level's move is measured in iterations
//! and must come out the same natively and in a worker. The caller steps
//! each attempt (a worker a little per turn of its event loop); the same
//! slices run in the same order either way, so the outcome is the same.

use super::Searcher;
use super::endgame::SLICE;
use crate::engine::cell::Cell;
use crate::engine::position::Position;
use crate::engine::solver::{Prover, Verdict};

/// A proof of the position before the search.
pub struct BoundedProof {
    prover: Prover,
    limit: u64,
}

impl BoundedProof {
    pub fn new(position: &Position, limit: u64) -> BoundedProof {
        BoundedProof { prover: Prover::new(position), limit }
    }

    /// Runs at most `slices` more slices; the verdict once it is settled
    /// (proved, or the limit reached: unknown), `None` while it goes on.
    pub fn step(&mut self, slices: u32) -> Option<Verdict> {
        for _ in 0..slices {
            if self.prover.nodes() >= self.limit {
                return Some(Verdict::Unknown);
            }
            let before = self.prover.nodes();
            let verdict = self.prover.run(SLICE.min(self.limit - before));
            if *verdict != Verdict::Unknown {
                return Some(verdict.clone());
            }
            // A solver that cannot go on (out of table) has settled too.
            if self.prover.nodes() == before {
                return Some(Verdict::Unknown);
            }
        }
        None
    }

    /// Runs to the end: the verdict.
    pub fn finish(&mut self) -> Verdict {
        loop {
            if let Some(verdict) = self.step(u32::MAX) {
                return verdict;
            }
        }
    }

    /// Once settled without a proof: the moves not proved to lose (see
    /// [`Prover::open_moves`]), for the search that follows.
    pub fn open_moves(&mut self) -> Option<Vec<Cell>> {
        self.prover.open_moves()
    }
}

/// The check of the search's choices after it, as the GTP engine's
/// ([`super::endgame::Checking`]) but with `limit` solver positions for
/// each choice: the search's best moves are looked at alone, best first;
/// one proved to lose is refuted and the next looked at, and the first one
/// not refuted (or one whose positions run out) ends the check.
pub struct BoundedCheck {
    /// One solver for every choice, turned to each in turn: the positions
    /// after two moves share most of their lines.
    prover: Prover,
    position: Position,
    /// The choices to look at, best first.
    choices: Vec<Cell>,
    /// The choice looked at now: an index into `choices`, and the solver's
    /// count of positions when it began.
    at: Option<(usize, u64)>,
    limit: u64,
    refuted: Vec<Cell>,
    settled: bool,
}

impl BoundedCheck {
    /// The check of `search`'s `choices` best moves in `position` (none
    /// when the search proved the position: its choice is then sound).
    pub fn new(position: &Position, search: &Searcher, choices: usize, limit: u64) -> BoundedCheck {
        BoundedCheck::with_prover(Prover::new(position), position, search, choices, limit)
    }

    /// The same check with a solver of the same board size that has
    /// searched before (the GTP engine keeps one for the game).
    pub fn with_prover(
        prover: Prover,
        position: &Position,
        search: &Searcher,
        choices: usize,
        limit: u64,
    ) -> BoundedCheck {
        let analysis = search.analysis(choices);
        let choices =
            if analysis.proven.is_some() { Vec::new() } else { analysis.moves.iter().map(|m| m.cell).collect() };
        BoundedCheck {
            prover,
            position: position.clone(),
            choices,
            at: None,
            limit,
            refuted: Vec::new(),
            settled: false,
        }
    }

    /// Runs at most `slices` more slices (or turns to the next choice);
    /// whether the check has settled.
    pub fn step(&mut self, slices: u32) -> bool {
        for _ in 0..slices {
            if self.settled {
                break;
            }
            self.settled = match self.at {
                None => !self.begin(self.refuted.len()),
                Some((index, began)) => self.go_on(index, began),
            };
        }
        self.settled
    }

    /// Turns the solver to the position after choice `index`; false when
    /// there is none left to look at.
    fn begin(&mut self, index: usize) -> bool {
        let Some(&cell) = self.choices.get(index) else { return false };
        let mut after = self.position.clone();
        // A move that ends the game or cannot be played is not the
        // solver's to judge.
        if after.play(cell).is_err() || after.winner().is_some() || !self.prover.reroot(&after) {
            return false;
        }
        self.at = Some((index, self.prover.nodes()));
        true
    }

    /// One slice on choice `index`, begun at `began` positions; whether
    /// the check has settled.
    fn go_on(&mut self, index: usize, began: u64) -> bool {
        let spent = self.prover.nodes() - began;
        if spent >= self.limit {
            return true;
        }
        let before = self.prover.nodes();
        match self.prover.run(SLICE.min(self.limit - spent)) {
            Verdict::Win(_) => {
                self.refuted.push(self.choices[index]);
                self.at = None;
                false
            }
            Verdict::Loss => true,
            // A solver that cannot go on (out of table) has settled too.
            Verdict::Unknown => self.prover.nodes() == before,
        }
    }

    /// Runs to the end.
    pub fn finish(&mut self) {
        while !self.step(u32::MAX) {}
    }

    /// Solver positions searched so far.
    pub fn positions(&self) -> u64 {
        self.prover.nodes()
    }

    /// The choices proved to lose so far.
    pub fn refuted(&self) -> &[Cell] {
        &self.refuted
    }

    /// Takes the refuted choices from `search`'s root.
    pub fn cut(&self, search: &mut Searcher) {
        if self.refuted.is_empty() {
            return;
        }
        let analysis = search.analysis(usize::MAX);
        let rest: Vec<Cell> = analysis.moves.iter().map(|m| m.cell).filter(|c| !self.refuted.contains(c)).collect();
        search.keep_root_moves(&rest);
    }

    /// The solver, to keep what it found.
    pub fn into_prover(self) -> Prover {
        self.prover
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;
    use crate::engine::search::{SearchConfig, endgame};
    use crate::engine::solver::solve;

    fn game(text: &str) -> crate::engine::Game {
        Record::from_text(text, 9).unwrap().to_game(false).unwrap()
    }

    /// The self-play position of endgame's check test and a 300-iteration
    /// search of it, with a seed whose favourite loses.
    fn searched() -> (crate::engine::Game, Searcher) {
        let game = game(endgame::tests::CHECKED);
        let mut search = Searcher::of_game(&game, endgame::tests::favouring_a_loss()).unwrap();
        search.run(300);
        (game, search)
    }

    /// Whether the solver proves `cell` lost in `position` within
    /// `budget` positions.
    fn loses(position: &Position, cell: Cell, budget: u64) -> bool {
        let mut after = position.clone();
        after.play(cell).unwrap();
        matches!(solve(&after, budget).verdict, Verdict::Win(_))
    }

    #[test]
    #[cfg_attr(debug_assertions, ignore = "a minute unoptimised; scripts/test.sh runs it in release")]
    fn a_refuted_choice_is_cut_and_the_next_one_kept() {
        let (game, mut search) = searched();
        let p = game.position();
        let favourite = search.best_move().unwrap();
        assert!(loses(p, favourite, 2_000_000), "the search's {favourite} does not lose: nothing to check");

        let mut check = BoundedCheck::new(p, &search, 3, 5_000);
        check.finish();
        assert_eq!(check.refuted().first(), Some(&favourite));
        assert!(check.refuted().iter().all(|&c| loses(p, c, 2_000_000)));
        check.cut(&mut search);
        let played = search.best_move().unwrap();
        assert!(!check.refuted().contains(&played));
        assert!(!loses(p, played, 100_000), "{played} loses too");
    }

    #[test]
    fn stepping_in_slices_or_at_once_ends_the_same() {
        let (game, search) = searched();
        let mut at_once = BoundedCheck::new(game.position(), &search, 3, 2_000);
        at_once.finish();
        let mut stepped = BoundedCheck::new(game.position(), &search, 3, 2_000);
        let mut turns = 0;
        while !stepped.step(4) {
            turns += 1;
        }
        assert!(turns > 1, "settled in one turn: nothing stepped");
        assert_eq!(stepped.refuted(), at_once.refuted());
        assert_eq!(stepped.positions(), at_once.positions());
    }

    #[test]
    fn a_proved_search_or_no_positions_checks_nothing() {
        let (game, search) = searched();
        let mut none = BoundedCheck::new(game.position(), &search, 3, 0);
        none.finish();
        assert!(none.refuted().is_empty());
        assert_eq!(none.positions(), 0);
        // The empty 5×5 board: the search knows it at once.
        let small = crate::engine::Game::with_moves(5, false, &[]).unwrap();
        let mut proved = Searcher::of_game(&small, SearchConfig::default()).unwrap();
        proved.run(3_000);
        assert!(proved.proven().is_some(), "not proved");
        let mut check = BoundedCheck::new(small.position(), &proved, 3, 2_000);
        assert!(check.step(1));
        assert!(check.refuted().is_empty());
    }
}
