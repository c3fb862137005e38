//! Playing strengths, from a beginner's opponent to everything the search
//! has, and the choice of a move (or a swap) at a level.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use super::{Analysis, DEFAULT_PRIOR_WEIGHT, SearchConfig, Searcher};
use crate::engine::cell::Cell;
use crate::engine::game::{Game, Move};
use crate::engine::rng::Rng;

/// How strongly the engine plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Level {
    /// A few hundred playouts and a loose choice among the good moves.
    Beginner,
    /// A few thousand playouts, picks among the very best.
    Casual,
    /// Tens of thousands of playouts, always the best move found.
    Strong,
    /// The largest budget; with a time limit, all the time it is given.
    Max,
}

/// The weight of the learned patterns' priors at the easier levels.
pub const LEVEL_PRIOR_WEIGHT: f32 = 1.0;

/// Every level, weakest first.
pub const LEVELS: [Level; 4] = [Level::Beginner, Level::Casual, Level::Strong, Level::Max];

impl Level {
    /// Iterations per move at this level.
    pub fn iterations(self) -> u64 {
        match self {
            Level::Beginner => 300,
            Level::Casual => 3_000,
            Level::Strong => 30_000,
            Level::Max => 200_000,
        }
    }

    /// The search settings of this level: the learned patterns' priors
    /// guide the small budgets of the easier levels, where they were
    /// measured to help (docs/benchmarks.md), and stay off above.
    pub fn search_config(self, seed: u64) -> SearchConfig {
        let prior_weight = match self {
            Level::Beginner | Level::Casual => LEVEL_PRIOR_WEIGHT,
            Level::Strong | Level::Max => DEFAULT_PRIOR_WEIGHT,
        };
        SearchConfig { seed, prior_weight, ..SearchConfig::default() }
    }

    /// How sharply the move is picked by visit count: higher is greedier,
    /// `None` takes the most visited move.
    fn sharpness(self) -> Option<f64> {
        match self {
            Level::Beginner => Some(1.0),
            Level::Casual => Some(3.0),
            Level::Strong | Level::Max => None,
        }
    }

    /// The name used in settings and on the command line.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Casual => "casual",
            Level::Strong => "strong",
            Level::Max => "max",
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A level name that is not one of ours.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLevel(pub String);

impl fmt::Display for UnknownLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not a level: choose beginner, casual, strong or max", self.0)
    }
}

impl std::error::Error for UnknownLevel {}

impl FromStr for Level {
    type Err = UnknownLevel;
    fn from_str(s: &str) -> Result<Level, UnknownLevel> {
        LEVELS
            .into_iter()
            .find(|l| l.as_str().eq_ignore_ascii_case(s.trim()))
            .ok_or_else(|| UnknownLevel(s.to_string()))
    }
}

/// Whether Blue should take Red's first stone at `first` under the swap
/// rule: stones away from the edges are too strong to leave to Red, while
/// first- and second-row openings (other than the obtuse corner's
/// neighbourhood) are weak enough to keep the move instead.
pub fn should_swap(first: Cell, size: u8) -> bool {
    if size <= 4 {
        return true;
    }
    let last = size - 1;
    let depth = first.q.min(first.r).min(last - first.q).min(last - first.r);
    // The obtuse corners (three neighbours each) are top-right and
    // bottom-left; a stone at or next to one is strong.
    let near_obtuse = |c: Cell| (last - c.q) + c.r <= 1 || c.q + (last - c.r) <= 1;
    depth >= 2 || near_obtuse(first)
}

/// Whether the engine, as Blue on move 2, takes Red's first stone.
pub fn wants_swap(game: &Game) -> bool {
    game.can_swap() && matches!(game.moves().first(), Some(Move::Place(first)) if should_swap(*first, game.size()))
}

/// The move the engine plays in `game` at `level`; `None` once the game is
/// over. `seed` varies the choice between games.
pub fn choose_move(game: &Game, level: Level, seed: u64) -> Option<Move> {
    choose_move_with(game, level, seed, level.iterations())
}

/// [`choose_move`] with an explicit iteration budget.
pub fn choose_move_with(game: &Game, level: Level, seed: u64, iterations: u64) -> Option<Move> {
    if game.winner().is_some() {
        return None;
    }
    if wants_swap(game) {
        return Some(Move::Swap);
    }
    let mut searcher = Searcher::new(game.position(), level.search_config(seed)).ok()?;
    searcher.run(iterations);
    pick(&searcher.analysis(8), level, seed).map(Move::Place)
}

/// The cell a `level` player picks from a finished search's `analysis`:
/// the best move, or at the easier levels one of the good ones at random
/// (never past a proved win or into a proved loss).
pub fn pick(analysis: &Analysis, level: Level, seed: u64) -> Option<Cell> {
    let best = analysis.moves.first()?;
    let chosen = match level.sharpness() {
        Some(power) if best.proven.is_none() => {
            let mut rng = Rng::new(seed ^ 0x9e37_79b9);
            let weights: Vec<f64> = analysis
                .moves
                .iter()
                .map(|m| if m.proven.is_some() { 0.0 } else { (m.visits as f64 + 1.0).powf(power) })
                .collect();
            let total: f64 = weights.iter().sum();
            let mut x = rng.unit() * total;
            let mut chosen = best;
            for (m, w) in analysis.moves.iter().zip(weights) {
                if x < w {
                    chosen = m;
                    break;
                }
                x -= w;
            }
            chosen
        }
        _ => best,
    };
    Some(chosen.cell)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn levels_parse_and_print() {
        for l in LEVELS {
            assert_eq!(l.as_str().parse::<Level>(), Ok(l));
        }
        assert_eq!("MAX".parse::<Level>(), Ok(Level::Max));
        assert!("grandmaster".parse::<Level>().is_err());
    }

    #[test]
    fn central_openings_are_swapped_edge_ones_kept() {
        let c = |s: &str| Cell::parse(s, 11).unwrap();
        assert!(should_swap(c("f6"), 11));
        assert!(should_swap(c("a11"), 11) && should_swap(c("b11"), 11) && should_swap(c("k1"), 11));
        assert!(!should_swap(c("a1"), 11));
        assert!(!should_swap(c("a6"), 11));
        assert!(!should_swap(c("f1"), 11));
        assert!(!should_swap(c("b6"), 11));
    }

    #[test]
    fn the_engine_swaps_a_centre_opening_and_answers_otherwise() {
        let mut g = Game::new(9, true).unwrap();
        g.play(Move::Place(Cell::new(4, 4))).unwrap();
        assert_eq!(choose_move(&g, Level::Beginner, 1), Some(Move::Swap));
        let mut g = Game::new(9, true).unwrap();
        g.play(Move::Place(Cell::new(0, 4))).unwrap();
        assert!(matches!(choose_move(&g, Level::Beginner, 1), Some(Move::Place(_))));
    }
}
