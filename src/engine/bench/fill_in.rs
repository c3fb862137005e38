//! What the solver fills in before it searches a position, as cells: to
//! set beside another engine's fill-in (`scripts/gtp_fillin.py`).

use crate::engine::Position;
use crate::engine::bits::{Bits, ForWidth, Masks, at_width};
use crate::engine::cell::Cell;
use crate::engine::dead_cells::DeadCells;
use crate::engine::stones::Stones;

/// The solver's fill-in of one position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FillIn {
    /// Empty cells filled with Red's stones (captured pairs).
    pub red: Vec<Cell>,
    /// Empty cells filled with Blue's stones.
    pub blue: Vec<Cell>,
    /// Empty cells left whose colour matters to neither side.
    pub dead: Vec<Cell>,
}

/// The captured pairs and dead cells of `position`, found as the solver
/// and the tree's fast checks find them.
pub fn fill_in(position: &Position) -> FillIn {
    at_width(position.size(), Fill(position))
}

struct Fill<'a>(&'a Position);

impl ForWidth for Fill<'_> {
    type Output = FillIn;

    fn run<B: Bits + 'static>(self) -> FillIn {
        let n = self.0.size();
        let masks = Masks::<B>::new(n);
        let dead = DeadCells::new(n);
        let before: Stones<B> = Stones::from_position(self.0);
        let mut after = before;
        dead.fill_captured(&mut after, &masks);
        let cells = |x: B| x.ones().map(|i| Cell::from_index(i, n)).collect();
        FillIn {
            red: cells(after.red & !before.red),
            blue: cells(after.blue & !before.blue),
            dead: cells(dead.find(&after, &masks)),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Record;

    fn names(cells: &[Cell]) -> Vec<String> {
        cells.iter().map(Cell::to_string).collect()
    }

    #[test]
    fn the_cells_are_those_the_solver_fills() {
        // Blue's e1 captures c1–d1; then Red's b3 and a3–a4 own a1–b1 and
        // a2–b2 (the dead-cell tests' example).
        let game = Record::from_text("5x5 b3 e1", 5).unwrap().to_game(false).unwrap();
        let f = fill_in(game.position());
        assert_eq!(names(&f.red), ["a1", "b1", "a2", "b2", "a3", "a4"]);
        assert_eq!(names(&f.blue), ["c1", "d1"]);
        assert!(f.dead.is_empty());
        // A cell walled in by one colour is dead, not filled.
        let game = Record::from_text("5x5 b3 a1 c2 a2 d2 a3 d3", 5).unwrap().to_game(false).unwrap();
        assert!(names(&fill_in(game.position()).dead).contains(&"c3".to_string()));
        // The empty board has nothing to fill.
        assert_eq!(fill_in(&Position::new(11).unwrap()), FillIn::default());
    }
}
