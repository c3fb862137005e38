//! Nearness to the move just played, the second thing a move's prior
//! reads besides its shape: good players mostly answer where the opponent
//! has just played (docs/benchmarks.md gives the shares), which a shape
//! alone cannot see, since it does not know which stone came last.

use crate::engine::cell::Cell;

/// The distance classes: adjacent, two cells away, three, and further
/// (or no move played yet).
pub const CLASSES: usize = 4;

/// The class of `cell`'s distance to `last` (indices on an `n`×`n` board).
pub fn class(cell: usize, last: Option<usize>, n: u8) -> u8 {
    let Some(last) = last else { return (CLASSES - 1) as u8 };
    let distance = Cell::from_index(cell, n).distance(Cell::from_index(last, n));
    (distance.clamp(1, CLASSES as u32) - 1) as u8
}

/// How much a move's weight is multiplied by, by its distance class; the
/// furthest class is the unit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Proximity {
    pub factors: [f32; CLASSES],
}

impl Proximity {
    /// The factor of a cell in distance class `class`.
    #[inline]
    pub fn factor(&self, class: u8) -> f32 {
        self.factors[class as usize]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(name: &str) -> usize {
        Cell::parse(name, 9).unwrap().index(9)
    }

    #[test]
    fn the_six_neighbours_are_adjacent_and_the_bridge_points_two_away() {
        let last = Some(at("e5"));
        for neighbour in ["d5", "f5", "e4", "e6", "f4", "d6"] {
            assert_eq!(class(at(neighbour), last, 9), 0, "{neighbour}");
        }
        for bridge in ["d4", "f6", "f3", "g4", "d7", "c6"] {
            assert_eq!(class(at(bridge), last, 9), 1, "{bridge}");
        }
        assert_eq!(class(at("e2"), last, 9), 2);
        assert_eq!(class(at("a1"), last, 9), 3);
        assert_eq!(class(at("a1"), None, 9), 3);
    }
}
