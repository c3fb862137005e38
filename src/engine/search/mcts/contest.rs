//! Where the fight is, for the priors: the cells on the shortest paths
//! between each side's edges (own stones free, empty cells one each). A
//! shape sees two cells around a move and nearness sees the last stone;
//! neither sees which cells lie between a side's groups and its edges,
//! where a stone shortens one side's way or lengthens the other's.

use super::Edge;
use crate::engine::bits::{Bits, Masks};
use crate::engine::paths;
use crate::engine::stones::Stones;

/// How much more a move's prior weighs on both sides' shortest paths, and
/// on one side's only, than off them.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PathFactors {
    pub both: f32,
    pub one: f32,
}

/// Multiplies the priors of `edges` (the moves at `stones`) by their
/// cells' factors and makes them shares again.
pub(super) fn weigh_paths<B: Bits>(masks: &Masks<B>, factors: PathFactors, stones: &Stones<B>, edges: &mut [Edge]) {
    let on_path = |colour| paths::shortest(masks, stones, colour).map_or(B::zero(), |(_, cells)| cells);
    let (own, theirs) = (on_path(stones.to_move), on_path(stones.to_move.opponent()));
    let mut total = 0.0;
    for edge in edges.iter_mut() {
        let cell = edge.cell as usize;
        edge.prior *= match (own.has(cell), theirs.has(cell)) {
            (true, true) => factors.both,
            (false, false) => 1.0,
            _ => factors.one,
        };
        total += edge.prior;
    }
    if total > 0.0 {
        for edge in edges.iter_mut() {
            edge.prior /= total;
        }
    }
}
