//! A solver: depth-first proof-number search (df-pn) with a transposition
//! table. It proves who wins a position with perfect play, within a node
//! budget.
//!
//! Before a position is expanded it is reduced: captured pairs are filled
//! for their owner and dead cells are left out (see [`super::dead_cells`]).
//! Then virtual connections ([`super::connections`]) decide much of it: a
//! side to move that wins at once or holds a semi connection between its
//! edges has won; facing the opponent's full connection it has lost, and
//! facing semi connections it must play where they all meet.
//!
//! Every proved position keeps a *proof set*: cells outside it could hold
//! more stones of the loser and the winner would still win. So once one
//! move is proved to lose, every other move outside the winner's proof set
//! loses too, and only moves inside it are searched (the must-play region
//! of Hayward et al.'s 7×7 and 8×8 solvers). Proof sets also let recently
//! proved positions settle the positions they cover elsewhere in the tree
//! ([`super::proof_templates`]).

mod df_pn;
mod openings;

use super::bits::{Bits, ForWidth, at_width};
use super::cell::Cell;
use super::connections::{Exposed, ListLimits};
use super::position::Position;
use super::stones::Stones;

pub(crate) use df_pn::Known;
use df_pn::Solver;

/// The solver's fast checks (captured, dead, vulnerable and dominated
/// cells, virtual connections of both sides), asked by the tree search
/// once a node has been visited enough to be worth it.
pub(crate) struct Knowledge<B: Bits> {
    solver: Solver<B>,
}

impl<B: Bits> Knowledge<B> {
    pub(crate) fn new(n: u8, limits: ListLimits) -> Knowledge<B> {
        Knowledge { solver: Solver::with_limits(n, 0, limits) }
    }

    /// What the fast checks know after the 11×11 move list `text`, for
    /// the tests that hold a real game's position.
    #[cfg(test)]
    pub(crate) fn of_record(text: &str, limits: ListLimits) -> Known<u128> {
        let game = crate::engine::Record::from_text(text, 11).unwrap().to_game(false).unwrap();
        Knowledge::<u128>::new(11, limits).of(&Stones::from_position(game.position()))
    }

    /// What is known of `s` without searching.
    pub(crate) fn of(&mut self, s: &Stones<B>) -> Known<B> {
        self.solver.knowledge(s)
    }

    /// After [`Knowledge::of`] found a position open: where one stone of
    /// the mover's can break a connection of the opponent's.
    pub(crate) fn exposed(&self) -> Vec<Exposed<B>> {
        self.solver.exposed()
    }

    /// The opponent's answers to the mover's stone on `probe` that keep
    /// its connections, over what [`Knowledge::exposed`] found.
    pub(crate) fn replies_among(&self, exposed: &[Exposed<B>], probe: usize) -> B {
        self.solver.replies_among(exposed, probe)
    }
}

pub use openings::published_openings;

/// The fast checks alone, one position at a time, under rules of their
/// own: a look at the positions after the search's best moves that costs
/// a few milliseconds, with rules too dear for every node of the tree.
pub struct FastChecks {
    checks: Box<dyn MoverWins>,
}

trait MoverWins {
    fn winning_moves(&mut self, position: &Position) -> Option<Vec<Cell>>;
    fn size(&self) -> u8;
}

impl<B: Bits> MoverWins for Knowledge<B> {
    fn winning_moves(&mut self, position: &Position) -> Option<Vec<Cell>> {
        let n = self.size();
        match self.of(&Stones::from_position(position)) {
            Known::Won { moves, .. } => Some(moves.ones().map(|i| Cell::from_index(i, n)).collect()),
            Known::Lost { .. } | Known::Open { .. } => None,
        }
    }

    fn size(&self) -> u8 {
        self.solver.masks().size
    }
}

impl FastChecks {
    /// The checks for an `n`×`n` board with the H-search's rules `limits`.
    pub fn new(n: u8, limits: ListLimits) -> FastChecks {
        struct Start(u8, ListLimits);
        impl ForWidth for Start {
            type Output = Box<dyn MoverWins>;
            fn run<B: Bits + 'static>(self) -> Box<dyn MoverWins> {
                Box::new(Knowledge::<B>::new(self.0, self.1))
            }
        }
        FastChecks { checks: at_width(n, Start(n, limits)) }
    }

    /// The board size the checks are for.
    pub fn size(&self) -> u8 {
        self.checks.size()
    }

    /// Whether the checks prove that the side to move in `position` wins
    /// (false for another board size: nothing is known of it).
    pub fn mover_wins(&mut self, position: &Position) -> bool {
        self.winning_moves(position).is_some()
    }

    /// When the checks prove that the side to move in `position` wins: the
    /// moves that keep the win (every empty cell when any move does).
    pub fn winning_moves(&mut self, position: &Position) -> Option<Vec<Cell>> {
        if position.size() != self.size() || position.winner().is_some() {
            return None;
        }
        self.checks.winning_moves(position)
    }
}

/// What the solver found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The side to move wins; these moves keep the win (at least one).
    Win(Vec<Cell>),
    /// The side to move loses whatever it plays.
    Loss,
    /// The budget ran out first.
    Unknown,
}

/// A verdict with the work it took.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solution {
    pub verdict: Verdict,
    /// Positions expanded.
    pub nodes: u64,
    /// When proved: the most stones the winner still needs, following the
    /// proof (an upper bound, not always the shortest win).
    pub winner_stones: Option<u32>,
}

/// Proves `position` for the side to move, expanding at most `budget`
/// positions.
pub fn solve(position: &Position, budget: u64) -> Solution {
    struct Solve<'a>(&'a Position, u64);
    impl ForWidth for Solve<'_> {
        type Output = Solution;
        fn run<B: Bits + 'static>(self) -> Solution {
            let Solve(position, budget) = self;
            Solver::<B>::new(position.size(), budget).solve_root(&Stones::from_position(position))
        }
    }
    at_width(position.size(), Solve(position, budget))
}

/// Solves the position after each move of the side to move in `position`
/// (every empty cell, from the centre out), within `budget` positions
/// each, and hands each result to `each` as soon as it is known. The
/// searches share one table and the proof templates, so later ones reuse
/// what earlier ones proved: centre moves first, because their proofs are
/// the cheap ones, and where the opponent wins, its proof set often
/// leaves out an edge move, which is then settled at once. Each verdict is
/// for the side to move after that move.
pub fn solve_each(position: &Position, budget: u64, each: impl FnMut(Cell, Solution)) {
    struct SolveEach<'a, F>(&'a Position, u64, F);
    impl<F: FnMut(Cell, Solution)> ForWidth for SolveEach<'_, F> {
        type Output = ();
        fn run<B: Bits + 'static>(self) {
            let SolveEach(position, budget, mut each) = self;
            let n = position.size();
            let mut solver = Solver::<B>::new(n, 0);
            let root = Stones::<B>::from_position(position);
            let empty = root.empty_cells(solver.masks());
            let moves: Vec<usize> = solver.order().iter().map(|&i| i as usize).filter(|&i| empty.has(i)).collect();
            for i in moves {
                let mut child = root;
                child.play(i);
                each(Cell::from_index(i, n), solver.solve_root_within(&child, budget));
            }
        }
    }
    at_width(position.size(), SolveEach(position, budget, each))
}

/// A proof search that can be resumed: each [`Prover::run`] continues
/// where the last stopped (its table is kept), so it can share a thread
/// with other work in small slices.
pub struct Prover {
    search: Box<dyn Resumable>,
    verdict: Verdict,
    winner_stones: Option<u32>,
}

/// A solver with its root, whatever its cell-set width.
trait Resumable {
    fn resume(&mut self, nodes: u64) -> Solution;
    fn nodes(&self) -> u64;
    fn open_moves(&mut self) -> Option<Vec<Cell>>;
    fn reroot(&mut self, position: &Position);
    fn size(&self) -> u8;
}

struct Rooted<B: Bits> {
    solver: Solver<B>,
    root: Stones<B>,
}

impl<B: Bits> Resumable for Rooted<B> {
    fn resume(&mut self, nodes: u64) -> Solution {
        self.solver.resume(&self.root, nodes)
    }

    fn nodes(&self) -> u64 {
        self.solver.nodes()
    }

    fn open_moves(&mut self) -> Option<Vec<Cell>> {
        let n = self.solver.masks().size;
        let open = self.solver.open_moves(&self.root)?;
        Some(open.ones().map(|i| Cell::from_index(i, n)).collect())
    }

    fn reroot(&mut self, position: &Position) {
        self.root = Stones::from_position(position);
    }

    fn size(&self) -> u8 {
        self.solver.masks().size
    }
}

impl Prover {
    /// A proof search of `position` for the side to move.
    pub fn new(position: &Position) -> Prover {
        Prover::with_limits(position, ListLimits::default())
    }

    /// [`Prover::new`] with the H-search's rules and list lengths `limits`
    /// (to measure another setting's reach).
    pub fn with_limits(position: &Position, limits: ListLimits) -> Prover {
        struct Start<'a>(&'a Position, ListLimits);
        impl ForWidth for Start<'_> {
            type Output = Box<dyn Resumable>;
            fn run<B: Bits + 'static>(self) -> Box<dyn Resumable> {
                let Start(position, limits) = self;
                let solver = Solver::<B>::with_limits(position.size(), 0, limits);
                Box::new(Rooted { solver, root: Stones::from_position(position) })
            }
        }
        let search = at_width(position.size(), Start(position, limits));
        Prover { search, verdict: Verdict::Unknown, winner_stones: None }
    }

    /// Searches about `nodes` more positions, unless already decided, and
    /// returns the verdict so far.
    pub fn run(&mut self, nodes: u64) -> &Verdict {
        if self.verdict == Verdict::Unknown {
            let solution = self.search.resume(nodes);
            self.verdict = solution.verdict;
            self.winner_stones = solution.winner_stones;
        }
        &self.verdict
    }

    /// Once decided: the most stones the winner still needs (see
    /// [`Solution::winner_stones`]).
    pub fn winner_stones(&self) -> Option<u32> {
        self.winner_stones
    }

    /// Positions searched so far.
    pub fn nodes(&self) -> u64 {
        self.search.nodes()
    }

    /// While undecided: the moves of the side to move not yet proved to
    /// lose (at least one), among those the solver's reduction of the
    /// position leaves. `None` once decided.
    pub fn open_moves(&mut self) -> Option<Vec<Cell>> {
        if self.verdict != Verdict::Unknown {
            return None;
        }
        self.search.open_moves()
    }

    /// Turns the search to `position` (the same game some moves on),
    /// keeping what it proved and the numbers of the positions it saw:
    /// the positions below the new root were often searched already. False,
    /// with nothing changed, for another board size.
    pub fn reroot(&mut self, position: &Position) -> bool {
        if position.size() != self.search.size() {
            return false;
        }
        self.search.reroot(position);
        self.verdict = Verdict::Unknown;
        self.winner_stones = None;
        true
    }
}
