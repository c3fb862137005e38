//! A set of cells drawn at random in proportion to a weight per side: the
//! playouts' softmax choice (MoHex 2.0's playout policy draws this way).
//!
//! Weights change a few cells at a time (the played cell and its
//! neighbours), so the set keeps one sum per board row beside the total: a
//! draw walks the rows, then the cells of one row, instead of every cell,
//! and a change updates one row's sum. Weights are integers, so the sums
//! never drift however many changes a playout makes.

use super::color::Color;
use super::rng::Rng;

/// Cells with a weight for each side (zero: not in the set).
#[derive(Clone, Debug)]
pub struct WeightedCells {
    row_len: usize,
    /// Per side (`Color as usize`), per cell.
    weight: [Vec<u32>; 2],
    /// Per side, per row: the sum of the row's weights.
    rows: [Vec<u32>; 2],
    total: [u32; 2],
}

/// The largest weight a cell may have: sums over 19×19 cells must fit.
pub const MAX_WEIGHT: u32 = u32::MAX / 512;

impl WeightedCells {
    /// An empty set over `cells` cells in rows of `row_len`.
    pub fn new(cells: usize, row_len: usize) -> WeightedCells {
        let rows = cells.div_ceil(row_len.max(1));
        WeightedCells {
            row_len: row_len.max(1),
            weight: [vec![0; cells], vec![0; cells]],
            rows: [vec![0; rows], vec![0; rows]],
            total: [0; 2],
        }
    }

    /// Takes every cell out of the set.
    pub fn clear(&mut self) {
        for side in 0..2 {
            self.weight[side].fill(0);
            self.rows[side].fill(0);
            self.total[side] = 0;
        }
    }

    /// Sets `cell`'s weights, Red's then Blue's (zero takes it out for that
    /// side).
    #[inline]
    pub fn set(&mut self, cell: usize, weights: [u32; 2]) {
        let row = cell / self.row_len;
        for (side, &w) in weights.iter().enumerate() {
            let w = w.min(MAX_WEIGHT);
            let old = self.weight[side][cell];
            self.weight[side][cell] = w;
            self.rows[side][row] = self.rows[side][row] - old + w;
            self.total[side] = self.total[side] - old + w;
        }
    }

    /// A cell drawn for `mover` with probability its weight over the
    /// mover's total, or `None` when the mover has no weight anywhere.
    #[inline]
    pub fn draw(&self, mover: Color, rng: &mut Rng) -> Option<usize> {
        let side = mover as usize & 1;
        let total = self.total[side];
        if total == 0 {
            return None;
        }
        let mut x = (((rng.next_u64() >> 32) * u64::from(total)) >> 32) as u32;
        let weights = &self.weight[side];
        for (row, &sum) in self.rows[side].iter().enumerate() {
            if x >= sum {
                x -= sum;
                continue;
            }
            let start = row * self.row_len;
            for (cell, &w) in weights[start..].iter().enumerate().take(self.row_len) {
                if x < w {
                    return Some(start + cell);
                }
                x -= w;
            }
        }
        // Unreachable while the sums hold; the last cell with weight is a
        // safe answer if they ever did not.
        weights.iter().rposition(|&w| w > 0)
    }

    /// `mover`'s weight of `cell`.
    #[cfg(test)]
    pub fn weight(&self, mover: Color, cell: usize) -> u32 {
        self.weight[mover as usize & 1][cell]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest};

    #[test]
    fn cells_are_drawn_in_proportion_to_the_movers_weights() {
        // Three cells in rows of two: Red weighs them 1, 3, 0; Blue 0, 0, 5.
        let mut set = WeightedCells::new(3, 2);
        set.set(0, [1, 0]);
        set.set(1, [3, 0]);
        set.set(2, [0, 5]);
        let mut rng = Rng::new(11);
        let mut counts = [0u32; 3];
        for _ in 0..40_000 {
            counts[set.draw(Color::Red, &mut rng).unwrap()] += 1;
        }
        assert_eq!(counts[2], 0);
        let share = f64::from(counts[1]) / 40_000.0;
        assert!((0.73..0.77).contains(&share), "{counts:?}");
        for _ in 0..100 {
            assert_eq!(set.draw(Color::Blue, &mut rng), Some(2));
        }
        // Taken out for both, the set is empty for Blue.
        set.set(2, [0, 0]);
        assert_eq!(set.draw(Color::Blue, &mut rng), None);
        set.clear();
        assert_eq!(set.draw(Color::Red, &mut rng), None);
    }

    proptest! {
        #[test]
        fn the_sums_follow_any_sequence_of_changes(
            changes in proptest::collection::vec((0usize..30, 0u32..1000, 0u32..1000), 1..200),
            seed in any::<u64>(),
        ) {
            let mut set = WeightedCells::new(30, 7);
            for &(cell, red, blue) in &changes {
                set.set(cell, [red, blue]);
            }
            for side in 0..2 {
                let sum: u32 = set.weight[side].iter().sum();
                prop_assert_eq!(set.total[side], sum);
                for (row, &s) in set.rows[side].iter().enumerate() {
                    let cells = &set.weight[side][row * 7..((row + 1) * 7).min(30)];
                    prop_assert_eq!(s, cells.iter().sum::<u32>());
                }
            }
            // A draw only ever names a cell with weight.
            let mut rng = Rng::new(seed);
            for mover in [Color::Red, Color::Blue] {
                for _ in 0..20 {
                    match set.draw(mover, &mut rng) {
                        Some(c) => prop_assert!(set.weight(mover, c) > 0),
                        None => prop_assert_eq!(set.total[mover as usize & 1], 0),
                    }
                }
            }
        }
    }
}
