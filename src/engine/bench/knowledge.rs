//! How much the tree's fast checks see in the positions of real games:
//! how many they decide, how many moves they leave in the others, and
//! what a check costs, for a given length of H-search's lists.

use std::time::{Duration, Instant};

use crate::engine::Position;
use crate::engine::bits::{Bits, ForWidth, at_width};
use crate::engine::connections::ListLimits;
use crate::engine::solver::{Knowledge, Known};
use crate::engine::stones::Stones;

/// What the fast checks made of a set of positions.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct KnowledgeReach {
    /// Positions checked.
    pub positions: u64,
    /// Decided for the side to move.
    pub won: u64,
    /// Decided against it.
    pub lost: u64,
    /// Empty cells of the open positions, together.
    pub open_empty: u64,
    /// Moves the checks kept in the open positions, together.
    pub open_kept: u64,
    /// Time of all the checks.
    pub elapsed: Duration,
}

impl KnowledgeReach {
    /// Share of the positions decided either way.
    pub fn decided_share(&self) -> f64 {
        (self.won + self.lost) as f64 / (self.positions.max(1)) as f64
    }

    /// Share of the open positions' empty cells left as moves.
    pub fn kept_share(&self) -> f64 {
        self.open_kept as f64 / (self.open_empty.max(1)) as f64
    }

    /// Microseconds a check.
    pub fn micros_each(&self) -> f64 {
        self.elapsed.as_secs_f64() * 1e6 / (self.positions.max(1)) as f64
    }
}

/// Runs the fast checks, with lists up to `limits`, on each of
/// `positions` (all of one board size, none of them over).
pub fn knowledge_reach(positions: &[Position], limits: ListLimits) -> KnowledgeReach {
    let Some(size) = positions.first().map(Position::size) else { return KnowledgeReach::default() };
    at_width(size, Reach { positions, limits, size })
}

/// What the fast checks made of one position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Won for the side to move.
    Won,
    /// Lost for the side to move.
    Lost,
    /// Undecided, with this many moves left to search.
    Open { kept: u32 },
}

/// The fast checks' verdict on each of `positions` (all of one board
/// size, none of them over), with lists up to `limits`.
pub fn verdicts(positions: &[Position], limits: ListLimits) -> Vec<Verdict> {
    let Some(size) = positions.first().map(Position::size) else { return Vec::new() };
    at_width(size, Each { positions, limits, size })
}

struct Each<'a> {
    positions: &'a [Position],
    limits: ListLimits,
    size: u8,
}

impl ForWidth for Each<'_> {
    type Output = Vec<Verdict>;

    fn run<B: Bits + 'static>(self) -> Vec<Verdict> {
        let mut knowledge: Knowledge<B> = Knowledge::new(self.size, self.limits);
        let verdict = |position: &Position| match knowledge.of(&Stones::from_position(position)) {
            Known::Won { .. } => Verdict::Won,
            Known::Lost { .. } => Verdict::Lost,
            Known::Open { moves } => Verdict::Open { kept: moves.count() },
        };
        self.positions.iter().map(verdict).collect()
    }
}

struct Reach<'a> {
    positions: &'a [Position],
    limits: ListLimits,
    size: u8,
}

impl ForWidth for Reach<'_> {
    type Output = KnowledgeReach;

    fn run<B: Bits + 'static>(self) -> KnowledgeReach {
        let mut knowledge: Knowledge<B> = Knowledge::new(self.size, self.limits);
        let mut reach = KnowledgeReach::default();
        let start = Instant::now();
        for position in self.positions.iter().filter(|p| p.size() == self.size) {
            let stones: Stones<B> = Stones::from_position(position);
            reach.positions += 1;
            match knowledge.of(&stones) {
                Known::Won { .. } => reach.won += 1,
                Known::Lost { .. } => reach.lost += 1,
                Known::Open { moves } => {
                    reach.open_kept += u64::from(moves.count());
                    reach.open_empty += position.empty_cells().count() as u64;
                }
            }
        }
        reach.elapsed = start.elapsed();
        reach
    }
}
