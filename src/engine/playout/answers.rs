//! Answers to a stone that breaks a connection, in the playouts.
//!
//! A playout saves a bridge by pattern, but a longer connection (an edge
//! template of the third or fourth row, a chain through one) it breaks as
//! often as not: a uniform draw answers an intrusion there only by chance,
//! so a group that a player knows is joined to its edge reads as half
//! joined. Where the tree's fast checks have run on a node, they found the
//! opponent's connections and, for each cell that breaks one, the cells
//! that restore it. The playouts below that node answer with those, as
//! MoHex's tree answers them (its "VC maintenance"), while the cells are
//! still empty.

use super::Rng;
use crate::engine::color::{ByColor, Color};

/// No cell.
pub const NO_CELL: u16 = u16::MAX;

/// A cell that breaks a connection and up to two cells that restore it
/// ([`NO_CELL`] where there is no second).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Answer {
    pub probe: u16,
    pub replies: [u16; 2],
}

/// The answers of one side at one node, one entry per breaking cell.
pub type AnswerTable = Box<[Answer]>;

/// The answers in force in one playout, by side and cell, kept dense so a
/// move looks its answer up at once.
#[derive(Clone, Debug)]
pub(super) struct Answering {
    by_cell: ByColor<Vec<[u16; 2]>>,
    /// The cells set for this playout, to clear after it.
    set: ByColor<Vec<u16>>,
}

impl Answering {
    pub fn new(cells: usize) -> Answering {
        Answering { by_cell: ByColor::new_with(|_| vec![[NO_CELL; 2]; cells]), set: ByColor::default() }
    }

    /// Puts `tables` (each side's answers, empty for none) in force.
    pub fn load(&mut self, tables: ByColor<&[Answer]>) {
        for colour in [Color::Red, Color::Blue] {
            for a in tables[colour] {
                self.by_cell[colour][a.probe as usize] = a.replies;
                self.set[colour].push(a.probe);
            }
        }
    }

    /// Takes the answers loaded by [`Answering::load`] out of force.
    pub fn clear(&mut self) {
        for colour in [Color::Red, Color::Blue] {
            for probe in self.set[colour].drain(..) {
                self.by_cell[colour][probe as usize] = [NO_CELL; 2];
            }
        }
    }

    /// `colour`'s answer to a stone on `probe`: one of its still empty
    /// replies (either, at random, when both are).
    #[inline]
    pub fn answer(&self, colour: Color, probe: usize, empty: impl Fn(usize) -> bool, rng: &mut Rng) -> Option<usize> {
        let [a, b] = self.by_cell[colour][probe];
        if a == NO_CELL {
            return None;
        }
        let open = |c: u16| c != NO_CELL && empty(c as usize);
        match (open(a), open(b)) {
            (true, true) => Some(if rng.below(2) == 0 { a } else { b } as usize),
            (true, false) => Some(a as usize),
            (false, true) => Some(b as usize),
            (false, false) => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loaded_answers_are_given_while_empty_and_cleared_after() {
        let mut answering = Answering::new(25);
        let red = [Answer { probe: 7, replies: [8, NO_CELL] }, Answer { probe: 3, replies: [4, 9] }];
        answering.load(ByColor { red: &red[..], blue: &[] });
        let mut rng = Rng::new(1);
        let all_empty = |_: usize| true;
        assert_eq!(answering.answer(Color::Red, 7, all_empty, &mut rng), Some(8));
        // Blue has no answers, and Red none to a stone elsewhere.
        assert_eq!(answering.answer(Color::Blue, 7, all_empty, &mut rng), None);
        assert_eq!(answering.answer(Color::Red, 6, all_empty, &mut rng), None);
        // A taken reply is not given; of two empty ones, each comes up.
        assert_eq!(answering.answer(Color::Red, 7, |c| c != 8, &mut rng), None);
        assert_eq!(answering.answer(Color::Red, 3, |c| c != 4, &mut rng), Some(9));
        let picks: Vec<_> = (0..40).filter_map(|_| answering.answer(Color::Red, 3, all_empty, &mut rng)).collect();
        assert!(picks.contains(&4) && picks.contains(&9), "{picks:?}");
        answering.clear();
        assert_eq!(answering.answer(Color::Red, 7, all_empty, &mut rng), None);
        assert_eq!(answering.answer(Color::Red, 3, all_empty, &mut rng), None);
    }
}
